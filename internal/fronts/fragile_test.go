package fronts_test

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/fronts"
	"github.com/conformance-suite/conformance/internal/redact"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// parallelWrites, set by -parallel-writes, passes --parallel-writes to the
// runs of TestFragileStorageBehindFronts: the check by hand that they fail
// once the one-write-at-a-time rule is off. Never set in CI.
var parallelWrites = flag.Bool("parallel-writes", false, "switch the one-write-at-a-time rule off in the fragile-storage runs (a check by hand: they must fail)")

// TestFragileStorageBehindFronts runs the whole suite with writes, at the
// default flags and with --allow-settings-write --concurrency 8, behind
// nginx and Apache, against the reference in its file mode: stored as
// fragile as the host's, so that a request beside a write would empty the
// site (reference.Options.StorageDir). The fronts pass requests side by
// side as the real deployments do; each run must pass and leave the
// stored data identical.
func TestFragileStorageBehindFronts(t *testing.T) {
	for _, kind := range fronts.Kinds() {
		for _, c := range []struct {
			name string
			args []string
			// settingsWrites: the run checks every rule (the settings
			// rules need --allow-settings-write).
			settingsWrites bool
		}{
			{"default flags", nil, false},
			{"settings writes at --concurrency 8", []string{"--allow-settings-write", "--concurrency", "8"}, true},
		} {
			t.Run(string(kind)+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				ref := testkit.ReferenceWith(t, reference.Options{StorageDir: t.TempDir()}, nil)
				f := fronts.Start(t, kind, ref.URL)
				red := redact.New(redact.Secret{Value: ref.Token, Placeholder: "<token>"},
					redact.Secret{Value: ref.AuthToken, Placeholder: "<authentication>"})
				before := ref.Storage()
				dir := t.TempDir()
				jsonReport := filepath.Join(dir, "run.json")
				args := append([]string{"--base-url", f.URL, "--no-color", "--json-report", jsonReport}, c.args...)
				if *parallelWrites {
					args = append(args, "--parallel-writes")
				}
				res := selftest.Run(t.Context(), selftest.Cmd{Dir: dir, Timeout: fullRunTimeout, Args: args,
					Env: []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken}})
				after := ref.Storage()
				run, err := readReport(jsonReport)
				if err != nil || res.TimedOut || res.Err != nil {
					t.Fatalf("the run wrote no report (timed out: %v, %v, %v):\n%s\n%s", res.TimedOut, res.Err, err,
						selftest.Tail(res.Stdout, 30), red.String(f.Logs()))
				}
				failed := 0
				for _, r := range run.Rules {
					if r.Status == report.Failed {
						failed++
					}
				}
				t.Logf("the run behind %s took %s (exit %d, %d rule(s) failed); stored before: %d pages, %d tags, %d categories; after: %d, %d, %d",
					kind, res.Elapsed.Round(time.Millisecond), res.Exit, failed, len(before.Pages), len(before.Tags), len(before.Categories),
					len(after.Pages), len(after.Tags), len(after.Categories))
				// The rules the run fails behind the front in any case
				// (TestFullRunBehindFronts), and no other.
				wantExit := 0
				if len(pendingFrontFailures[kind]) > 0 {
					wantExit = 1
				}
				if res.Exit != wantExit {
					t.Errorf("the run behind %s exited %d, want %d:\n%s", kind, res.Exit, wantExit, red.String(selftest.Tail(res.Stdout, 20)))
				}
				if c.settingsWrites {
					checkFrontRun(t, kind, run, pendingFrontFailures[kind])
				} else {
					// Every write rule was checked: only the settings
					// writes were left out.
					for _, r := range run.Rules {
						if r.Status == report.NotChecked && !strings.Contains(r.Reason, "--allow-settings-write") && r.Reason != report.ReasonExploreOnly {
							t.Errorf("behind %s, %s is not checked: %s", kind, r.ID, r.Reason)
						}
					}
					if left := run.Cleanup.PagesLeft; len(left) > 0 {
						t.Errorf("the run behind %s left pages %v", kind, left)
					}
				}
				if diff := before.Diff(after); len(diff) > 0 {
					t.Errorf("behind %s the stored data differs after the run (%d records; %d pages before, %d after):\n  %s",
						kind, len(diff), len(before.Pages), len(after.Pages), strings.Join(diff[:min(len(diff), 12)], "\n  "))
				}
			})
		}
	}
}
