package runner

import (
	"sort"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/suites"
)

// Coverage walks the spec tree without sending a request and returns, for
// each rule ID, the texts of the specs that check it, plus registration
// bugs (unknown rule IDs and the like).
func Coverage() (map[string][]string, []string) {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "preview"})
	if err != nil {
		return nil, []string{err.Error()}
	}
	t := framework.New(c, framework.Options{})
	framework.Install(t)
	suites.Register(t)
	rep := ginkgo.PreviewSpecs("Content Management API conformance")
	out := map[string][]string{}
	for _, sr := range rep.SpecReports {
		for _, l := range sr.Labels() {
			if id, ok := strings.CutPrefix(l, "rule:"); ok {
				out[id] = append(out[id], sr.FullText())
			}
		}
	}
	for id := range out {
		sort.Strings(out[id])
	}
	return out, t.Bugs()
}
