package selftest_test

// Full write runs against the reference server in its file mode, whose
// storage is as fragile as the host's (reference.Options.StorageDir):
// requests side by side lose data there, so a run that lets a write
// overlap another request empties the site or fails rules it should pass.
// With a write alone on the wire, the run passes and leaves the stored
// data identical.

import (
	"flag"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// parallelWrites, set by -parallel-writes, passes --parallel-writes to the
// runs of TestFullRunsLeaveFragileStorageIdentical: the check by hand that
// they fail once the one-write-at-a-time rule is off. Never set in CI.
var parallelWrites = flag.Bool("parallel-writes", false, "switch the one-write-at-a-time rule off in the fragile-storage runs (a check by hand: they must fail)")

// TestFullRunsLeaveFragileStorageIdentical runs the whole CLI with writes
// (the authentication token given by the environment) at the default
// flags, and with --allow-settings-write --concurrency 8, against the
// reference's file mode: each run passes and the index files hold after it
// what they held before.
func TestFullRunsLeaveFragileStorageIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("full runs")
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"default flags", nil},
		{"settings writes at --concurrency 8", []string{"--allow-settings-write", "--concurrency", "8"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var writes atomic.Int64
			ref := testkit.ReferenceWith(t, reference.Options{StorageDir: t.TempDir()}, countWrites(&writes))
			args := append([]string{"--base-url", ref.URL, "--no-color"}, c.args...)
			if *parallelWrites {
				args = append(args, "--parallel-writes")
			}
			checkFragileRun(t, ref.Server, ref.Token, ref.AuthToken, args)
			if writes.Load() < 50 {
				t.Errorf("the run sent %d write requests: too few to show the storage holds", writes.Load())
			}
		})
	}
}

// checkFragileRun runs the CLI with args against srv (in the file mode)
// and checks that the run passed and left the stored data as it found it.
func checkFragileRun(t *testing.T, srv *reference.Server, token, auth string, args []string) {
	t.Helper()
	before := srv.Storage()
	reportPath := filepath.Join(t.TempDir(), "run.json")
	res := selftest.Run(t.Context(), selftest.Cmd{Args: append(args, "--json-report", reportPath),
		Env: []string{"CONFORMANCE_TOKEN=" + token, "CONFORMANCE_AUTH_TOKEN=" + auth}})
	after := srv.Storage()
	var failed []string
	if run, err := report.ReadJSONFile(reportPath); err == nil {
		for _, r := range run.Rules {
			if r.Status == report.Failed {
				failed = append(failed, r.ID)
			}
		}
	}
	t.Logf("exit %d in %s; %d rule(s) failed; stored before: %s; after: %s",
		res.Exit, res.Elapsed.Round(time.Millisecond), len(failed), counts(before), counts(after))
	if res.Exit != 0 || len(failed) > 0 {
		t.Errorf("exit %d, failed rules %v:\n%s", res.Exit, failed, selftest.Tail(res.Stdout, 25))
	}
	if diff := before.Diff(after); len(diff) > 0 {
		t.Errorf("the stored data differs after the run (%d records; %d pages before, %d after):\n  %s",
			len(diff), len(before.Pages), len(after.Pages), strings.Join(diff[:min(len(diff), 12)], "\n  "))
	}
}

// counts summarises what a snapshot holds.
func counts(st reference.Storage) string {
	return fmt.Sprintf("%d pages, %d tags, %d categories, %d settings", len(st.Pages), len(st.Tags), len(st.Categories), len(st.Settings))
}

// countWrites counts the requests that may write (any method but GET,
// HEAD and OPTIONS) on their way to h.
func countWrites(n *atomic.Int64) func(h http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if reference.IsWrite(r.Method) {
				n.Add(1)
			}
			h.ServeHTTP(w, r)
		})
	}
}

// BenchmarkFragileStorage times a full write run (default flags) against
// the reference in memory and in files, with the file mode's default
// windows: what the fragile storage costs a run, one write at a time.
func BenchmarkFragileStorage(b *testing.B) {
	for _, mode := range []string{"memory", "files"} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				opts := reference.Options{}
				if mode == "files" {
					opts.StorageDir = b.TempDir()
				}
				ref := testkit.ReferenceWith(b, opts, nil)
				res := selftest.Run(b.Context(), selftest.Cmd{Args: []string{"--base-url", ref.URL, "--no-color"},
					Env: []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken}})
				if res.Exit != 0 {
					b.Fatalf("exit %d:\n%s", res.Exit, selftest.Tail(res.Stdout, 20))
				}
			}
		})
	}
}
