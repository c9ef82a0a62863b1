// Package compare lays the JSON reports of several runs side by side: one
// matrix of rules × targets with each rule's verdict per run, the rules
// whose verdicts differ marked, and totals per run. It writes the matrix as
// Markdown and as a self-contained HTML page. It only reads reports
// (package report); it judges nothing itself.
package compare

import (
	"path/filepath"
	"strings"

	"github.com/conformance-suite/conformance/internal/report"
)

// Absent is the cell of a rule a report does not list (a report of another
// suite version, whose catalogue differs).
const Absent report.Status = "absent"

// Input is one report to compare and the label of its column.
type Input struct {
	Label string
	Run   *report.Run
}

// Column describes one run.
type Column struct {
	Label        string
	Target       string
	SuiteVersion string
	Mode         string
	Date         string
	Filters      []string
	Verdict      string
	Totals       report.Counts
}

// Row is one rule across the runs.
type Row struct {
	ID      string
	Section string
	Area    string
	Text    string
	Cells   []report.Status // one per column; Absent where the report lacks the rule
	// Differs is true when the runs do not all give the rule the same verdict.
	Differs bool
}

// Matrix is the comparison of several runs.
type Matrix struct {
	Columns []Column
	Rows    []Row
	// Differing counts the rows whose verdicts differ.
	Differing int
}

// Build compares the runs. Rows follow the first report's rule order;
// rules only later reports list follow in the order they first appear.
// The totals are the reports' own counts.
func Build(inputs []Input) *Matrix {
	m := &Matrix{}
	index := map[string]int{} // rule ID -> row
	for col, in := range inputs {
		r := in.Run
		m.Columns = append(m.Columns, Column{Label: in.Label, Target: r.Meta.Target, SuiteVersion: r.Meta.SuiteVersion,
			Mode: r.Meta.Mode, Date: r.Meta.Date(), Filters: r.Meta.Filters(), Verdict: r.Verdict, Totals: r.Counts})
		for _, rr := range r.Rules {
			i, seen := index[rr.ID]
			if !seen {
				i = len(m.Rows)
				index[rr.ID] = i
				cells := make([]report.Status, len(inputs))
				for c := range cells {
					cells[c] = Absent
				}
				m.Rows = append(m.Rows, Row{ID: rr.ID, Section: rr.Section, Area: rr.Area, Text: rr.Text, Cells: cells})
			}
			m.Rows[i].Cells[col] = rr.Status
		}
	}
	for i := range m.Rows {
		row := &m.Rows[i]
		for _, c := range row.Cells[1:] {
			if c != row.Cells[0] {
				row.Differs = true
			}
		}
		if row.Differs {
			m.Differing++
		}
	}
	return m
}

// verdictText is a cell's verdict in words, with the icon the suite's
// other reports use for it.
func verdictText(s report.Status) (icon, words string) {
	switch s {
	case report.Passed:
		return "✅", "passed"
	case report.Failed:
		return "❌", "failed"
	case report.NotChecked:
		return "⚪", "not checked"
	case report.NotTestable:
		return "➖", "not testable"
	case report.Errored:
		return "⚠️", "error"
	case Absent:
		return "", "not in this report"
	}
	return "", string(s)
}

// Load reads JSON reports. Each column is labelled with its file's name
// without ".json"; when two files share a name, their paths as given.
func Load(paths []string) ([]Input, error) {
	labels := make([]string, len(paths))
	seen := map[string]int{}
	for i, p := range paths {
		labels[i] = strings.TrimSuffix(filepath.Base(p), ".json")
		seen[labels[i]]++
	}
	var inputs []Input
	for i, p := range paths {
		r, err := report.ReadJSONFile(p)
		if err != nil {
			return nil, err
		}
		if seen[labels[i]] > 1 {
			labels[i] = p
		}
		inputs = append(inputs, Input{Label: labels[i], Run: r})
	}
	return inputs, nil
}
