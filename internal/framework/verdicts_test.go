package framework_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/report"
)

// TestOutcomesAsData runs specs that are not checked, fail a matcher and
// fail a plain Gomega assertion against the reference server, and checks
// what reaches the report as data: the typed reason, the Case, the facts of
// the failed matcher and the exchanges of failing specs.
func TestOutcomesAsData(t *testing.T) {
	gomega.RegisterFailHandler(ginkgo.Fail)
	target := frameworktest.Fixture(t)
	framework.Install(target)
	missing := func(ctx ginkgo.SpecContext) *client.Exchange {
		return target.Read(ctx, client.KeyPath("pages", target.Marker("no-such-page")), nil)
	}
	ginkgo.Describe("outcomes", func() {
		target.It("PAGE-GET-OK", func(ginkgo.SpecContext) {
			framework.NotChecked("the target has no %s page", "draft")
		}, framework.Case("not checked"))
		target.It("PAGE-GET-404", func(ctx ginkgo.SpecContext) {
			gomega.Expect(missing(ctx)).To(framework.HaveHTTPStatus(http.StatusOK))
		}, framework.Case("matcher"))
		target.It("TAG-GET-404", func(ctx ginkgo.SpecContext) {
			ex := missing(ctx)
			gomega.Expect(ex.Status).To(gomega.Equal(http.StatusOK))
		})
		target.It("PAGE-OBJECT-SHAPE", func(ctx ginkgo.SpecContext) {
			gomega.Expect(missing(ctx)).To(framework.MatchSchema("page-response.json"))
		})
		target.It("USER-LIST-SHAPE", func(ginkgo.SpecContext) {
			gomega.Expect([]string{"a is wrong", "b is wrong"}).To(gomega.BeEmpty(), "nothing is wrong")
		})
	})
	sc, rc := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	rc.Succinct, rc.NoColor = true, true
	ginkgo.RunSpecs(ignoreFailures{}, "outcomes as data", sc, rc)

	run := report.Build(target.Report(), target.Catalogue, report.Meta{}, report.Extras{})
	specs := map[string]report.SpecResult{}
	for _, s := range run.Specs {
		specs[s.Rules[0]] = s
	}
	if s := specs["PAGE-GET-OK"]; s.Status != report.NotChecked || s.Message != "the target has no draft page" || s.Case != "not checked" {
		t.Errorf("not checked: %+v", s)
	}
	m := specs["PAGE-GET-404"]
	if m.Status != report.Failed || m.Case != "matcher" || len(m.Facts) != 1 || len(m.Exchanges) != 1 {
		t.Fatalf("matcher failure: %+v", m)
	}
	if f := m.Facts[0]; f.Status != http.StatusNotFound || f.Expected != "HTTP 200" || f.Got != "HTTP 404" || f.Seq != m.Exchanges[0].Seq {
		t.Errorf("fact %+v", f)
	}
	if ex := m.Exchanges[0]; ex.Method != http.MethodGet || ex.Status != http.StatusNotFound || ex.Body == "" || ex.Cut {
		t.Errorf("exchange %+v", ex)
	}
	// A plain Gomega failure is recorded in words, about no response (the
	// diagnosis then reads the spec's last one).
	g := specs["TAG-GET-404"]
	if g.Status != report.Failed || len(g.Facts) != 1 || len(g.Exchanges) != 1 || g.Case != "" {
		t.Fatalf("plain Gomega failure: %+v", g)
	}
	if f := g.Facts[0]; f.Expected != "it to equal 200" || f.Got != "404" || f.Seq != 0 || f.Status != 0 ||
		f.Rendered == "" || !strings.Contains(g.Message, f.Rendered) {
		t.Errorf("plain Gomega fact %+v", f)
	}
	if f := specs["USER-LIST-SHAPE"].Facts; len(f) != 1 || f[0].Expected != "it to be empty" ||
		f[0].Got != "2 items:\n  - a is wrong\n  - b is wrong" || strings.Contains(f[0].Got, "[]string") {
		t.Errorf("plain Gomega fact of a list %+v", f)
	}
	// A schema failure names each offending path as data.
	if f := specs["PAGE-OBJECT-SHAPE"].Facts; len(f) != 1 || len(f[0].Fields) == 0 {
		t.Errorf("schema fact %+v", f)
	} else {
		for _, p := range f[0].Fields {
			if !strings.Contains(f[0].Got, p+": ") {
				t.Errorf("schema fact names %q, which its failure does not: %+v", p, f[0])
			}
		}
	}
	for _, s := range run.Specs {
		for _, ex := range s.Exchanges {
			if strings.Contains(ex.Query, target.Client.Token()) {
				t.Errorf("a recorded query shows the token: %q", ex.Query)
			}
		}
	}
}

// ignoreFailures is the GinkgoTestingT of a run whose specs fail on
// purpose; the test judges their report.
type ignoreFailures struct{}

func (ignoreFailures) Fail() {}
