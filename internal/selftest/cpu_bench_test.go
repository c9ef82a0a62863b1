package selftest_test

import (
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// BenchmarkReadOnlyRunCPU runs the CLI read-only against the reference
// server once per iteration, as a fleet runs each site (GOMAXPROCS=1,
// GOGC=200, JSON and HTML reports), and reports the CPU time (user and
// system) the run's process spent: what a site of a fleet costs besides
// its server (docs/fleet.md). The server answers at once, so the run's
// own CPU is all that is measured. ns/op is wall time.
func BenchmarkReadOnlyRunCPU(b *testing.B) {
	ref := testkit.Reference(b)
	dir := b.TempDir()
	var cpu time.Duration
	for b.Loop() {
		res := selftest.Run(b.Context(), selftest.Cmd{Dir: dir, Timeout: runTimeout,
			Args: []string{"--base-url", ref.URL, "--read-only", "--no-color", "--json-report", "r.json", "--html-report", "r.html"},
			Env:  []string{"CONFORMANCE_TOKEN=" + ref.Token, "GOMAXPROCS=1", "GOGC=200"}})
		if res.Exit != 0 {
			b.Fatalf("run exited %d:\n%s\n%s", res.Exit, selftest.Tail(res.Stdout, 25), selftest.Tail(res.Stderr, 10))
		}
		cpu += res.CPU
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
