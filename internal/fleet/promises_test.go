package fleet_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/fleet/summary"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestEachSiteKeepsItsPromises: sites checked side by side with writes
// each keep every promise of a single run. On each site's wire a write is
// alone; each site is left as it was found; a site that loses data
// mid-run trips its own tripwire (exit 3, its writes stopped) while the
// others, checked at the same time, pass.
func TestEachSiteKeepsItsPromises(t *testing.T) {
	t.Parallel()
	type watched struct {
		ref    testkit.Server
		watch  *testkit.WireWatch
		before reference.Storage
	}
	var sites []fleetSite
	var refs []watched
	for _, name := range []string{"north", "lossy", "south"} {
		opts := reference.Options{}
		if name == "lossy" {
			opts.Mutants = []reference.Mutant{reference.ForeignWriter} // another editor deletes a page mid-run
		}
		w := testkit.NewWireWatch()
		ref := testkit.ReferenceWith(t, opts, func(h http.Handler) http.Handler { return w.Wrap(h) })
		refs = append(refs, watched{ref, w, ref.Storage()})
		sites = append(sites, fleetSite{name: name, url: ref.URL, token: ref.Token, auth: ref.AuthToken, mode: "writes+settings"})
	}
	dir := t.TempDir()
	targets := writeTargets(t, dir, sites)
	res := conformance(t, dir, 3, nil, "fleet", "--targets", targets, "--report-dir", "reports", "--sites-at-once", "3", "--no-color")
	_, byName := readSummary(t, filepath.Join(dir, "reports", summary.JSONFile))
	for i, w := range refs {
		name := sites[i].name
		seen := w.watch.Seen()
		if seen.Writes == 0 {
			t.Errorf("%s: no write reached the site: not a write run", name)
		}
		if len(seen.Overlaps) > 0 {
			t.Errorf("%s: %d requests overlapped a write, first: %s", name, len(seen.Overlaps), seen.Overlaps[0])
		}
		s := byName[name]
		if name == "lossy" {
			if s.Outcome != summary.CannotBeChecked || !strings.Contains(s.Verdict, "The site lost data during the run") {
				t.Errorf("lossy: %s, %q; want its tripwire's verdict", s.Outcome, s.Verdict)
			}
			continue
		}
		if s.Outcome != summary.Passed || s.Mode != "writes+settings" {
			t.Errorf("%s: %s in mode %s (%s)", name, s.Outcome, s.Mode, s.Verdict)
		}
		if diff := w.before.Diff(w.ref.Storage()); len(diff) > 0 {
			t.Errorf("%s was not left as found: %v", name, diff)
		}
		run, err := report.ReadJSONFile(filepath.Join(dir, "reports", s.Reports.JSON))
		if err != nil {
			t.Fatal(err)
		}
		if c := run.Cleanup; len(c.PagesLeft)+len(c.Problems) > 0 {
			t.Errorf("%s's run says it left pages %v, problems %v", name, c.PagesLeft, c.Problems)
		}
	}
	noSecrets(t, dir, res.Stdout+res.Stderr, sites)
	if _, err := os.Stat(filepath.Join(dir, "reports", "sites", "lossy", "report.html")); err != nil {
		t.Errorf("the lossy site's report: %v", err)
	}
}
