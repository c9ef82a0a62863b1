package cli_test

// End-to-end tests of the reports, the legacy diagnosis, --rerun-failed
// and diff: the CLI runs as a subprocess against the reference server and
// its mutants (TestMain in e2e_test.go makes the test binary the CLI).

import (
	"html"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// demo runs `conformance demo args...` in dir and returns the result.
func demo(t *testing.T, dir string, args ...string) selftest.Result {
	t.Helper()
	res := selftest.Run(t.Context(), selftest.Cmd{Args: append([]string{"demo"}, args...), Dir: dir, Timeout: time.Minute})
	if res.Err != nil || res.TimedOut {
		t.Fatalf("conformance demo %q did not run to its end: %v\n%s\n%s", args, res.Err, selftest.Tail(res.Stdout, 20), selftest.Tail(res.Stderr, 10))
	}
	return res
}

func readReport(t *testing.T, path string) *report.Run {
	t.Helper()
	r, err := report.ReadJSONFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// byStatus lists the rule IDs of a run with one of the statuses.
func byStatus(r *report.Run, statuses ...report.Status) []string {
	var ids []string
	for _, rr := range r.Rules {
		if slices.Contains(statuses, rr.Status) {
			ids = append(ids, rr.ID)
		}
	}
	return ids
}

var checkedStatuses = []report.Status{report.Passed, report.Failed, report.Errored}

// Against the mutant that behaves like the previous release, every format
// says so first, with the evidence; against one bug of that release alone
// none does.
func TestLegacyDiagnosisEndToEnd(t *testing.T) {
	t.Run(string(reference.Legacy321), func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		res := demo(t, dir, "--mutant", string(reference.Legacy321), "--json-report", "r.json", "--junit-report", "r.xml",
			"--html-report", "r.html", "--markdown-report", "r.md")
		if res.Exit != 1 {
			t.Fatalf("exit %d, want 1", res.Exit)
		}
		run := readReport(t, filepath.Join(dir, "r.json"))
		d := run.Diagnosis
		if d == nil {
			t.Fatalf("no diagnosis; failed rules: %v", byStatus(run, report.Failed))
		}
		if !strings.HasPrefix(d.Line, report.LegacyLine) || d.Evidence[0].Symptom != "handler failures answered HTTP 200" ||
			!slices.Contains(d.Evidence[0].Rules, "PAGE-GET-404") || len(d.Evidence) < 5 {
			t.Errorf("diagnosis %+v", d)
		}
		if !strings.Contains(res.Stdout, "\n"+d.Line+"\n\nConformance of ") {
			t.Errorf("the console summary does not start with the diagnosis:\n%s", selftest.Tail(res.Stdout, 10))
		}
		md := strings.Split(readFile(t, filepath.Join(dir, "r.md")), "\n")
		if len(md) < 3 || !strings.HasPrefix(md[0], "## ❌ FAIL") || !strings.HasPrefix(md[2], "> ⚠️ **This target behaves like a release before real status codes") {
			t.Errorf("the Markdown report does not open with verdict and diagnosis:\n%s", strings.Join(md[:min(4, len(md))], "\n"))
		}
		html := readFile(t, filepath.Join(dir, "r.html"))
		if i, j := strings.Index(html, `id="diagnosis"`), strings.Index(html, "Rules by area"); i < 0 || j < i {
			t.Error("the HTML report does not show the diagnosis before the rules")
		}
		if xml := readFile(t, filepath.Join(dir, "r.xml")); !strings.Contains(xml, "<!-- "+report.LegacyLine) ||
			!strings.Contains(xml, `<property name="diagnosis" value="`+report.LegacyLine) {
			t.Error("the JUnit report lacks the diagnosis comment or property")
		}
	})
	t.Run("handler-errors-200 alone", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		res := demo(t, dir, "--mutant", string(reference.HandlerErrors200), "--json-report", "r.json")
		if res.Exit != 1 {
			t.Fatalf("exit %d, want 1", res.Exit)
		}
		if d := readReport(t, filepath.Join(dir, "r.json")).Diagnosis; d != nil || strings.Contains(res.Stdout, report.LegacyLine) {
			t.Errorf("one bug of the old release diagnosed as the old release: %+v", d)
		}
	})
}

