package selftest_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// distantRoundTrip is the latency a site across a continent adds to every
// request: the yardstick for "a distant site".
const distantRoundTrip = 50 * time.Millisecond

// distantServer serves the reference server with distantRoundTrip added to
// every request before it is answered, as a far-away site would. The delay
// is added per request, not per TCP segment: connections are kept alive,
// so a request costs one round trip either way.
// watch sees the requests as they reach the server (after the delay).
func distantServer(tb testing.TB, watch *testkit.WireWatch) (url, token, auth string) {
	ref := testkit.ReferenceWith(tb, reference.Options{}, func(h http.Handler) http.Handler {
		h = watch.Wrap(h)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(distantRoundTrip):
			case <-r.Context().Done():
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	return ref.URL, ref.Token, ref.AuthToken
}

// benchDistant runs the CLI against a distant reference server once per
// iteration and reports wall time, requests, and requests per testable rule
// (the goals: a full write run in 8 s or less, a read-only run in
// 4 s or less, at most 3 requests per testable rule on a full run).
func benchDistant(b *testing.B, extra ...string) {
	watch := testkit.NewWireWatch()
	watch.KeepTimeline = os.Getenv("DISTANT_TIMELINE") != ""
	url, token, auth := distantServer(b, watch)
	dir := b.TempDir()
	path := filepath.Join(dir, "distant.json")
	testable := 0
	for _, r := range spec.All().Rules() {
		if r.Testable() {
			testable++
		}
	}
	var requests int
	var wall time.Duration
	for b.Loop() {
		args := append([]string{"--base-url", url, "--no-color", "--json-report", path}, extra...)
		res := selftest.Run(b.Context(), selftest.Cmd{Dir: dir, Timeout: runTimeout, Args: args,
			Env: []string{"CONFORMANCE_TOKEN=" + token, "CONFORMANCE_AUTH_TOKEN=" + auth}})
		if res.Exit != 0 {
			b.Fatalf("run exited %d:\n%s\n%s", res.Exit, selftest.Tail(res.Stdout, 25), selftest.Tail(res.Stderr, 10))
		}
		run, err := report.ReadJSONFile(path)
		if err != nil {
			b.Fatal(err)
		}
		requests += run.Meta.Requests
		wall += res.Elapsed
	}
	n := float64(b.N)
	seen := watch.Seen()
	if len(seen.Overlaps) > 0 {
		b.Errorf("%d requests overlapped a write, first: %s", len(seen.Overlaps), seen.Overlaps[0])
	}
	if path := os.Getenv("DISTANT_TIMELINE"); path != "" {
		_ = os.WriteFile(path, []byte(strings.Join(seen.Timeline, "\n")+"\n"), 0o644)
	}
	b.ReportMetric(float64(seen.Writes)/n, "writes/op")
	b.ReportMetric(float64(len(seen.Overlaps))/n, "overlapped/op")
	b.ReportMetric(wall.Seconds()/n, "wall-s/op")
	b.ReportMetric(float64(requests)/n, "requests/op")
	b.ReportMetric(float64(requests)/n/float64(testable), "requests/testable-rule")
}

// BenchmarkDistantFullRun: a full write run (settings writes allowed)
// against a site 50 ms away.
func BenchmarkDistantFullRun(b *testing.B) {
	benchDistant(b, "--allow-settings-write")
}

// BenchmarkDistantReadOnlyRun: a read-only run against a site 50 ms away.
func BenchmarkDistantReadOnlyRun(b *testing.B) {
	benchDistant(b, "--read-only")
}
