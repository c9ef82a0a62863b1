package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/redact"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/spec"
)

// A token that reached a failure message unredacted (a value Gomega
// printed) must not survive into any report, whatever each format escapes:
// Markdown writes "_" as "\_" and html/template writes "+" as "&#43;", forms
// a redactor reading the rendered bytes would not know.
func TestReportsRedactTokensEveryFormatEscapes(t *testing.T) {
	const token = "tok_en+Secret*value"
	run := report.Build(nil, spec.All(), report.Meta{Target: "http://127.0.0.1:9", RunID: "r1"}, report.Extras{})
	run.Verdict = "FAIL: got " + token
	run.Specs = append(run.Specs, report.SpecResult{Name: "s", Rules: []string{run.Rules[0].ID}, Status: report.Failed,
		Message: "Expected\n    <string>: " + token + "\nto equal\n    <string>: x"})
	run.Rules[0].Status, run.Rules[0].Specs = report.Failed, []int{len(run.Specs) - 1}
	run.Observations = []string{"observed " + token}

	dir := t.TempDir()
	cfg := Config{JSONReport: filepath.Join(dir, "r.json"), JUnitReport: filepath.Join(dir, "r.xml"),
		HTMLReport: filepath.Join(dir, "r.html"), MarkdownReport: filepath.Join(dir, "r.md")}
	if err := writeReports(run, cfg, redact.New(redact.Secret{Value: token, Placeholder: "${T}"}), nil); err != nil {
		t.Fatal(err)
	}
	for _, path := range reportPaths(cfg) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "Secret") {
			t.Errorf("%s holds the token", filepath.Base(path))
		}
		if !strings.Contains(string(b), "${T}") && !strings.Contains(string(b), "$\\{T\\}") {
			t.Errorf("%s shows no placeholder: the check above proves nothing", filepath.Base(path))
		}
	}
}
