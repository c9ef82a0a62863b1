package compare

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/conformance-suite/conformance/internal/mdtext"
	"github.com/conformance-suite/conformance/internal/report"
)

// Options shape the written matrix.
type Options struct {
	// OnlyDifferences leaves out the rules every run gives the same verdict.
	OnlyDifferences bool
}

// shown is the rows the options keep.
func (m *Matrix) shown(o Options) []Row {
	if !o.OnlyDifferences {
		return m.Rows
	}
	var out []Row
	for _, r := range m.Rows {
		if r.Differs {
			out = append(out, r)
		}
	}
	return out
}

// totalLines are the count rows of the totals table, from the reports'
// own counts.
var totalLines = []struct {
	status report.Status
	count  func(report.Counts) int
}{
	{report.Passed, func(c report.Counts) int { return c.Passed }},
	{report.Failed, func(c report.Counts) int { return c.Failed }},
	{report.NotChecked, func(c report.Counts) int { return c.NotChecked }},
	{report.NotTestable, func(c report.Counts) int { return c.NotTestable }},
	{report.Errored, func(c report.Counts) int { return c.Errored }},
}

// WriteMarkdown writes the matrix as GitHub-flavoured Markdown: the runs,
// the totals, then one row per rule with a ≠ on each rule whose verdicts
// differ between the runs.
func (m *Matrix) WriteMarkdown(w io.Writer, o Options) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "## Conformance of %d runs compared\n\n", len(m.Columns))
	header := func(first string) {
		fmt.Fprintf(b, "| %s |", first)
		for _, c := range m.Columns {
			fmt.Fprintf(b, " %s |", mdtext.Text(c.Label))
		}
		fmt.Fprintf(b, "\n|---|%s\n", strings.Repeat("---|", len(m.Columns)))
	}
	line := func(name string, cell func(Column) string) {
		fmt.Fprintf(b, "| %s |", name)
		for _, c := range m.Columns {
			fmt.Fprintf(b, " %s |", cell(c))
		}
		fmt.Fprintln(b)
	}
	header("Run")
	line("Target", func(c Column) string { return mdtext.Code(c.Target) })
	line("Suite version", func(c Column) string { return mdtext.Code(c.SuiteVersion) })
	line("Mode", func(c Column) string { return mdtext.Text(c.Mode) })
	line("Date", func(c Column) string { return mdtext.Text(c.Date) })
	line("Filters", func(c Column) string { return mdtext.Text(strings.Join(c.Filters, "; ")) })
	line("Verdict", func(c Column) string { return mdtext.Text(c.Verdict) })

	fmt.Fprintf(b, "\n### Totals\n\n")
	header("Rules")
	for _, t := range totalLines {
		icon, words := verdictText(t.status)
		line(icon+" "+words, func(c Column) string { return fmt.Sprint(t.count(c.Totals)) })
	}

	fmt.Fprintf(b, "\n### Rules\n\n**%d of %d rules differ between the runs** (marked ≠).", m.Differing, len(m.Rows))
	rows := m.shown(o)
	if hidden := len(m.Rows) - len(rows); hidden > 0 {
		fmt.Fprintf(b, " The %d rules with the same verdict in every run are not shown.", hidden)
	}
	fmt.Fprintf(b, "\n\n| ≠ | Rule | § |")
	for _, c := range m.Columns {
		fmt.Fprintf(b, " %s |", mdtext.Text(c.Label))
	}
	fmt.Fprintf(b, "\n|---|---|---|%s\n", strings.Repeat("---|", len(m.Columns)))
	for _, r := range rows {
		mark, id := "", mdtext.Code(r.ID)
		if r.Differs {
			mark, id = "≠", "**"+id+"**"
		}
		fmt.Fprintf(b, "| %s | %s | %s |", mark, id, mdtext.Text(r.Section))
		for _, s := range r.Cells {
			icon, words := verdictText(s)
			cell := strings.TrimSpace(icon + " " + words)
			if s == Absent {
				cell = "— *" + words + "*"
			}
			fmt.Fprintf(b, " %s |", cell)
		}
		fmt.Fprintln(b)
	}
	return b.Flush()
}
