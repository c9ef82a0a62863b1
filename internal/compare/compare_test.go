package compare

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// The inputs are the report package's fixtures: JSON reports saved from
// real demo runs (testdata/diff) and the golden JSON report of its fixed
// run, whose small catalogue differs from the suite's.
var (
	reportData     = filepath.Join("..", "report", "testdata")
	regression     = filepath.Join(reportData, "diff", "regression")
	fixtureReport  = filepath.Join(reportData, "report.json.golden")
	regressionPair = []string{filepath.Join(regression, "before.json"), filepath.Join(regression, "after.json")}
)

func load(t *testing.T, paths ...string) *Matrix {
	t.Helper()
	inputs, err := Load(paths)
	if err != nil {
		t.Fatal(err)
	}
	return Build(inputs)
}

func row(t *testing.T, m *Matrix, id string) Row {
	t.Helper()
	for _, r := range m.Rows {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no row %s", id)
	return Row{}
}

func TestMatrixOfTwoRuns(t *testing.T) {
	m := load(t, regressionPair...)
	if got := []string{m.Columns[0].Label, m.Columns[1].Label}; got[0] != "before" || got[1] != "after" {
		t.Errorf("labels %v", got)
	}
	for _, tc := range []struct {
		id      string
		cells   []report.Status
		differs bool
	}{
		{"USER-GET-404", []report.Status{report.Passed, report.Failed}, true},
		{"TAG-GET-404", []report.Status{report.Failed, report.Passed}, true},
		{"TAG-LIST-SHAPE", []report.Status{report.Passed, report.NotChecked}, true},
		{"FILES-LIST-SHAPE", []report.Status{report.NotChecked, report.Passed}, true},
		{"CAT-GET-404", []report.Status{report.Passed, report.Passed}, false},
		{"PAGE-LIST-ALL", []report.Status{report.NotChecked, report.NotChecked}, false},
		{"GEN-EVENTS", []report.Status{report.NotTestable, report.NotTestable}, false},
	} {
		r := row(t, m, tc.id)
		if r.Differs != tc.differs || r.Cells[0] != tc.cells[0] || r.Cells[1] != tc.cells[1] {
			t.Errorf("%s: cells %v differs %v; want %v %v", tc.id, r.Cells, r.Differs, tc.cells, tc.differs)
		}
	}
	// Differing counts the rows independently of how they are marked.
	before, _ := report.ReadJSONFile(regressionPair[0])
	after, _ := report.ReadJSONFile(regressionPair[1])
	want := 0
	for i := range before.Rules {
		if before.Rules[i].Status != after.Rules[i].Status {
			want++
		}
	}
	if m.Differing != want || want == 0 {
		t.Errorf("Differing = %d, want %d", m.Differing, want)
	}
	if m.Columns[1].Totals != after.Counts {
		t.Errorf("totals %+v, want the report's counts %+v", m.Columns[1].Totals, after.Counts)
	}
}

// A rule one report does not list (another catalogue) is "absent" there,
// which is a difference; rules only a later report has are appended.
func TestAbsentRules(t *testing.T) {
	m := load(t, regressionPair[0], fixtureReport)
	img := row(t, m, "FILES-IMAGE-FIELDS")
	if img.Cells[0] != Absent || img.Cells[1] != report.NotTestable || !img.Differs {
		t.Errorf("FILES-IMAGE-FIELDS: %v differs %v", img.Cells, img.Differs)
	}
	if m.Rows[len(m.Rows)-1].ID != "FILES-IMAGE-FIELDS" {
		t.Errorf("a rule only the second report has is not last: %s", m.Rows[len(m.Rows)-1].ID)
	}
	if c := row(t, m, "USER-LIST-SHAPE").Cells[1]; c != report.Errored {
		t.Errorf("USER-LIST-SHAPE in the fixture run: %v, want error", c)
	}
}

func TestSameFileNamesAreLabelledByPath(t *testing.T) {
	clean := filepath.Join(reportData, "diff", "clean", "after.json")
	m := load(t, regressionPair[1], clean)
	if m.Columns[0].Label != regressionPair[1] || m.Columns[1].Label != clean {
		t.Errorf("labels %q %q", m.Columns[0].Label, m.Columns[1].Label)
	}
}

func TestLoadErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"meta":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{bad, "no-such.json"} {
		if _, err := Load([]string{regressionPair[0], p}); err == nil || !strings.Contains(err.Error(), p) {
			t.Errorf("Load(%s): %v, want an error naming the file", p, err)
		}
	}
}

func TestGolden(t *testing.T) {
	full := load(t, regressionPair...)
	three := load(t, append(regressionPair, fixtureReport)...)
	for _, tc := range []struct {
		golden string
		m      *Matrix
		opts   Options
		html   bool
	}{
		{"regression.md.golden", full, Options{}, false},
		{"regression.html.golden", full, Options{}, true},
		{"three-differences.md.golden", three, Options{OnlyDifferences: true}, false},
		{"three-differences.html.golden", three, Options{OnlyDifferences: true}, true},
	} {
		var b bytes.Buffer
		var err error
		if tc.html {
			err = tc.m.WriteHTML(&b, tc.opts)
		} else {
			err = tc.m.WriteMarkdown(&b, tc.opts)
		}
		if err != nil {
			t.Fatal(err)
		}
		testkit.Golden(t, tc.golden, b.Bytes())
	}
}

// The differing rows are the ones marked, in both formats.
func TestDifferencesAreMarked(t *testing.T) {
	m := load(t, regressionPair...)
	var md, page bytes.Buffer
	if err := m.WriteMarkdown(&md, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteHTML(&page, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(md.String(), "| ≠ | **`"); got != m.Differing {
		t.Errorf("Markdown marks %d rows, %d differ", got, m.Differing)
	}
	if got := strings.Count(page.String(), `<tr class="differs">`); got != m.Differing {
		t.Errorf("HTML highlights %d rows, %d differ", got, m.Differing)
	}
	var only bytes.Buffer
	if err := m.WriteMarkdown(&only, Options{OnlyDifferences: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(only.String(), "`CAT-GET-404`") || !strings.Contains(only.String(), "`USER-GET-404`") {
		t.Errorf("--only-differences kept a rule with one verdict or lost a differing one")
	}
}

// What a report says of its target (its address, its label) stays text in
// the Markdown matrix: no HTML, no extra table cell, no code span closed
// early.
func TestMarkdownKeepsTargetTextText(t *testing.T) {
	m := load(t, regressionPair...)
	m.Columns[0].Label = "a|b <script>x</script>"
	m.Columns[0].Target = "http://h/`x`|y"
	var b bytes.Buffer
	if err := m.WriteMarkdown(&b, Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "<script>") {
		t.Errorf("raw HTML from a label:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "| Target |") && !strings.HasPrefix(line, "| Run |") {
			continue
		}
		cells := len(strings.Split(strings.ReplaceAll(line, `\|`, ""), "|")) - 2
		if cells != 1+len(m.Columns) {
			t.Errorf("%d cells in %q, want %d: a pipe of the target's text split a cell", cells, line, 1+len(m.Columns))
		}
	}
}
