package cli_test

// End-to-end tests of the CLI: each case runs the test binary as the
// `conformance` command in a subprocess (Ginkgo's RunSpecs runs once per
// process) and checks its exit code and output.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/testkit"
	"github.com/conformance-suite/conformance/schemas"
)

func TestMain(m *testing.M) { selftest.Main(m) }

// cliCase is one invocation and what it must do.
type cliCase struct {
	name       string
	args       []string
	env        []string
	wantExit   int
	wantStdout []string // substrings
	wantStderr []string
	notStdout  []string
	notStderr  []string
	// maxTime, when set, bounds how long the run may take.
	maxTime time.Duration
	// check, when set, looks further at the result; dir is the run's
	// working directory.
	check func(t *testing.T, res selftest.Result, dir string)
}

// runCases runs the cases in parallel, each in its own directory.
func runCases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			res := selftest.Run(t.Context(), selftest.Cmd{Args: c.args, Env: c.env, Dir: dir, Timeout: time.Minute})
			show := func() string {
				return "\n--- stdout ---\n" + selftest.Tail(res.Stdout, 30) + "\n--- stderr ---\n" + selftest.Tail(res.Stderr, 15)
			}
			if res.Err != nil || res.TimedOut {
				t.Fatalf("conformance %q did not run to its end (timed out: %v): %v%s", c.args, res.TimedOut, res.Err, show())
			}
			if res.Exit != c.wantExit {
				t.Errorf("conformance %q exited %d, want %d%s", c.args, res.Exit, c.wantExit, show())
			}
			for _, s := range c.wantStdout {
				if !strings.Contains(res.Stdout, s) {
					t.Errorf("stdout lacks %q%s", s, show())
				}
			}
			for _, s := range c.wantStderr {
				if !strings.Contains(res.Stderr, s) {
					t.Errorf("stderr lacks %q%s", s, show())
				}
			}
			for _, s := range c.notStdout {
				if strings.Contains(res.Stdout, s) {
					t.Errorf("stdout holds %q%s", s, show())
				}
			}
			for _, s := range c.notStderr {
				if strings.Contains(res.Stderr, s) {
					t.Errorf("stderr holds %q%s", s, show())
				}
			}
			if c.maxTime > 0 && res.Elapsed > c.maxTime {
				t.Errorf("the run took %s, want under %s", res.Elapsed.Round(time.Millisecond), c.maxTime)
			}
			if c.check != nil {
				c.check(t, res, dir)
			}
		})
	}
}

// htmlServer answers every request like a site whose API plugin is not
// active: the theme's HTML "Page not found".
func htmlServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("<!DOCTYPE html><html><head><title>Page not found</title></head><body><h1>Page not found</h1></body></html>"))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// oneProblemSentence checks that a run refused by preflight says why in
// exactly one line, and nothing that looks like a spec run or a crash.
func oneProblemSentence(t *testing.T, res selftest.Result, _ string) {
	t.Helper()
	n := strings.Count(res.Stdout, "The target cannot be checked: ")
	if n != 1 {
		t.Errorf("stdout has %d problem sentences, want 1:\n%s", n, res.Stdout)
	}
	for _, line := range strings.Split(res.Stdout, "\n") {
		if rest, ok := strings.CutPrefix(line, "The target cannot be checked: "); ok && !strings.HasSuffix(rest, ".") {
			t.Errorf("the problem sentence does not end with a full stop: %q", line)
		}
	}
	for _, bad := range []string{"panic", "goroutine ", "Ran ", "\x1b["} {
		if strings.Contains(res.Stdout+res.Stderr, bad) {
			t.Errorf("output holds %q:\n%s\n%s", bad, res.Stdout, res.Stderr)
		}
	}
}

