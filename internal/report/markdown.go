package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/conformance-suite/conformance/internal/mdtext"
)

// MarkdownLimit is the most the Markdown report writes, in bytes (so also
// in characters): a pull-request comment holds at most 65,536 characters,
// and the report must fit one with room for a line of the poster's own.
// A longer report keeps every failure's rule and expectation, then adds
// exchanges while they fit; the rest points to the HTML and JSON reports.
const MarkdownLimit = 60000

// mdExchangeLimit caps each exchange printed in the Markdown report; the
// HTML and JSON reports keep it whole.
const mdExchangeLimit = 3000

// mdExpectationLines of a failure's expectation are shown; the rest folds
// into a <details> block. A failure cut to fit shows mdCompactLines.
const (
	mdExpectationLines = 20
	mdCompactLines     = 8
	mdCompactCases     = 3
)

// mdNoteReserve is kept free for the notes that say what was left out,
// of which mdClosingNote for the last one.
const (
	mdNoteReserve = 6000
	mdClosingNote = 400
)

// WriteMarkdown writes the report as GitHub-flavoured Markdown, for a pull
// request comment or $GITHUB_STEP_SUMMARY: verdict, diagnosis, run facts,
// a table of areas, then each failure with its exchange folded in a
// <details> block and its curl line. It writes at most MarkdownLimit
// bytes (see there).
func (r *Run) WriteMarkdown(w io.Writer) error {
	v := newView(r)
	head := mdHead(r, v)
	full := make([]string, len(v.Failures))
	compact := make([]string, len(v.Failures))
	for i, f := range v.Failures {
		full[i], compact[i] = mdFailure(f, false), mdFailure(f, true)
	}
	// What is kept, most important first: the head, what the run left on
	// the target, every failure in short, the other sections, and then
	// the failures' exchanges.
	used := len(head) + mdNoteReserve
	fits := func(s string) bool {
		if used+len(s) > MarkdownLimit {
			return false
		}
		used += len(s)
		return true
	}
	left := mdList("What the run left or restored on the target", v.LeftBehind)
	if !fits(left) {
		left = "\n*The run left things on the target: see the HTML or JSON report.*\n"
	}
	shown := make([]string, 0, len(v.Failures))
	for _, c := range compact {
		if !fits(c) {
			break
		}
		shown = append(shown, c)
	}
	var others []string
	for _, sec := range []struct{ text, instead string }{
		{mdNotChecked(v), "\n*Rules not checked: see the HTML or JSON report.*\n"},
		{mdPartlyChecked(r), "\n*Rules passed but only partly checked: see the HTML or JSON report.*\n"},
		{mdNotTestable(v), ""},
		{mdList("Observations (informational, not failures)", r.Observations), "\n*Observations: see the HTML or JSON report.*\n"},
	} {
		if !fits(sec.text) {
			sec.text = sec.instead
		}
		others = append(others, sec.text)
	}
	// The note on failures not shown gets every ID the reserve can hold;
	// what it leaves (with the closing note's share) goes to exchanges.
	omitted := ""
	if n := len(v.Failures) - len(shown); n > 0 {
		ids := make([]string, n)
		for i, f := range v.Failures[len(shown):] {
			ids[i] = f.Rule.ID
		}
		omitted = fmt.Sprintf("\n**%d more failed rule(s) not shown here:** %s\n", n, mdIDList(ids, MarkdownLimit-used+mdNoteReserve-mdClosingNote))
	}
	used += len(omitted) + mdClosingNote - mdNoteReserve
	detailed := 0
	for i := range shown {
		grow := len(full[i]) - len(compact[i])
		if used+grow > MarkdownLimit {
			continue // a smaller one further down may fit
		}
		used += grow
		shown[i] = full[i]
		detailed++
	}

	b := bufio.NewWriter(w)
	b.WriteString(head)
	if len(v.Failures) > 0 {
		b.WriteString("\n### Failures\n")
		for _, f := range shown {
			b.WriteString(f)
		}
		b.WriteString(omitted)
	}
	b.WriteString(others[0] + others[1] + others[2] + left + others[3])
	if detailed < len(v.Failures) || len(shown) < len(v.Failures) {
		fmt.Fprintf(b, "\n---\n*This report is cut to fit a pull-request comment (%d characters): %d of %d failures are shown with their exchanges. "+
			"The HTML and JSON reports (--html-report, --json-report) have everything.*\n", MarkdownLimit, detailed, len(v.Failures))
	}
	return b.Flush()
}

