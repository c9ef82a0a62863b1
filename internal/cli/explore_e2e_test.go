package cli_test

// End-to-end tests of `conformance explore`: the CLI runs as a subprocess
// (TestMain in e2e_test.go makes the test binary the CLI), against its own
// reference server (--reference) or one this test serves and watches.

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// explore runs `conformance explore args...` in dir.
func explore(t *testing.T, dir string, env []string, args ...string) selftest.Result {
	t.Helper()
	res := selftest.Run(t.Context(), selftest.Cmd{Args: append([]string{"explore"}, args...), Env: env, Dir: dir, Timeout: 2 * time.Minute})
	if res.Err != nil || res.TimedOut {
		t.Fatalf("conformance explore %q did not run to its end: %v\n%s\n%s", args, res.Err, selftest.Tail(res.Stdout, 20), selftest.Tail(res.Stderr, 10))
	}
	return res
}

func shown(res selftest.Result) string {
	return "\n--- stdout ---\n" + selftest.Tail(res.Stdout, 40) + "\n--- stderr ---\n" + selftest.Tail(res.Stderr, 10)
}

// replayLine is the replay command a finding prints.
var replayLine = regexp.MustCompile(`replay: conformance explore --replay (\S+\.json)`)

// An exploration of the reference server with an explore mutant finds
// it: exit 1, the finding with its rule, its request and curl line, and
// the replay command, whose file --replay sends again: still failing
// against the mutant (exit 1), passing against the reference (exit 0).
func TestExploreFindsAndReplays(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mutant := string(reference.ExploreTagAmpersandCrash)
	res := explore(t, dir, nil, "--reference", "--mutant", mutant, "--seed", "1", "--no-color")
	if res.Exit != 1 {
		t.Fatalf("exit %d, want 1%s", res.Exit, shown(res))
	}
	for _, want := range []string{"seed 1", "1. GEN-NO-CRASH (status)", "got HTTP 500", "smallest create case: 5 field(s), 16 character(s), shrunk from ",
		"request:  POST http://127.0.0.1:", "reproduce: curl ", "${CONFORMANCE_TOKEN}", "FAIL: "} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("stdout lacks %q%s", want, shown(res))
		}
	}
	if strings.Contains(res.Stdout+res.Stderr, "\x1b[") {
		t.Errorf("colour codes in the output%s", shown(res))
	}
	m := replayLine.FindStringSubmatch(res.Stdout)
	if m == nil {
		t.Fatalf("no replay command%s", shown(res))
	}
	file := m[1]
	if !strings.HasPrefix(file, filepath.Join("conformance-reports", "explore")+string(filepath.Separator)) {
		t.Errorf("the replay file %s is not under the default --replay-dir", file)
	}
	var saved struct {
		Finding struct{ Rule string }
		Case    struct{ Kind string }
		Curl    string
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, file))), &saved); err != nil {
		t.Fatalf("the replay file: %v", err)
	}
	if saved.Finding.Rule != "GEN-NO-CRASH" || saved.Case.Kind != "create" || !strings.HasPrefix(saved.Curl, "curl ") {
		t.Errorf("the replay file holds %+v", saved)
	}

	again := explore(t, dir, nil, "--replay", file, "--reference", "--mutant", mutant)
	if again.Exit != 1 || !strings.Contains(again.Stdout, file+": still fails: GEN-NO-CRASH: status") {
		t.Errorf("--replay against the mutant: exit %d, want 1 and the finding again%s", again.Exit, shown(again))
	}
	fixed := explore(t, dir, nil, "--replay", file, "--reference")
	if fixed.Exit != 0 || !strings.Contains(fixed.Stdout, file+": passes (GEN-NO-CRASH: status fixed)") {
		t.Errorf("--replay against the reference: exit %d, want 0 and the case passing%s", fixed.Exit, shown(fixed))
	}
}