func TestExitCodes(t *testing.T) {
	closed := testkit.RefusedURL(t)
	html := htmlServer(t)
	srv := testkit.Reference(t)
	ref, token := srv.URL, srv.Token
	runCases(t, []cliCase{
		{name: "0 demo passes", args: []string{"demo", "--no-color", "--label-filter", "area:users"},
			wantExit: 0, wantStdout: []string{"PASS", "Reports: conformance-reports/demo.json"},
			check: func(t *testing.T, _ selftest.Result, dir string) {
				// Without report flags demo writes its default reports.
				for _, f := range []string{"conformance-reports/demo.json", "conformance-reports/demo-junit.xml"} {
					if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
						t.Errorf("demo wrote no %s: %v", f, err)
					}
				}
			}},
		{name: "1 demo against a mutant fails",
			// The mutant breaks a cross-cutting header rule on every error
			// response; the users specs provoke a 404.
			args:     []string{"demo", "--no-color", "--mutant", string(reference.TextHTMLOnErrors), "--label-filter", "area:users || cross-cutting"},
			wantExit: 1, wantStdout: []string{"FAIL", "GEN-CONTENT-TYPE-JSON"}},
		{name: "2 unknown flag", args: []string{"--no-such-flag"},
			wantExit: 2, wantStderr: []string{"unknown flag: --no-such-flag", "conformance --help"}},
		{name: "2 unknown flag of demo", args: []string{"demo", "--no-such-flag"},
			wantExit: 2, wantStderr: []string{"unknown flag: --no-such-flag"}},
		{name: "2 bad label filter", args: []string{"--base-url", closed, "--token", "x", "--label-filter", "a &&"},
			wantExit: 2, wantStderr: []string{"--label-filter", "conformance --help"}, notStderr: []string{"\x1b["},
			notStdout: []string{"checking"}},
		{name: "2 bad label filter of demo", args: []string{"demo", "--label-filter", "a &&"},
			wantExit: 2, wantStderr: []string{"--label-filter"}, notStderr: []string{"\x1b["}, notStdout: []string{"Reports:"}},
		{name: "2 missing base URL", args: []string{"--token", "x"},
			wantExit: 2, wantStderr: []string{"--base-url (or CONFORMANCE_BASE_URL) is required"}},
		{name: "2 missing token", args: []string{"--base-url", closed},
			wantExit: 2, wantStderr: []string{"--token (or CONFORMANCE_TOKEN, or --token-file) is required"}},
		{name: "2 bad focus regexp", args: []string{"--base-url", closed, "--token", "x", "--focus", "("},
			wantExit: 2, wantStderr: []string{"not a regular expression"}},
		{name: "2 unreadable token file", args: []string{"--base-url", closed, "--token-file", "no/such/file"},
			wantExit: 2, wantStderr: []string{"--token-file"}},
		{name: "3 closed port", args: []string{"--base-url", closed, "--token", "x"},
			wantExit: 3, wantStdout: []string{"Cannot reach " + closed, "refused"}, maxTime: 5 * time.Second,
			check: oneProblemSentence},
		{name: "3 HTML instead of JSON", args: []string{"--base-url", html, "--token", "x"},
			wantExit: 3, wantStdout: []string{"HTML", "API plugin"}, check: oneProblemSentence},
		{name: "3 API token refused", args: []string{"--base-url", ref, "--token", reference.NewToken()},
			wantExit: 3, wantStdout: []string{"The API token was refused"}, check: oneProblemSentence},
		{name: "3 authentication token refused", args: []string{"--base-url", ref, "--auth-token", reference.NewToken()},
			env:      []string{"CONFORMANCE_TOKEN=" + token},
			wantExit: 3, wantStdout: []string{"The authentication token was refused"}, check: oneProblemSentence},
	})
}