// mdHead is the start of the report: verdict, diagnosis, the run's facts
// and a table of the areas.
func mdHead(r *Run, v view) string {
	var b strings.Builder
	icon := map[string]string{"pass": "✅", "fail": "❌", "incomplete": "⚠️"}[v.Outcome]
	fmt.Fprintf(&b, "## %s %s\n\n", icon, mdtext.Text(r.Verdict))
	if d := r.Diagnosis; d != nil {
		fmt.Fprintf(&b, "> ⚠️ **%s**\n\n", mdtext.Text(d.Line))
	}
	fmt.Fprintf(&b, "| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| Target | %s |\n", mdtext.Code(r.Meta.Target))
	fmt.Fprintf(&b, "| Mode | %s |\n", mdtext.Text(v.Mode))
	fmt.Fprintf(&b, "| Date | %s (took %s, %d requests) |\n", v.Date, r.Meta.Duration, r.Meta.Requests)
	fmt.Fprintf(&b, "| Suite version | %s |\n", mdtext.Code(r.Meta.SuiteVersion))
	fmt.Fprintf(&b, "| Filters | %s |\n", mdtext.Text(strings.Join(v.Filters, "; ")))
	if r.Meta.RunID != "" {
		fmt.Fprintf(&b, "| Run ID | %s |\n", mdtext.Code(r.Meta.RunID))
	}
	fmt.Fprintf(&b, "\n**%d failed** · %d passed · %d not checked · %d not testable", r.Counts.Failed, r.Counts.Passed, r.Counts.NotChecked, r.Counts.NotTestable)
	if r.Counts.Errored > 0 {
		fmt.Fprintf(&b, " · %d could not finish", r.Counts.Errored)
	}
	fmt.Fprintf(&b, "\n\n")
	if r.Coverage != nil {
		fmt.Fprintf(&b, "Spec coverage: %s.\n\n", mdtext.Text(r.Coverage.Summary()))
	}
	for _, e := range r.SuiteErrors {
		fmt.Fprintf(&b, "**The run did not complete normally:**\n\n%s\n", mdtext.Block("text", clip(e, mdExchangeLimit)))
	}
	fmt.Fprintf(&b, "### Rules by area\n\n| Area | ✅ Passed | ❌ Failed | ⚪ Not checked | ➖ Not testable | Failed rules |\n|---|---:|---:|---:|---:|---|\n")
	for _, a := range v.Areas {
		var ids []string
		for _, rr := range a.Rules {
			if rr.Status == Failed || rr.Status == Errored {
				ids = append(ids, rr.ID)
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s |\n", mdtext.Text(a.Name), a.Counts.Passed, a.Counts.Failed+a.Counts.Errored,
			a.Counts.NotChecked, a.Counts.NotTestable, mdIDList(ids, 600))
	}
	return b.String()
}

// mdIDList writes rule IDs as code spans, at most about limit bytes of
// them, then how many more.
func mdIDList(ids []string, limit int) string {
	var b strings.Builder
	for i, id := range ids {
		if b.Len() > limit {
			fmt.Fprintf(&b, "and %d more", len(ids)-i)
			break
		}
		b.WriteString(mdtext.Code(id) + " ")
	}
	return strings.TrimSpace(b.String())
}

// mdFailure is one failed rule. compact keeps the start of each case's
// expectation and its curl line, for a report cut to fit.
func mdFailure(f failureView, compact bool) string {
	var b strings.Builder
	mark := "❌"
	if f.Rule.Status == Errored {
		mark = "⚠️ could not finish:"
	}
	fmt.Fprintf(&b, "\n#### %s %s — §%s, %s, %s\n\n%s\n", mark, mdtext.Code(f.Rule.ID), mdtext.Text(f.Rule.Section), f.Rule.Level, mdtext.Text(f.Rule.Area), mdtext.Text(f.Rule.Text))
	if f.Rule.Reading != "" {
		fmt.Fprintf(&b, "\n*How the suite reads the spec here:* %s\n", mdtext.Text(f.Rule.Reading))
	}
	for i, c := range f.Cases {
		if compact && i == mdCompactCases {
			fmt.Fprintf(&b, "\n*…and %d more failing spec(s) of this rule.*\n", len(f.Cases)-i)
			break
		}
		label := "Expected"
		if c.Status == Errored {
			label = "What stopped it"
		}
		lines := mdExpectationLines
		if compact {
			lines = mdCompactLines
		}
		head, rest := headLines(c.Expectation, lines)
		fmt.Fprintf(&b, "\nSpec: %s\n\n**%s**\n\n%s", mdtext.Text(c.Name), label, mdtext.Block("text", head))
		if rest != "" && !compact {
			fmt.Fprintf(&b, "\n<details><summary>%d more lines</summary>\n\n%s\n</details>\n", strings.Count(rest, "\n")+1, mdtext.Block("text", clip(rest, mdExchangeLimit)))
		}
		if !compact {
			for i, ex := range c.Exchanges {
				exLabel := "Exchange (tokens redacted)"
				if len(c.Exchanges) > 1 {
					exLabel = fmt.Sprintf("Exchange %d (tokens redacted)", i+1)
				}
				fmt.Fprintf(&b, "\n<details><summary>%s</summary>\n\n%s\n</details>\n", exLabel, mdtext.Block("http", clip(ex, mdExchangeLimit)))
			}
			if c.Requests != "" {
				fmt.Fprintf(&b, "\n<details><summary>Every request this spec made</summary>\n\n%s\n</details>\n", mdtext.Block("http", clip(c.Requests, mdExchangeLimit)))
			}
		}
		curl := c.Curl
		if compact && len(curl) > 1 {
			curl = curl[:1]
		}
		if len(curl) > 0 {
			fmt.Fprintf(&b, "\n**Reproduce** (set `CONFORMANCE_TOKEN` and `CONFORMANCE_AUTH_TOKEN` first)\n\n%s", mdtext.Block("sh", clip(strings.Join(curl, "\n"), mdExchangeLimit)))
		}
	}
	return b.String()
}

func mdNotChecked(v view) string {
	if len(v.NotChecked) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n### Not checked\n\n| Reason | Rules |\n|---|---|\n")
	for _, g := range v.NotChecked {
		ids := make([]string, len(g.Rules))
		for i, rr := range g.Rules {
			ids[i] = rr.ID
		}
		fmt.Fprintf(&b, "| %s | %s |\n", mdtext.Text(g.Reason), mdIDList(ids, 2000))
	}
	return b.String()
}

// mdPartlyChecked lists the passed rules some of whose cases were not
// checked.
func mdPartlyChecked(r *Run) string {
	partly := r.PartlyChecked()
	if len(partly) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n### Passed, but only partly checked\n\n| Rule | What was checked |\n|---|---|\n")
	for _, rr := range partly {
		fmt.Fprintf(&b, "| %s | %s |\n", mdtext.Code(rr.ID), mdtext.Text(rr.Partial.Summary()))
	}
	return b.String()
}

func mdNotTestable(v view) string {
	if len(v.NotTestable) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n<details><summary>Not testable by any black-box client (%d)</summary>\n\n| Rule | § | Why |\n|---|---|---|\n", len(v.NotTestable))
	for _, rr := range v.NotTestable {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", mdtext.Code(rr.ID), mdtext.Text(rr.Section), mdtext.Text(rr.Text+" — "+rr.Reason))
	}
	fmt.Fprintf(&b, "\n</details>\n")
	return b.String()
}

// mdList is a section of bullet points, or nothing without items.
func mdList(title string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n### %s\n\n", title)
	for _, it := range items {
		fmt.Fprintf(&b, "- %s\n", mdtext.Text(it))
	}
	return b.String()
}

func clip(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && (s[cut]&0xC0) == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n…[%d more bytes: see the HTML or JSON report]", len(s)-cut)
}
