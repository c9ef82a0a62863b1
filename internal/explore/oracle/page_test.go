package oracle

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// f is a valid field; bad an invalid one (a kind or form the spec does
// not allow).
func f(name string, v any) gen.Field   { return gen.Field{Name: name, Value: v} }
func bad(name string, v any) gen.Field { return gen.Field{Name: name, Value: v, Invalid: true} }

// TestReadback: a page read back after a write holds every valid field
// as sent, title and contentRaw encoded exactly once (in any form of
// character reference), description and tag names as sent or encoded
// once; a type outside the five is never stored. What an invalid field
// became is the server's choice (it accepted the write): not judged.
func TestReadback(t *testing.T) {
	const (
		salt     = `Salt & Pepper <b>`
		saltOnce = `Salt &amp; Pepper &lt;b&gt;`
	)
	for _, c := range []struct {
		name   string
		w      Written
		stored map[string]any // the page read back: changes to a draft
		want   []string
	}{
		{name: "a title encoded once", w: Written{Fields: []gen.Field{f("title", salt)}}, stored: map[string]any{"title": saltOnce}},
		{name: "a title in numeric references", w: Written{Fields: []gen.Field{f("title", salt)}},
			stored: map[string]any{"title": `Salt &#38; Pepper &#x3C;b&#62;`}},
		{name: "a plain title as sent", w: Written{Fields: []gen.Field{f("title", "Plain 7")}}, stored: map[string]any{"title": "Plain 7"}},
		{name: "content encoded once", w: Written{Fields: []gen.Field{f("content", `a "q" & b`)}}, stored: map[string]any{"contentRaw": `a &quot;q&quot; &amp; b`}},
		{name: "a description as sent", w: Written{Fields: []gen.Field{f("description", salt)}}, stored: map[string]any{"description": salt}},
		{name: "a description encoded once", w: Written{Fields: []gen.Field{f("description", salt)}}, stored: map[string]any{"description": saltOnce}},
		{name: "tags by any keys", w: Written{Fields: []gen.Field{f("tags", "a&b, Zed")}},
			stored: map[string]any{"tags": map[string]any{"a-b": "a&amp;b", "zed": "Zed"}}},
		{name: "two names one key", w: Written{Fields: []gen.Field{f("tags", "zed,Zed")}}, stored: map[string]any{"tags": map[string]any{"zed": "zed"}}},
		{name: "no tags sent, none", w: Written{Fields: []gen.Field{f("tags", "")}}, stored: nil},
		{name: "category, date, slug", w: Written{Fields: []gen.Field{f("category", "news"), f("date", "2011-01-02 03:04:05"), f("slug", "s-1")}},
			stored: map[string]any{"category": "news", "dateRaw": "2011-01-02 03:04:05", "slug": "s-1"}},
		{name: "a slug an edit does not judge", w: Written{Edit: true, Fields: []gen.Field{f("slug", "s-1")}}, stored: nil},
		{name: "published stays published", w: Written{Fields: []gen.Field{f("type", "published")}}, stored: map[string]any{"type": "published"}},
		{name: "published may be scheduled", w: Written{Fields: []gen.Field{f("type", "published")}}, stored: map[string]any{"type": "scheduled"}},
		{name: "a future date may schedule", w: Written{Fields: []gen.Field{f("type", "sticky"), f("date", "2095-01-01 10:00:00")}},
			stored: map[string]any{"type": "scheduled", "dateRaw": "2095-01-01 10:00:00"}},
		{name: "scheduled may be published", w: Written{Fields: []gen.Field{f("type", "scheduled")}}, stored: map[string]any{"type": "published"}},
		{name: "an invalid type not stored", w: Written{Fields: []gen.Field{bad("type", "bogus")}}, stored: nil},
		{name: "an invalid date stored as the server chose", w: Written{Fields: []gen.Field{bad("date", "yesterday")}}, stored: map[string]any{"dateRaw": "2026-01-01 00:00:00"}},
		{name: "a title of the wrong kind", w: Written{Fields: []gen.Field{bad("title", float64(5))}}, stored: map[string]any{"title": "5"}},
		{name: "an unknown category stored as none", w: Written{Fields: []gen.Field{bad("category", "no-such")}}, stored: map[string]any{"category": ""}},
		{name: "a position is not text", w: Written{Fields: []gen.Field{f("position", float64(3))}}, stored: nil},

		{name: "a raw title", w: Written{Fields: []gen.Field{f("title", salt)}}, stored: map[string]any{"title": salt}, want: []string{"PAGE-TITLE-ENCODED"}},
		{name: "a title encoded twice", w: Written{Fields: []gen.Field{f("title", salt)}}, stored: map[string]any{"title": `Salt &amp;amp; Pepper &amp;lt;b&amp;gt;`},
			want: []string{"PAGE-TITLE-ENCODED"}},
		{name: "a form's title encoded twice", w: Written{Form: true, Fields: []gen.Field{f("title", `say "hi"`)}},
			stored: map[string]any{"title": `say &amp;quot;hi&amp;quot;`}, want: []string{"GEN-FORM-SANITISED-ONCE"}},
		{name: "an edit's title cut", w: Written{Edit: true, Fields: []gen.Field{f("title", "Long title")}}, stored: map[string]any{"title": "Long"},
			want: []string{"PAGE-EDIT-PARTIAL"}},
		{name: "a bare ampersand beside an entity", w: Written{Fields: []gen.Field{f("title", "a & b &amp; c")}}, stored: map[string]any{"title": "a & b &amp;amp; c"},
			want: []string{"PAGE-TITLE-ENCODED"}},
		{name: "content raw", w: Written{Fields: []gen.Field{f("content", "<b>x</b>")}}, stored: map[string]any{"contentRaw": "<b>x</b>"}, want: []string{"PAGE-CREATE-FIELDS"}},
		{name: "a description cut", w: Written{Fields: []gen.Field{f("description", "abcdef")}}, stored: map[string]any{"description": "abc"}, want: []string{"PAGE-CREATE-FIELDS"}},
		{name: "a tag not sent", w: Written{Fields: []gen.Field{f("tags", "a,b")}}, stored: map[string]any{"tags": map[string]any{"a": "a", "c": "c"}}, want: []string{"PAGE-TAGS-MAP"}},
		{name: "the tags dropped", w: Written{Fields: []gen.Field{f("tags", "a,b")}}, stored: nil, want: []string{"PAGE-TAGS-MAP"}},
		{name: "an edit's tags dropped", w: Written{Edit: true, Fields: []gen.Field{f("tags", "a")}}, stored: nil, want: []string{"PAGE-EDIT-PARTIAL"}},
		{name: "the category dropped", w: Written{Fields: []gen.Field{f("tags", "a,b,c,d"), f("category", "news")}},
			stored: map[string]any{"tags": map[string]any{"a": "a", "b": "b", "c": "c", "d": "d"}}, want: []string{"PAGE-CREATE-FIELDS"}},
		{name: "another date", w: Written{Fields: []gen.Field{f("date", "2011-01-02 03:04:05")}}, want: []string{"PAGE-CREATE-FIELDS"}},
		{name: "another slug", w: Written{Fields: []gen.Field{f("slug", "s-1")}}, want: []string{"PAGE-CREATE-FIELDS"}},
		{name: "another type", w: Written{Fields: []gen.Field{f("type", "static")}}, want: []string{"PAGE-TYPE-ROUNDTRIP"}},
		{name: "a past date does not schedule a sticky page", w: Written{Fields: []gen.Field{f("type", "sticky"), f("date", "2005-01-01 10:00:00")}},
			stored: map[string]any{"type": "scheduled", "dateRaw": "2005-01-01 10:00:00"}, want: []string{"PAGE-TYPE-ROUNDTRIP"}},
		{name: "an invalid type stored", w: Written{Fields: []gen.Field{bad("type", "bogus")}}, stored: map[string]any{"type": "bogus"}, want: []string{"PAGE-CREATE-INVALID-TYPE"}},
		{name: "an edit's invalid type stored", w: Written{Edit: true, Fields: []gen.Field{bad("type", "")}}, stored: map[string]any{"type": ""}, want: []string{"PAGE-EDIT-INVALID-400"}},
	} {
		p := rulestest.Page("p", "draft", c.stored)
		j := NewJudge()
		j.Readback(c.w, nil, gjson.Parse(jsonText(t, p)))
		wantRules(t, c.name, j, c.want...)
	}
}

