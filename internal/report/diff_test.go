package report

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"
)

// The fixture pairs under testdata/diff are JSON reports saved from real
// demo runs (read-only, against reference-server mutants; the random
// port replaced by 8080):
//   - regression: before, mutant tag-missing-200 on users+taxonomy;
//     after, mutant user-missing-200 on users+taxonomy+files, skipping
//     TAG-LIST-SHAPE. USER-GET-404 regressed, TAG-GET-404 got fixed, two
//     files rules are newly checked, TAG-LIST-SHAPE is no longer checked.
//   - clean: users only; before, mutant user-missing-200; after, the
//     reference server. USER-GET-404 got fixed; nothing regressed.
func TestDiffFixtures(t *testing.T) {
	for _, tc := range []struct {
		pair       string
		regressed  bool
		fixed      []string
		regression []string
	}{
		{pair: "regression", regressed: true, fixed: []string{"TAG-GET-404"}, regression: []string{"USER-GET-404"}},
		{pair: "clean", regressed: false, fixed: []string{"USER-GET-404"}},
	} {
		t.Run(tc.pair, func(t *testing.T) {
			before, err := ReadJSONFile(filepath.Join("testdata", "diff", tc.pair, "before.json"))
			if err != nil {
				t.Fatal(err)
			}
			after, err := ReadJSONFile(filepath.Join("testdata", "diff", tc.pair, "after.json"))
			if err != nil {
				t.Fatal(err)
			}
			d := Compare(before, after)
			if d.Regressed() != tc.regressed {
				t.Errorf("Regressed() = %v, want %v", d.Regressed(), tc.regressed)
			}
			if got := ids(d.Fixed); !reflect.DeepEqual(got, tc.fixed) {
				t.Errorf("fixed %v, want %v", got, tc.fixed)
			}
			if got := ids(d.Regressions); !reflect.DeepEqual(got, tc.regression) {
				t.Errorf("regressions %v, want %v", got, tc.regression)
			}
			var b bytes.Buffer
			d.WriteText(&b)
			golden(t, filepath.Join("diff", tc.pair, "diff.txt.golden"), b.Bytes())
		})
	}
}

func ids(cs []Change) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func TestCompareTransitions(t *testing.T) {
	run := func(statuses map[string]Status, order ...string) *Run {
		r := &Run{Meta: Meta{Target: "t", Mode: "writes"}}
		for _, id := range order {
			if st, ok := statuses[id]; ok {
				r.Rules = append(r.Rules, RuleResult{ID: id, Status: st, Reason: "because"})
			}
		}
		return r
	}
	order := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}
	before := run(map[string]Status{"A": Passed, "B": Failed, "C": NotChecked, "D": Passed, "E": Failed,
		"F": Passed, "G": NotTestable, "H": Passed, "I": Errored, "J": Passed}, order...)
	after := run(map[string]Status{"A": Failed, "B": Passed, "C": Passed, "D": NotChecked, "E": Errored,
		"F": Passed, "G": NotTestable, "H": Errored, "I": Passed, "K": Failed}, append(order, "K")...)
	d := Compare(before, after)
	for name, tc := range map[string]struct {
		got  []Change
		want []string
	}{
		"regressions":       {d.Regressions, []string{"A", "H"}},
		"fixed":             {d.Fixed, []string{"B", "I"}},
		"newly checked":     {d.NewlyChecked, []string{"C", "K"}},
		"no longer checked": {d.NoLongerChecked, []string{"D", "J"}},
		"still failing":     {d.StillFailing, []string{"E"}},
	} {
		if got := ids(tc.got); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
	if len(d.Warnings) != 0 {
		t.Errorf("warnings for comparable runs: %v", d.Warnings)
	}
	after.Meta.Mode = "read-only"
	if w := Compare(before, after).Warnings; len(w) != 1 {
		t.Errorf("a mode change gives warnings %v, want one", w)
	}
}
