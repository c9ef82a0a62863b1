package coverage

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// label is how a text rendering shows a cell: "12 (2 rules)" when filled,
// "EMPTY", "untestable [n]" (n numbering the section's reasons), "-".
func (c CellMap) label(note func(reason string) int) string {
	switch c.Status {
	case Filled:
		return fmt.Sprintf("%d by %s", c.Checks, shortRules(c.Rules))
	case Empty:
		return "EMPTY"
	case Untestable:
		return fmt.Sprintf("untestable [%d]", note(c.Reason))
	}
	return "-"
}

// shortRules names the rules that filled a cell: the first, and how many
// more.
func shortRules(rules []string) string {
	switch len(rules) {
	case 0:
		return ""
	case 1:
		return rules[0]
	}
	return fmt.Sprintf("%s +%d", rules[0], len(rules)-1)
}

// footnotes are the reasons of a section's untestable cells, numbered from
// 1 in the order first met.
type footnotes []string

// note returns reason's number, adding it when new.
func (f *footnotes) note(reason string) int {
	for i, r := range *f {
		if r == reason {
			return i + 1
		}
	}
	*f = append(*f, reason)
	return len(*f)
}

// WriteText writes the map as one table per section, the reasons of the
// untestable cells and of the empty ones under it.
func (m *Map) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Spec coverage map: %s\n", m.Summary())
	b.WriteString("Each cell: how many assertions exercised it on real data, and the rules they belong to. Columns:\n")
	for _, way := range m.ways() {
		fmt.Fprintf(&b, "  %-8s %s\n", way, way.Title())
	}
	for _, s := range m.Sections {
		fmt.Fprintf(&b, "\n%s\n", s.Title)
		var reasons footnotes
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		head := []string{"  " + s.Heading()}
		for _, way := range s.Ways {
			head = append(head, string(way))
		}
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		var empty []CellMap
		for _, r := range s.Rows {
			line := []string{"  " + r.Field}
			for _, c := range r.Cells {
				line = append(line, c.label(reasons.note))
				if c.Status == Empty {
					empty = append(empty, c)
				}
			}
			fmt.Fprintln(tw, strings.Join(line, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for i, r := range reasons {
			fmt.Fprintf(&b, "  [%d] untestable: %s\n", i+1, r)
		}
		for _, c := range empty {
			fmt.Fprintf(&b, "  EMPTY %s: %s\n", c.ID, c.Reason)
		}
	}
	for _, u := range m.Unknown {
		fmt.Fprintf(&b, "\nsuite bug: a mark names cell %s, which the table does not have\n", u)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ways are the columns of every section, each once, in the order first
// met.
func (m *Map) ways() []Way {
	var out []Way
	for _, s := range m.Sections {
		for _, w := range s.Ways {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// WriteMarkdown writes the map as Markdown tables, one per section.
func (m *Map) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## Spec coverage map\n\n%s.\n", m.Summary())
	for _, s := range m.Sections {
		fmt.Fprintf(&b, "\n### %s\n\n| %s |", s.Title, s.Heading())
		for _, way := range s.Ways {
			fmt.Fprintf(&b, " %s |", way.Title())
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(s.Ways)) + "\n")
		var reasons footnotes
		for _, r := range s.Rows {
			fmt.Fprintf(&b, "| `%s` |", r.Field)
			for _, c := range r.Cells {
				fmt.Fprintf(&b, " %s |", c.label(reasons.note))
			}
			b.WriteString("\n")
		}
		if len(reasons) > 0 {
			b.WriteString("\n")
		}
		for i, r := range reasons {
			fmt.Fprintf(&b, "[%d] untestable: %s  \n", i+1, r)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
