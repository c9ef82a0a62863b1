package cli_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/report"
)

// The reports of real failing runs fit where they go: the Markdown in a
// pull-request comment, naming every failed rule; the JUnit file in
// strict consumers (checked with xmllint against the schema the report
// package's tests use, when xmllint is installed).
func TestFailingRunReportsFit(t *testing.T) {
	for _, mutant := range []string{"tags-as-string", "legacy-3.21"} {
		t.Run(mutant, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			res := demo(t, dir, "--mutant", mutant, "--json-report", "r.json", "--junit-report", "r.xml", "--markdown-report", "r.md")
			if res.Exit != 1 {
				t.Fatalf("exit %d, want 1", res.Exit)
			}
			md := readFile(t, filepath.Join(dir, "r.md"))
			t.Logf("%s: Markdown report %d bytes", mutant, len(md))
			if len(md) > report.MarkdownLimit {
				t.Errorf("the Markdown report is %d bytes, over %d", len(md), report.MarkdownLimit)
			}
			failed := byStatus(readReport(t, filepath.Join(dir, "r.json")), report.Failed, report.Errored)
			if len(failed) == 0 {
				t.Fatal("no rule failed: the mutant proves nothing here")
			}
			for _, id := range failed {
				if !strings.Contains(md, id) {
					t.Errorf("the Markdown report does not name failed rule %s", id)
				}
			}
			xmllint, err := exec.LookPath("xmllint")
			if err != nil {
				t.Skip("xmllint not installed: the JUnit schema is checked by internal/report's tests only")
			}
			out, err := exec.Command(xmllint, "--noout", "--schema", filepath.Join("..", "report", "testdata", "junit.xsd"),
				filepath.Join(dir, "r.xml")).CombinedOutput()
			if err != nil {
				t.Errorf("xmllint refuses the JUnit report: %v\n%s", err, out)
			}
		})
	}
}
