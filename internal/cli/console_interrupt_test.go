//go:build unix

package cli_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/runner"
	"github.com/conformance-suite/conformance/internal/selftest"
)

// Ctrl-C in the middle of a run: the console says in the suite's words
// what happens (cleanup runs, what a second Ctrl-C does), and the rules an
// interrupt kept from being checked say so, not that an earlier step
// failed or --fail-fast stopped the run.
func TestConsoleInterrupt(t *testing.T) {
	first := []string{"Interrupted (Ctrl-C): no further check starts, and the one under way stops.",
		"Cleanup runs now: the pages this run created are deleted and the settings it changed are restored",
		"Press Ctrl-C again to skip the cleanup."}
	for _, c := range []struct {
		name    string
		signals int
		want    []string
	}{
		{"once", 1, first},
		{"twice", 2, append(first, "Interrupted (Ctrl-C) again: the cleanup is skipped.",
			"`conformance cleanup` deletes them later", "A third Ctrl-C stops at once.")},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			out, exit := interruptedRun(t, dir, c.signals)
			if exit != 1 {
				t.Errorf("exit %d, want 1", exit)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("the console lacks %q:\n%s", w, selftest.Tail(out, 40))
				}
			}
			for _, s := range append([]string{"Interrupted by User", "Ginkgo"}, ginkgoTraces...) {
				if strings.Contains(out, s) {
					t.Errorf("the console shows Ginkgo's %q:\n%s", s, selftest.Tail(out, 40))
				}
			}
			run := readReport(t, filepath.Join(dir, "r.json"))
			interrupted := 0
			for _, rr := range run.Rules {
				if strings.Contains(rr.Reason, report.ReasonSkipped) {
					t.Errorf("rule %s is reported with the fail-fast reason: %q", rr.ID, rr.Reason)
				}
				if rr.Reason == runner.ReasonInterrupted {
					interrupted++
				}
			}
			if interrupted == 0 {
				t.Errorf("no rule says the interrupt kept it from being checked:\n%s", selftest.Tail(out, 40))
			}
			if !strings.Contains(run.Verdict, "interrupted (Ctrl-C)") || !strings.Contains(out, run.Verdict) {
				t.Errorf("verdict %q", run.Verdict)
			}
		})
	}
}

// interruptedRun runs the suite against a slowed reference server with
// writes and sends it SIGINT after its 40th request, again signals-1
// times shortly after, and returns the console and the exit code.
func interruptedRun(t *testing.T, dir string, signals int) (string, int) {
	t.Helper()
	token, auth := reference.NewToken(), reference.NewToken()
	h, err := reference.New(reference.Options{Token: token, AuthToken: auth})
	if err != nil {
		t.Fatal(err)
	}
	var served atomic.Int64
	var slow atomic.Bool // after the first signal: the cleanup is still running at the next
	reached := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1) == 40 {
			once.Do(func() { close(reached) })
		}
		time.Sleep(5 * time.Millisecond)
		if slow.Load() {
			time.Sleep(200 * time.Millisecond)
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	// Requests side by side, as by default: the console must say the same.
	cmd := exec.CommandContext(ctx, exe, "--base-url", srv.URL, "--allow-settings-write", "--concurrency", "8", "--json-report", "r.json")
	cmd.Dir = dir
	cmd.Env = append(selftest.Environ(), selftest.EnvAsCLI+"=1", "CONFORMANCE_TOKEN="+token, "CONFORMANCE_AUTH_TOKEN="+auth)
	out, done := selftest.StartUntil(t, cmd, reached, "its 40th request")
	slow.Store(signals > 1)
	for i := 0; i < signals; i++ {
		_ = cmd.Process.Signal(os.Interrupt)
		time.Sleep(100 * time.Millisecond)
	}
	<-done
	return out.String(), cmd.ProcessState.ExitCode()
}
