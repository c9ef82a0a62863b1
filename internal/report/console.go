package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// This file writes the end-of-run console summary: per rule, not per spec,
// and failures grouped by the cause behind them (findings.go), so that a
// run with one bug fits a screen however many rules the bug breaks. The
// exchanges of each failure are shown only when asked for (Verbose); the
// HTML report always has them.

// ConsoleOptions say how WriteConsole writes.
type ConsoleOptions struct {
	// Verbose adds each failure's expectation, exchanges and curl line.
	Verbose bool
	// Color marks the verdict and the failures with colour codes (a
	// terminal, NO_COLOR unset).
	Color bool
	// Width is the console's width in columns; lines that would wrap are
	// cut. 0 means defaultWidth.
	Width int
}

// defaultWidth is the width of a console that is no terminal (a CI log).
const defaultWidth = 120

// WriteSummary writes the console summary without colour or exchanges.
func (r *Run) WriteSummary(w io.Writer) { r.WriteConsole(w, ConsoleOptions{}) }

// WriteConsole writes the end-of-run console summary: the diagnosis, per
// area the rules passed, failed and not checked, the failed rules under
// the causes that explain them, what was not checked and why, what the run
// left on the target, requests made, wall time and the verdict.
func (r *Run) WriteConsole(w io.Writer, o ConsoleOptions) {
	c := console{w: w, o: o, pal: newPalette(o.Color)}
	if c.o.Width <= 0 {
		c.o.Width = defaultWidth
	}
	fmt.Fprintln(w)
	if r.Diagnosis != nil {
		fmt.Fprintf(w, "%s\n\n", r.Diagnosis.Line)
	}
	fmt.Fprintf(w, "Conformance of %s (suite %s, %s mode, run %s, %s)\n", r.Meta.Target, r.Meta.SuiteVersion, r.Meta.Mode, r.Meta.RunID, r.Meta.Date())
	fmt.Fprintf(w, "Filters: %s\n", strings.Join(r.Meta.Filters(), "; "))
	r.writeAreaTable(w)
	c.failures(r)
	c.notChecked(r)
	c.partlyChecked(r)
	c.leftBehind(r.Cleanup)
	r.writeCoverageLine(w)
	for _, e := range r.SuiteErrors {
		fmt.Fprintf(w, "\n%s\n", suiteErrorWords(e))
	}
	retried := ""
	if r.Meta.Retries > 0 {
		retried = fmt.Sprintf(" (%d retried after 429/503)", r.Meta.Retries)
	}
	fmt.Fprintf(w, "\n%d requests%s in %s.\n%s\n", r.Meta.Requests, retried, r.Meta.Duration.String(), c.pal.verdict(outcome(r), r.Verdict))
}

// writeAreaTable writes per area the rules passed, failed, not checked and
// not testable. A filtered run lists what it selected: rules its filters
// left out are counted once, not listed, and areas with nothing selected
// drop.
func (r *Run) writeAreaTable(w io.Writer) {
	unselected := 0
	perArea := map[string]*Counts{}
	var order []string
	for _, rr := range r.Rules {
		if rr.Status == NotChecked && rr.Reason == ReasonNotSelected {
			unselected++
			continue
		}
		c := perArea[rr.Area]
		if c == nil {
			c = &Counts{}
			perArea[rr.Area] = c
			order = append(order, rr.Area)
		}
		c.add(rr.Status)
	}
	fmt.Fprintf(w, "%-10s %7s %7s %12s %13s\n", "area", "passed", "failed", "not checked", "not testable")
	for _, a := range order {
		c := perArea[a]
		if unselected > 0 && c.Passed+c.Failed+c.Errored+c.NotChecked == 0 {
			continue
		}
		fmt.Fprintf(w, "%-10s %7d %7d %12d %13d\n", a, c.Passed, c.Failed+c.Errored, c.NotChecked, c.NotTestable)
	}
	if unselected > 0 {
		fmt.Fprintf(w, "(%d rules not selected by the filters are not shown.)\n", unselected)
	}
}