func TestEnvironmentAndFlags(t *testing.T) {
	envURL, flagURL := testkit.RefusedURL(t), testkit.RefusedURL(t)
	srv := testkit.Reference(t)
	ref, token := srv.URL, srv.Token
	tokenFile := filepath.Join(t.TempDir(), "api.token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	runCases(t, []cliCase{
		{name: "CONFORMANCE_BASE_URL is used without the flag", args: []string{"--token", "x"},
			env:      []string{"CONFORMANCE_BASE_URL=" + envURL},
			wantExit: 3, wantStdout: []string{"checking " + envURL, "Cannot reach " + envURL}},
		{name: "the flag beats CONFORMANCE_BASE_URL", args: []string{"--base-url", flagURL},
			env:      []string{"CONFORMANCE_BASE_URL=" + envURL, "CONFORMANCE_TOKEN=x"},
			wantExit: 3, wantStdout: []string{"Cannot reach " + flagURL}, notStdout: []string{envURL}},
		{name: "--token-file is read", args: []string{"--base-url", ref, "--token-file", tokenFile, "--label-filter", "area:users"},
			wantExit: 0, wantStdout: []string{"PASS"}},
		{name: "--token-file beats CONFORMANCE_TOKEN", args: []string{"--base-url", ref, "--token-file", tokenFile, "--label-filter", "area:users"},
			env: []string{"CONFORMANCE_TOKEN=" + reference.NewToken()}, wantExit: 0, wantStdout: []string{"PASS"}},
		{name: "--token and --token-file together", args: []string{"--base-url", ref, "--token", token, "--token-file", tokenFile},
			wantExit: 2, wantStderr: []string{"not both"}},
		{name: "CONFORMANCE_LABEL_FILTER applies", args: []string{"demo", "--json-report", "r.json", "--junit-report", "r.xml"},
			env: []string{"CONFORMANCE_LABEL_FILTER=area:users"}, wantExit: 0,
			check: func(t *testing.T, _ selftest.Result, dir string) {
				onlyArea(t, filepath.Join(dir, "r.json"), "area:users", "users")
			}},
		{name: "--label-filter beats CONFORMANCE_LABEL_FILTER",
			args: []string{"demo", "--json-report", "r.json", "--junit-report", "r.xml", "--label-filter", "area:users"},
			env:  []string{"CONFORMANCE_LABEL_FILTER=area:pages"}, wantExit: 0,
			check: func(t *testing.T, _ selftest.Result, dir string) {
				onlyArea(t, filepath.Join(dir, "r.json"), "area:users", "users")
			}},
		{name: "a bad CONFORMANCE_READ_ONLY is a usage error", args: []string{"--base-url", ref, "--token", token},
			env: []string{"CONFORMANCE_READ_ONLY=maybe"}, wantExit: 2, wantStderr: []string{"CONFORMANCE_READ_ONLY"}},
		{name: "a bad --credentials is a usage error", args: []string{"--base-url", ref, "--token", token, "--credentials", "cookie"},
			wantExit: 2, wantStderr: []string{`invalid argument "cookie" for "--credentials" flag: want params or header`}},
		{name: "CONFORMANCE_CREDENTIALS=header against a server that reads only parameters", args: []string{"--base-url", ref, "--token", token},
			env: []string{"CONFORMANCE_CREDENTIALS=header"}, wantExit: 3, check: oneProblemSentence,
			wantStdout: []string{"does not take the API token from an Authorization: Bearer header"}},
		{name: "--credentials params beats CONFORMANCE_CREDENTIALS", args: []string{"--base-url", ref, "--token", token,
			"--credentials", "params", "--label-filter", "area:users"},
			env: []string{"CONFORMANCE_CREDENTIALS=header"}, wantExit: 0, wantStdout: []string{"PASS"}},
	})
}

// onlyArea checks that a JSON report ran with the label filter and that
// only specs of one area ran.
func onlyArea(t *testing.T, path, filter, area string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, err := report.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if run.Meta.LabelFilter != filter {
		t.Errorf("report meta.labelFilter = %q, want %q", run.Meta.LabelFilter, filter)
	}
	ran := 0
	for _, s := range run.Specs {
		if s.Status == report.Passed || s.Status == report.Failed {
			ran++
			if s.Area != area {
				t.Errorf("spec %q of area %s ran, but the filter selects area %s only", s.Name, s.Area, area)
			}
		}
	}
	if ran == 0 {
		t.Errorf("no spec of area %s ran", area)
	}
}

