// Package listfilter judges the page list's filters (spec 4.1, 9.3): the
// types a list request includes (PAGE-LIST-TYPE-FILTERS, each type=true;
// PAGE-LIST-DEFAULT-FILTER, published alone without any type parameter),
// and untagged=true, which keeps the untagged pages of the slice the same
// request without it serves (PAGE-LIST-UNTAGGED-AFTER-PAGINATION: it
// filters after pagination). The reads suite's list specs and
// conformance explore's oracle of the page list judge with these
// functions; the paging of a list is rules/paging's.
package listfilter

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/rules"
)

// PageTypes are the five page types (3), each a filter of the list.
var PageTypes = []string{"draft", "published", "static", "sticky", "scheduled"}

// Types reads which page types a list request includes; param gives the
// first value of a query parameter, and whether it was sent. A type is
// included when its parameter is the string true, and published also
// when its parameter is not sent (published is the default: without any
// type parameter, the list holds published pages alone). sent reports
// whether any type parameter was sent.
func Types(param func(name string) (string, bool)) (types []string, sent bool) {
	for _, t := range PageTypes {
		v, ok := param(t)
		sent = sent || ok
		if v == "true" || (t == "published" && !ok) {
			types = append(types, t)
		}
	}
	return types, sent
}

// Rule names the rule the types a list holds break:
// PAGE-LIST-TYPE-FILTERS when a type parameter was sent,
// PAGE-LIST-DEFAULT-FILTER when none was.
func Rule(sent bool) string {
	if sent {
		return "PAGE-LIST-TYPE-FILTERS"
	}
	return "PAGE-LIST-DEFAULT-FILTER"
}

// OfType judges the type of a page the list holds: one of the types the
// request includes (PAGE-LIST-TYPE-FILTERS, PAGE-LIST-DEFAULT-FILTER).
func OfType(page gjson.Result, types []string) rules.Judgement {
	if got := page.Get("type"); got.Type != gjson.String || !slices.Contains(types, got.Str) {
		return rules.Violation("type is %s", rules.Show(got))
	}
	return rules.Conforms()
}

// Tagged reports whether a page carries tags: a non-empty tags object
// (or, from a server that breaks PAGE-OBJECT-SHAPE, a non-empty array or
// string).
func Tagged(page gjson.Result) bool {
	tg := page.Get("tags")
	switch {
	case tg.IsObject():
		return len(tg.Map()) > 0
	case tg.IsArray():
		return len(tg.Array()) > 0
	case tg.Type == gjson.String:
		return tg.Str != ""
	}
	return false
}

// UntaggedSlice judges the keys of the pages an untagged=true answer
// lists against want, the keys of the untagged pages (Tagged) of the same
// slice without untagged: the same pages, in any order
// (PAGE-LIST-UNTAGGED-AFTER-PAGINATION; no order is stated for the list).
func UntaggedSlice(got, want []string) rules.Judgement {
	g, w := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	if slices.Equal(g, w) {
		return rules.Conforms()
	}
	return rules.Violation("the pages %s, want %s", quoted(g), quoted(w))
}

// quoted renders keys for a problem.
func quoted(keys []string) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%q", k)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// TypesOfQuery reads the types a list request's query includes (Types); ok
// is false when a type parameter is sent twice or with a value other than
// true or false, which leaves them open.
func TypesOfQuery(q url.Values) (types []string, ok bool) {
	for _, ty := range PageTypes {
		if vs, sent := q[ty]; sent && (len(vs) != 1 || (vs[0] != "true" && vs[0] != "false")) {
			return nil, false
		}
	}
	types, _ = Types(func(name string) (string, bool) {
		vs, sent := q[name]
		if !sent {
			return "", false
		}
		return vs[0], true
	})
	return types, true
}
