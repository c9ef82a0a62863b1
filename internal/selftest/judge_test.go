package selftest_test

// How the self-test judges each run: a benign variant must pass (or fail
// exactly as awaitingSuiteFix says), a mutant must be caught (or be listed
// in notCaughtYet).

import (
	"slices"
	"sort"
	"testing"

	"github.com/conformance-suite/conformance/internal/spec"
)

// judgeBenign judges the run of a benign variant or profile and reports
// whether it passed.
func judgeBenign(t *testing.T, o outcome) bool {
	t.Helper()
	fix, listed := awaitingSuiteFix[o.name]
	switch {
	case o.passed() && listed:
		t.Errorf("awaitingSuiteFix lists %s, but the suite passes it now: remove it from the list", o.name)
	case o.passed():
	case !listed:
		t.Errorf("benign variant %s (%s) must pass, the spec allows it; the suite failed it:\n%s",
			o.name, o.mutant.Description, o.describe())
	case o.run == nil:
		t.Errorf("benign variant %s (listed in awaitingSuiteFix) wrote no report:\n%s", o.name, o.describe())
	default:
		failed := o.failedRules()
		sort.Strings(failed)
		want := slices.Sorted(slices.Values(fix.rules))
		if !slices.Equal(failed, want) {
			t.Errorf("benign variant %s: the suite fails %v, awaitingSuiteFix says %v (%s): update the list, "+
				"or fix what fails beyond it:\n%s", o.name, failed, want, fix.why, o.describe())
		} else {
			t.Logf("awaiting a suite fix (listed): %s fails %v: %s", o.name, failed, fix.why)
		}
	}
	return o.passed()
}

// verdict is what the self-test concluded about a mutant.
type verdict int

const (
	caught verdict = iota
	caughtByThePreflight
	pendingFix // not caught, and listed in notCaughtYet
	survived
)

// judgeMutant judges the run of a mutant, with its unfiltered rerun when
// the filtered run did not catch it.
func judgeMutant(t *testing.T, o outcome, rerun map[string]outcome, cat *spec.Catalogue) verdict {
	t.Helper()
	if _, listed := caughtByPreflight[o.mutant.Name]; listed && !o.stoppedByPreflight() && o.killed() {
		t.Errorf("caughtByPreflight lists %s, but the run got past the preflight and failed %v: remove it from the list",
			o.name, o.hits())
	}
	why, notYet := notCaughtYet[o.mutant.Name]
	r, rerunKilled := rerun[o.name]
	rerunKilled = rerunKilled && r.killed()
	switch {
	case o.killed() && notYet, rerunKilled && notYet:
		t.Errorf("notCaughtYet lists %s, but the suite catches it now: remove it from the list", o.name)
		return caught
	case o.stoppedByPreflight():
		return caughtByThePreflight
	case o.killed():
		return caught
	case rerunKilled && o.judgedPartly(cat):
		// Expected now and then: the filtered areas' exchanges did not show
		// the cross-cutting break, the full run's did.
		t.Logf("mutant %s: caught by the full run (%v failed), not by the run filtered to %q", o.name, r.hits(), o.filter)
		return caught
	case rerunKilled:
		t.Errorf("mutant %s (breaks %v) is caught by a full run (rules %v failed) but not by the run "+
			"filtered to its rules' areas: some spec of these rules depends on specs of other areas.\nfiltered run: %s",
			o.name, o.mutant.Rules, r.hits(), o.describe())
		return survived
	case notYet:
		t.Logf("not caught yet (listed): %s: %s", o.name, why)
		return pendingFix
	}
	t.Errorf("mutant %s SURVIVED: it breaks %v (%s), but no run failed any of these rules.\n%s",
		o.name, o.mutant.Rules, o.mutant.Description, o.describe())
	return survived
}
