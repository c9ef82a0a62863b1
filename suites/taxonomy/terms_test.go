package taxonomy

import (
	"fmt"
	"slices"
	"testing"
)

// TestSampleBoundsItsPages checks which terms the specs read the single
// view of: those naming fewest pages first, no more than maxSampledPages
// pages in all past the first (read whatever its size), then those naming
// none, at most maxTerms.
func TestSampleBoundsItsPages(t *testing.T) {
	named := func(key string, n int) term {
		tm := term{key: key}
		for i := range n {
			tm.list = append(tm.list, fmt.Sprintf("%s-page-%d", key, i))
		}
		return tm
	}
	for _, c := range []struct {
		name  string
		terms []term
		want  []string
	}{
		{"small terms, fewest pages first, then those naming none",
			[]term{named("a", 3), named("empty", 0), named("b", 1), named("c", 2)}, []string{"b", "c", "a", "empty"}},
		{"a few big categories: the smallest alone, then those naming none",
			[]term{named("archive", 900), named("general", 500), named("music", 300), named("none", 0)}, []string{"music", "none"}},
		{"big terms past the bound skipped, a smaller one after still fits",
			[]term{named("a", 150), named("b", 60), named("c", 40)}, []string{"c", "b"}},
		{"many small terms: at most maxTerms",
			[]term{named("t0", 1), named("t1", 1), named("t2", 1), named("t3", 1), named("t4", 1), named("t5", 1),
				named("t6", 1), named("t7", 1), named("t8", 1), named("t9", 1), named("t10", 1)},
			[]string{"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			pages := 0
			for _, tm := range sample(c.terms) {
				got = append(got, tm.key)
				pages += len(tm.list)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("sampled %v, want %v", got, c.want)
			}
			if first := len(sample(c.terms)[0].list); pages > max(first, maxSampledPages) {
				t.Errorf("the sample names %d pages, more than %d", pages, maxSampledPages)
			}
		})
	}
}
