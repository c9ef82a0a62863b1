package fleet_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/fleet/summary"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/selftest"
)

// distantRoundTrip is what a site across a continent adds to every
// request (internal/selftest's distant benchmarks use the same).
const distantRoundTrip = 50 * time.Millisecond

// distantSites serves n reference servers, each on a loopback port of its
// own and answering every request distantRoundTrip late, until tb ends;
// it returns them as a targets file's sites (tokens in files under dir).
func distantSites(tb testing.TB, n int, dir string) []fleetSite {
	tb.Helper()
	sites := make([]fleetSite, n)
	for i := range sites {
		opts := reference.Options{Token: reference.NewToken(), AuthToken: reference.NewToken()}
		srv, err := reference.New(opts)
		if err != nil {
			tb.Fatal(err)
		}
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(distantRoundTrip):
			case <-r.Context().Done():
				return
			}
			srv.ServeHTTP(w, r)
		}))
		tb.Cleanup(ts.Close)
		sites[i] = fleetSite{name: fmt.Sprintf("site-%04d", i), url: ts.URL, token: opts.Token}
	}
	return sites
}

// BenchmarkFleet checks simulated sites read-only in one fleet run, as
// `conformance fleet --targets FILE --sites-at-once K` (K from
// FLEET_BENCH_SITES_AT_ONCE, default 16), each site a reference server
// 50 ms away, and reports the wall time, the peak memory of the whole run
// (the fleet and every site's process, summed as sampled every 100 ms),
// the fleet process's own peak, and the CPU time per site. The same
// figures at 100 and at 1,000 sites show what grows with the fleet.
func BenchmarkFleet(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("sites=%d", n), func(b *testing.B) { benchFleet(b, n) })
	}
}

func benchFleet(b *testing.B, n int) {
	atOnce := 16
	if v, err := strconv.Atoi(os.Getenv("FLEET_BENCH_SITES_AT_ONCE")); err == nil && v > 0 {
		atOnce = v
	}
	dir := b.TempDir()
	targets := writeTargets(b, dir, distantSites(b, n, dir))
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	var m fleetMeasure
	for b.Loop() {
		reports := filepath.Join(dir, fmt.Sprintf("reports-%d", m.runs))
		m.add(b, runMeasured(b, exe, dir, "fleet", "--targets", targets, "--report-dir", reports,
			"--sites-at-once", strconv.Itoa(atOnce), "--no-color"))
		head, passed := summaryOf(b, filepath.Join(reports, summary.JSONFile))
		if head.Exit != 0 || passed != n {
			b.Fatalf("exit %d, %d of %d sites passed: %s", head.Exit, passed, n, head.Verdict)
		}
	}
	m.report(b, n)
}

// measured is what one fleet run cost.
type measured struct {
	wall              time.Duration
	cpu               time.Duration // the fleet's and its sites' processes
	serverCPU         time.Duration // this process: the simulated sites
	peakTree, peakOwn int64         // bytes resident: the whole run, the fleet process alone
	peakPSS           int64         // the whole run's proportional set size: shared pages counted once
}

type fleetMeasure struct {
	runs int
	sum  measured
	max  measured
}

func (m *fleetMeasure) add(b *testing.B, r measured) {
	m.runs++
	m.sum.wall += r.wall
	m.sum.cpu += r.cpu
	m.sum.serverCPU += r.serverCPU
	m.max.peakTree = max(m.max.peakTree, r.peakTree)
	m.max.peakOwn = max(m.max.peakOwn, r.peakOwn)
	m.max.peakPSS = max(m.max.peakPSS, r.peakPSS)
	b.Logf("run %d: wall %s, cpu %s (+%s serving), peak %d MiB resident, %d MiB proportional (fleet process %d MiB)",
		m.runs, r.wall.Round(time.Millisecond), r.cpu.Round(time.Millisecond), r.serverCPU.Round(time.Millisecond),
		r.peakTree>>20, r.peakPSS>>20, r.peakOwn>>20)
}

