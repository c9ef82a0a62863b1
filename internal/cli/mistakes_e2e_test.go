package cli_test

// End-to-end tests of the mistakes people make first: each must get its
// own diagnosis (exit 2 for usage, before any request), never a wrong
// one such as "the token was refused".

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// countingServer answers every request with a 500 and counts them, to
// show that a mistake was refused before any request.
func countingServer(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// noRequest fails when the counting server saw a request.
func noRequest(n *atomic.Int64) func(*testing.T, selftest.Result, string) {
	return func(t *testing.T, _ selftest.Result, _ string) {
		t.Helper()
		if got := n.Load(); got > 0 {
			t.Errorf("the target received %d request(s); the mistake must be refused before any", got)
		}
	}
}

func TestBaseURLWithAPIPath(t *testing.T) {
	site, n := countingServer(t)
	runCases(t, []cliCase{
		{name: "/api", args: []string{"--base-url", site + "/api", "--token", "x"}, wantExit: 2,
			wantStderr: []string{"includes the API's path /api", "--base-url " + site + " ("},
			notStderr:  []string{"refused"}, notStdout: []string{"checking"}, check: noRequest(n)},
		{name: "/api/pages/", args: []string{"--base-url", site + "/api/pages/", "--token", "x"}, wantExit: 2,
			wantStderr: []string{"includes the API's path /api/pages/", "--base-url " + site + " ("}, check: noRequest(n)},
		{name: "a site in a folder", args: []string{"--base-url", site + "/blog/api"}, env: []string{"CONFORMANCE_TOKEN=x"}, wantExit: 2,
			wantStderr: []string{"--base-url " + site + "/blog ("}, check: noRequest(n)},
		{name: "cleanup too", args: []string{"cleanup", "--base-url", site + "/api", "--token", "x", "--dry-run"}, wantExit: 2,
			wantStderr: []string{"includes the API's path /api"}, check: noRequest(n)},
	})
}

func TestTokenWithWhitespace(t *testing.T) {
	site, n := countingServer(t)
	token := reference.NewToken()
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	spaced, crlf := file("spaced.token", token+" \n"), file("crlf.token", token+"\r\n")
	otherSite, _ := countingServer(t)
	const said = "has spaces, tabs or line breaks around it"
	runCases(t, []cliCase{
		{name: "--token", args: []string{"--base-url", site, "--token", " " + token}, wantExit: 2,
			wantStderr: []string{"API token from --token " + said}, notStderr: []string{token}, check: noRequest(n)},
		{name: "CONFORMANCE_TOKEN", args: []string{"--base-url", site}, env: []string{"CONFORMANCE_TOKEN=" + token + "\t"}, wantExit: 2,
			wantStderr: []string{"API token from CONFORMANCE_TOKEN " + said}, notStderr: []string{token}, check: noRequest(n)},
		{name: "--token-file with a space before the newline", args: []string{"--base-url", site, "--token-file", spaced}, wantExit: 2,
			wantStderr: []string{"API token from the file " + spaced + " (--token-file) " + said}, notStderr: []string{token}, check: noRequest(n)},
		{name: "CONFORMANCE_AUTH_TOKEN", args: []string{"--base-url", site, "--token", token},
			env: []string{"CONFORMANCE_AUTH_TOKEN=" + token + "\n"}, wantExit: 2,
			wantStderr: []string{"authentication token from CONFORMANCE_AUTH_TOKEN " + said}, notStderr: []string{token}, check: noRequest(n)},
		// A file's final line break, also a Windows one, is not the token's.
		// Its own server: its requests must not count against the
		// cases above, which run in parallel.
		{name: "--token-file ending in CRLF is fine", args: []string{"--base-url", otherSite, "--token-file", crlf}, wantExit: 3,
			notStderr: []string{said}},
	})
}

func TestEnvironmentBooleans(t *testing.T) {
	srv := testkit.Reference(t)
	ref, token, auth := srv.URL, srv.Token, srv.AuthToken
	var cases []cliCase
	for v, mode := range map[string]string{"1": "read-only", "true": "read-only", "YES": "read-only", "On": "read-only",
		"0": "writes", "False": "writes", "no": "writes", "OFF": "writes"} {
		cases = append(cases, cliCase{name: "CONFORMANCE_READ_ONLY=" + v,
			args:     []string{"--base-url", ref, "--label-filter", "rule:USER-GET-404"},
			env:      []string{"CONFORMANCE_TOKEN=" + token, "CONFORMANCE_AUTH_TOKEN=" + auth, "CONFORMANCE_READ_ONLY=" + v},
			wantExit: 0, wantStdout: []string{"(" + mode + " mode)"}})
	}
	cases = append(cases, cliCase{name: "CONFORMANCE_READ_ONLY=maybe", args: []string{"--base-url", ref, "--token", token},
		env: []string{"CONFORMANCE_READ_ONLY=maybe"}, wantExit: 2,
		wantStderr: []string{`CONFORMANCE_READ_ONLY="maybe": want 1, true, yes or on, or 0, false, no or off`},
		notStderr:  []string{"strconv"}})
	runCases(t, cases)
}

func TestHelpExplainsTimeoutZero(t *testing.T) {
	runCases(t, []cliCase{{name: "--help", args: []string{"--help"}, wantExit: 0, wantStdout: []string{"(0: no limit)", "- for standard output"}}})
}

func TestLabelFilterMistakes(t *testing.T) {
	site, n := countingServer(t)
	args := func(filter string) []string {
		return []string{"--base-url", site, "--token", "x", "--label-filter", filter}
	}
	srv := testkit.Reference(t)
	ref, token := srv.URL, srv.Token
	runCases(t, []cliCase{
		{name: "unknown rule", args: args("rule:NOPE"), wantExit: 2,
			wantStderr: []string{"no spec has the label rule:NOPE", "conformance rules lists every rule ID"}, check: noRequest(n)},
		{name: "misspelt area", args: args("area:pagez || area:users"), wantExit: 2,
			wantStderr: []string{"no spec has the label area:pagez; did you mean area:pages?", "area:users"}, check: noRequest(n)},
		{name: "area without its key", args: args("pages"), wantExit: 2,
			wantStderr: []string{"did you mean area:pages?"}, check: noRequest(n)},
		{name: "unknown endpoint", args: args("endpoint:GET.pagez"), wantExit: 2,
			wantStderr: []string{"did you mean endpoint:GET.pages?"}, check: noRequest(n)},
		{name: "unknown value of a set", args: args("rule: containsAny {USER-GET-404, USER-GET-40}"), wantExit: 2,
			wantStderr: []string{"no spec has the label rule:USER-GET-40;"}, notStderr: []string{"label rule:USER-GET-404"}, check: noRequest(n)},
		{name: "selects nothing", args: args("area:users && area:pages"), wantExit: 2,
			wantStderr: []string{`--label-filter "area:users && area:pages" selects no spec`}, check: noRequest(n)},
		{name: "focus selects nothing", args: []string{"--base-url", site, "--token", "x", "--focus", "no spec says this"}, wantExit: 2,
			wantStderr: []string{"selects no spec"}, check: noRequest(n)},
		{name: "demo too", args: []string{"demo", "--label-filter", "area:pagez"}, wantExit: 2,
			wantStderr: []string{"did you mean area:pages?"}, notStdout: []string{"Reports:"}},
		{name: "a filtered summary lists what it selected", args: []string{"--base-url", ref, "--token", token, "--label-filter", "area:users"},
			wantExit: 0, wantStdout: []string{"rules not selected by the filters are not shown", "\nusers "},
			notStdout: []string{report.ReasonNotSelected, "\npages "}},
	})
}

func TestReportMistakes(t *testing.T) {
	site, n := countingServer(t)
	dir := t.TempDir()
	aFile := filepath.Join(dir, "a-file")
	if err := os.WriteFile(aFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []cliCase{
		{name: "directory is a file", args: []string{"--base-url", site, "--token", "x", "--json-report", filepath.Join(aFile, "r.json")},
			wantExit: 2, wantStderr: []string{"--json-report " + filepath.Join(aFile, "r.json") + " cannot be written: " + aFile + " is a file"},
			check: noRequest(n)},
		{name: "report is a directory", args: []string{"--base-url", site, "--token", "x", "--html-report", dir},
			wantExit: 2, wantStderr: []string{"--html-report " + dir + " cannot be written: it is a directory"}, check: noRequest(n)},
		{name: "two reports to stdout", args: []string{"--base-url", site, "--token", "x", "--json-report", "-", "--junit-report", "-"},
			wantExit: 2, wantStderr: []string{"only one report can go to standard output (-), and --json-report and --junit-report name it"},
			check: noRequest(n)},
	}
	// /dev/full takes the file but no byte: a write that fails after the
	// checks before the run. Only root can create the check's file in /dev.
	if _, err := os.Stat("/dev/full"); err == nil && os.Geteuid() == 0 {
		cases = append(cases, cliCase{name: "a write that fails at the end",
			args:     []string{"demo", "--label-filter", "area:users", "--json-report", "/dev/full", "--junit-report", "r.xml", "--html-report", "r.html"},
			wantExit: 2, wantStdout: []string{"PASS", "conformance: could not write the report /dev/full: "},
			check: func(t *testing.T, res selftest.Result, dir string) {
				if strings.Count(res.Stdout, "could not write") != 1 {
					t.Errorf("want one sentence about the report:\n%s", selftest.Tail(res.Stdout, 5))
				}
				for _, f := range []string{"r.xml", "r.html"} {
					if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
						t.Errorf("the run did not write %s, which it could: %v", f, err)
					}
				}
			}})
	}
	runCases(t, cases)
}

func TestReportToStandardOutput(t *testing.T) {
	runCases(t, []cliCase{
		{name: "--json-report -", args: []string{"demo", "--label-filter", "area:users", "--json-report", "-"}, wantExit: 0,
			wantStderr: []string{"PASS", "Reports: standard output", "7 rules: 7 passed"}, // the progress too
			check: func(t *testing.T, res selftest.Result, dir string) {
				if !json.Valid([]byte(res.Stdout)) {
					t.Fatalf("stdout is not the JSON report alone:\n%s", selftest.Tail(res.Stdout, 10))
				}
				run, err := report.ReadJSON(strings.NewReader(res.Stdout))
				if err != nil || run.Counts.Passed == 0 {
					t.Errorf("stdout is not a report of the run (%v): %+v", err, run)
				}
				if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
					t.Error("the run wrote a file named -")
				}
			}},
		{name: "--junit-report -", args: []string{"demo", "--label-filter", "area:users", "--junit-report", "-"}, wantExit: 0,
			wantStderr: []string{"PASS"},
			check: func(t *testing.T, res selftest.Result, _ string) {
				var v struct {
					XMLName xml.Name `xml:"testsuites"`
				}
				if err := xml.Unmarshal([]byte(res.Stdout), &v); err != nil {
					t.Errorf("stdout is not the JUnit report alone: %v\n%s", err, selftest.Tail(res.Stdout, 10))
				}
			}},
	})
}
