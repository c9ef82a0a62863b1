package selftest_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/faultfront"
	"github.com/conformance-suite/conformance/internal/redact"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// faultCase is one flaky network in front of the reference's host
// behaviour on its fragile storage (issue 29's measurements).
type faultCase struct {
	name string
	opts faultfront.Options
	// exits are the exit codes the run may end with: 0 when the faults
	// happened to spare every deciding request, 4 when some rules could
	// not finish, 3 when so many requests went unanswered that the target
	// stopped answering.
	exits []int
	// args are more flags of the run.
	args []string
	// authWrites: only requests carrying the authentication token are
	// faulted (the writes that act, not the probes a server refuses).
	authWrites bool
}

var faultCases = []faultCase{
	{name: "the write reaches the server, its answer is lost",
		opts:  faultfront.Options{Fault: faultfront.LoseAnswer, WritesOnly: true, Rate: 0.2, Seed: 1, Skip: 3},
		exits: []int{0, 4}},
	{name: "the connection resets before the request is sent",
		opts:  faultfront.Options{Fault: faultfront.ResetBeforeSend, Rate: 0.05, Seed: 2, Skip: 10},
		exits: []int{0, 4}},
	{name: "a 503 with Retry-After from the front",
		opts:  faultfront.Options{Fault: faultfront.Front503, Rate: 0.05, Seed: 3, Skip: 10},
		exits: []int{0, 4}},
	{name: "the front is down a fraction of a second every few seconds",
		opts:  faultfront.Options{Fault: faultfront.Outage, Down: 100 * time.Millisecond, Period: 800 * time.Millisecond},
		exits: []int{0, 3, 4}},
	// The update of every other field (the one that sends homepage, a
	// run-marked "…-home") is held until after the restore: only the
	// checks after the restore put the settings back.
	{name: "a settings update reaches the server after the client gave up",
		opts: faultfront.Options{Fault: faultfront.LateWrite, Paths: []string{"/api/settings"}, Methods: []string{"PUT"}, Carrying: `-home"`,
			Rate: 1, Limit: 1, Delay: 4 * time.Second},
		exits: []int{4}, args: []string{"--request-timeout", "1s"}},
	// A create is held until after the run's last sweep: only the sweep
	// once it could have landed finds it.
	{name: "a create reaches the server after the client gave up",
		opts: faultfront.Options{Fault: faultfront.LateWrite, Paths: []string{"/api/pages"}, Methods: []string{"POST"}, Rate: 1, Limit: 1,
			Delay: 4 * time.Second},
		exits: []int{4}, args: []string{"--request-timeout", "1s"}, authWrites: true},
}

// TestFaultyNetwork runs the whole suite with writes and settings writes
// through a front that injects one network fault at a time, in front of
// the reference's host behaviour on its fragile storage. A fault-free run
// passes every rule there, so: no rule may fail, each rule that could not
// finish says why, the exit code says which, and once every held write has
// landed the stored data is exactly as before, or the run names what it
// left.
func TestFaultyNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("full runs through a faulty front")
	}
	if testkit.RaceEnabled {
		// Timing is what these runs test (writes held past --request-timeout);
		// the race detector's slowdown shifts it, and the framework's own
		// late-write tests run under it.
		t.Skip("full runs through a faulty front: run without -race")
	}
	for _, fc := range faultCases {
		t.Run(fc.name, func(t *testing.T) {
			t.Parallel()
			checkFaultyRun(t, fc)
		})
	}
}

