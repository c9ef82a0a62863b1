package selftest_test

// The self-test's lists: what it allows, each entry with its reason, and the
// check that the mutant registry and the rule catalogue agree.

import (
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/spec"
)

// rulesNotChecked are testable rules that the plain demo run (writes and
// settings writes allowed, reference server) may leave "not checked", each
// with the reason. Every other testable rule must pass. Keep it empty: a
// rule listed here is a rule the suite claims and does not prove.
var rulesNotChecked = map[string]string{}

// assertionAwaitingSuiteFix are rules the plain reference run leaves not
// checked because their only specs ran without evaluating an assertion
// (issue 12: no vacuous passes), each with the suite fix. Not a place to
// allow gaps (see rulesNotChecked): the self-test fails when one is checked
// (remove it then) or is not checked for another reason.
var assertionAwaitingSuiteFix = map[string]string{}

// rulesWithoutMutant are testable rules that no server-side switch of the
// reference server can break, each with the reason. Every other testable
// rule must be broken by at least one non-benign mutant, or the self-test
// cannot show that its specs catch anything. Empty: every testable rule of
// the catalogue has a mutant today.
var rulesWithoutMutant = map[string]string{}

// caughtByPreflight are mutants that make the whole target unusable, so the
// preflight must refuse to check it (exit 3, one sentence) before any spec
// runs, each with the reason why that is the right answer. They count as
// caught when the run ends that way.
var caughtByPreflight = map[reference.Mutant]string{
	reference.APIUnderV1: "GET {base}/api/pages answers 404: this base URL is not the API's root, and checking on " +
		"would judge (and write to) some other service; the preflight is where GEN-URL-SHAPE is enforced",
	"cell-token-token-query-get-valid": "every read refuses the valid API token: no rule could be checked, and the " +
		"preflight says the token is refused",
	"cell-token-authentication-query-get-valid": "GET /api/settings refuses the valid authentication token: the preflight " +
		"says the token does not belong to an Administrator, and a run that wrote would have no settings to restore",
}

// awaitingSuiteFix are benign variants (and profiles) that the spec allows
// but the suite fails today, each with exactly the rules it fails and why;
// the fix is the suite's (issue 12). They still run: the self-test fails
// when one passes (remove it then) or fails other rules than listed.
var awaitingSuiteFix = map[string]suiteFix{}

// suiteFix is what awaits a suite fix: the rules failed, and why.
type suiteFix struct {
	rules []string
	why   string
}

// rulesAwaitingCatalogue are rule IDs that mutants name but the catalogue
// (internal/spec) does not have yet, each with the rule it should state.
// A mutant breaking only such rules cannot be caught, so it is also in
// notCaughtYet. Remove an ID once internal/spec has it.
var rulesAwaitingCatalogue = map[string]string{}

// notCaughtYet are mutants the suite does not catch today, each with why.
// They still run; the self-test fails when one of them is caught (remove
// it from the list then), so the list only ever shrinks.
var notCaughtYet = map[reference.Mutant]string{}

// TestMutantRulesAreInTheCatalogue checks the mutant registry against the
// rule catalogue: every rule a mutant names exists and is testable (or is in
// rulesAwaitingCatalogue), benign variants name none, every testable rule
// has a mutant that breaks it (or is in rulesWithoutMutant with a reason),
// and every list names what exists.
func TestMutantRulesAreInTheCatalogue(t *testing.T) {
	cat := spec.All()
	broken, awaitedBy := map[string][]reference.Mutant{}, map[string][]reference.Mutant{}
	for _, m := range reference.Mutants() {
		if m.Hazard {
			continue // breaks no rule, and is no benign variant
		}
		if m.Benign {
			if len(m.Rules) > 0 {
				t.Errorf("benign mutant %s names rules %v: a benign variant breaks no rule", m.Name, m.Rules)
			}
			continue
		}
		if len(m.Rules) == 0 {
			t.Errorf("mutant %s breaks no rule: name the rules it breaks, or mark it Benign", m.Name)
		}
		for _, id := range m.Rules {
			r, ok := cat.Lookup(id)
			_, awaited := rulesAwaitingCatalogue[id]
			switch {
			case !ok && awaited:
				awaitedBy[id] = append(awaitedBy[id], m.Name)
			case !ok:
				t.Errorf("mutant %s names rule %q, which the catalogue (internal/spec) does not have", m.Name, id)
			case !r.Testable():
				t.Errorf("mutant %s names rule %s, which the catalogue marks not testable (%s)", m.Name, id, r.NotTestable)
			default:
				broken[id] = append(broken[id], m.Name)
			}
		}
	}
	var without []string
	for _, r := range cat.Rules() {
		if !r.Testable() {
			continue
		}
		_, allowed := rulesWithoutMutant[r.ID]
		switch {
		case len(broken[r.ID]) == 0 && !allowed:
			without = append(without, r.ID)
		case len(broken[r.ID]) > 0 && allowed:
			t.Errorf("rulesWithoutMutant lists %s, but mutants %v break it: remove it from the list", r.ID, broken[r.ID])
		}
	}
	names := map[reference.Mutant]bool{}
	for _, m := range reference.Mutants() {
		names[m.Name] = !m.Benign
	}
	for name, why := range caughtByPreflight {
		if !names[name] || why == "" {
			t.Errorf("caughtByPreflight: %q must be a non-benign mutant of internal/reference, with a reason", name)
		}
	}
	for id, why := range rulesAwaitingCatalogue {
		if _, ok := cat.Lookup(id); ok {
			t.Errorf("rulesAwaitingCatalogue lists %s, which the catalogue now has: remove it from the list", id)
		} else if len(awaitedBy[id]) == 0 || why == "" {
			t.Errorf("rulesAwaitingCatalogue: %q must be named by a mutant, with the rule it should state", id)
		}
	}
	for name, why := range notCaughtYet {
		if !names[name] || why == "" {
			t.Errorf("notCaughtYet: %q must be a non-benign mutant of internal/reference, with the reason", name)
		}
	}
	for name, fix := range awaitingSuiteFix {
		if !isBenign(name) || len(fix.rules) == 0 || fix.why == "" {
			t.Errorf("awaitingSuiteFix: %q must be a benign variant or a profile, with the rules it fails and why", name)
		}
	}
	for id, why := range rulesWithoutMutant {
		if r, ok := cat.Lookup(id); !ok || !r.Testable() || why == "" {
			t.Errorf("rulesWithoutMutant: %q must be a testable catalogue rule with a reason", id)
		}
	}
	if len(without) > 0 {
		t.Errorf("%d testable rule(s) have no mutant, so nothing shows their specs can fail; add a mutant to internal/reference or, "+
			"if no server-side switch can break the rule, list it in rulesWithoutMutant with the reason:\n  %s",
			len(without), strings.Join(without, "\n  "))
	}
}

// isBenign reports whether name is a benign variant or a profile of
// internal/reference.
func isBenign(name string) bool {
	for _, p := range reference.Profiles() {
		if string(p.Name) == name {
			return true
		}
	}
	for _, m := range reference.Mutants() {
		if string(m.Name) == name {
			return m.Benign
		}
	}
	return false
}
