package explore

import (
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestSiteModelJudgesTheExploration: a page list that keeps a deleted page
// shows it in a later case's answer; no case of its own shows it, the site
// model over the exploration's answers does.
func TestSiteModelJudgesTheExploration(t *testing.T) {
	srv := testkit.ReferenceWith(t, reference.Options{Mutants: []reference.Mutant{reference.ListKeepsDeletedPage}}, nil)
	res, out := exploreRef(t, srv, Config{Seed: 1, Requests: 600, ReplayDir: t.TempDir(),
		Kinds: []gen.Kind{gen.KindCreate, gen.KindList}})
	for _, r := range res.Records {
		if r.Kind == kindSiteModel && r.Finding.Rule == "PAGE-DELETE-GONE" {
			if !strings.Contains(out, "found by the site model") {
				t.Errorf("the summary does not say the site model found it:\n%s", out)
			}
			return
		}
	}
	t.Fatalf("the site model found no deleted page listed (exit %d):\n%s", res.Exit, out)
}
