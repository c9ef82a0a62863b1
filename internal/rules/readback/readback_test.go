package readback

import (
	"slices"
	"testing"

	"github.com/tidwall/gjson"

	rt "github.com/conformance-suite/conformance/internal/rules/rulestest"
)

const (
	salt     = `Salt & Pepper <b>`
	saltOnce = `Salt &amp; Pepper &lt;b&gt;`
)

// TestText: each text field read back as PAGE-CREATE-FIELDS and
// PAGE-TITLE-ENCODED read it, passing and failing; twice tells a value
// encoded twice (GEN-FORM-SANITISED-ONCE's) of the fields that may be
// encoded.
func TestText(t *testing.T) {
	for _, c := range []struct {
		field, sent string
		stored      map[string]any
		path        string
		ok, twice   bool
	}{
		{"title", salt, map[string]any{"title": saltOnce}, "title", true, false},
		{"title", salt, map[string]any{"title": `Salt &#38; Pepper &#x3C;b&#62;`}, "title", true, false},
		{"title", salt, map[string]any{"title": salt}, "title", false, false},
		{"title", salt, map[string]any{"title": `Salt &amp;amp; Pepper &amp;lt;b&amp;gt;`}, "title", false, true},
		{"content", `a "q" & b`, map[string]any{"contentRaw": `a &quot;q&quot; &amp; b`}, "contentRaw", true, false},
		{"content", "<b>x</b>", map[string]any{"contentRaw": "<b>x</b>"}, "contentRaw", false, false},
		{"description", salt, map[string]any{"description": salt}, "description", true, false},
		{"description", salt, map[string]any{"description": saltOnce}, "description", true, false},
		{"description", "abcdef", map[string]any{"description": "abc"}, "description", false, false},
		{"description", "a&b", map[string]any{"description": "a&amp;amp;b"}, "description", false, true},
		{"category", "news", map[string]any{"category": "news"}, "category", true, false},
		{"category", "news", map[string]any{"category": ""}, "category", false, false},
		{"category", "a&b", map[string]any{"category": "a&amp;amp;b"}, "category", false, false}, // compared exactly
		{"date", "2011-01-02 03:04:05", map[string]any{"dateRaw": "2011-01-02 03:04:05"}, "dateRaw", true, false},
		{"date", "2011-01-02 03:04:05", nil, "dateRaw", false, false},
		{"slug", "s-1", map[string]any{"slug": "s-1"}, "slug", true, false},
		{"slug", "s-1", nil, "slug", false, false},
		{"title", "5", map[string]any{"title": 5}, "title", false, false},
	} {
		page := gjson.Parse(rt.JSON(t, rt.Page("p", "draft", c.stored)))
		path, j, twice := Text(page, c.field, c.sent)
		if path != c.path || j.Holds() != c.ok || twice != c.twice {
			t.Errorf("Text(%s, %q) with %v = %s, %+v, twice %t; want %s, holds %t, twice %t", c.field, c.sent, c.stored, path, j, twice, c.path, c.ok, c.twice)
		}
	}
	if path, j, _ := Text(gjson.Parse(`{}`), "position", "3"); path != "" || !j.Skip {
		t.Errorf("a field that reads back nowhere is judged: %s, %+v", path, j)
	}
}

// TestRule: which rule a field that does not read back breaks.
func TestRule(t *testing.T) {
	for _, c := range []struct {
		field             string
		edit, form, twice bool
		want              string
	}{
		{"title", false, false, false, "PAGE-TITLE-ENCODED"},
		{"title", false, true, true, "GEN-FORM-SANITISED-ONCE"},
		{"title", false, false, true, "PAGE-TITLE-ENCODED"}, // a JSON body encoded twice
		{"title", true, false, false, "PAGE-EDIT-PARTIAL"},
		{"content", false, false, false, "PAGE-CREATE-FIELDS"},
		{"tags", false, false, false, "PAGE-TAGS-MAP"},
		{"tags", true, false, false, "PAGE-EDIT-PARTIAL"},
		{"slug", false, false, false, "PAGE-CREATE-FIELDS"},
		{"slug", true, false, false, ""},
		{"type", false, false, false, ""},
	} {
		if got := Rule(c.field, c.edit, c.form, c.twice); got != c.want {
			t.Errorf("Rule(%s, edit %t, form %t, twice %t) = %q, want %q", c.field, c.edit, c.form, c.twice, got, c.want)
		}
	}
}

// TestType: PAGE-TYPE-ROUNDTRIP with a date chosen for the type (the type
// sent, exactly) and with a drawn one; a type outside the five
// (PAGE-CREATE-INVALID-TYPE) never stored.
func TestType(t *testing.T) {
	for _, c := range []struct {
		sent, got     string
		drawn, future bool
		ok            bool
	}{
		{"published", "published", false, false, true},
		{"published", "scheduled", false, false, false},
		{"published", "scheduled", true, false, true},
		{"sticky", "scheduled", true, true, true},
		{"sticky", "scheduled", true, false, false},
		{"scheduled", "published", true, false, true},
		{"scheduled", "published", false, false, false},
		{"draft", "static", true, true, false},
	} {
		if j := Type(gjson.Parse(`"`+c.got+`"`), TypesAfter(c.sent, c.drawn, c.future)); j.Holds() != c.ok {
			t.Errorf("sent %s (drawn %t, future %t), read %s: holds %t, want %t", c.sent, c.drawn, c.future, c.got, j.Holds(), c.ok)
		}
	}
	if Type(gjson.Parse(`5`), []string{"draft"}).Holds() {
		t.Error("a number is a type")
	}
	for got, ok := range map[string]bool{`"draft"`: true, `"scheduled"`: true, `"bogus"`: false, `""`: false, `null`: false} {
		if ValidType(gjson.Parse(got)).Holds() != ok {
			t.Errorf("ValidType(%s) holds %t, want %t", got, !ok, ok)
		}
	}
}

