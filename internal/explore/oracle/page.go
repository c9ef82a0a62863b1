package oracle

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/rules/pageobj"
	"github.com/conformance-suite/conformance/internal/rules/readback"
)

// PageObject judges a page object (PAGE-OBJECT-SHAPE, 2.1: rules/pageobj).
func (j *Judge) PageObject(ex *client.Exchange, page gjson.Result) bool {
	expected := "a page object of section 2.1"
	if !page.IsObject() {
		expected = "data, a page object of section 2.1"
	}
	return j.Judged("PAGE-OBJECT-SHAPE", ex, "page shape", expected, pageobj.Judge(page))
}

// Written is a create or an edit as the oracle needs it: the fields
// sent, placeholders filled in.
type Written struct {
	Edit   bool
	Form   bool
	Fields []gen.Field
}

// Readback judges a page read back after a write (rules/readback):
// every valid field sent holds what was sent (4.3, 4.4), encoded once
// where the page object is encoded (title, contentRaw), the type is one
// the write allows (a date drawn, not chosen for the type), and a type
// outside the five was not stored. The rule a field breaks is
// readback.Rule's: PAGE-CREATE-FIELDS, PAGE-TITLE-ENCODED, PAGE-TAGS-MAP,
// or for an edit PAGE-EDIT-PARTIAL, and GEN-FORM-SANITISED-ONCE for a
// form's value encoded twice.
func (j *Judge) Readback(w Written, ex *client.Exchange, page gjson.Result) {
	future := false
	if f, ok := field(w.Fields, "date"); ok && !f.Invalid {
		d, _ := f.Value.(string)
		future = d > "2090"
	}
	for _, f := range w.Fields {
		s, isText := f.Value.(string)
		switch {
		case f.Name == "type":
			j.readbackType(w, ex, page, s, f.Invalid, future)
		case f.Invalid || !isText:
		case f.Name == "tags":
			rule := readback.Rule("tags", w.Edit, w.Form, false)
			names := readback.TagNames(s)
			j.Judged(rule, ex, "data.tags", "tag names among the names sent "+joinQuoted(names), readback.TagsSent(page.Get("tags"), names))
		default:
			path, v, twice := readback.Text(page, f.Name, s)
			if rule := readback.Rule(f.Name, w.Edit, w.Form, twice); rule != "" && path != "" {
				j.Judged(rule, ex, "data."+path, readback.Expected(f.Name, s), v)
			}
		}
	}
}

// readbackType judges the type a write left (rules/readback): a valid
// one is the page's type (PAGE-TYPE-ROUNDTRIP); an invalid one was not
// stored (PAGE-CREATE-INVALID-TYPE, PAGE-EDIT-INVALID-400), and what the
// page's type became is recorded.
func (j *Judge) readbackType(w Written, ex *client.Exchange, page gjson.Result, sent string, invalid, future bool) {
	got := page.Get("type")
	if invalid {
		rule := "PAGE-CREATE-INVALID-TYPE"
		if w.Edit {
			rule = "PAGE-EDIT-INVALID-400"
		}
		if j.Judged(rule, ex, "data.type", "one of the five types: "+quote(sent)+" not stored", readback.ValidType(got)) {
			j.Observe("a type outside the five (%q) was accepted; the page's type became %q", sent, got.String())
		}
		return
	}
	ok := readback.TypesAfter(sent, true, future)
	j.Judged("PAGE-TYPE-ROUNDTRIP", ex, "data.type", "type "+strings.Join(ok, " or "), readback.Type(got, ok))
}

// Unchanged judges that the fields of section 2.1 a write did not send
// (all of them, for a refused write: sent is nil) read as before
// (rules/readback: PAGE-EDIT-PARTIAL, AUTH-REFUSED-WRITE-NO-EFFECT; a field
// the page lacked before is not judged).
func (j *Judge) Unchanged(rule string, sent []gen.Field, ex *client.Exchange, before, after gjson.Result) {
	for _, name := range readback.Unsent(func(body string) bool { _, ok := field(sent, body); return ok }) {
		if !before.Get(name).Exists() {
			continue
		}
		what := "unchanged " + name
		if sent == nil {
			what = name
		}
		changed := readback.Kept(before, after, []string{name})
		j.Check(rule, len(changed) == 0, ex, what, name+" as before: "+describe(before.Get(name)), name+" "+describe(after.Get(name)))
	}
}

func field(fs []gen.Field, name string) (gen.Field, bool) {
	for _, f := range fs {
		if f.Name == name {
			return f, true
		}
	}
	return gen.Field{}, false
}