// Every report of an exploration is written, and no output holds a token
// in any form, against a server that echoes the API token in answers
// (a finding the reports must show without it).
func TestExploreReportsHoldNoToken(t *testing.T) {
	t.Parallel()
	srv := testkit.Reference(t, reference.ExploreMissingTagEchoesToken)
	dir := t.TempDir()
	res := explore(t, dir, targetEnv(srv), "--allow-settings-write", "--seed", "2", "--explore-requests", "800", "--replay-dir", "replays",
		"--json-report", "r.json", "--junit-report", "r.xml", "--html-report", "r.html", "--markdown-report", "r.md", "--har-report", "r.har")
	if res.Exit != 1 || !strings.Contains(res.Stdout, "AUTH-NO-TOKEN-IN-ANSWER") {
		t.Fatalf("exit %d, want 1 with the token echo found%s", res.Exit, shown(res))
	}
	files := map[string]string{"stdout": res.Stdout, "stderr": res.Stderr}
	for _, name := range []string{"r.json", "r.xml", "r.html", "r.md", "r.har"} {
		files[name] = readFile(t, filepath.Join(dir, name))
	}
	replays, _ := filepath.Glob(filepath.Join(dir, "replays", "*.json"))
	if len(replays) == 0 {
		t.Errorf("no replay file in replays/")
	}
	for _, f := range replays {
		files[f] = readFile(t, f)
	}
	run := readReport(t, filepath.Join(dir, "r.json"))
	if !strings.HasPrefix(run.Meta.Mode, "explore") || !slices.Contains(byStatus(run, report.Failed), "AUTH-NO-TOKEN-IN-ANSWER") {
		t.Errorf("the JSON report: mode %q, failed rules %v", run.Meta.Mode, byStatus(run, report.Failed))
	}
	if err := xml.Unmarshal([]byte(files["r.xml"]), new(struct{})); err != nil {
		t.Errorf("the JUnit report is not XML: %v", err)
	}
	var h struct {
		Log struct {
			Version string
			Entries []json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(files["r.har"]), &h); err != nil || h.Log.Version != "1.2" || len(h.Log.Entries) == 0 {
		t.Errorf("the HAR log: version %q, %d entries (%v)", h.Log.Version, len(h.Log.Entries), err)
	}
	for name, text := range files {
		if strings.HasPrefix(name, "r.") && name != "r.json" && name != "r.har" && !strings.Contains(text, "AUTH-NO-TOKEN-IN-ANSWER") {
			t.Errorf("%s does not show the finding", name)
		}
		for tname, tok := range map[string]string{"API token": srv.Token, "authentication token": srv.AuthToken} {
			for form, v := range map[string]string{"whole": tok, "query-escaped": url.QueryEscape(tok), "its start": tok[:24], "its end": tok[len(tok)-24:]} {
				if strings.Contains(text, v) {
					t.Errorf("%s holds the %s (%s)", name, tname, form)
				}
			}
		}
	}
}

// targetEnv points the CLI at srv through the environment (tokens stay
// out of the process list).
func targetEnv(srv testkit.Server) []string {
	return []string{"CONFORMANCE_BASE_URL=" + srv.URL, "CONFORMANCE_TOKEN=" + srv.Token, "CONFORMANCE_AUTH_TOKEN=" + srv.AuthToken}
}

// authWatch records, at the server, every write (any method but GET,
// HEAD, OPTIONS) and those that carry the authentication token anywhere:
// query, body or a header.
type authWatch struct {
	token  string
	mu     sync.Mutex
	writes int
	authed []string
}

func (w *authWatch) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions {
			var head strings.Builder
			_ = r.Header.Write(&head)
			carries := strings.Contains(r.URL.RawQuery+" "+string(body)+" "+head.String(), w.token) ||
				strings.Contains(r.URL.RawQuery+string(body), url.QueryEscape(w.token))
			w.mu.Lock()
			w.writes++
			if carries {
				w.authed = append(w.authed, r.Method+" "+r.URL.Path)
			}
			w.mu.Unlock()
		}
		h.ServeHTTP(rw, r)
	})
}

