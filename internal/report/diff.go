package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Change is one rule whose result differs between two runs.
type Change struct {
	ID      string `json:"id"`
	Section string `json:"section,omitempty"`
	Text    string `json:"text,omitempty"`
	Before  Status `json:"before"` // "" when the rule is not in that report
	After   Status `json:"after"`
	// Why is the failure's first line (regressions, new failures) or the
	// reason a rule is no longer checked.
	Why string `json:"why,omitempty"`
}

// Diff compares two runs rule by rule: the upgrade check of a site owner
// who ran the suite before and after changing the target.
type Diff struct {
	Before Meta `json:"before"`
	After  Meta `json:"after"`
	// Regressions passed before and fail (or could not finish) now.
	Regressions []Change `json:"regressions"`
	// Fixed failed before and pass now.
	Fixed []Change `json:"fixed"`
	// NewlyChecked were not checked before (or are new in the catalogue)
	// and were checked now, with either result.
	NewlyChecked []Change `json:"newlyChecked"`
	// NoLongerChecked were checked before and not now.
	NoLongerChecked []Change `json:"noLongerChecked"`
	// StillFailing failed in both runs.
	StillFailing []Change `json:"stillFailing"`
	// Warnings say why the two runs may not be comparable.
	Warnings []string `json:"warnings,omitempty"`
}

// Regressed reports whether anything that passed before fails now.
func (d *Diff) Regressed() bool { return len(d.Regressions) > 0 }

func checked(s Status) bool { return s == Passed || s == Failed || s == Errored }
func failing(s Status) bool { return s == Failed || s == Errored }

// Compare diffs two runs. Rules are matched by ID; a rule only one report
// has (the catalogue changed between suite versions) counts as not checked
// in the other.
func Compare(before, after *Run) *Diff {
	d := &Diff{Before: before.Meta, After: after.Meta}
	b, a := indexRules(before), indexRules(after)
	ids := map[string]bool{}
	for id := range b {
		ids[id] = true
	}
	for id := range a {
		ids[id] = true
	}
	order := make([]string, 0, len(ids))
	for id := range ids {
		order = append(order, id)
	}
	// Catalogue order of the later report, then the earlier one's, keeps
	// areas together; IDs break ties.
	pos := func(id string) (int, int) {
		if r, ok := a[id]; ok {
			return 0, r.pos
		}
		return 1, b[id].pos
	}
	sort.Slice(order, func(i, j int) bool {
		ri, pi := pos(order[i])
		rj, pj := pos(order[j])
		if ri != rj {
			return ri < rj
		}
		if pi != pj {
			return pi < pj
		}
		return order[i] < order[j]
	})
	for _, id := range order {
		br, bok := b[id]
		ar, aok := a[id]
		c := Change{ID: id, Before: br.rule.Status, After: ar.rule.Status}
		c.Section, c.Text = ar.rule.Section, ar.rule.Text
		if !aok {
			c.Section, c.Text = br.rule.Section, br.rule.Text
		}
		switch {
		case !bok && !aok:
			continue
		case checked(c.Before) && !checked(c.After):
			c.Why = ar.rule.Reason
			if !aok {
				c.Why = "the rule is not in the later report's catalogue"
			}
			d.NoLongerChecked = append(d.NoLongerChecked, c)
		case !checked(c.Before) && checked(c.After):
			c.Why = after.failureLine(ar.rule)
			d.NewlyChecked = append(d.NewlyChecked, c)
		case c.Before == Passed && failing(c.After):
			c.Why = after.failureLine(ar.rule)
			d.Regressions = append(d.Regressions, c)
		case failing(c.Before) && c.After == Passed:
			d.Fixed = append(d.Fixed, c)
		case failing(c.Before) && failing(c.After):
			c.Why = after.failureLine(ar.rule)
			d.StillFailing = append(d.StillFailing, c)
		}
	}
	d.Warnings = comparability(before.Meta, after.Meta)
	return d
}

type indexed struct {
	rule RuleResult
	pos  int
}

func indexRules(r *Run) map[string]indexed {
	m := make(map[string]indexed, len(r.Rules))
	for i, rr := range r.Rules {
		m[rr.ID] = indexed{rr, i}
	}
	return m
}

