// Package readback judges a page read back after a write against what the
// write sent (spec 2.1, 3.1, 4.3, 4.4): each text field as the spec stores
// it (PAGE-CREATE-FIELDS, PAGE-TITLE-ENCODED, and GEN-FORM-SANITISED-ONCE
// for a form's value encoded twice), the tags (PAGE-TAGS-MAP), the type
// (PAGE-TYPE-ROUNDTRIP; PAGE-CREATE-INVALID-TYPE and PAGE-EDIT-INVALID-400
// for a type outside the five), and the fields an edit did not send
// (PAGE-EDIT-PARTIAL; AUTH-REFUSED-WRITE-NO-EFFECT after a refused write).
// The pages writes suite judges its writes with these functions;
// conformance explore's oracle of page writes judges its generated ones.
package readback

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/text"
)

// Types are the five page types (3).
var Types = []string{"draft", "published", "static", "sticky", "scheduled"}

// textFields are the body fields of a create or edit (4.3, 4.4) whose
// text reads back in the page object: where, and whether it must read
// back encoded exactly once (title, contentRaw), as sent or encoded once
// (description: the spec does not say it is encoded), or exactly.
var textFields = map[string]struct {
	path string
	how  int
}{
	"title":       {"title", encodedOnce},
	"content":     {"contentRaw", encodedOnce},
	"description": {"description", asSentOrOnce},
	"category":    {"category", exact},
	"date":        {"dateRaw", exact},
	"slug":        {"slug", exact},
}

const (
	exact = iota
	encodedOnce
	asSentOrOnce
)

// Text judges the page field that the text body field sent shows in:
// title and contentRaw are sent encoded exactly once (PAGE-TITLE-ENCODED,
// PAGE-CREATE-FIELDS), description as sent or encoded once, category,
// dateRaw and slug exactly (PAGE-CREATE-FIELDS). path is the page field
// judged ("" for a body field that reads back nowhere: no judgement), and
// twice whether a value that may be encoded (title, contentRaw,
// description) reads back encoded twice (a form sanitised twice: Rule).
func Text(page gjson.Result, field, sent string) (path string, j rules.Judgement, twice bool) {
	f, ok := textFields[field]
	if !ok {
		return "", rules.CannotJudge(), false
	}
	got := page.Get(f.path)
	s := got.String()
	var held bool
	switch f.how {
	case encodedOnce:
		held = got.Type == gjson.String && text.EncodedOnce(s, sent)
	case asSentOrOnce:
		held = got.Type == gjson.String && text.AsSentOrEncodedOnce(s, sent)
	default:
		held = got.Type == gjson.String && s == sent
	}
	if held {
		return f.path, rules.Conforms(), false
	}
	return f.path, rules.Violation("%s %s", f.path, show(got)), f.how != exact && text.EncodedTwice(s, sent)
}

// Expected words what Text expects of the field sent.
func Expected(field, sent string) string {
	f := textFields[field]
	switch f.how {
	case encodedOnce:
		return fmt.Sprintf("%s %s HTML-encoded once", f.path, quote(sent))
	case asSentOrOnce:
		return fmt.Sprintf("%s %s (as sent, or HTML-encoded once)", f.path, quote(sent))
	}
	return fmt.Sprintf("%s %s", f.path, quote(sent))
}

// Rule names the rule a field sent that does not read back breaks: a
// form's value encoded twice GEN-FORM-SANITISED-ONCE's, an edit's
// PAGE-EDIT-PARTIAL's, a create's title PAGE-TITLE-ENCODED's, its tags
// PAGE-TAGS-MAP's and its other fields PAGE-CREATE-FIELDS'. The type is
// Type's, and an edit's slug reads back nowhere (slug is not listed for
// edit, 4.4): "".
func Rule(field string, edit, form, twice bool) string {
	switch {
	case field == "type" || (field == "slug" && edit):
		return ""
	case form && twice:
		return "GEN-FORM-SANITISED-ONCE"
	case edit:
		return "PAGE-EDIT-PARTIAL"
	case field == "title":
		return "PAGE-TITLE-ENCODED"
	case field == "tags":
		return "PAGE-TAGS-MAP"
	}
	return "PAGE-CREATE-FIELDS"
}

// TypesAfter are the types a page may have after a write that sent the
// type sent (PAGE-TYPE-ROUNDTRIP, 3.1): sent itself when the write's date
// was chosen for the type (a past date, a future one for scheduled: the
// normal run). With a drawn date (conformance explore) a published page,
// or any page with a future date, may be scheduled, and a scheduled page
// published (section 3 does not say when a scheduled page is published).
func TypesAfter(sent string, drawn, future bool) []string {
	ok := []string{sent}
	if drawn && (sent == "published" || future) && sent != "scheduled" {
		ok = append(ok, "scheduled")
	}
	if drawn && sent == "scheduled" {
		ok = append(ok, "published")
	}
	return ok
}

// Type judges the type read back against the types allowed (TypesAfter:
// PAGE-TYPE-ROUNDTRIP).
func Type(got gjson.Result, allowed []string) rules.Judgement {
	if got.Type == gjson.String && slices.Contains(allowed, got.Str) {
		return rules.Conforms()
	}
	return rules.Violation("type %s", show(got))
}

// ValidType judges the type of a page after a write sent a type outside
// the five (PAGE-CREATE-INVALID-TYPE, PAGE-EDIT-INVALID-400): accepted, the
// write must leave one of the five (2.1), never the value sent.
func ValidType(got gjson.Result) rules.Judgement { return Type(got, Types) }

