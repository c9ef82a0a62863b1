package pageobj

import (
	"testing"

	"github.com/tidwall/gjson"

	rt "github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// TestJudge: PAGE-OBJECT-SHAPE on one page object: the 17 fields of 2.1
// with their types pass (extra fields too); a missing field, a field of
// another kind, a sixth type and a value that is no object fail.
func TestJudge(t *testing.T) {
	for _, c := range []struct {
		name, page string
		ok         bool
		path       string // a path the violations name
	}{
		{name: "a page", page: rt.JSON(t, rt.Page("a", "draft", nil)), ok: true},
		{name: "extra fields", page: rt.JSON(t, rt.Page("a", "draft", map[string]any{"position": 3})), ok: true},
		{name: "a cover image", page: rt.JSON(t, rt.Page("a", "draft", map[string]any{"coverImage": "http://x/c.png", "coverImageFilename": "c.png"})), ok: true},
		{name: "no uuid", page: rt.JSON(t, rt.Page("a", "draft", map[string]any{"uuid": nil})), path: "uuid"},
		{name: "tags an array", page: rt.JSON(t, rt.Page("a", "draft", map[string]any{"tags": []string{"x"}})), path: "tags"},
		{name: "a sixth type", page: rt.JSON(t, rt.Page("a", "archived", nil)), path: "type"},
		{name: "a date of another form", page: rt.JSON(t, rt.Page("a", "draft", map[string]any{"date": "3 Feb 2001"})), path: "date"},
		{name: "a string", page: `"a"`},
		{name: "missing"},
	} {
		page := gjson.Parse(c.page)
		j := Judge(page)
		if j.Holds() != c.ok {
			t.Errorf("%s: Judge holds %t, want %t (%q)", c.name, j.Holds(), c.ok, j.Problem)
		}
		if c.page == "" {
			continue
		}
		vs := Violations(page)
		if (len(vs) == 0) != c.ok || len(Problems(page)) != len(vs) {
			t.Errorf("%s: violations %v, problems %v", c.name, vs, Problems(page))
		}
		found := c.path == ""
		for _, v := range vs {
			found = found || v.Path == c.path
		}
		if !found {
			t.Errorf("%s: no violation at %s: %v", c.name, c.path, vs)
		}
	}
}

// TestList: PAGE-LIST-SHAPE judges the whole list (its pages included),
// PAGE-OBJECT-SHAPE only the pages.
func TestList(t *testing.T) {
	list := func(meta string, pages ...map[string]any) []byte {
		return []byte(`{"status":"0","message":"ok","numberOfItems":15,"meta":` + meta + `,"data":` + rt.JSON(t, pages) + `}`)
	}
	meta := `{"total":1,"pageNumber":1,"pageSize":15,"hasMore":false}`
	for _, c := range []struct {
		name          string
		body          []byte
		listOK, pages bool
	}{
		{"a list", list(meta, rt.Page("a", "published", nil)), true, true},
		{"an empty list", list(meta, []map[string]any{}...), true, true},
		{"no meta.hasMore", list(`{"total":1,"pageNumber":1,"pageSize":15}`, rt.Page("a", "published", nil)), false, true},
		{"a page without its uuid", list(meta, rt.Page("a", "published", map[string]any{"uuid": nil})), false, false},
		{"data an object", []byte(`{"status":"0","message":"ok","numberOfItems":15,"meta":` + meta + `,"data":{}}`), false, true},
	} {
		l, p := List(c.body)
		if l.Holds() != c.listOK || p.Holds() != c.pages {
			t.Errorf("%s: list holds %t (%q), pages %t (%q); want %t, %t", c.name, l.Holds(), l.Problem, p.Holds(), p.Problem, c.listOK, c.pages)
		}
	}
}
