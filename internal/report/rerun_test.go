package report

import (
	"slices"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

func TestRerunFilter(t *testing.T) {
	spec := func(labels ...string) []string { return labels }
	get404 := spec("rule:PAGE-GET-404", "area:pages", "endpoint:GET.pages.key")
	userGet := spec("rule:USER-GET-404", "area:users")
	listShape := spec("rule:PAGE-LIST-SHAPE", "area:pages")
	tagPassed := spec("rule:TAG-GET-404", "area:taxonomy")
	noCache := spec("rule:GEN-NO-CACHE", "area:protocol", "cross-cutting")
	cors := spec("rule:GEN-CORS-ANY-ORIGIN", "area:protocol", "cross-cutting")

	for _, tc := range []struct {
		name        string
		failed      []string
		crossFailed bool
		earlier     string // the earlier run's label filter
		extra       string
		want        string
		runs, skips [][]string
	}{
		{
			name:   "failed rules only",
			failed: []string{"PAGE-GET-404", "USER-GET-404"},
			want:   "rule: containsAny {PAGE-GET-404, USER-GET-404}",
			runs:   [][]string{get404, userGet},
			skips:  [][]string{listShape, tagPassed, noCache, cors},
		},
		{
			name:   "and'ed with a filter given now",
			failed: []string{"PAGE-GET-404", "USER-GET-404"},
			extra:  "area:pages",
			want:   "(area:pages) && (rule: containsAny {PAGE-GET-404, USER-GET-404})",
			runs:   [][]string{get404},
			skips:  [][]string{userGet, listShape},
		},
		{
			name:    "keeps the earlier run's selection",
			failed:  []string{"PAGE-GET-404"},
			earlier: "endpoint:GET.pages.key || area:users",
			want:    "(endpoint:GET.pages.key || area:users) && (rule: containsAny {PAGE-GET-404})",
			runs:    [][]string{get404},
			skips:   [][]string{spec("rule:PAGE-GET-404", "area:pages", "endpoint:PUT.pages.key"), userGet},
		},
		{
			name:        "a cross-cutting rule reruns the traffic it judges",
			failed:      []string{"GEN-NO-CACHE"},
			crossFailed: true,
			earlier:     "!area:settings",
			want:        "(!area:settings) && (rule: containsAny {GEN-NO-CACHE} || !cross-cutting)",
			runs:        [][]string{noCache, get404, listShape, tagPassed},
			skips:       [][]string{cors, spec("rule:SETTINGS-GET-SHAPE", "area:settings")},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Run{Meta: Meta{LabelFilter: tc.earlier}}
			for _, id := range []string{"GEN-NO-CACHE", "GEN-CORS-ANY-ORIGIN", "PAGE-GET-404", "PAGE-LIST-SHAPE", "TAG-GET-404", "USER-GET-404"} {
				st := Passed
				if slices.Contains(tc.failed, id) {
					st = Failed
				}
				r.Rules = append(r.Rules, RuleResult{ID: id, Status: st, CrossCutting: id == "GEN-NO-CACHE" || id == "GEN-CORS-ANY-ORIGIN"})
			}
			got, ids, ok := RerunFilter(r, tc.extra)
			if !ok || got != tc.want {
				t.Fatalf("filter %q (ok %v), want %q", got, ok, tc.want)
			}
			if len(ids) != len(tc.failed) {
				t.Fatalf("ids %v, want %v", ids, tc.failed)
			}
			// The filter must parse and select exactly as meant: Ginkgo
			// lower-cases key:value labels, and IDs hold '-'.
			lf, err := types.ParseLabelFilter(got)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range tc.runs {
				if !lf(l) {
					t.Errorf("filter does not select %v", l)
				}
			}
			for _, l := range tc.skips {
				if lf(l) {
					t.Errorf("filter selects %v", l)
				}
			}
		})
	}
}

func TestRerunFilterNothingFailed(t *testing.T) {
	r := &Run{Rules: []RuleResult{{ID: "A-B", Status: Passed}, {ID: "A-C", Status: NotChecked}}}
	if f, _, ok := RerunFilter(r, ""); ok {
		t.Fatalf("filter %q for a run without failures", f)
	}
	r.Rules[1].Status = Errored // could not finish: checked again too
	if f, ids, ok := RerunFilter(r, ""); !ok || len(ids) != 1 || f != "rule: containsAny {A-C}" {
		t.Fatalf("filter %q ids %v ok %v", f, ids, ok)
	}
}
