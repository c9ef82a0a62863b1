// Package pageobj judges the shape of a page object (PAGE-OBJECT-SHAPE,
// spec 2.1: the 17 fields with their types, against schema page.json) and
// tells a page list's shape from its pages' (PAGE-LIST-SHAPE, 4.1: the
// list envelope against page-list.json, whose items are page objects).
// The reads and taxonomy suites judge every page they read with these
// functions (single reads, and every page of a listing as it streams by);
// conformance explore's oracles judge its answers with them.
package pageobj

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/schemas"
)

// The schemas of a page object and of the page list.
const (
	Schema     = "page.json"
	ListSchema = "page-list.json"
)

// Problem is one thing wrong with a page object: the JSON path inside it,
// as schemas writes paths ("tags", "$" for the page itself), and what is
// wrong there.
type Problem struct{ Path, Problem string }

// Violations lists how page departs from page.json (PAGE-OBJECT-SHAPE),
// none when it conforms.
func Violations(page gjson.Result) []Problem {
	vs, err := schemas.Violations(Schema, []byte(page.Raw))
	if err != nil {
		return []Problem{{Path: "$", Problem: err.Error()}}
	}
	out := make([]Problem, len(vs))
	for i, v := range vs {
		out[i] = Problem{Path: v.Path, Problem: v.Problem}
	}
	return out
}

// Problems is Violations worded "path: problem" (PAGE-OBJECT-SHAPE).
func Problems(page gjson.Result) []string {
	ps, err := schemas.Validate(Schema, []byte(page.Raw))
	if err != nil {
		return []string{err.Error()}
	}
	return ps
}

// Judge judges page, a value that must be a page object
// (PAGE-OBJECT-SHAPE): a value of another kind is the problem itself.
func Judge(page gjson.Result) rules.Judgement {
	if !page.IsObject() {
		return rules.Violation("%s", rules.Show(page))
	}
	return rules.FromViolations(Problems(page), nil)
}

// List judges a page list's body against page-list.json: list is
// PAGE-LIST-SHAPE's judgement, of the whole body (a page object that
// breaks page.json breaks the list's shape too: its data is "an array of
// page objects"), and pages PAGE-OBJECT-SHAPE's, of the items of data
// alone.
func List(body []byte) (list, pages rules.Judgement) {
	vs, err := schemas.Violations(ListSchema, body)
	var all, ofPages []string
	for _, v := range vs {
		all = append(all, v.Path+": "+v.Problem)
		if strings.HasPrefix(v.Path, "data[") || strings.HasPrefix(v.Path, "data.") {
			ofPages = append(ofPages, v.Path+": "+v.Problem)
		}
	}
	return rules.FromViolations(all, err), rules.FromViolations(ofPages, nil)
}
