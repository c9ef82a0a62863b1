package selftest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/fixtures"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// A big site: the reference server seeded with n generated pages of a
// realistic mix (reference.GeneratedSite), read by a run with the default
// flags (the API token only: a read-only run, as a site owner's first).

// scaleRun is what one run against a big site did.
type scaleRun struct {
	wall     time.Duration
	requests int
	received int64 // response bytes the server sent
	listing  int64 // bytes of one every-type listing (numberOfItems=-1)
	peak     int64 // the CLI's peak resident memory
	heap     int64 // the CLI's peak heap (live objects and garbage not yet swept)
	live     int64 // the CLI's peak live heap, as its collections found it
	run      *report.Run
}

// countingWriter counts the body bytes a handler writes.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w countingWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.n.Add(int64(n))
	return n, err
}

// runScale runs the CLI against a reference server of n generated pages.
func runScale(tb testing.TB, n int, extra ...string) scaleRun {
	return runScaleAs(tb, n, false, extra...)
}

// runScaleAs is runScale; writes runs it with the authentication token
// (a full write run, settings aside).
func runScaleAs(tb testing.TB, n int, writes bool, extra ...string) scaleRun {
	tb.Helper()
	return runScaleOn(tb, reference.GeneratedSite(n), n, writes, extra...)
}

// runScaleOn runs the CLI against a reference server seeded with seed (a
// site of about n pages), with the authentication token when writes.
func runScaleOn(tb testing.TB, seed func(*fixtures.Seed), n int, writes bool, extra ...string) scaleRun {
	tb.Helper()
	var sent atomic.Int64
	var logMu sync.Mutex
	var log []string // SCALE_BYTES_LOG: what each request received
	ref := testkit.ReferenceWith(tb, reference.Options{Seed: seed}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get(yardstickHeader) != "" {
				h.ServeHTTP(w, r) // not the run's
				return
			}
			var own atomic.Int64
			h.ServeHTTP(countingWriter{w, &own}, r)
			sent.Add(own.Load())
			q := r.URL.Query()
			q.Del("token")
			q.Del("authentication")
			logMu.Lock()
			log = append(log, fmt.Sprintf("%10d %s %s?%s", own.Load(), r.Method, r.URL.Path, q.Encode()))
			logMu.Unlock()
		})
	})
	if path := os.Getenv("SCALE_BYTES_LOG"); path != "" {
		tb.Cleanup(func() { _ = os.WriteFile(path, []byte(strings.Join(log, "\n")+"\n"), 0o644) })
	}
	var out scaleRun
	out.listing = listingSize(tb, ref)
	dir := tb.TempDir()
	path, peak := filepath.Join(dir, "report.json"), filepath.Join(dir, "peak")
	args := append([]string{"--base-url", ref.URL, "--no-color", "--json-report", path}, extra...)
	env := []string{"CONFORMANCE_TOKEN=" + ref.Token, selftest.EnvPeakFile + "=" + peak}
	if writes {
		env = append(env, "CONFORMANCE_AUTH_TOKEN="+ref.AuthToken)
	}
	res := selftest.Run(context.Background(), selftest.Cmd{Dir: dir, Timeout: 10 * time.Minute, Args: args, Env: env})
	run, err := report.ReadJSONFile(path)
	if res.Exit != 0 {
		var failed []string
		for _, s := range reportSpecs(run) {
			if s.Status == report.Failed || s.Status == report.Errored {
				failed = append(failed, s.Name+": "+s.Message[:min(len(s.Message), 600)])
			}
		}
		tb.Fatalf("%d pages: exit %d\n%s\n%s\n%s", n, res.Exit, selftest.Tail(res.Stdout, 40), selftest.Tail(res.Stderr, 10),
			strings.Join(failed, "\n"))
	}
	if err != nil {
		tb.Fatal(err)
	}
	p := selftest.ReadPeaks(peak)
	out.peak, out.heap, out.live = p.RSS, p.Heap, p.Live
	out.wall, out.requests, out.received, out.run = res.Elapsed, run.Meta.Requests, sent.Load(), run
	return out
}