func checkFaultyRun(t *testing.T, fc faultCase) {
	ref := testkit.ReferenceWith(t, reference.Options{StorageDir: t.TempDir()}, nil)
	if fc.authWrites {
		fc.opts.Carrying = ref.AuthToken
	}
	front := faultfront.Start(t, ref.URL, fc.opts)
	red := redact.New(redact.Secret{Value: ref.Token, Placeholder: "<token>"}, redact.Secret{Value: ref.AuthToken, Placeholder: "<authentication>"})
	before := ref.Storage()
	dir := t.TempDir()
	jsonReport := filepath.Join(dir, "run.json")
	args := append([]string{"--base-url", front.URL, "--allow-settings-write", "--no-color", "--json-report", jsonReport}, fc.args...)
	res := selftest.Run(t.Context(), selftest.Cmd{Dir: dir, Timeout: 3 * time.Minute, Args: args,
		Env: []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := front.Settle(ctx); err != nil {
		t.Fatalf("held writes did not land: %v", err)
	}
	out := red.String(res.Stdout)
	if front.Faulted() == 0 {
		t.Fatalf("the front faulted no request: the run proves nothing about the fault")
	}
	t.Logf("%d of %d requests faulted; exit %d in %s", front.Faulted(), len(front.Records()), res.Exit, res.Elapsed.Round(time.Millisecond))
	for _, r := range front.Records() {
		if r.Fault != "" {
			t.Logf("faulted: %s %s (%s), forwarded %v, answered %d", r.Method, r.Path, r.Fault, r.Forwarded, r.Answered)
		}
	}
	for _, s := range []string{ref.Token, ref.AuthToken} {
		if strings.Contains(res.Stdout+res.Stderr, s) {
			t.Error("a token appears in the run's output")
		}
	}
	run, err := readRunReport(jsonReport)
	if err != nil || res.TimedOut {
		t.Fatalf("the run wrote no report (timed out: %v, %v):\n%s", res.TimedOut, err, selftest.Tail(out, 30))
	}
	if !slices.Contains(fc.exits, res.Exit) {
		t.Errorf("exit %d, want one of %v:\n%s", res.Exit, fc.exits, selftest.Tail(out, 40))
	}
	for _, r := range run.Rules {
		switch {
		case r.Status == report.Failed:
			var msgs []string
			for _, i := range r.Specs {
				if sp := run.Specs[i]; sp.Status == report.Failed {
					msgs = append(msgs, sp.Name+": "+sp.Message+"\n"+sp.Requests)
				}
			}
			t.Errorf("%s failed through the faulty front (a fault-free run passes it):\n%s", r.ID, red.String(strings.Join(msgs, "\n")))
		case r.Status == report.Errored && !r.CouldNotFinish:
			t.Errorf("%s did not finish, but not for want of an answer: %s", r.ID, r.Reason)
		case r.Status == report.Errored && !strings.Contains(r.Reason, "could not finish: "):
			t.Errorf("%s could not finish without a cause: %q", r.ID, r.Reason)
		}
	}
	for _, bad := range []string{"request failed", "HTTP 0", "refused (HTTP"} {
		if strings.Contains(out, bad) {
			t.Errorf("the run's output words a missing answer as %q:\n%s", bad, selftest.Tail(out, 40))
		}
	}
	checkLeftAsFound(t, before, ref.Storage(), run)
}

// checkLeftAsFound requires the stored data after the run to be as before,
// but for what the run named as left: pages under What the run left, and
// settings whose restore it says may not hold, with the request that puts
// them back.
func checkLeftAsFound(t *testing.T, before, after reference.Storage, run *report.Run) {
	t.Helper()
	left := strings.Join(append(append(run.Cleanup.PagesLeft, run.Cleanup.Problems...), run.Cleanup.Settings...), "\n")
	for _, d := range before.Diff(after) {
		named := false
		switch {
		case strings.Contains(d, "setting "):
			named = strings.Contains(left, "curl") && strings.Contains(left, "PUT")
		case strings.Contains(d, "page "):
			for _, p := range run.Cleanup.PagesLeft {
				named = named || strings.Contains(d, p)
			}
		}
		if !named {
			t.Errorf("the stored data differs after the run, and the run did not say so: %s\n(what the run left: %s)", d, left)
		}
	}
}

func readRunReport(path string) (*report.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return report.ReadJSON(f)
}
