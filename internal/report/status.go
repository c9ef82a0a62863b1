package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// A rule's status from its specs', and the run's verdict from its rules'.

// ruleStatus is the status of rule from its specs idxs: failed if one
// failed, errored if one did not finish, passed if one passed, else not
// checked; and the reason for the last two.
func ruleStatus(rule spec.Rule, idxs []int, specs []SpecResult) (Status, string) {
	if !rule.Testable() {
		return NotTestable, rule.NotTestable
	}
	if len(idxs) == 0 && rule.ExploreOnly {
		return NotChecked, ReasonExploreOnly
	}
	if len(idxs) == 0 {
		return NotChecked, "no spec of the suite checks this rule"
	}
	passed, failed, errored := 0, 0, 0
	var reasons []string
	for _, i := range idxs {
		switch specs[i].Status {
		case Passed:
			passed++
		case Failed:
			failed++
		case Errored:
			errored++
		default:
			if specs[i].Message != "" {
				reasons = append(reasons, specs[i].Message)
			}
		}
	}
	switch {
	case failed > 0:
		return Failed, ""
	case errored > 0:
		return Errored, erroredReason(idxs, specs)
	case passed > 0:
		return Passed, ""
	}
	return NotChecked, strings.Join(verdict.Uniq(reasons), "; ")
}

// erroredReason says why the errored specs of a rule did not finish.
func erroredReason(idxs []int, specs []SpecResult) string {
	var msgs []string
	for _, i := range idxs {
		if specs[i].Status == Errored && specs[i].CouldNotFinish {
			msgs = append(msgs, specs[i].Message)
		}
	}
	if len(msgs) < len(slices.DeleteFunc(slices.Clone(idxs), func(i int) bool { return specs[i].Status != Errored })) {
		msgs = append(msgs, "a spec of this rule could not run to the end (see its message)")
	}
	return strings.Join(verdict.Uniq(msgs), "; ")
}

func verdictSentence(run *Run) string {
	c := run.Counts
	switch {
	case len(run.SuiteErrors) > 0 && c.Passed+c.Failed == 0:
		return "The run did not complete: " + run.SuiteErrors[0]
	case c.Failed > 0:
		return fmt.Sprintf("FAIL: the target breaks %d rule(s) of the spec; %d passed, %d not checked.", c.Failed, c.Passed, c.NotChecked)
	case c.Errored > 0 && c.Errored == c.CouldNotFinish && len(run.SuiteErrors) == 0:
		return fmt.Sprintf("COULD NOT FINISH: %d rule(s) could not be checked because requests got no answer from the API "+
			"(the network, or the server in front); no rule failed, %d passed.", c.Errored, c.Passed)
	case c.Errored > 0 || len(run.SuiteErrors) > 0:
		return fmt.Sprintf("INCOMPLETE: %d rule(s) could not be checked to the end; %d passed.", c.Errored, c.Passed)
	case c.Passed == 0:
		return "NOTHING CHECKED: no selected spec ran."
	}
	return fmt.Sprintf("PASS: the target conforms to every rule checked (%d passed, %d not checked, %d not testable).", c.Passed, c.NotChecked, c.NotTestable)
}

// OnlyUnanswered reports whether the run's one shortfall is rules that
// could not finish for want of an answer from the API: no rule failed, no
// spec was interrupted, no suite error.
func (r *Run) OnlyUnanswered() bool {
	c := r.Counts
	return c.Failed == 0 && c.Errored > 0 && c.Errored == c.CouldNotFinish && len(r.SuiteErrors) == 0
}

// Failed reports whether the run must exit non-zero.
func (r *Run) Failed() bool {
	return r.Counts.Failed > 0 || r.Counts.Errored > 0 || len(r.SuiteErrors) > 0
}