type console struct {
	w   io.Writer
	o   ConsoleOptions
	pal palette
}

// failures writes the findings with their rules, then the failed rules no
// finding explains, then the rules whose specs could not run to the end.
func (c console) failures(r *Run) {
	findings := r.Findings()
	others := r.Unexplained(findings)
	var errored, unanswered []RuleResult
	for _, rr := range r.Rules {
		switch {
		case rr.Status == Errored && rr.CouldNotFinish:
			unanswered = append(unanswered, rr)
		case rr.Status == Errored:
			errored = append(errored, rr)
		}
	}
	byID := map[string]RuleResult{}
	for _, rr := range r.Rules {
		byID[rr.ID] = rr
	}
	if len(findings) > 0 {
		explained := 0
		for _, f := range findings {
			explained += len(f.Rules)
		}
		fmt.Fprintf(c.w, "\nFailed rules by cause (%s behind %s):\n", plural(len(findings), "cause"), plural(explained, "rule"))
		for _, f := range findings {
			c.finding(r, f, byID)
		}
	}
	if len(others) > 0 {
		heading := "Failed rules"
		if len(findings) > 0 {
			heading = "Other failed rules"
		}
		fmt.Fprintf(c.w, "\n%s:\n", heading)
		for _, rr := range others {
			c.ruleLine(rr, "  ✗ ", c.pal.fail)
			c.ruleCases(r, rr, "      ")
		}
	}
	if len(errored) > 0 {
		fmt.Fprintf(c.w, "\nRules whose checks could not run to the end:\n")
		for _, rr := range errored {
			c.ruleLine(rr, "  ! ", c.pal.fail)
			c.ruleCases(r, rr, "      ")
		}
	}
	if len(unanswered) > 0 {
		fmt.Fprintf(c.w, "\nRules that could not finish: a request they rest on got no answer from the API (not failed; run again):\n")
		for _, rr := range unanswered {
			c.ruleLine(rr, "  ? ", c.pal.fail)
			fmt.Fprintf(c.w, "      %s\n", c.clip(rr.Reason, 6))
		}
	}
	if len(findings)+len(others) > 0 && !c.o.Verbose {
		fmt.Fprintf(c.w, "\n(Each failure's requests and responses: --verbose, or the HTML report.)\n")
	}
}

func (c console) finding(r *Run, f Finding, byID map[string]RuleResult) {
	fmt.Fprintf(c.w, "\n  %s %s\n", c.pal.fail("✗"), c.pal.bold(c.clip(f.Fact, 4)))
	if len(f.Also) > 0 {
		fmt.Fprintf(c.w, "    %s\n", c.clip("and in the same rules: "+strings.Join(f.Also, "; "), 4))
	}
	where := plural(len(f.Rules), "rule")
	if len(f.Seen) > 0 {
		where += "; seen in " + strings.Join(f.Seen, ", ")
	}
	fmt.Fprintf(c.w, "    %s\n", c.clip(where, 4))
	for _, id := range f.Rules {
		rr := byID[id]
		c.ruleLine(rr, "      ", nil)
		if c.o.Verbose {
			c.ruleCases(r, rr, "          ")
		}
	}
}

// ruleLine is a rule in one line: ID, section and its text, cut to the
// width of the console.
// paint, when set, colours the prefix.
func (c console) ruleLine(rr RuleResult, prefix string, paint func(string) string) {
	line := c.clip(fmt.Sprintf("%-28s §%-9s %s", rr.ID, rr.Section, rr.Text), utf8.RuneCountInString(prefix))
	if paint != nil {
		prefix = paint(prefix)
	}
	fmt.Fprintf(c.w, "%s%s\n", prefix, line)
}

