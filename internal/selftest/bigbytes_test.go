package selftest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/fixtures"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// What a read-only run on a big site receives, in every-type listings'
// worth (the bytes of one GET /api/pages?numberOfItems=-1 of every type),
// on the reference's generated site and on one shaped as real host sites
// are (hostLikeSite), and which cases it leaves not checked that a run on
// 100 pages of the same site checks.

// hostLikeSite is reference.GeneratedSite(n) shaped like a real site of
// the host: a few categories, each on many pages, the first listed
// (alphabetically, as the host lists them) among the biggest, so that
// its single view, every page of it in full, is larger than the run's
// read limit (--max-body); and the newest pages all tagged, so that the
// first list pages of every type hold no untagged page.
func hostLikeSite(n int) func(*fixtures.Seed) {
	return func(s *fixtures.Seed) {
		reference.GeneratedSite(n)(s)
		kept := s.Categories[:0]
		var own []string // the seed's own categories, in the order listed
		for _, c := range s.Categories {
			if !strings.HasPrefix(c.Key, "section-") {
				kept = append(kept, c)
				own = append(own, c.Key)
			}
		}
		s.Categories = kept
		slices.Sort(own)
		folded := map[string]string{}
		for i := range 8 + n/500 { // the generated categories, section-0 the biggest
			folded[fmt.Sprintf("section-%d", i)] = own[i%len(own)]
		}
		for i := range s.Pages {
			if c, ok := folded[s.Pages[i].Category]; ok {
				s.Pages[i].Category = c
			}
		}
		newest := make([]int, len(s.Pages))
		for i := range newest {
			newest[i] = i
		}
		slices.SortStableFunc(newest, func(a, b int) int { return strings.Compare(s.Pages[b].Date, s.Pages[a].Date) })
		for _, i := range newest[:min(len(newest), max(1, n/25), 200)] {
			if len(s.Pages[i].Tags) == 0 {
				s.Pages[i].Tags = []string{"topic-0"}
			}
		}
	}
}

// bigSites are the sites the byte benchmark reads.
var bigSites = []struct {
	name string
	seed func(n int) func(*fixtures.Seed)
}{
	{"generated", reference.GeneratedSite},
	{"host-like", hostLikeSite},
}

// BenchmarkBigSiteBytes runs the default read-only run on sites of 5,000
// and 10,000 pages, generated and host-like, and reports what it received
// as a multiple of one every-type listing (target: at most 3), its
// requests, and the rules and cases checked on 100 pages of the same site
// that it left not checked (target: none). SCALE_BYTES_LOG=file writes
// what each request received. The request timeout is long: what is
// received does not depend on how busy the machine is, and a busy one
// builds the listing of 10,000 pages slowly.
func BenchmarkBigSiteBytes(b *testing.B) {
	for _, site := range bigSites {
		var small *report.Run
		for _, n := range []int{5000, 10000} {
			b.Run(fmt.Sprintf("site=%s/pages=%d", site.name, n), func(b *testing.B) {
				if small == nil {
					log := os.Getenv("SCALE_BYTES_LOG")
					b.Setenv("SCALE_BYTES_LOG", "") // the log is the big run's
					small = runScaleOn(b, site.seed(100), 100, false).run
					b.Setenv("SCALE_BYTES_LOG", log)
				}
				var last scaleRun
				for b.Loop() {
					last = runScaleOn(b, site.seed(n), n, false, "--request-timeout", "2m")
				}
				if last.run.Counts.Failed > 0 {
					b.Errorf("%d rules failed: %s", last.run.Counts.Failed, last.run.Verdict)
				}
				lost := lostCases(small, last.run)
				b.Logf("%.2f listings (%.1f MiB, a listing %.1f MiB), %d requests, %.1f s", float64(last.received)/float64(last.listing),
					float64(last.received)/(1<<20), float64(last.listing)/(1<<20), last.requests, last.wall.Seconds())
				for _, l := range lost {
					b.Errorf("checked at 100 pages, not at %d: %s", n, l)
				}
				b.ReportMetric(float64(last.received)/float64(last.listing), "listings")
				b.ReportMetric(float64(last.received)/(1<<20), "received-MiB")
				b.ReportMetric(float64(last.listing)/(1<<20), "listing-MiB")
				b.ReportMetric(float64(last.requests), "requests")
				b.ReportMetric(last.wall.Seconds(), "wall-s")
				b.ReportMetric(float64(len(lost)), "cases-lost")
			})
		}
	}
}

// lostCases lists what run small checked that big did not: a rule checked
// (passed or failed) there and not here, or a case of a rule checked there
// and reported not checked here (with big's reason).
func lostCases(small, big *report.Run) []string {
	var out []string
	bigRules := ruleStatus(big)
	for _, r := range small.Rules {
		if !isChecked(r.Status) {
			continue
		}
		b, ok := bigRules[r.ID]
		switch {
		case !ok || !isChecked(b.Status):
			out = append(out, fmt.Sprintf("%s (%s: %s)", r.ID, b.Status, b.Reason))
			continue
		case b.Partial == nil:
			continue
		}
		var notThere []string
		if r.Partial != nil {
			for _, c := range r.Partial.NotChecked {
				notThere = append(notThere, c.Case)
			}
		}
		for _, c := range b.Partial.NotChecked {
			if !slices.Contains(notThere, c.Case) {
				out = append(out, fmt.Sprintf("%s, case %s (%s)", r.ID, c.Case, c.Reason))
			}
		}
	}
	return out
}

func isChecked(s report.Status) bool {
	return s == report.Passed || s == report.Failed || s == report.Errored
}

// TestUntaggedDecidedBehindTaggedPages runs PAGE-LIST-UNTAGGED-AFTER-
// PAGINATION on a host-like site whose newest 60 pages, the first 12 list
// pages of its walk, are all tagged: the listing of every type shows that
// untagged pages come further down, so filtering before pagination would
// fill page 1 with them. The rule must pass on the reference and catch the
// mutant that filters before pagination.
func TestUntaggedDecidedBehindTaggedPages(t *testing.T) {
	if testing.Short() {
		t.Skip("two CLI runs")
	}
	const rule = "PAGE-LIST-UNTAGGED-AFTER-PAGINATION"
	for _, c := range []struct {
		mutants []reference.Mutant
		want    report.Status
	}{
		{nil, report.Passed},
		{[]reference.Mutant{reference.UntaggedBeforePagination}, report.Failed},
	} {
		if testkit.RaceEnabled && c.mutants != nil {
			continue // a data race shows on the conforming site; go test ./... judges the catch
		}
		ref := testkit.ReferenceWith(t, reference.Options{Seed: hostLikeSite(1500), Mutants: c.mutants}, nil)
		dir := t.TempDir()
		path := filepath.Join(dir, "report.json")
		res := selftest.Run(context.Background(), selftest.Cmd{Dir: dir, Timeout: runTimeout, Env: []string{"CONFORMANCE_TOKEN=" + ref.Token},
			Args: []string{"--base-url", ref.URL, "--no-color", "--json-report", path, "--label-filter", "rule:" + rule}})
		run, err := report.ReadJSONFile(path)
		if err != nil {
			t.Fatalf("mutants %v: exit %d, no report: %v\n%s", c.mutants, res.Exit, err, selftest.Tail(res.Stdout, 20))
		}
		if got := ruleStatus(run)[rule]; got.Status != c.want {
			t.Errorf("mutants %v: %s %s (%s), want %s", c.mutants, rule, got.Status, got.Reason, c.want)
		}
	}
}
