package selftest_test

// The spec coverage map proves itself: the run against the reference
// server fills every testable cell (checkCoverage), and every testable
// cell has a mutant of its own (reference.CellMutant) that the matrix runs
// and requires caught by one of the rules of the cell.

import (
	"slices"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// isCellMutant reports whether name is the mutant of a cell of its own
// (not a mutant of the table that also breaks a cell).
func isCellMutant(name reference.Mutant) bool { return strings.HasPrefix(string(name), "cell-") }

// raceSample tells whether the run of a mutant is part of this
// self-test: always, but under the race detector (go test -race), where
// the runs are several times slower and what is looked for is a data
// race, not a suite's catch, one in oneIn (by name, so the same ones):
// the plain go test ./... runs them all.
func raceSample(name reference.Mutant, oneIn int) bool {
	if !testkit.RaceEnabled {
		return true
	}
	h := 0
	for _, c := range name {
		h = (h*31 + int(c)) % 1000003
	}
	return h%oneIn == 0
}

// planCellMutant is the job of a cell's own mutant: the specs of the
// cell's rules only (their labels), once. A rule judged on every response
// (a cross-cutting one, a shape rule's case) judges those specs' exchanges.
func planCellMutant(m reference.MutantInfo) job {
	var terms []string
	for _, id := range m.Rules {
		terms = append(terms, "rule:"+id)
	}
	return job{name: string(m.Name), kind: mutant, mutant: m, filter: strings.Join(terms, " || "), once: true}
}

// checkCoverage judges the coverage map of the run against the reference
// server: the report carries it, every testable cell is filled, no mark
// names a cell the table lacks, and the mutant of each filled cell names a
// rule that filled it (so the mutant's catch shows that very check).
func checkCoverage(t *testing.T, run *report.Run) {
	t.Helper()
	m := run.Coverage
	if m == nil {
		t.Fatal("the JSON report carries no coverage map")
	}
	for _, u := range m.Unknown {
		t.Errorf("a mark names cell %s, which the coverage table does not have", u)
	}
	var empty []string
	for _, c := range m.Cells(coverage.Empty) {
		empty = append(empty, string(c.ID)+": "+c.Reason)
	}
	if len(empty) > 0 {
		t.Errorf("%d testable cell(s) of the coverage map are empty on the reference server (fill each with a spec's assertion, "+
			"or, if the spec gives a client no way to check it, mark it untestable in internal/coverage with the reason):\n  %s",
			len(empty), strings.Join(empty, "\n  "))
	}
	registry := map[reference.Mutant]reference.MutantInfo{}
	for _, mi := range reference.Mutants() {
		registry[mi.Name] = mi
	}
	for _, c := range m.Cells(coverage.Filled) {
		name, ok := reference.CellMutant(c.ID)
		mi, known := registry[name]
		switch {
		case !ok || !known:
			t.Errorf("cell %s is filled but has no mutant of its own in internal/reference", c.ID)
		case !slices.ContainsFunc(mi.Rules, func(r string) bool { return slices.Contains(c.Rules, r) }):
			t.Errorf("cell %s is filled by %v, but its mutant %s names %v: its catch would not show the cell's check", c.ID, c.Rules, name, mi.Rules)
		}
	}
	t.Logf("coverage map of the reference run: %s", m.Summary())
}

// TestEveryCellHasAMutantOfItsOwn: each testable cell of the coverage
// table has a mutant that is its alone (no two cells share one), known to
// the registry, not benign, naming rules of the catalogue that are among
// the cell's; each untestable cell has its reason and no mutant; each
// cell's rules are testable rules of the catalogue.
func TestEveryCellHasAMutantOfItsOwn(t *testing.T) {
	cat := spec.All()
	registry := map[reference.Mutant]reference.MutantInfo{}
	for _, mi := range reference.Mutants() {
		registry[mi.Name] = mi
	}
	owner := map[reference.Mutant]coverage.ID{}
	testable := 0
	for _, id := range coverage.IDs() {
		c, _ := coverage.Lookup(id)
		for _, r := range c.Rules {
			if rule, ok := cat.Lookup(r); !ok || !rule.Testable() {
				t.Errorf("cell %s names rule %s, which is not a testable rule of the catalogue", id, r)
			}
		}
		if !c.Testable() {
			if len(c.Rules) > 0 {
				t.Errorf("untestable cell %s names rules %v", id, c.Rules)
			}
			if _, ok := reference.CellMutant(id); ok {
				t.Errorf("untestable cell %s has a mutant", id)
			}
			continue
		}
		testable++
		if len(c.Rules) == 0 {
			t.Errorf("testable cell %s names no rule that could fill it", id)
		}
		name, ok := reference.CellMutant(id)
		mi, known := registry[name]
		switch {
		case !ok || !known:
			t.Errorf("cell %s has no mutant in the registry (%q)", id, name)
			continue
		case mi.Benign:
			t.Errorf("the mutant %s of cell %s is benign", name, id)
		case !slices.ContainsFunc(mi.Rules, func(r string) bool { return slices.Contains(c.Rules, r) }):
			t.Errorf("the mutant %s of cell %s names %v, none of the cell's rules %v", name, id, mi.Rules, c.Rules)
		}
		if other, dup := owner[name]; dup {
			t.Errorf("cells %s and %s share the mutant %s: each cell needs one of its own", other, id, name)
		}
		owner[name] = id
	}
	if testable == 0 {
		t.Fatal("the coverage table has no testable cell")
	}
}
