// Package selftest is the conformance suite's proof of itself. Its tests
// (run by `go test ./...`) run the whole CLI against the reference server,
// against every benign variant of it and against every mutant, and check
// that the suite passes the first two and catches each mutant by one of the
// rules the mutant breaks.
//
// Ginkgo's RunSpecs runs once per process, so every run is a subprocess:
// the test binary re-executes itself as the CLI (see Main). The
// helpers here are exported for the CLI's end-to-end tests, which use the
// same mechanism.
package selftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/cli"
)

// EnvAsCLI, set to "1", makes a test binary whose TestMain is Main
// behave as the conformance CLI.
const EnvAsCLI = "CONFORMANCE_SELFTEST_AS_CLI"

// EnvPeakFile names a file where a run as the CLI writes its peak resident
// memory (Linux; 0 elsewhere), its peak heap and its peak live heap in
// bytes, separated by spaces, when it ends. The parent cannot read the first from the child's
// rusage: on Linux that includes the parent's own size at fork time.
const EnvPeakFile = "CONFORMANCE_SELFTEST_PEAK_FILE"

// Main is the TestMain of a package whose tests run the test binary as the
// CLI (Run): with EnvAsCLI set it runs the CLI before m.Run parses test
// flags, otherwise it runs the tests; either way it exits.
func Main(m *testing.M) {
	if os.Getenv(EnvAsCLI) == "1" {
		f := os.Getenv(EnvPeakFile)
		var heap *peakHeap
		if f != "" {
			heap = samplePeakHeap()
		}
		code := cli.Main(os.Args[1:], os.Stdout, os.Stderr)
		if f != "" {
			most, live := heap.stop()
			_ = os.WriteFile(f, []byte(fmt.Sprintf("%d %d %d", PeakRSS(), most, live)), 0o600)
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// Cmd is one CLI invocation.
type Cmd struct {
	Args []string
	// Env holds extra KEY=VALUE pairs. The child never inherits the
	// caller's CONFORMANCE_* variables, so a developer's exported target
	// cannot leak into a test.
	Env []string
	// Dir is the working directory ("" = the caller's). demo writes its
	// default reports under it.
	Dir string
	// Timeout bounds the run; the child gets SIGINT first (Ginkgo then
	// still cleans up and reports), and is killed 5 s later.
	Timeout time.Duration
}

// Result is what an invocation did.
type Result struct {
	Exit     int // -1 when the process did not exit by itself
	Stdout   string
	Stderr   string
	Elapsed  time.Duration
	CPU      time.Duration // the process's user and system CPU time
	TimedOut bool
	Err      error // the process could not be started or waited for
}

// DefaultTimeout bounds a run whose Cmd gives none.
const DefaultTimeout = 2 * time.Minute

// Run executes the current binary (a test binary whose TestMain calls
// Main) as the CLI.
func Run(ctx context.Context, c Cmd) Result {
	exe, err := os.Executable()
	if err != nil {
		return Result{Exit: -1, Err: err}
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, c.Args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Dir = c.Dir
	cmd.Env = append(Environ(), EnvAsCLI+"=1")
	cmd.Env = append(cmd.Env, c.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	res := Result{Exit: cmd.ProcessState.ExitCode(), Stdout: stdout.String(), Stderr: stderr.String(),
		Elapsed: time.Since(start), TimedOut: errors.Is(ctx.Err(), context.DeadlineExceeded),
		CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		res.Err = err
	}
	return res
}

// Environ is the caller's environment without any CONFORMANCE_* variable.
func Environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CONFORMANCE_") {
			env = append(env, kv)
		}
	}
	return env
}

// Tail returns the last n lines of s, for failure messages.
func Tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// PeakRSS is this process's peak resident memory in bytes (VmHWM of
// /proc/self/status), 0 where the platform does not say.
func PeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// ReadPeak reads the file a run as the CLI wrote under EnvPeakFile: its
// peak resident memory and its peak heap in bytes, 0 for what it did not
// write.
func ReadPeak(path string) (rss, heap int64) {
	p := ReadPeaks(path)
	return p.RSS, p.Heap
}

// Peaks is what a run as the CLI measured of its memory (EnvPeakFile).
type Peaks struct {
	RSS int64 // peak resident memory
	// Heap is the peak of the heap's objects, live and garbage not yet
	// swept: what the collector let grow (about twice the live heap).
	Heap int64
	// Live is the peak of the live heap as each collection found it
	// (runtime/metrics /gc/heap/live:bytes; what was allocated during a
	// collection counts as live in it).
	Live int64
}

// ReadPeaks reads the file a run as the CLI wrote under EnvPeakFile, 0 for
// what it did not write.
func ReadPeaks(path string) Peaks {
	b, err := os.ReadFile(path)
	if err != nil {
		return Peaks{}
	}
	var p Peaks
	_, _ = fmt.Sscan(string(b), &p.RSS, &p.Heap, &p.Live)
	return p
}

// peakHeap samples the heap in use and the live heap (runtime/metrics)
// until stopped.
type peakHeap struct {
	max, live atomic.Uint64
	done      chan struct{}
}

// heapMetric is the bytes of heap memory occupied by live objects and
// those not yet swept; liveMetric those the last collection found live.
const (
	heapMetric = "/memory/classes/heap/objects:bytes"
	liveMetric = "/gc/heap/live:bytes"
)

func samplePeakHeap() *peakHeap {
	p := &peakHeap{done: make(chan struct{})}
	go func() {
		sample := []metrics.Sample{{Name: heapMetric}, {Name: liveMetric}}
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > p.max.Load() {
				p.max.Store(v)
			}
			if v := sample[1].Value.Uint64(); v > p.live.Load() {
				p.live.Store(v)
			}
			select {
			case <-p.done:
				return
			case <-tick.C:
			}
		}
	}()
	return p
}

// stop ends the sampling and returns the peaks seen.
func (p *peakHeap) stop() (heap, live uint64) {
	close(p.done)
	return p.max.Load(), p.live.Load()
}

// StartUntil starts cmd with its output gathered in out and returns once
// reached is closed (the server it talks to saw what the test waits for),
// failing t, with what cmd wrote, should cmd end first. done is closed
// once cmd has ended.
func StartUntil(t testing.TB, cmd *exec.Cmd, reached <-chan struct{}, what string) (out *bytes.Buffer, done <-chan struct{}) {
	t.Helper()
	out = &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { _ = cmd.Wait(); close(ended) }()
	select {
	case <-reached:
	case <-ended:
		t.Fatalf("%s ended before %s:\n%s", cmd.Path, what, out.String())
	}
	return out, ended
}
