package reference

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// mustPanic runs f and returns what it panicked with; the test fails when
// it does not panic.
func mustPanic(t *testing.T, what string, f func()) (v any) {
	t.Helper()
	defer func() {
		if v = recover(); v == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	f()
	return nil
}

// The registry lists the declared rows with the table's, each in its
// place by name.
func TestDeclaredMutantsJoinTheRegistry(t *testing.T) {
	if got := buildRegistry(declared); !reflect.DeepEqual(got, registry) {
		t.Fatal("the registry is not buildRegistry(declared)")
	}
	extra := []MutantInfo{
		breaks("zz-declared-in-a-test", "PAGE-GET-OK", "A mutant declared by this test only."),
		allows("benign-declared-in-a-test", "A benign variant declared by this test only."),
		breaks("aa-declared-in-a-test", "PAGE-GET-OK TAG-GET-404", "Another mutant declared by this test only."),
	}
	got := buildRegistry(slices.Concat(declared, extra))
	if len(got) != len(registry)+len(extra) {
		t.Fatalf("%d rows, want %d", len(got), len(registry)+len(extra))
	}
	if !slices.IsSortedFunc(got, func(a, b MutantInfo) int { return strings.Compare(string(a.Name), string(b.Name)) }) {
		t.Error("not sorted by name")
	}
	for _, want := range extra {
		i := slices.IndexFunc(got, func(m MutantInfo) bool { return m.Name == want.Name })
		if i < 0 || !reflect.DeepEqual(got[i], want) {
			t.Errorf("%s: listed as %+v", want.Name, got[i])
		}
	}
	// Without them, the same registry again: the order depends on the
	// names only, not on when the rows were added.
	if again := buildRegistry(declared); !reflect.DeepEqual(again, registry) {
		t.Error("building the registry twice gives two orders")
	}
}

// A declared mutant cannot take a name the table, the generated-input
// mutants, the cell mutants, the legacy combination or another
// declaration has.
func TestDeclaredNameCollisionPanics(t *testing.T) {
	cell := cellTable()[0].Name
	for _, name := range []Mutant{TagsAsString, BenignKeyOrder, ForeignWriter, ExploreTextPlainCrash, cell, Legacy321} {
		v := mustPanic(t, string(name), func() { buildRegistry([]MutantInfo{breaks(name, "PAGE-GET-OK", "Takes a name in use.")}) })
		if !strings.Contains(fmt.Sprint(v), fmt.Sprintf("%q", name)) {
			t.Errorf("%s: panic %v does not name it", name, v)
		}
	}
	twice := breaks("declared-twice", "PAGE-GET-OK", "Declared in two files.")
	v := mustPanic(t, "declared twice", func() { buildRegistry([]MutantInfo{twice, twice}) })
	if !strings.Contains(fmt.Sprint(v), `"declared-twice"`) {
		t.Errorf("declared twice: panic %v does not name it", v)
	}
}

// declare runs only while the package initialises: a late one would miss
// the registry.
func TestDeclareAfterInitialisationPanics(t *testing.T) {
	before := len(declared)
	mustPanic(t, "late declare", func() { declare(breaks("declared-late", "PAGE-GET-OK", "Declared in a function.")) })
	if len(declared) != before {
		t.Error("a late declaration was kept")
	}
	if _, err := New(Options{Token: "t", AuthToken: "a", Mutants: []Mutant{"declared-late"}}); err == nil {
		t.Error("a late declaration is a known mutant")
	}
}