func (m *fleetMeasure) report(b *testing.B, sites int) {
	runs, n := float64(m.runs), float64(sites)
	b.ReportMetric(m.sum.wall.Seconds()/runs, "wall-s/op")
	b.ReportMetric(float64(m.max.peakTree)/(1<<20), "peak-MiB")
	b.ReportMetric(float64(m.max.peakPSS)/(1<<20), "peak-pss-MiB")
	b.ReportMetric(float64(m.max.peakOwn)/(1<<20), "fleet-process-peak-MiB")
	b.ReportMetric(m.sum.wall.Seconds()*1000/runs/n, "wall-ms/site")
	b.ReportMetric(m.sum.cpu.Seconds()*1000/runs/n, "cpu-ms/site")
	b.ReportMetric(m.sum.serverCPU.Seconds()*1000/runs/n, "server-cpu-ms/site")
}

// runMeasured runs the CLI in dir and measures it: wall time, CPU of its
// process tree (getrusage of a waited process counts the children it
// waited for), and resident memory summed over the tree.
func runMeasured(b *testing.B, exe, dir string, args ...string) measured {
	ctx, cancel := context.WithTimeout(b.Context(), 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = append(selftest.Environ(), selftest.EnvAsCLI+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var self0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self0)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	stop, peaks := sampleTree(cmd.Process.Pid)
	err := cmd.Wait()
	r := measured{wall: time.Since(start)}
	stop()
	r.peakTree, r.peakPSS, r.peakOwn = peaks()
	if err != nil {
		b.Fatalf("conformance %s: %v\n%s", strings.Join(args, " "), err, selftest.Tail(out.String(), 30))
	}
	var self1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self1)
	r.serverCPU = cpuOf(self1) - cpuOf(self0)
	// Its maxrss is left aside: on Linux a child's includes its parent's
	// size when it was started (here this process, serving every site).
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.cpu = cpuOf(*ru)
	}
	return r
}

func cpuOf(ru syscall.Rusage) time.Duration {
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sampleTree samples, until stopped, the memory of the process pid and
// of its children (/proc), and keeps the peaks of their resident
// memory summed (every 100 ms), of their proportional set sizes summed
// (shared pages, the program's text among them, counted once; every 2 s:
// the kernel walks each process's pages for it) and of pid's own resident
// memory. It reads only the processes of the tree: a scan of every
// process, or PSS ten times a second, took a sixth of a core from the
// run it measured.
func sampleTree(pid int) (stop func(), peaks func() (rss, pss, own int64)) {
	var mu sync.Mutex
	var rss, pss, own int64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for n := 0; ; n++ {
			tree := descendants(pid)
			var sum, proportional int64
			for _, p := range tree {
				r := residentOf(p)
				sum += r
				if n%20 == 0 {
					proportional += pssOf(p)
				}
			}
			mu.Lock()
			rss, own = max(rss, sum), max(own, residentOf(pid))
			if n%20 == 0 {
				pss = max(pss, proportional)
			}
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }, func() (int64, int64, int64) { mu.Lock(); defer mu.Unlock(); return rss, pss, own }
}

// descendants is pid and its children, from each of its threads' list
// of children (/proc/PID/task/TID/children): a site's process starts no
// process of its own.
func descendants(pid int) []int {
	out := []int{pid}
	tasks, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "task"))
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", t.Name(), "children"))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// residentOf is a process's resident memory in bytes (/proc/PID/statm).
func residentOf(pid int) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "statm"))
	if err != nil {
		return 0
	}
	var size, resident int64
	if _, err := fmt.Sscan(string(b), &size, &resident); err != nil {
		return 0
	}
	return resident * int64(os.Getpagesize())
}

// pssOf is a process's proportional set size in bytes
// (/proc/PID/smaps_rollup).
func pssOf(pid int) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "smaps_rollup"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Pss:"); ok {
			var kb int64
			_, _ = fmt.Sscan(v, &kb)
			return kb << 10
		}
	}
	return 0
}

// summaryOf reads a fleet.json: its head, and how many sites passed with
// their reports on disk.
func summaryOf(b *testing.B, path string) (*summary.Fleet, int) {
	passed := 0
	head, err := summary.ReadFile(path, nil, func(s summary.Site) error {
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), s.Reports.JSON)); err == nil && s.Outcome == summary.Passed {
			passed++
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return head, passed
}
