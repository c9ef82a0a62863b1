package probe

import (
	"testing"

	"github.com/tidwall/gjson"
)

// TestSmallestTerm checks which tag or category DiscoverPath reads: the
// one whose list names fewest pages (the first of those), never an item
// without a key.
func TestSmallestTerm(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"fewest pages", `[{"key":"general","list":["a","b","c"]},{"key":"music","list":["a"]},{"key":"tech","list":["b","c"]}]`, "music"},
		{"no pages at all comes first", `[{"key":"big","list":["a","b"]},{"key":"archive","list":[]}]`, "archive"},
		{"ties: the first listed", `[{"key":"x","list":["a"]},{"key":"y","list":["b"]}]`, "x"},
		{"items without a key skipped", `[{"list":[]},{"key":"","list":[]},{"key":"only","list":["a"]}]`, "only"},
		{"no list", `[{"key":"a"},{"key":"b","list":["p"]}]`, "a"},
		{"nothing to read", `[]`, ""},
	} {
		if got := smallestTerm(gjson.Parse(c.data)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