// TestReadbackObservesAnAcceptedInvalidType: a type outside the five,
// accepted, is recorded with what the page became.
func TestReadbackObservesAnAcceptedInvalidType(t *testing.T) {
	j := NewJudge()
	j.Readback(Written{Fields: []gen.Field{bad("type", "bogus")}}, nil, gjson.Parse(jsonText(t, rulestest.Page("p", "draft", nil))))
	if len(j.Findings) > 0 || len(j.Observed) != 1 {
		t.Errorf("findings %v, observations %q: want none and one", j.Findings, j.Observed)
	}
}

// TestUnchanged: the fields of 2.1 a write did not send read as before
// (tags compared as a map, in any order); those it sent may change; after
// a refused write (nothing sent) every one must read as before.
func TestUnchanged(t *testing.T) {
	before := rulestest.Page("p", "draft", map[string]any{"tags": map[string]any{"a": "A", "b": "B"}, "category": "news"})
	for _, c := range []struct {
		name  string
		sent  []gen.Field
		after map[string]any
		want  []string
	}{
		{name: "nothing changed", sent: []gen.Field{f("title", "T")}, after: nil},
		{name: "the tags in another order", after: map[string]any{"tags": map[string]any{"b": "B", "a": "A"}}},
		{name: "a field sent changed", sent: []gen.Field{f("title", "New")}, after: map[string]any{"title": "New"}},
		{name: "tags sent changed", sent: []gen.Field{f("tags", "c")}, after: map[string]any{"tags": map[string]any{"c": "c"}}},
		{name: "the content sent, both forms changed", sent: []gen.Field{f("content", "x")}, after: map[string]any{"contentRaw": "x"}},
		{name: "a field outside 2.1's compared ones", sent: []gen.Field{f("title", "T")}, after: map[string]any{"permalink": "http://example.org/q"}},

		{name: "the tags lost", sent: []gen.Field{f("title", "New")}, after: map[string]any{"title": "New", "tags": map[string]any{}}, want: []string{"PAGE-EDIT-PARTIAL"}},
		{name: "the category lost", sent: []gen.Field{f("tags", "c")}, after: map[string]any{"tags": map[string]any{"c": "c"}, "category": ""}, want: []string{"PAGE-EDIT-PARTIAL"}},
		{name: "the author changed", sent: []gen.Field{f("title", "T")}, after: map[string]any{"username": "editor"}, want: []string{"PAGE-EDIT-PARTIAL"}},
		{name: "the date reset", sent: []gen.Field{f("type", "draft")}, after: map[string]any{"dateRaw": "2026-01-01 00:00:00"}, want: []string{"PAGE-EDIT-PARTIAL"}},
	} {
		j := NewJudge()
		j.Unchanged("PAGE-EDIT-PARTIAL", c.sent, nil, gjson.Parse(jsonText(t, before)), gjson.Parse(jsonText(t, rulestest.Page("p", "draft", mergeStored(before, c.after)))))
		wantRules(t, c.name, j, c.want...)
	}
	j := NewJudge()
	j.Unchanged("AUTH-REFUSED-WRITE-NO-EFFECT", nil, nil, gjson.Parse(jsonText(t, before)), gjson.Parse(jsonText(t, rulestest.Page("p", "draft", mergeStored(before, map[string]any{"title": "Taken"})))))
	wantRules(t, "a refused write's title applied", j, "AUTH-REFUSED-WRITE-NO-EFFECT")
	if len(j.Findings) != 1 || j.Findings[0].What != "title" {
		t.Errorf("a refused write's change names %v, want title", j.Findings)
	}
}

