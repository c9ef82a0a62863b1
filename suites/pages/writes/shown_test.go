package writes

import (
	"testing"

	"github.com/tidwall/gjson"
)

// A term's list is an array of page keys: anything else names no page
// (gjson's Array reads a single value as an array of it).
func TestStrsOfArraysOnly(t *testing.T) {
	for raw, want := range map[string]int{`["a","b",1]`: 2, `"a"`: 0, `{"a":"a"}`: 0, `null`: 0, `[]`: 0} {
		if got := strs(gjson.Parse(raw)); len(got) != want {
			t.Errorf("strs(%s) = %q, want %d strings", raw, got, want)
		}
	}
}