// TestTags: the normal run's names exactly (keys non-empty, names
// strings, in any order, without surrounding spaces), and explore's
// generated names (each read back among those sent, some when some
// sent).
func TestTags(t *testing.T) {
	if got := TagNames(" One, Two ,,Three "); !slices.Equal(got, []string{"One", "Two", "Three"}) {
		t.Errorf("TagNames = %q", got)
	}
	names := []string{"One", "Two"}
	for _, c := range []struct {
		tags string
		ok   bool
	}{
		{`{"one":"One","two":"Two"}`, true},
		{`{"two":" Two","one":"One "}`, true},
		{`{"one":"One"}`, false},
		{`{"one":"One","two":"Two","three":"Three"}`, false},
		{`{"":"One","two":"Two"}`, false},
		{`{"one":1,"two":"Two"}`, false},
		{`["One","Two"]`, false},
	} {
		if j := Tags(gjson.Parse(c.tags), names); j.Holds() != c.ok {
			t.Errorf("Tags(%s) holds %t, want %t (%q)", c.tags, j.Holds(), c.ok, j.Problem)
		}
	}
	for _, c := range []struct {
		tags, sent string
		ok         bool
	}{
		{`{"a-b":"a&amp;b","zed":"Zed"}`, "a&b, Zed", true},
		{`{"zed":"zed"}`, "zed,Zed", true}, // two names, one key
		{`{}`, "", true},
		{`{"a":"a","c":"c"}`, "a,b", false},
		{`{}`, "a,b", false},
		{`[]`, "a", false},
	} {
		if j := TagsSent(gjson.Parse(c.tags), TagNames(c.sent)); j.Holds() != c.ok {
			t.Errorf("TagsSent(%s, %q) holds %t, want %t", c.tags, c.sent, j.Holds(), c.ok)
		}
	}
}

// TestKept: PAGE-EDIT-PARTIAL's fields not sent, compared parsed (key
// order and escapes aside); a field the page lacked before is not judged.
func TestKept(t *testing.T) {
	before := gjson.Parse(`{"title":"T","tags":{"a":"A","b":"B"},"category":"news","n":1}`)
	for _, c := range []struct {
		after string
		want  []string
	}{
		{`{"title":"T","tags":{"b":"B","a":"A"},"category":"news","n":1.0}`, nil},
		{`{"title":"\u0054","tags":{"a":"A","b":"B"},"category":"news","n":1,"cover":"x"}`, nil},
		{`{"title":"T","tags":{},"category":"","n":1}`, []string{"tags", "category"}},
		{`{"tags":{"a":"A","b":"B"},"category":"news","n":2}`, []string{"title", "n"}},
	} {
		var got []string
		for _, ch := range Kept(before, gjson.Parse(c.after), []string{"title", "tags", "category", "n", "cover"}) {
			got = append(got, ch.Field)
			if ch.String() == "" {
				t.Error("a change without words")
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Kept(%s) changed %q, want %q", c.after, got, c.want)
		}
	}
}

// TestUnsent: the fields of 2.1 an edit must keep are those it did not
// send; username always.
func TestUnsent(t *testing.T) {
	none := Unsent(func(string) bool { return false })
	if !slices.Equal(none, []string{"category", "contentRaw", "coverImage", "dateRaw", "description", "tags", "title", "type", "username"}) {
		t.Errorf("a refused write keeps %q", none)
	}
	sent := map[string]bool{"content": true, "tags": true}
	got := Unsent(func(b string) bool { return sent[b] })
	if slices.Contains(got, "contentRaw") || slices.Contains(got, "tags") || !slices.Contains(got, "username") || len(got) != 7 {
		t.Errorf("an edit of content and tags keeps %q", got)
	}
}

// TestSent: the fields of 2.1 that show the body fields sent; username,
// which no body field sets, never; slug and fields outside 2.1 neither.
func TestSent(t *testing.T) {
	if none := Sent(func(string) bool { return false }); len(none) != 0 {
		t.Errorf("a write that sent nothing shows in %q", none)
	}
	sent := map[string]bool{"content": true, "type": true, "description": true, "slug": true, "position": true}
	if got := Sent(func(b string) bool { return sent[b] }); !slices.Equal(got, []string{"contentRaw", "description", "type"}) {
		t.Errorf("an edit of content, type and description shows in %q", got)
	}
	all := Sent(func(string) bool { return true })
	if slices.Contains(all, "username") || len(all)+1 != len(Unsent(func(string) bool { return false })) {
		t.Errorf("every body field shows in %q", all)
	}
}
