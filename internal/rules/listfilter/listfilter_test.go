package listfilter

import (
	"net/url"
	"slices"
	"testing"

	"github.com/tidwall/gjson"
)

// TestTypes: the types a list request includes, and the rule its
// answer's types break.
func TestTypes(t *testing.T) {
	for _, c := range []struct {
		q    string
		want []string
		rule string
	}{
		{"", []string{"published"}, "PAGE-LIST-DEFAULT-FILTER"},
		{"numberOfItems=2", []string{"published"}, "PAGE-LIST-DEFAULT-FILTER"},
		{"draft=true", []string{"draft", "published"}, "PAGE-LIST-TYPE-FILTERS"}, // published unless sent
		{"draft=true&published=false", []string{"draft"}, "PAGE-LIST-TYPE-FILTERS"},
		{"published=false&static=true&sticky=1", []string{"static"}, "PAGE-LIST-TYPE-FILTERS"},
		{"draft=true&published=true&static=true&sticky=true&scheduled=true", PageTypes, "PAGE-LIST-TYPE-FILTERS"},
	} {
		q, _ := url.ParseQuery(c.q)
		types, sent := Types(func(name string) (string, bool) {
			vs, ok := q[name]
			if !ok {
				return "", false
			}
			return vs[0], true
		})
		if !slices.Equal(types, c.want) || Rule(sent) != c.rule {
			t.Errorf("%q: %v (%s), want %v (%s)", c.q, types, Rule(sent), c.want, c.rule)
		}
	}
}

// TestOfType: a listed page of a type the request includes passes; any
// other type, or none, fails.
func TestOfType(t *testing.T) {
	for page, ok := range map[string]bool{
		`{"type":"draft"}`:  true,
		`{"type":"static"}`: true,
		`{"type":"sticky"}`: false,
		`{"type":3}`:        false,
		`{}`:                false,
	} {
		if j := OfType(gjson.Parse(page), []string{"draft", "static"}); j.Holds() != ok {
			t.Errorf("%s: holds %t, want %t", page, j.Holds(), ok)
		}
	}
}

// TestUntagged: what counts as tagged, and the untagged slice
// (PAGE-LIST-UNTAGGED-AFTER-PAGINATION) in any order.
func TestUntagged(t *testing.T) {
	for page, tagged := range map[string]bool{
		`{"tags":{"a":"A"}}`: true,
		`{"tags":{}}`:        false,
		`{"tags":["a"]}`:     true,
		`{"tags":[]}`:        false,
		`{"tags":"a,b"}`:     true,
		`{"tags":""}`:        false,
		`{}`:                 false,
	} {
		if Tagged(gjson.Parse(page)) != tagged {
			t.Errorf("Tagged(%s) = %t", page, !tagged)
		}
	}
	for _, c := range []struct {
		got, want []string
		ok        bool
	}{
		{[]string{"a", "c"}, []string{"c", "a"}, true},
		{nil, nil, true},
		{[]string{"a", "b", "c"}, []string{"a", "c"}, false}, // a tagged page kept
		{[]string{"a"}, []string{"a", "c"}, false},           // one missing
		{[]string{"a", "c", "d"}, []string{"a", "c"}, false}, // filtered before pagination
	} {
		if j := UntaggedSlice(c.got, c.want); j.Holds() != c.ok {
			t.Errorf("UntaggedSlice(%q, %q) holds %t, want %t", c.got, c.want, j.Holds(), c.ok)
		}
	}
}
