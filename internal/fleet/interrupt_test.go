//go:build unix

package fleet_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/fleet/summary"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestInterruptCleansUp: Ctrl-C at the fleet's terminal starts no further site and
// reaches each site in flight once, so that its run stops, cleans up
// (the site left as found) and writes its report; the sites not started
// are in the summary as not run.
func TestInterruptCleansUp(t *testing.T) {
	t.Parallel()
	var served atomic.Int32
	reached := make(chan struct{})
	var once sync.Once
	first := testkit.ReferenceWith(t, reference.Options{}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if served.Add(1) == 60 { // well into the write run
				once.Do(func() { close(reached) })
			}
			time.Sleep(5 * time.Millisecond)
			h.ServeHTTP(w, r)
		})
	})
	before := first.Storage()
	sites := []fleetSite{{name: "first", url: first.URL, token: first.Token, auth: first.AuthToken, mode: "writes+settings"}}
	for _, name := range []string{"second", "third"} {
		ref := testkit.Reference(t)
		sites = append(sites, fleetSite{name: name, url: ref.URL, token: ref.Token})
	}
	dir := t.TempDir()
	targets := writeTargets(t, dir, sites)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "fleet", "--targets", targets, "--report-dir", "reports", "--sites-at-once", "1", "--no-color")
	cmd.Dir = dir
	cmd.Env = append(selftest.Environ(), selftest.EnvAsCLI+"=1")
	// The fleet in a process group of its own, signalled as a whole as a
	// terminal's Ctrl-C is: a site's run that got it from the terminal
	// and again from the fleet would skip its cleanup.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, done := selftest.StartUntil(t, cmd, reached, "the first site's 60th request")
	// Each site's run is in a group of its own, out of the terminal's
	// reach (the signals of one Ctrl-C may arrive as one, so the outcome
	// alone would not show a run that got two).
	if kids := childGroups(cmd.Process.Pid); len(kids) == 0 && runtime.GOOS == "linux" {
		t.Error("no site's process found under the fleet's")
	} else {
		for pid, group := range kids {
			if group != pid {
				t.Errorf("a site's process (%d) is in the process group %d, not its own", pid, group)
			}
		}
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	<-done
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit %d, want 1 (a run interrupted, sites not run):\n%s", code, out.String())
	}
	_, byName := readSummary(t, filepath.Join(dir, "reports", summary.JSONFile))
	if s := byName["first"]; s.Outcome != summary.Incomplete || s.Reports.JSON == "" {
		t.Errorf("the interrupted site: %s, %q, report %q", s.Outcome, s.Verdict, s.Reports.JSON)
	}
	for _, name := range []string{"second", "third"} {
		if s := byName[name]; s.Outcome != summary.NotRun {
			t.Errorf("%s: %s, want not run", name, s.Outcome)
		}
	}
	if diff := before.Diff(first.Storage()); len(diff) > 0 {
		t.Errorf("the interrupted site was not left as found (its run's cleanup skipped?): %v\n%s", diff, out.String())
	}
}

// childGroups maps the processes whose parent is pid to their process
// groups, as /proc shows them (none where there is no /proc).
func childGroups(pid int) map[int]int {
	out := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ')'.
		rest := string(b[bytes.LastIndexByte(b, ')')+1:])
		var state string
		var ppid, pgrp int
		if _, err := fmt.Sscan(rest, &state, &ppid, &pgrp); err != nil || ppid != pid {
			continue
		}
		child, _ := strconv.Atoi(e.Name())
		out[child] = pgrp
	}
	return out
}
