package report

import (
	"fmt"
	"strings"
)

// A rule checked by several cases (specs) passes when one of them passed
// and none failed. When others were not checked, the pass covers only
// part of the rule: every report says so, with the cases left and why
// ("passed: 2 of 3 cases; small page size, every type not checked: …"),
// never a plain pass.

// Partial is what a passed rule left unchecked: how many of its cases
// passed, and each case not checked with its reason.
type Partial struct {
	Cases      int           `json:"cases"`
	Passed     int           `json:"passed"`
	NotChecked []PartialCase `json:"notChecked"`
}

// PartialCase is one case of a partly checked rule that was not checked.
type PartialCase struct {
	Case   string `json:"case"`
	Reason string `json:"reason"`
}

// partial is the Partial of a passed rule whose specs (indexes into specs)
// were not all checked; nil when every selected case passed.
func partial(idxs []int, specs []SpecResult) *Partial {
	p := &Partial{}
	for _, i := range idxs {
		s := specs[i]
		switch s.Status {
		case Passed:
			p.Passed++
		case NotChecked:
			if s.Message == ReasonNotSelected {
				continue // filtered out: not part of this run
			}
			name := string(s.Case)
			if name == "" {
				name = s.Name
			}
			p.NotChecked = append(p.NotChecked, PartialCase{Case: name, Reason: s.Message})
		default:
			continue
		}
		p.Cases++
	}
	if len(p.NotChecked) == 0 {
		return nil
	}
	return p
}

// Summary says in one line what was checked of the rule.
func (p *Partial) Summary() string {
	parts := []string{fmt.Sprintf("passed: %d of %d cases", p.Passed, p.Cases)}
	for _, c := range p.NotChecked {
		parts = append(parts, c.Case+" not checked: "+c.Reason)
	}
	return strings.Join(parts, "; ")
}

// StatusText is the rule's status in words: "passed" becomes "passed: 2 of
// 3 cases; …" when the rule was only partly checked.
func (rr RuleResult) StatusText() string {
	if rr.Status == Passed && rr.Partial != nil {
		return rr.Partial.Summary()
	}
	return string(rr.Status)
}

// PartlyChecked lists the passed rules that were only partly checked, in
// the order of the run's rules (the reports' sections).
func (r *Run) PartlyChecked() []RuleResult {
	var out []RuleResult
	for _, rr := range r.Rules {
		if rr.Status == Passed && rr.Partial != nil {
			out = append(out, rr)
		}
	}
	return out
}
