package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// mdExchangeLimit caps each exchange printed in the Markdown report: a job
// summary holds at most 1 MiB, and the HTML and JSON reports keep it whole.
const mdExchangeLimit = 3000

// mdExpectationLines of a failure's expectation are shown; the rest folds
// into a <details> block.
const mdExpectationLines = 20

// mdDetailBudget: once the report is this long, failures keep their
// expectation and curl line but not their exchanges, so that even a run
// failing every rule fits a job summary (1 MiB).
const mdDetailBudget = 600 << 10

type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// WriteMarkdown writes the report as GitHub-flavoured Markdown, for a pull
// request comment or $GITHUB_STEP_SUMMARY: verdict, diagnosis, run facts,
// a table of areas, then each failure with its exchange folded in a
// <details> block and its curl line.
func (r *Run) WriteMarkdown(w io.Writer) error {
	v := newView(r)
	cw := &countingWriter{w: w}
	b := bufio.NewWriter(cw)
	written := func() int { return cw.n + b.Buffered() }
	icon := map[string]string{"pass": "✅", "fail": "❌", "incomplete": "⚠️"}[v.Outcome]
	fmt.Fprintf(b, "## %s %s\n\n", icon, mdText(r.Verdict))
	if d := r.Diagnosis; d != nil {
		fmt.Fprintf(b, "> ⚠️ **%s**\n\n", mdText(d.Line))
	}
	fmt.Fprintf(b, "| | |\n|---|---|\n")
	fmt.Fprintf(b, "| Target | %s |\n", mdCode(r.Meta.Target))
	fmt.Fprintf(b, "| Mode | %s |\n", mdText(v.Mode))
	fmt.Fprintf(b, "| Date | %s (took %s, %d requests) |\n", v.Date, r.Meta.Duration, r.Meta.Requests)
	fmt.Fprintf(b, "| Suite version | %s |\n", mdCode(r.Meta.SuiteVersion))
	fmt.Fprintf(b, "| Filters | %s |\n", mdText(strings.Join(v.Filters, "; ")))
	if r.Meta.RunID != "" {
		fmt.Fprintf(b, "| Run ID | %s |\n", mdCode(r.Meta.RunID))
	}
	fmt.Fprintf(b, "\n**%d failed** · %d passed · %d not checked · %d not testable", r.Counts.Failed, r.Counts.Passed, r.Counts.NotChecked, r.Counts.NotTestable)
	if r.Counts.Errored > 0 {
		fmt.Fprintf(b, " · %d could not finish", r.Counts.Errored)
	}
	fmt.Fprintf(b, "\n\n")
	for _, e := range r.SuiteErrors {
		fmt.Fprintf(b, "**The run did not complete normally:**\n\n%s\n", mdBlock("text", e))
	}

	fmt.Fprintf(b, "### Rules by area\n\n| Area | ✅ Passed | ❌ Failed | ⚪ Not checked | ➖ Not testable | Failed rules |\n|---|---:|---:|---:|---:|---|\n")
	for _, a := range v.Areas {
		var ids []string
		for _, rr := range a.Rules {
			if rr.Status == Failed || rr.Status == Errored {
				ids = append(ids, mdCode(rr.ID))
			}
		}
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %s |\n", mdText(a.Name), a.Counts.Passed, a.Counts.Failed+a.Counts.Errored,
			a.Counts.NotChecked, a.Counts.NotTestable, strings.Join(ids, " "))
	}

	if len(v.Failures) > 0 {
		fmt.Fprintf(b, "\n### Failures\n")
		for _, f := range v.Failures {
			mark := "❌"
			if f.Rule.Status == Errored {
				mark = "⚠️ could not finish:"
			}
			fmt.Fprintf(b, "\n#### %s %s — §%s, %s, %s\n\n%s\n", mark, mdCode(f.Rule.ID), mdText(f.Rule.Section), f.Rule.Level, mdText(f.Rule.Area), mdText(f.Rule.Text))
			if f.Rule.Reading != "" {
				fmt.Fprintf(b, "\n*How the suite reads the spec here:* %s\n", mdText(f.Rule.Reading))
			}
			for _, c := range f.Cases {
				label := "Expected"
				if c.Status == Errored {
					label = "What stopped it"
				}
				head, rest := headLines(c.Expectation, mdExpectationLines)
				fmt.Fprintf(b, "\nSpec: %s\n\n**%s**\n\n%s", mdText(c.Name), label, mdBlock("text", head))
				if rest != "" {
					fmt.Fprintf(b, "\n<details><summary>%d more lines</summary>\n\n%s\n</details>\n", strings.Count(rest, "\n")+1, mdBlock("text", clip(rest, mdExchangeLimit)))
				}
				if written() > mdDetailBudget {
					fmt.Fprintf(b, "\n*Exchanges left out to keep this summary under GitHub's size limit: see the HTML or JSON report.*\n")
					c.Exchanges, c.Requests = nil, ""
				}
				for i, ex := range c.Exchanges {
					exLabel := "Exchange (tokens redacted)"
					if len(c.Exchanges) > 1 {
						exLabel = fmt.Sprintf("Exchange %d (tokens redacted)", i+1)
					}
					fmt.Fprintf(b, "\n<details><summary>%s</summary>\n\n%s\n</details>\n", exLabel, mdBlock("http", clip(ex, mdExchangeLimit)))
				}
				if c.Requests != "" {
					fmt.Fprintf(b, "\n<details><summary>Every request this spec made</summary>\n\n%s\n</details>\n", mdBlock("http", clip(c.Requests, mdExchangeLimit)))
				}
				if len(c.Curl) > 0 {
					fmt.Fprintf(b, "\n**Reproduce** (set `CONFORMANCE_TOKEN` and `CONFORMANCE_AUTH_TOKEN` first)\n\n%s", mdBlock("sh", strings.Join(c.Curl, "\n")))
				}
			}
		}
	}

	if len(v.NotChecked) > 0 {
		fmt.Fprintf(b, "\n### Not checked\n\n| Reason | Rules |\n|---|---|\n")
		for _, g := range v.NotChecked {
			ids := make([]string, len(g.Rules))
			for i, rr := range g.Rules {
				ids[i] = mdCode(rr.ID)
			}
			fmt.Fprintf(b, "| %s | %s |\n", mdText(g.Reason), strings.Join(ids, " "))
		}
	}
	if len(v.NotTestable) > 0 {
		fmt.Fprintf(b, "\n<details><summary>Not testable by any black-box client (%d)</summary>\n\n| Rule | § | Why |\n|---|---|---|\n", len(v.NotTestable))
		for _, rr := range v.NotTestable {
			fmt.Fprintf(b, "| %s | %s | %s |\n", mdCode(rr.ID), mdText(rr.Section), mdText(rr.Text+" — "+rr.Reason))
		}
		fmt.Fprintf(b, "\n</details>\n")
	}
	if len(v.LeftBehind) > 0 {
		fmt.Fprintf(b, "\n### What the run left or restored on the target\n\n")
		for _, l := range v.LeftBehind {
			fmt.Fprintf(b, "- %s\n", mdText(l))
		}
	}
	if len(r.Observations) > 0 {
		fmt.Fprintf(b, "\n### Observations (informational, not failures)\n\n")
		for _, o := range r.Observations {
			fmt.Fprintf(b, "- %s\n", mdText(o))
		}
	}
	return b.Flush()
}

// mdText escapes text for Markdown prose and table cells: whatever the
// target sent must not become markup (a link, HTML, a broken table).
func mdText(s string) string {
	var b strings.Builder
	for _, r := range strings.Join(strings.Fields(s), " ") {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '|', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCode is an inline code span that survives backticks and pipes inside.
func mdCode(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	// A pipe ends a table cell even inside a code span.
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// mdBlock is a fenced code block whose fence is longer than any backtick
// run in the content, so a body cannot close it early.
func mdBlock(lang, s string) string {
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	return fence + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + fence + "\n"
}

func longestRun(s string, c rune) int {
	best, n := 0, 0
	for _, r := range s {
		if r == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
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
