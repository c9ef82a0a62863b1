package selftest_test

// The same verdicts with and without concurrency (issue 15): requests
// side by side may only make a run faster, never change what it concludes
// about the target.

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/report"
)

// sameVerdicts fails t for each rule whose verdict differs between the run
// at --concurrency withConcurrency (on) and its twin at --concurrency 1
// (off), naming the rule and both verdicts with their reasons, and when
// the two runs ended differently.
func sameVerdicts(t *testing.T, on, off outcome) {
	t.Helper()
	if on.res.Exit != off.res.Exit {
		t.Errorf("exit %d at --concurrency %d, %d at --concurrency 1", on.res.Exit, on.concurrency, off.res.Exit)
	}
	if on.run == nil || off.run == nil {
		if on.run != nil || off.run != nil {
			t.Errorf("only one of the two runs wrote a report:\n--concurrency %d: %s\n--concurrency 1: %s",
				on.concurrency, on.describe(), off.describe())
		}
		return
	}
	var diffs []string
	for id, v := range differentVerdicts(on.run, off.run) {
		diffs = append(diffs, fmt.Sprintf("%s: %s at --concurrency %d, %s at --concurrency 1", id, v[0], on.concurrency, v[1]))
	}
	if len(diffs) > 0 {
		sort.Strings(diffs)
		t.Errorf("%d rule(s) got another verdict at --concurrency 1 than at --concurrency %d:\n  %s",
			len(diffs), on.concurrency, strings.Join(diffs, "\n  "))
	}
}

// differentVerdicts lists, by rule ID, the rules whose status differs
// between two reports: each with its verdict (status and reason) in a and
// in b. A rule only one report has differs too.
func differentVerdicts(a, b *report.Run) map[string][2]string {
	verdicts := func(r *report.Run) map[string]report.RuleResult {
		m := map[string]report.RuleResult{}
		for _, rr := range r.Rules {
			m[rr.ID] = rr
		}
		return m
	}
	va, vb := verdicts(a), verdicts(b)
	out := map[string][2]string{}
	for id, ra := range va {
		if rb, ok := vb[id]; !ok || ra.Status != rb.Status && !pairedByTiming(id, ra, rb) {
			out[id] = [2]string{describeVerdict(ra, true), describeVerdict(rb, ok)}
		}
	}
	for id, rb := range vb {
		if _, ok := va[id]; !ok {
			out[id] = [2]string{describeVerdict(report.RuleResult{}, false), describeVerdict(rb, true)}
		}
	}
	return out
}

// pairedOnTheWire are the rules that compare answers paired by their time
// on the wire (no write between them), with why: whether such a pair
// occurs at all depends on the order requests happen to take, so one run
// may have none (not checked) where its twin has some (passed). A failure
// is never excused.
var pairedOnTheWire = map[string]string{
	"PAGE-LIST-TOTAL-AGREES": "two list answers with the same type filters and no write between them: in a run filtered " +
		"to a few areas, whether a refused write falls between the only two such answers depends on the order on the wire",
}

// pairedByTiming reports whether a and b differ only as pairedOnTheWire
// allows: one passed, the other not checked.
func pairedByTiming(id string, a, b report.RuleResult) bool {
	if _, ok := pairedOnTheWire[id]; !ok {
		return false
	}
	pair := map[report.Status]bool{a.Status: true, b.Status: true}
	return pair[report.Passed] && pair[report.NotChecked]
}

// describeVerdict is a rule's status, with its reason when there is one.
func describeVerdict(r report.RuleResult, reported bool) string {
	switch {
	case !reported:
		return "no verdict (not in the report)"
	case r.Reason != "":
		return fmt.Sprintf("%s (%s)", r.Status, r.Reason)
	}
	return string(r.Status)
}
