package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteJSON writes the run as indented JSON (the input of `conformance diff`
// and --rerun-failed).
func (r *Run) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads a report written by WriteJSON.
func ReadJSON(rd io.Reader) (*Run, error) {
	var r Run
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("not a conformance JSON report: %w", err)
	}
	return &r, nil
}

// WriteSummary writes the end-of-run console summary: the verdict, per area
// and per rule passed / failed / not checked, requests made, wall time.
func (r *Run) WriteSummary(w io.Writer) {
	fmt.Fprintln(w)
	if r.Diagnosis != nil {
		fmt.Fprintf(w, "%s\n\n", r.Diagnosis.Line)
	}
	fmt.Fprintf(w, "Conformance of %s (suite %s, %s mode, run %s, %s)\n", r.Meta.Target, r.Meta.SuiteVersion, r.Meta.Mode, r.Meta.RunID, r.Meta.Date())
	fmt.Fprintf(w, "Filters: %s\n", strings.Join(r.Meta.Filters(), "; "))
	// A filtered run lists what it selected: rules its filters left out
	// are counted once, not listed, and areas with nothing selected drop.
	unselected := 0
	perArea := map[string]*Counts{}
	var order []string
	var failed, notChecked []RuleResult
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
		switch rr.Status {
		case Failed, Errored:
			failed = append(failed, rr)
		case NotChecked:
			notChecked = append(notChecked, rr)
		}
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
	if len(failed) > 0 {
		fmt.Fprintf(w, "\nFailed rules:\n")
		for _, rr := range failed {
			fmt.Fprintf(w, "  ✗ %-34s §%-8s %s\n", rr.ID, rr.Section, rr.Text)
			for _, i := range rr.Specs {
				if s := r.Specs[i]; s.Status == Failed || s.Status == Errored {
					// The expectation, not the exchange Gomega may print first.
					exp, _ := readableMessage(s)
					fmt.Fprintf(w, "      %s\n", indent(firstLines(exp, 3), "      "))
				}
			}
		}
	}
	if len(notChecked) > 0 {
		fmt.Fprintf(w, "\nNot checked:\n")
		for _, rr := range notChecked {
			fmt.Fprintf(w, "  - %-34s %s\n", rr.ID, rr.Reason)
		}
	}
	if cl := r.Cleanup; len(cl.PagesLeft)+len(cl.Uploads)+len(cl.Problems)+len(cl.Settings) > 0 {
		fmt.Fprintf(w, "\nWhat the run left or restored on the target:\n")
		for _, p := range cl.PagesLeft {
			fmt.Fprintf(w, "  - page %s (could not be deleted; `conformance cleanup` retries)\n", p)
		}
		for _, u := range cl.Uploads {
			fmt.Fprintf(w, "  - upload %s (the API cannot delete uploads)\n", u)
		}
		for _, s := range cl.Settings {
			fmt.Fprintf(w, "  - settings: %s\n", s)
		}
		for _, p := range cl.Problems {
			fmt.Fprintf(w, "  - teardown problem: %s\n", p)
		}
	}
	for _, e := range r.SuiteErrors {
		fmt.Fprintf(w, "\nSuite error: %s\n", firstLines(e, 5))
	}
	retried := ""
	if r.Meta.Retries > 0 {
		retried = fmt.Sprintf(" (%d retried after 429/503)", r.Meta.Retries)
	}
	fmt.Fprintf(w, "\n%d requests%s in %s.\n%s\n", r.Meta.Requests, retried, r.Meta.Duration.String(), r.Verdict)
}

// String renders the duration.
func (d Duration) String() string { b, _ := d.MarshalText(); return string(b) }

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}

func indent(s, pad string) string { return strings.ReplaceAll(s, "\n", "\n"+pad) }