func TestInformationCommands(t *testing.T) {
	cat := spec.All()
	runCases(t, []cliCase{
		{name: "rules lists every rule", args: []string{"rules"}, wantExit: 0,
			check: func(t *testing.T, res selftest.Result, _ string) {
				for _, id := range cat.IDs() {
					if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(id) + `\s`).MatchString(res.Stdout) {
						t.Errorf("rules does not list %s", id)
					}
				}
			}},
		{name: "rules --format json", args: []string{"rules", "--format", "json"}, wantExit: 0,
			check: func(t *testing.T, res selftest.Result, _ string) {
				var rows []struct {
					ID          string
					NotTestable string
					Specs       []string `json:"specs"`
					Mutants     []string `json:"mutants"`
				}
				if err := json.Unmarshal([]byte(res.Stdout), &rows); err != nil {
					t.Fatalf("rules --format json is not JSON: %v\n%s", err, selftest.Tail(res.Stdout, 10))
				}
				var ids []string
				for _, r := range rows {
					ids = append(ids, r.ID)
				}
				if len(rows) != len(cat.IDs()) {
					t.Errorf("rules --format json has %d rows, the catalogue %d rules", len(rows), len(cat.IDs()))
				}
				for _, id := range cat.IDs() {
					if !slices.Contains(ids, id) {
						t.Errorf("rules --format json lacks %s", id)
					}
				}
			}},
		{name: "rules --format markdown", args: []string{"rules", "--format", "markdown"}, wantExit: 0,
			check: func(t *testing.T, res selftest.Result, _ string) {
				lines := strings.Split(res.Stdout, "\n")
				if len(lines) < 3 || !strings.HasPrefix(lines[0], "| ID |") || !strings.HasPrefix(lines[1], "|---") {
					t.Fatalf("markdown has no header row:\n%s", selftest.Tail(res.Stdout, 5))
				}
				cols := strings.Count(lines[0], "|")
				for _, id := range cat.IDs() {
					if !strings.Contains(res.Stdout, "| `"+id+"` |") {
						t.Errorf("markdown lacks a row for %s", id)
					}
				}
				for i, l := range lines[2:] {
					// Escaped pipes inside cells do not count as columns.
					if l != "" && strings.Count(l, "|")-strings.Count(l, `\|`) != cols {
						t.Errorf("markdown row %d has a different number of columns than the header: %s", i+3, l)
					}
				}
			}},
		{name: "rules --uncovered", args: []string{"rules", "--uncovered"}, wantExit: 0,
			wantStdout: []string{"testable rule(s) without a spec or a mutant"}},
		{name: "rules --format bogus", args: []string{"rules", "--format", "yaml"}, wantExit: 2,
			wantStderr: []string{"--format"}},
		{name: "version", args: []string{"version"}, wantExit: 0,
			check: func(t *testing.T, res selftest.Result, _ string) {
				if !regexp.MustCompile(`^conformance \S+\n$`).MatchString(res.Stdout) {
					t.Errorf("version printed %q, want \"conformance VERSION\"", res.Stdout)
				}
			}},
		{name: "--version", args: []string{"--version"}, wantExit: 0, wantStdout: []string{"version"}},
		{name: "--help", args: []string{"--help"}, wantExit: 0,
			wantStdout: []string{"Exit codes", "CONFORMANCE_BASE_URL", "--base-url", "--label-filter"}},
		{name: "schemas export", args: []string{"schemas", "export", "out"}, wantExit: 0,
			wantStdout: []string{"wrote"},
			check: func(t *testing.T, _ selftest.Result, dir string) {
				for _, n := range schemas.Names() {
					b, err := os.ReadFile(filepath.Join(dir, "out", n))
					if err != nil {
						t.Errorf("schema %s not written: %v", n, err)
						continue
					}
					if !json.Valid(b) {
						t.Errorf("schema %s is not JSON", n)
					}
				}
				if len(schemas.Names()) == 0 {
					t.Error("no schema names")
				}
			}},
		{name: "schemas export without DIR", args: []string{"schemas", "export"}, wantExit: 2},
		{name: "serve-reference --list-mutants", args: []string{"serve-reference", "--list-mutants"}, wantExit: 0,
			check: func(t *testing.T, res selftest.Result, _ string) {
				for _, m := range reference.Mutants() {
					if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(string(m.Name)) + `\s`).MatchString(res.Stdout) {
						t.Errorf("--list-mutants does not list %s", m.Name)
					}
				}
			}},
		{name: "serve-reference unknown mutant", args: []string{"serve-reference", "--addr", "127.0.0.1:0", "--mutant", "no-such-mutant"},
			wantExit: 2, wantStderr: []string{"no-such-mutant"}},
		{name: "demo unknown mutant", args: []string{"demo", "--mutant", "no-such-mutant"},
			wantExit: 2, wantStderr: []string{"no-such-mutant"}},
		{name: "demo unknown profile", args: []string{"demo", "--profile", "no-such-profile"},
			wantExit: 2, wantStderr: []string{"no-such-profile", string(reference.Divergent)}},
	})
}