// Every format carries the suite version, target, date, filters and mode.
func TestReportsCarryRunFacts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := demo(t, dir, "--read-only", "--mutant", string(reference.UserMissing200), "--label-filter", "area:users && !endpoint:GET.users",
		"--json-report", "r.json", "--junit-report", "r.xml", "--html-report", "r.html", "--markdown-report", "r.md")
	if res.Exit != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.Exit, selftest.Tail(res.Stdout, 20))
	}
	run := readReport(t, filepath.Join(dir, "r.json"))
	m := run.Meta
	if m.SuiteVersion == "" || !strings.HasPrefix(m.Target, "http://127.0.0.1:") || m.Mode != "read-only" ||
		m.Started.IsZero() || m.LabelFilter != "area:users && !endpoint:GET.users" {
		t.Fatalf("meta %+v", m)
	}
	date := m.Started.UTC().Format("2006-01-02 15:04:05")
	for name, text := range map[string]string{
		"html":     readFile(t, filepath.Join(dir, "r.html")),
		"markdown": readFile(t, filepath.Join(dir, "r.md")),
		"summary":  res.Stdout,
	} {
		for _, want := range []string{m.SuiteVersion, m.Target, date, "read-only", "area:users", "!endpoint:GET.users"} {
			if name != "summary" { // HTML and Markdown escape &
				want = strings.ReplaceAll(want, "&", "&amp;")
			}
			if !strings.Contains(text, want) {
				t.Errorf("the %s report lacks %q", name, want)
			}
		}
	}
	xml := readFile(t, filepath.Join(dir, "r.xml"))
	for _, prop := range []string{"suiteVersion", "target", "date", "labelFilter", "mode"} {
		if !strings.Contains(xml, `<property name="`+prop+`"`) {
			t.Errorf("the JUnit report lacks property %s", prop)
		}
	}
	// The failing exchange is in the HTML, escaped, with its curl line.
	html := readFile(t, filepath.Join(dir, "r.html"))
	for _, want := range []string{`id="rule-USER-GET-404"`, "Got: HTTP 200", "curl -sS -i", "${CONFORMANCE_TOKEN}"} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
}

// --rerun-failed checks again exactly the rules that failed; then diff
// shows them fixed once the target is.
func TestRerunFailed(t *testing.T) {
	t.Run("rules of one spec each", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		first := demo(t, dir, "--mutant", string(reference.TagsAsString), "--label-filter", "area:taxonomy || area:users", "--json-report", "first.json")
		failed := byStatus(readReport(t, filepath.Join(dir, "first.json")), report.Failed)
		if first.Exit != 1 || len(failed) < 2 {
			t.Fatalf("the first run should fail several rules: exit %d, failed %v", first.Exit, failed)
		}

		again := demo(t, dir, "--mutant", string(reference.TagsAsString), "--rerun-failed", "first.json", "--json-report", "again.json")
		rerun := readReport(t, filepath.Join(dir, "again.json"))
		if again.Exit != 1 || !slices.Equal(byStatus(rerun, checkedStatuses...), failed) || !slices.Equal(byStatus(rerun, report.Failed), failed) {
			t.Fatalf("rerun: exit %d, checked %v, failed %v; want exactly %v checked and failing",
				again.Exit, byStatus(rerun, checkedStatuses...), byStatus(rerun, report.Failed), failed)
		}
		if rerun.Meta.RerunOf != "first.json" || !strings.Contains(rerun.Meta.LabelFilter, "rule: containsAny {") ||
			!strings.Contains(again.Stdout, "rerunning the "+strconv.Itoa(len(failed))+" rule(s) that failed in first.json") {
			t.Errorf("rerun meta %+v / stdout %s", rerun.Meta, selftest.Tail(again.Stdout, 3))
		}

		narrowed := demo(t, dir, "--mutant", string(reference.TagsAsString), "--rerun-failed", "first.json", "--label-filter", "rule:"+failed[0], "--json-report", "one.json")
		if got := byStatus(readReport(t, filepath.Join(dir, "one.json")), checkedStatuses...); narrowed.Exit != 1 || !slices.Equal(got, failed[:1]) {
			t.Errorf("--label-filter with --rerun-failed: exit %d, checked %v, want %v", narrowed.Exit, got, failed[:1])
		}

		fixed := demo(t, dir, "--rerun-failed", "first.json", "--json-report", "fixed.json")
		if got := byStatus(readReport(t, filepath.Join(dir, "fixed.json")), report.Passed); fixed.Exit != 0 || !slices.Equal(got, failed) {
			t.Fatalf("rerun against the fixed target: exit %d, passed %v, want %v", fixed.Exit, got, failed)
		}
		diff := selftest.Run(t.Context(), selftest.Cmd{Args: []string{"diff", "first.json", "fixed.json"}, Dir: dir})
		if diff.Exit != 0 || !strings.Contains(diff.Stdout, "Fixed: failed before, pass now ("+strconv.Itoa(len(failed))+")") {
			t.Errorf("diff after the fix: exit %d\n%s", diff.Exit, diff.Stdout)
		}

		nothing := demo(t, dir, "--rerun-failed", "fixed.json")
		if nothing.Exit != 0 || !strings.Contains(nothing.Stdout, "nothing to rerun") {
			t.Errorf("rerun of a passing report: exit %d\n%s", nothing.Exit, nothing.Stdout)
		}
	})
	t.Run("a cross-cutting rule", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		demo(t, dir, "--read-only", "--mutant", string(reference.NoCacheOnlyOnSuccess), "--label-filter", "area:users || cross-cutting", "--json-report", "first.json")
		if failed := byStatus(readReport(t, filepath.Join(dir, "first.json")), report.Failed); !slices.Contains(failed, "GEN-NO-CACHE") {
			t.Fatalf("the first run should fail GEN-NO-CACHE; failed %v", failed)
		}
		again := demo(t, dir, "--read-only", "--mutant", string(reference.NoCacheOnlyOnSuccess), "--rerun-failed", "first.json", "--json-report", "again.json")
		rerun := readReport(t, filepath.Join(dir, "again.json"))
		checked := byStatus(rerun, checkedStatuses...)
		// The users specs run again to make the traffic GEN-NO-CACHE
		// judges; the other cross-cutting rules, which passed, do not.
		if again.Exit != 1 || !slices.Contains(byStatus(rerun, report.Failed), "GEN-NO-CACHE") ||
			!slices.Contains(checked, "USER-GET-404") || slices.Contains(checked, "GEN-CORS-ANY-ORIGIN") || slices.Contains(checked, "PAGE-GET-404") {
			t.Errorf("rerun: exit %d, checked %v, failed %v", again.Exit, checked, byStatus(rerun, report.Failed))
		}
	})
	t.Run("an unreadable report", func(t *testing.T) {
		t.Parallel()
		res := demo(t, t.TempDir(), "--rerun-failed", "no-such.json")
		if res.Exit != 2 || !strings.Contains(res.Stderr, "--rerun-failed") {
			t.Errorf("exit %d, stderr %s", res.Exit, res.Stderr)
		}
	})
}