// ruleCases writes what a rule's failing specs expected and got: one line
// for the first, and a count of the others; with Verbose, every failing
// spec with its exchanges.
func (c console) ruleCases(r *Run, rr RuleResult, pad string) {
	cases := r.cases(rr)
	if !c.o.Verbose {
		if len(cases) == 0 {
			return
		}
		line := errorWords(cases[0].Status, oneLine(cases[0].Expectation))
		if len(cases) > 1 {
			line += fmt.Sprintf(" (and %d more %s)", len(cases)-1, map[bool]string{true: "case", false: "cases"}[len(cases) == 2])
		}
		fmt.Fprintf(c.w, "%s%s\n", pad, c.clip(line, len(pad)))
		return
	}
	specs := r.failedSpecs(rr) // in the order of cases
	for i, cv := range cases {
		fmt.Fprintf(c.w, "%s── %s\n", pad, cv.Name)
		fmt.Fprintf(c.w, "%s%s\n", pad, indent(errorWords(cv.Status, cv.Expectation), pad))
		switch {
		case len(cv.Exchanges) > 0:
			// The exchanges the expectations judged, in full; the spec's
			// other requests in one line each, so none is shown twice.
			for _, ex := range cv.Exchanges {
				fmt.Fprintf(c.w, "\n%s%s\n", pad, indent(ex, pad))
			}
			if others := otherRequests(specs[i]); len(others) > 0 {
				fmt.Fprintf(c.w, "%sits other requests: %s\n", pad, strings.Join(others, ", "))
			}
		case cv.Requests != "":
			fmt.Fprintf(c.w, "\n%sits requests (%d):\n%s%s\n", pad, cv.RequestsCount, pad, indent(cv.Requests, pad))
		}
		for _, curl := range cv.Curl {
			fmt.Fprintf(c.w, "%sreproduce: %s\n", pad, curl)
		}
		fmt.Fprintln(c.w)
	}
}

// failedSpecs are the failed and errored specs of a rule, in the order
// of r.cases.
func (r *Run) failedSpecs(rr RuleResult) []SpecResult {
	var out []SpecResult
	for _, i := range rr.Specs {
		if i >= 0 && i < len(r.Specs) && (r.Specs[i].Status == Failed || r.Specs[i].Status == Errored) {
			out = append(out, r.Specs[i])
		}
	}
	return out
}

// otherRequests names the requests of a spec its facts did not judge
// ("#12 GET /api/tags → 200").
func otherRequests(s SpecResult) []string {
	judged := map[int]bool{}
	for _, f := range s.Facts {
		judged[f.Seq] = true
	}
	var out []string
	for _, ex := range s.Exchanges {
		if !judged[ex.Seq] {
			out = append(out, fmt.Sprintf("#%d %s %s → %d", ex.Seq, ex.Method, ex.Path, ex.Status))
		}
	}
	return out
}

// oneLine is a failure's expectation in one line: the suite's words up
// to what was got (failureSummary), without a separator after a full stop
// or a colon.
func oneLine(expectation string) string {
	return strings.NewReplacer(".; ", ". ", ":; ", ": ").Replace(failureSummary(expectation))
}

// errorWords says in the suite's words why a spec of status Errored could
// not finish (its message starts with Ginkgo's state).
func errorWords(s Status, msg string) string {
	if s != Errored {
		return msg
	}
	switch {
	case strings.HasPrefix(msg, "interrupted:"):
		return "stopped by the interrupt (Ctrl-C) before it finished"
	case strings.HasPrefix(msg, "timedout:"):
		return "stopped by the run's time limit (--timeout) before it finished"
	}
	return msg
}

// suiteErrorWords says a run-level failure in the suite's words. Ginkgo
// words an interrupt "Interrupted by User", and a suite node it stopped
// "AfterSuite failed: Interrupted by User" (report.Build).
func suiteErrorWords(e string) string {
	const interrupt = "Interrupted by User"
	switch node, cause, _ := strings.Cut(e, " failed: "); {
	case e == interrupt:
		return "The run was interrupted (Ctrl-C): the specs not yet run were skipped."
	case e == "Suite Timeout Elapsed":
		return "The run's time limit (--timeout) was reached: the specs not yet run were skipped."
	case cause == interrupt && node == "AfterSuite":
		return "The final cleanup (deleting what the run created) was stopped by the interrupt (Ctrl-C)."
	case cause == interrupt:
		return fmt.Sprintf("The suite's %s step was stopped by the interrupt (Ctrl-C).", node)
	}
	return "Suite error: " + firstLines(e, 5)
}

