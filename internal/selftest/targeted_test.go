package selftest_test

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestTargetedListingsOnABigSite: on a site whose listings are longer
// than the first page the run reads after its writes (300 pages), the
// listings read after the run's writes are read in part where a part
// decides (the first page, the last pages), whole only where a page must
// be shown absent, and the listing of every page is read whole once after
// the first write, at the run's end, for its judges and its sweep alike.
// They still catch a listing that keeps a deleted page (also at the run's
// end) and one that keeps a page under the type it had before an edit; a
// conforming site passes both rules, every case checked.
func TestTargetedListingsOnABigSite(t *testing.T) {
	if testing.Short() {
		t.Skip("CLI runs")
	}
	rules := []string{"PAGE-LIST-TYPE-FILTERS", "PAGE-DELETE-GONE"}
	for _, c := range []struct {
		mutant reference.Mutant
		fails  []string // the rules that must fail
		spec   string   // a spec that must fail, by a part of its name
	}{
		{"", nil, ""},
		{reference.ListKeepsDeletedPage, rules, "the listing of every page at the run's end does not list the deleted page"},
		{reference.ListTypesAsFirstListed, rules[:1], "the run's pages, after their writes: a page published by an edit"},
	} {
		name := string(c.mutant)
		if name == "" {
			name = "conforming"
		}
		if testkit.RaceEnabled && c.mutant != "" {
			continue // a data race shows on the conforming site; go test ./... judges the catches
		}
		t.Run(name, func(t *testing.T) {
			run, wholeAfterWrites := runTargeted(t, c.mutant, rules)
			for _, r := range run.Rules {
				switch {
				case !slices.Contains(rules, r.ID):
				case slices.Contains(c.fails, r.ID):
					if r.Status != report.Failed {
						t.Errorf("%s: %s, want failed", r.ID, r.Status)
					}
				case r.Status != report.Passed || r.Partial != nil:
					t.Errorf("%s: %s (%s), want passed, every case checked", r.ID, r.StatusText(), r.Reason)
				}
			}
			if c.spec != "" && !failedSpec(run, c.spec) {
				t.Errorf("no failed spec named %q", c.spec)
			}
			if c.mutant == "" && wholeAfterWrites["every type"] != 1 {
				t.Errorf("after the first write the listing of every type was read whole %d times, want once (the run's end)",
					wholeAfterWrites["every type"])
			}
			if c.mutant == "" && wholeAfterWrites["published"] > 1 {
				t.Errorf("after the first write the listing of published pages was read whole %d times, want at most once "+
					"(where an edit took a page out of it)", wholeAfterWrites["published"])
			}
		})
	}
}

// runTargeted runs the CLI, filtered to rules, against a reference server
// of 300 generated pages with mutant, and counts the listings read whole
// after the first write, by their type filters.
func runTargeted(t *testing.T, mutant reference.Mutant, rules []string) (*report.Run, map[string]int) {
	var mu sync.Mutex
	wrote := false
	whole := map[string]int{}
	opts := reference.Options{Seed: reference.GeneratedSite(300)}
	if mutant != "" {
		opts.Mutants = []reference.Mutant{mutant}
	}
	ref := testkit.ReferenceWith(t, opts, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			q := r.URL.Query()
			switch {
			case r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodDelete:
				wrote = true
			case wrote && r.URL.Path == "/api/pages" && q.Get("numberOfItems") == "-1":
				types := "every type"
				if q.Get("draft") != "true" {
					types = "published"
					for _, ty := range []string{"static", "sticky", "scheduled"} {
						if q.Get(ty) == "true" {
							types = ty
						}
					}
				}
				whole[types]++
			}
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	})
	path := filepath.Join(t.TempDir(), "report.json")
	res := selftest.Run(context.Background(), selftest.Cmd{
		Args: []string{"--base-url", ref.URL, "--label-filter", "rule:" + strings.Join(rules, " || rule:"), "--no-color", "--json-report", path},
		Env:  []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken},
	})
	run, err := report.ReadJSONFile(path)
	if err != nil {
		t.Fatalf("exit %d, no report: %v\n%s", res.Exit, err, selftest.Tail(res.Stdout, 40))
	}
	mu.Lock()
	defer mu.Unlock()
	return run, whole
}

// failedSpec reports whether a spec whose name holds part failed.
func failedSpec(run *report.Run, part string) bool {
	for _, s := range run.Specs {
		if strings.Contains(s.Name, part) && s.Status == report.Failed {
			return true
		}
	}
	return false
}