// A read-only exploration, even given the authentication token, sends no
// write that carries it: only GETs and write probes that cannot succeed
// (watched at the server); the site's storage is as it was, and no two
// requests were in flight together.
func TestExploreReadOnlySendsNoAuthenticatedWrite(t *testing.T) {
	t.Parallel()
	opts := reference.Options{Token: reference.NewToken(), AuthToken: reference.NewToken()}
	watch := &authWatch{token: opts.AuthToken}
	wire := testkit.NewWireWatch()
	srv := testkit.ReferenceWith(t, opts, func(h http.Handler) http.Handler { return wire.Wrap(watch.wrap(h)) })
	before := srv.Storage()
	res := explore(t, t.TempDir(), targetEnv(srv), "--read-only", "--seed", "3", "--explore-requests", "600")
	if res.Exit != 0 || !strings.Contains(res.Stdout, "(read-only mode)") {
		t.Errorf("exit %d, want 0 in read-only mode%s", res.Exit, shown(res))
	}
	watch.mu.Lock()
	defer watch.mu.Unlock()
	if watch.writes == 0 {
		t.Errorf("no write probe was sent: the check below tells nothing")
	}
	if len(watch.authed) > 0 {
		t.Errorf("%d of %d writes carried the authentication token, e.g. %s", len(watch.authed), watch.writes, watch.authed[0])
	}
	if d := before.Diff(srv.Storage()); len(d) > 0 {
		t.Errorf("the read-only exploration changed the storage:\n%s", strings.Join(d, "\n"))
	}
	if seen := wire.Seen(); seen.Peak > 1 || len(seen.Overlaps) > 0 {
		t.Errorf("requests in flight together (peak %d): %v", seen.Peak, seen.Overlaps)
	}
}

// The normal run's flags: the display and control flags work; those that
// choose what a normal run checks say why they do not apply.
func TestExploreTakesTheRunFlags(t *testing.T) {
	runCases(t, []cliCase{
		{name: "display and control flags", args: []string{"explore", "--reference", "--no-color", "--verbose", "--timeout", "30s",
			"--explore-requests", "60", "--seed", "4", "--replay-dir", "replays"}, wantExit: 0, wantStdout: []string{"budget 60 requests / 30s", "rapid: [rapid] OK", "PASS: "},
			notStdout: []string{"\x1b["}},
		{name: "fail fast", args: []string{"explore", "--reference", "--mutant", string(reference.ExploreTagAmpersandCrash), "--seed", "1", "--fail-fast",
			"--replay-dir", "replays"}, wantExit: 1, wantStdout: []string{"1. GEN-NO-CRASH", "FAIL: 1 finding(s)"}, notStdout: []string{"\n2. "}},
		{name: "NO_COLOR", args: []string{"explore", "--reference", "--explore-requests", "40", "--seed", "5", "--replay-dir", "replays"}, env: []string{"NO_COLOR=1"},
			wantExit: 0, wantStdout: []string{"PASS: "}},
		{name: "a normal run's selection", args: []string{"explore", "--reference", "--label-filter", "area:pages", "--concurrency", "4"}, wantExit: 2,
			wantStderr: []string{"--label-filter is a flag of a normal run", "--explore-kinds", "--concurrency is a flag of a normal run: explore sends one request at a time"}},
		{name: "a normal run's variables do not stop it", args: []string{"explore", "--reference", "--explore-requests", "40", "--seed", "6", "--replay-dir", "replays"},
			env: []string{"CONFORMANCE_CONCURRENCY=4", "CONFORMANCE_LABEL_FILTER=area:pages"}, wantExit: 0, wantStdout: []string{"PASS: "}},
		{name: "two reports on standard output", args: []string{"explore", "--reference", "--json-report", "-", "--har-report", "-"}, wantExit: 2,
			wantStderr: []string{"only one report can go to standard output"}},
	})
}