// notChecked writes the rules not checked, one line per reason.
func (c console) notChecked(r *Run) {
	var reasons []string
	byReason := map[string][]string{}
	total := 0
	for _, rr := range r.Rules {
		if rr.Status != NotChecked || rr.Reason == ReasonNotSelected {
			continue
		}
		reason := rr.Reason
		if reason == "" {
			reason = "no spec could check it"
		}
		if _, ok := byReason[reason]; !ok {
			reasons = append(reasons, reason)
		}
		byReason[reason] = append(byReason[reason], rr.ID)
		total++
	}
	if total == 0 {
		return
	}
	fmt.Fprintf(c.w, "\nNot checked (%s):\n", plural(total, "rule"))
	for _, reason := range reasons {
		ids := byReason[reason]
		if len(ids) == 1 {
			fmt.Fprintf(c.w, "  - %s\n", c.clip(ids[0]+": "+reason, 4))
			continue
		}
		fmt.Fprintf(c.w, "  - %s\n      %s\n", c.clip(fmt.Sprintf("%s: %s", plural(len(ids), "rule"), reason), 4), idList(ids, c.o.Width-6))
	}
}

// partlyChecked writes the passed rules some of whose cases were not
// checked, with those cases and why.
func (c console) partlyChecked(r *Run) {
	partly := r.PartlyChecked()
	if len(partly) == 0 {
		return
	}
	fmt.Fprintf(c.w, "\nPassed, but only partly checked (%s):\n", plural(len(partly), "rule"))
	for _, rr := range partly {
		fmt.Fprintf(c.w, "  ~ %s\n", c.clip(rr.ID+" "+rr.Partial.Summary(), 4))
	}
}

// idList lists rule IDs in one line of at most width columns, the ones
// that do not fit counted ("and 12 more").
func idList(ids []string, width int) string {
	line := strings.Join(ids, ", ")
	if utf8.RuneCountInString(line) <= width {
		return line
	}
	for n := len(ids) - 1; n > 0; n-- {
		line = fmt.Sprintf("%s and %d more", strings.Join(ids[:n], ", "), len(ids)-n)
		if utf8.RuneCountInString(line) <= width {
			return line
		}
	}
	return fmt.Sprintf("%d rules", len(ids))
}

// leftBehind writes what the run left or restored on the target, each
// distinct line once.
func (c console) leftBehind(cl Cleanup) {
	lines := cl.lines()
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(c.w, "\nWhat the run left or restored on the target:\n")
	count := map[string]int{}
	var order []string
	for _, l := range lines {
		if count[l] == 0 {
			order = append(order, l)
		}
		count[l]++
	}
	for _, l := range order {
		if count[l] > 1 {
			l += fmt.Sprintf(" (%d times)", count[l])
		}
		fmt.Fprintf(c.w, "  - %s\n", l)
	}
}

// clip makes s one line that fits the console after used columns.
func (c console) clip(s string, used int) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " ")
	return clipRunes(s, max(c.o.Width-used, 20))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// palette colours text when the console takes colour, and leaves it as
// it is otherwise.
type palette bool

// Colour codes (SGR).
const (
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

func newPalette(color bool) palette { return palette(color) }

func (p palette) paint(codes, s string) string {
	if !p {
		return s
	}
	return codes + s + reset
}

func (p palette) fail(s string) string { return p.paint(red, s) }
func (p palette) bold(s string) string { return p.paint(bold, s) }

// verdict colours the verdict line by the run's outcome.
func (p palette) verdict(outcome, line string) string {
	switch outcome {
	case "pass":
		return p.paint(green+bold, line)
	case "fail":
		return p.paint(red+bold, line)
	}
	return p.paint(yellow+bold, line)
}