// listingSize reads the every-type listing once, as the yardstick of what a
// run received. It says so in a header (yardstickHeader), so that the
// server does not count it: its handler may end after the read does.
func listingSize(tb testing.TB, ref testkit.Server) int64 {
	q := url.Values{"token": {ref.Token}, "numberOfItems": {"-1"}}
	for _, ty := range []string{"published", "draft", "static", "sticky", "scheduled"} {
		q.Set(ty, "true")
	}
	req, err := http.NewRequest(http.MethodGet, ref.URL+"/api/pages?"+q.Encode(), nil)
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set(yardstickHeader, "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	n, _ := io.Copy(io.Discard, resp.Body)
	return n
}

// yardstickHeader marks the read of listingSize.
const yardstickHeader = "X-Scale-Yardstick"

// checked lists the rules a run checked (passed or failed), sorted.
func checked(run *report.Run) []string {
	var out []string
	for _, r := range run.Rules {
		if r.Status == report.Passed || r.Status == report.Failed || r.Status == report.Errored {
			out = append(out, r.ID)
		}
	}
	slices.Sort(out)
	return out
}

// BenchmarkScale runs the default read-only run against sites of 100,
// 1,000 and 10,000 generated pages and reports wall time, requests, bytes
// received (and as a multiple of one every-type listing), peak memory and
// the rules checked. Targets at 10,000: at most 3 listings received, at
// most 150 MiB, every rule checked at 100 checked too, no failure.
func BenchmarkScale(b *testing.B) {
	var small []string
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			var last scaleRun
			for b.Loop() {
				last = runScale(b, n)
			}
			if last.run.Counts.Failed > 0 {
				b.Errorf("%d rules failed: %s", last.run.Counts.Failed, last.run.Verdict)
			}
			got := checked(last.run)
			if small == nil {
				small = got
			} else if lost := missingFrom(small, got); len(lost) > 0 {
				b.Errorf("checked at 100 pages but not at %d: %v", n, lost)
			}
			b.ReportMetric(last.wall.Seconds(), "wall-s")
			b.ReportMetric(float64(last.requests), "requests")
			b.ReportMetric(float64(last.received)/(1<<20), "received-MiB")
			b.ReportMetric(float64(last.received)/float64(last.listing), "listings")
			b.ReportMetric(float64(last.peak)/(1<<20), "peak-rss-MiB")
			b.ReportMetric(float64(last.heap)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(last.live)/(1<<20), "peak-live-MiB")
			b.ReportMetric(float64(len(got)), "rules-checked")
		})
	}
}

// BenchmarkScaleWrites runs the full write run (settings aside) against a
// site of 5,000 generated pages and reports what it received, as a
// multiple of one every-type listing: the re-reads after writes must stay
// targeted (filters, small pages, single views), not whole listings.
func BenchmarkScaleWrites(b *testing.B) {
	var last scaleRun
	for b.Loop() {
		last = runScaleAs(b, 5000, true)
	}
	if last.run.Counts.Failed > 0 {
		b.Errorf("%d rules failed: %s", last.run.Counts.Failed, last.run.Verdict)
	}
	b.ReportMetric(last.wall.Seconds(), "wall-s")
	b.ReportMetric(float64(last.requests), "requests")
	b.ReportMetric(float64(last.received)/(1<<20), "received-MiB")
	b.ReportMetric(float64(last.received)/float64(last.listing), "listings")
}

// missingFrom lists the items of want that got lacks.
func missingFrom(want, got []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(got, w) {
			out = append(out, w)
		}
	}
	return out
}

// TestBigSiteKeepsEveryRule fails when a rule or a case of a rule a run
// checks on a site of 100 pages is not checked on one of 10,000: no
// coverage may be lost to size (about half a minute on a 2-core machine;
// 700 pages under the race detector, whose in-process reference server
// answers many times slower: its listing of every page is still larger
// than --max-body). The sites are host-like (hostLikeSite: a few big
// categories, the newest pages all tagged), the shape that cost real
// sites cases. BenchmarkScale and BenchmarkBigSiteBytes measure what such
// runs cost.
func TestBigSiteKeepsEveryRule(t *testing.T) {
	if testing.Short() {
		t.Skip("two CLI runs")
	}
	n := 10000
	if testkit.RaceEnabled {
		n = 700
	}
	// A long request timeout: a 10,000-page listing on a busy 2-core machine
	// (the other test packages run beside this one) can take over 10 s.
	small, big := runScaleOn(t, hostLikeSite(100), 100, false, "--request-timeout", "1m"),
		runScaleOn(t, hostLikeSite(n), n, false, "--request-timeout", "1m")
	for _, r := range []scaleRun{small, big} {
		if r.run.Counts.Failed > 0 {
			t.Errorf("a conforming site failed: %s", r.run.Verdict)
		}
	}
	for _, lost := range lostCases(small.run, big.run) {
		t.Errorf("checked at 100 pages but not at %d: %s", n, lost)
	}
	// Memory that grows with the site: the live heap of a run keeps 16
	// bytes a listed page (the rest is on disk) and the hashes of the keys
	// its comparisons hold; 100 times the pages add a few MiB (2 to 5.5
	// measured), where a copy of each page kept in memory added 10 to 16.
	t.Logf("peak live heap: %.1f MiB at 100 pages, %.1f MiB at %d", float64(small.live)/(1<<20), float64(big.live)/(1<<20), n)
	if grew := big.live - small.live; !testkit.RaceEnabled && grew > maxLiveGrowth {
		t.Errorf("the peak live heap grew by %.1f MiB from 100 pages (%.1f MiB) to %d (%.1f MiB); want at most %d MiB",
			float64(grew)/(1<<20), float64(small.live)/(1<<20), n, float64(big.live)/(1<<20), maxLiveGrowth>>20)
	}
}

// maxLiveGrowth bounds how much the peak live heap of a run may grow from
// a site of 100 pages to one of 10,000.
const maxLiveGrowth = 8 << 20

// reportSpecs is the specs of a report (none when there is none).
func reportSpecs(run *report.Run) []report.SpecResult {
	if run == nil {
		return nil
	}
	return run.Specs
}
