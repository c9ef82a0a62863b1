package reads

import "testing"

// TestFilterOrderShows checks when a walk tells filtering the untagged pages
// before pagination from filtering after it: only then may
// PAGE-LIST-UNTAGGED-AFTER-PAGINATION pass.
func TestFilterOrderShows(t *testing.T) {
	for _, c := range []struct {
		name    string
		perPage []int // untagged pages on each list page of the walk
		shows   bool
	}{
		{"every page untagged", []int{3, 3, 1}, false},
		{"tagged pages only at the end", []int{3, 2, 0}, false},
		{"no untagged page", []int{0, 0}, false},
		{"a tagged page before an untagged one", []int{2, 3, 1}, true},
		{"an all-tagged page before an untagged one", []int{0, 1}, true},
		{"one page", []int{2}, false},
		// A walk cut short (maxWalk) counts only the pages it visited:
		// the last one cannot tell, whatever the pages after it hold.
		{"cut short after a partly untagged page", []int{3, 1}, false},
	} {
		if got := filterOrderShows(c.perPage, 3); got != c.shows {
			t.Errorf("%s %v: filterOrderShows = %v, want %v", c.name, c.perPage, got, c.shows)
		}
	}
}