// The HTML and Markdown reports hold the exchanges of failures; like every
// output they must not hold a token, in any form a request carried it.
func TestNewReportsRedactTokens(t *testing.T) {
	t.Parallel()
	token := "tokCANARY" + strings.Repeat("7f3a", 14)
	auth := "authCANARY" + strings.Repeat("c0de", 14)
	srv := testkit.ReferenceWith(t, reference.Options{Token: token, AuthToken: auth, Mutants: []reference.Mutant{reference.Legacy321}}, nil)
	dir := t.TempDir()
	res := selftest.Run(t.Context(), selftest.Cmd{Dir: dir, Timeout: time.Minute,
		Args: []string{"--allow-settings-write", "--html-report", "r.html", "--markdown-report", "r.md", "--json-report", "r.json", "--junit-report", "r.xml"},
		Env:  []string{"CONFORMANCE_BASE_URL=" + srv.URL, "CONFORMANCE_TOKEN=" + token, "CONFORMANCE_AUTH_TOKEN=" + auth}})
	if res.Exit != 1 {
		t.Fatalf("exit %d, want 1 (the legacy mutant fails rules)\n%s", res.Exit, selftest.Tail(res.Stdout, 10))
	}
	outputs := map[string]string{"stdout": res.Stdout, "stderr": res.Stderr}
	for _, f := range []string{"r.html", "r.md", "r.json", "r.xml"} {
		outputs[f] = readFile(t, filepath.Join(dir, f))
	}
	if !strings.Contains(outputs["r.html"], "${CONFORMANCE_TOKEN}") || !strings.Contains(outputs["r.md"], "${CONFORMANCE_AUTH_TOKEN}") {
		t.Error("the reports show no redacted exchange: the scan below proves nothing")
	}
	for name, text := range outputs {
		for _, secret := range []string{token, auth} {
			for _, form := range []string{secret, url.QueryEscape(secret), html.EscapeString(secret), secret[4:24], secret[len(secret)-20:]} {
				if strings.Contains(text, form) {
					t.Errorf("%s holds the token %q", name, form)
				}
			}
		}
	}
}