// failureLine is the first line of the first failing spec's expectation.
func (r *Run) failureLine(rr RuleResult) string {
	for _, i := range rr.Specs {
		if i >= 0 && i < len(r.Specs) && failing(r.Specs[i].Status) {
			exp, _ := splitMessage(r.Specs[i].Message)
			return strings.Join(strings.Fields(firstLines(exp, 2)), " ")
		}
	}
	return ""
}

// comparability names differences between the runs that explain changes
// better than the target does: another mode or selection.
func comparability(b, a Meta) []string {
	var w []string
	if b.Target != a.Target {
		w = append(w, fmt.Sprintf("the runs checked different targets (%s, then %s)", b.Target, a.Target))
	}
	if b.Mode != a.Mode {
		w = append(w, fmt.Sprintf("the runs had different modes (%s, then %s): rules needing writes may be checked in one only", b.Mode, a.Mode))
	}
	if bf, af := strings.Join(b.Filters(), "; "), strings.Join(a.Filters(), "; "); bf != af {
		w = append(w, fmt.Sprintf("the runs selected different specs (%s, then %s)", bf, af))
	}
	if b.SuiteVersion != a.SuiteVersion {
		w = append(w, fmt.Sprintf("the runs used different suite versions (%s, then %s): a changed rule can change a result", b.SuiteVersion, a.SuiteVersion))
	}
	return w
}

// WriteText prints the diff for a person: what regressed first, then
// what got fixed, what is newly or no longer checked, and a last line
// saying whether anything regressed.
func (d *Diff) WriteText(w io.Writer) {
	fmt.Fprintf(w, "Before: %s, suite %s, %s mode, %s\n", d.Before.Target, d.Before.SuiteVersion, d.Before.Mode, d.Before.Date())
	fmt.Fprintf(w, "After:  %s, suite %s, %s mode, %s\n", d.After.Target, d.After.SuiteVersion, d.After.Mode, d.After.Date())
	for _, warn := range d.Warnings {
		fmt.Fprintf(w, "Note: %s.\n", warn)
	}
	section := func(title string, cs []Change, show func(Change) string) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s (%d):\n", title, len(cs))
		for _, c := range cs {
			fmt.Fprintf(w, "  %-30s §%s: %s\n", c.ID, c.Section, c.Text)
			if s := show(c); s != "" {
				fmt.Fprintf(w, "      %s\n", s)
			}
		}
	}
	section("Regressions: passed before, fail now", d.Regressions, func(c Change) string { return statusNote(c) + c.Why })
	section("Fixed: failed before, pass now", d.Fixed, func(Change) string { return "" })
	section("Newly checked", d.NewlyChecked, func(c Change) string {
		s := fmt.Sprintf("now %s", c.After)
		if c.Why != "" {
			s += ": " + c.Why
		}
		return s
	})
	section("No longer checked", d.NoLongerChecked, func(c Change) string {
		s := fmt.Sprintf("was %s", c.Before)
		if c.Why != "" {
			s += "; now not checked: " + c.Why
		}
		return s
	})
	if n := len(d.StillFailing); n > 0 {
		ids := make([]string, n)
		for i, c := range d.StillFailing {
			ids[i] = c.ID
		}
		fmt.Fprintf(w, "\nStill failing (%d): %s\n", n, strings.Join(ids, ", "))
	}
	fmt.Fprintln(w)
	switch {
	case d.Regressed():
		fmt.Fprintf(w, "REGRESSED: %d rule(s) that passed before fail now.\n", len(d.Regressions))
	case len(d.Fixed)+len(d.NewlyChecked)+len(d.NoLongerChecked) == 0:
		fmt.Fprintf(w, "NO CHANGE: every rule has the result it had before.\n")
	default:
		fmt.Fprintf(w, "NO REGRESSION: %d fixed, %d newly checked, %d no longer checked.\n", len(d.Fixed), len(d.NewlyChecked), len(d.NoLongerChecked))
	}
}

func statusNote(c Change) string {
	if c.After == Errored {
		return "could not finish: "
	}
	return ""
}