// TagNames splits tags sent as a comma-separated string (4.3) into
// names, without the spaces around them (whether those belong to the names
// is not said), empty names dropped.
func TagNames(sent string) []string {
	var names []string
	for _, n := range strings.Split(sent, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

// Tags judges the tags read back against the names sent, as the normal
// run sends them (PAGE-TAGS-MAP, 2.1, 4.3): an object of tag key
// (non-empty) to tag name (a string) whose names, without surrounding
// spaces, are exactly the names sent, in any order. The names hold
// nothing HTML-encoding changes.
func Tags(tags gjson.Result, names []string) rules.Judgement {
	if !tags.IsObject() {
		return rules.Violation("it is not an object of tag key to tag name")
	}
	want := slices.Sorted(slices.Values(names))
	var got []string
	var problem string
	tags.ForEach(func(key, value gjson.Result) bool {
		switch {
		case key.Str == "":
			problem = "a tag key is empty"
		case value.Type != gjson.String:
			problem = fmt.Sprintf("the value of tag %q is not a string (the tag name)", key.Str)
		}
		got = append(got, strings.TrimSpace(value.Str))
		return problem == ""
	})
	if problem != "" {
		return rules.Violation("%s", problem)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		return rules.Violation("its names are %q, want %q", got, want)
	}
	return rules.Conforms()
}

// TagsSent judges the tags read back against generated names sent
// (conformance explore: names with ampersands, markup and quotes; PAGE-TAGS-MAP's
// Reading): every name read back is one of the names sent, as sent or
// encoded once, and some tag is there when some name was sent. Two names
// may share a key (how keys are derived is not shown), so the names are
// not required one by one.
func TagsSent(tags gjson.Result, names []string) rules.Judgement {
	var got []string
	for _, v := range tags.Map() {
		got = append(got, v.String())
	}
	slices.Sort(got)
	for _, g := range got {
		if !slices.ContainsFunc(names, func(n string) bool { return text.AsSentOrEncodedOnce(g, n) }) {
			return rules.Violation("tags %s", shorten(tags.Raw, 160))
		}
	}
	if len(names) > 0 && len(got) == 0 {
		return rules.Violation("tags %s", shorten(tags.Raw, 160))
	}
	return rules.Conforms()
}

// editable are the fields of section 2.1 an edit must leave alone when it
// does not send them, with the body field that changes each ("" for
// username, which no body field changes).
var editable = map[string]string{"title": "title", "description": "description", "contentRaw": "content", "type": "type",
	"tags": "tags", "category": "category", "dateRaw": "date", "coverImage": "coverImage", "username": ""}

// Unsent are the fields of section 2.1 a write that sent the body fields
// for which sent holds must leave as they were (PAGE-EDIT-PARTIAL; every
// one of them after a refused write, AUTH-REFUSED-WRITE-NO-EFFECT), in
// order: the fields outside 2.1, and key, slug and permalink, which a new
// title may change (3.2), are not compared.
func Unsent(sent func(bodyField string) bool) []string {
	var out []string
	for _, f := range slices.Sorted(maps.Keys(editable)) {
		if b := editable[f]; b == "" || !sent(b) {
			out = append(out, f)
		}
	}
	return out
}

// Sent are the fields of section 2.1 that show the body fields for which
// sent holds (the complement of Unsent, username aside), in order: what a
// write refused for what it sent must leave as it was
// (PAGE-REFUSED-WRITE-NO-EFFECT), and what a page the run created holds of
// what it set on it (PAGE-CREATE-KEEPS-OTHERS).
func Sent(sent func(bodyField string) bool) []string {
	var out []string
	for _, f := range slices.Sorted(maps.Keys(editable)) {
		if b := editable[f]; b != "" && sent(b) {
			out = append(out, f)
		}
	}
	return out
}

// Kept judges the fields an edit did not send (PAGE-EDIT-PARTIAL, 4.4;
// AUTH-REFUSED-WRITE-NO-EFFECT after a refused write): each of fields of
// the page before that the page after holds the same (Same). A field the
// page before lacks has nothing to lose (the shape rules judge its
// absence). Each problem names its field.
func Kept(before, after gjson.Result, fields []string) []Change {
	var out []Change
	for _, f := range fields {
		b, a := before.Get(f), after.Get(f)
		if b.Exists() && !Same(b, a) {
			out = append(out, Change{Field: f, Before: b, After: a})
		}
	}
	return out
}

// Change is a field that did not keep its value.
type Change struct {
	Field         string
	Before, After gjson.Result
}

// String words the change: "title was "A", is now "B"".
func (c Change) String() string {
	return fmt.Sprintf("%s was %s, is now %s", c.Field, c.Before.Raw, show(c.After))
}

// Same reports whether two JSON values are equal once parsed (key order
// and escapes do not matter).
func Same(a, b gjson.Result) bool {
	if a.Exists() != b.Exists() {
		return false
	}
	if a.Raw == b.Raw {
		return true
	}
	if a.Type == gjson.String && b.Type == gjson.String {
		return a.Str == b.Str
	}
	var x, y any
	if json.Unmarshal([]byte(a.Raw), &x) != nil || json.Unmarshal([]byte(b.Raw), &y) != nil {
		return a.Raw == b.Raw
	}
	return reflect.DeepEqual(x, y)
}

// show renders a JSON value for a problem.
func show(r gjson.Result) string {
	if !r.Exists() {
		return "missing"
	}
	return shorten(r.Raw, 120)
}

// quote renders a value sent for an expectation, shortened.
func quote(s string) string { return fmt.Sprintf("%q", shorten(s, 120)) }

// shorten cuts s to n runes, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
