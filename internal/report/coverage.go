package report

import (
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/conformance-suite/conformance/internal/coverage"
)

// The spec coverage map in the reports: the JSON report carries it whole
// (Run.Coverage), the HTML report shows it as tables, the console and the
// Markdown report in a line and the cells left empty.

// RuleNote says, for the reason of an empty cell, what became of a rule in
// the run: not checked (and why), failed, not selected.
func (r *Run) RuleNote() coverage.RuleNote {
	byID := map[string]RuleResult{}
	for _, rr := range r.Rules {
		byID[rr.ID] = rr
	}
	return func(rule string) string {
		rr, ok := byID[rule]
		switch {
		case !ok:
			return "not in the catalogue"
		case rr.Status == NotChecked && rr.Reason != "":
			return "not checked (" + firstLine(rr.Reason) + ")"
		case rr.Status != Passed:
			return string(rr.Status)
		}
		return ""
	}
}

// maxEmptyListed bounds the empty cells a console or Markdown summary
// lists one by one.
const maxEmptyListed = 12

// writeCoverageLine writes the map's summary and the cells the run left
// empty.
func (r *Run) writeCoverageLine(w io.Writer) {
	if r.Coverage == nil {
		return
	}
	fmt.Fprintf(w, "\nSpec coverage: %s.\n", r.Coverage.Summary())
	empty := r.Coverage.Cells(coverage.Empty)
	for i, c := range empty {
		if i == maxEmptyListed {
			fmt.Fprintf(w, "  and %d more empty cells (conformance coverage REPORT.json lists them)\n", len(empty)-i)
			break
		}
		fmt.Fprintf(w, "  empty: %s (%s)\n", c.ID, c.Way.Title())
	}
}

// coverageHTML renders the map for the HTML report: the summary, then each
// section as a table in a folded block (open when it has empty cells).
func coverageHTML(m *coverage.Map) template.HTML {
	var b strings.Builder
	esc := template.HTMLEscapeString
	fmt.Fprintf(&b, "<h2 id=\"coverage\">Spec coverage map</h2>\n<p>%s. Each cell: how many assertions exercised it on real data, "+
		"and the rules they belong to.</p>\n", esc(m.Summary()))
	for _, s := range m.Sections {
		empty := 0
		for _, r := range s.Rows {
			for _, c := range r.Cells {
				if c.Status == coverage.Empty {
					empty++
				}
			}
		}
		open := ""
		if empty > 0 {
			open = " open"
		}
		fmt.Fprintf(&b, "<details%s><summary>%s (%d empty)</summary>\n<table class=\"rules\">\n<tr><th>%s</th>", open, esc(s.Title), empty,
			esc(strings.ToUpper(s.Heading()[:1])+s.Heading()[1:]))
		for _, w := range s.Ways {
			fmt.Fprintf(&b, "<th>%s</th>", esc(w.Title()))
		}
		b.WriteString("</tr>\n")
		for _, r := range s.Rows {
			fmt.Fprintf(&b, "<tr><td class=\"mono\">%s</td>", esc(r.Field))
			for _, c := range r.Cells {
				switch c.Status {
				case coverage.Filled:
					fmt.Fprintf(&b, "<td title=\"%s\"><span class=\"chip passed\">%d</span> %s</td>", esc(strings.Join(c.Rules, ", ")),
						c.Checks, esc(strings.Join(c.Rules, " ")))
				case coverage.Empty:
					fmt.Fprintf(&b, "<td><span class=\"chip failed\">empty</span> <span class=\"reading\">%s</span></td>", esc(c.Reason))
				case coverage.Untestable:
					fmt.Fprintf(&b, "<td><span class=\"chip not-testable\">untestable</span> <span class=\"reading\">%s</span></td>", esc(c.Reason))
				default:
					b.WriteString("<td>–</td>")
				}
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("</table>\n</details>\n")
	}
	return template.HTML(b.String()) //nolint:gosec // every piece of text above is escaped
}