// mergeStored is before's fields with after's changes, as page changes.
func mergeStored(before, after map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range before {
		out[k] = v
	}
	for k, v := range after {
		out[k] = v
	}
	return out
}

// TestPageObject: a page object of 2.1 passes; data that is not one
// fails PAGE-OBJECT-SHAPE.
func TestPageObject(t *testing.T) {
	for _, c := range []struct {
		name string
		data string
		want []string
	}{
		{name: "a page", data: jsonText(t, rulestest.Page("a", "draft", nil))},
		{name: "extra fields", data: jsonText(t, rulestest.Page("a", "draft", map[string]any{"position": 3, "noindex": false}))},
		{name: "a key only (earlier releases)", data: `"a"`, want: []string{"PAGE-OBJECT-SHAPE"}},
		{name: "no dateUTC", data: jsonText(t, rulestest.Page("a", "draft", map[string]any{"dateUTC": nil})), want: []string{"PAGE-OBJECT-SHAPE"}},
		{name: "tags a list", data: jsonText(t, rulestest.Page("a", "draft", map[string]any{"tags": []string{"a"}})), want: []string{"PAGE-OBJECT-SHAPE"}},
		{name: "a type outside the five", data: jsonText(t, rulestest.Page("a", "page", nil)), want: []string{"PAGE-OBJECT-SHAPE"}},
	} {
		j := NewJudge()
		j.PageObject(nil, gjson.Parse(c.data))
		wantRules(t, c.name, j, c.want...)
	}
}
