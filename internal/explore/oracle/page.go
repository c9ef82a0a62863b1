package oracle

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/rules/pageobj"
	"github.com/conformance-suite/conformance/internal/rules/text"
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

// rule names the rule a field that does not read back as sent breaks.
func (w Written) rule(field, createRule string, twice bool) string {
	switch {
	case w.Form && twice:
		return "GEN-FORM-SANITISED-ONCE"
	case w.Edit:
		return "PAGE-EDIT-PARTIAL"
	}
	return createRule
}

// Readback judges a page read back after a write: every valid field sent
// holds what was sent (4.3, 4.4), encoded once where the page object is
// encoded (title, contentRaw), and a type outside the five was not stored.
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
		case f.Name == "title":
			got := page.Get("title").String()
			j.Check(w.rule("title", "PAGE-TITLE-ENCODED", text.EncodedTwice(got, s)), text.EncodedOnce(got, s), ex, "data.title",
				"title "+quote(s)+" HTML-encoded once", "title "+quote(got))
		case f.Name == "content":
			got := page.Get("contentRaw").String()
			j.Check(w.rule("content", "PAGE-CREATE-FIELDS", text.EncodedTwice(got, s)), text.EncodedOnce(got, s), ex, "data.contentRaw",
				"contentRaw "+quote(s)+" HTML-encoded once", "contentRaw "+quote(got))
		case f.Name == "description":
			got := page.Get("description").String()
			j.Check(w.rule("description", "PAGE-CREATE-FIELDS", text.EncodedTwice(got, s)), text.AsSentOrEncodedOnce(got, s), ex, "data.description",
				"description "+quote(s)+" (as sent, or HTML-encoded once)", "description "+quote(got))
		case f.Name == "tags":
			j.readbackTags(w, ex, page, s)
		case f.Name == "category":
			got := page.Get("category").String()
			j.Check(w.rule("category", "PAGE-CREATE-FIELDS", false), got == s, ex, "data.category", "category "+quote(s), "category "+describe(page.Get("category")))
		case f.Name == "date":
			got := page.Get("dateRaw").String()
			j.Check(w.rule("date", "PAGE-CREATE-FIELDS", false), got == s, ex, "data.dateRaw", "dateRaw "+quote(s), "dateRaw "+describe(page.Get("dateRaw")))
		case f.Name == "slug" && !w.Edit:
			got := page.Get("slug").String()
			j.Check("PAGE-CREATE-FIELDS", got == s, ex, "data.slug", "slug "+quote(s), "slug "+describe(page.Get("slug")))
		}
	}
}

// readbackType judges the type a write left: a valid one is the page's
// type (a published page with a future date may be scheduled, and a
// scheduled page may be published: section 3 says nothing more); an
// invalid one was not stored.
func (j *Judge) readbackType(w Written, ex *client.Exchange, page gjson.Result, sent string, invalid, future bool) {
	got := page.Get("type").String()
	if invalid {
		rule := "PAGE-CREATE-INVALID-TYPE"
		if w.Edit {
			rule = "PAGE-EDIT-INVALID-400"
		}
		if j.Check(rule, slices.Contains(gen.Types, got), ex, "data.type", "one of the five types: "+quote(sent)+" not stored", "type "+describe(page.Get("type"))) {
			j.Observe("a type outside the five (%q) was accepted; the page's type became %q", sent, got)
		}
		return
	}
	ok := []string{sent}
	if sent == "published" || future {
		ok = append(ok, "scheduled")
	}
	if sent == "scheduled" {
		ok = append(ok, "published")
	}
	j.Check("PAGE-TYPE-ROUNDTRIP", slices.Contains(ok, got), ex, "data.type", "type "+strings.Join(ok, " or "), "type "+describe(page.Get("type")))
}

// readbackTags judges the tags a write left: every tag name is one of the
// names sent (as sent, or encoded once), and some tag is there when some
// name was sent. Two names may share a key (how keys are derived is not
// shown), so the names are not required one by one.
func (j *Judge) readbackTags(w Written, ex *client.Exchange, page gjson.Result, sent string) {
	var names []string
	for _, n := range strings.Split(sent, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	tags := page.Get("tags")
	rule := "PAGE-TAGS-MAP"
	if w.Edit {
		rule = "PAGE-EDIT-PARTIAL"
	}
	var got []string
	for _, v := range tags.Map() {
		got = append(got, v.String())
	}
	slices.Sort(got)
	for _, g := range got {
		known := slices.ContainsFunc(names, func(n string) bool { return text.AsSentOrEncodedOnce(g, n) })
		if !j.Check(rule, known, ex, "data.tags", "tag names among the names sent "+joinQuoted(names), "tags "+shorten(tags.Raw, 160)) {
			return
		}
	}
	j.Check(rule, len(names) == 0 || len(got) > 0, ex, "data.tags", "the tags sent "+joinQuoted(names), "tags "+shorten(tags.Raw, 160))
}

// compared are the fields of section 2.1 an edit must leave alone when it
// does not send them, with the body field that changes each.
var compared = map[string]string{"title": "title", "description": "description", "contentRaw": "content", "type": "type",
	"tags": "tags", "category": "category", "dateRaw": "date", "coverImage": "coverImage", "username": ""}

// Unchanged judges that the fields of section 2.1 a write did not send
// (all of them, for a refused write: sent is nil) read as before.
func (j *Judge) Unchanged(rule string, sent []gen.Field, ex *client.Exchange, before, after gjson.Result) {
	for _, name := range slices.Sorted(maps.Keys(compared)) {
		if _, ok := field(sent, compared[name]); ok && compared[name] != "" {
			continue
		}
		b, a := before.Get(name), after.Get(name)
		same := b.Raw == a.Raw
		if b.IsObject() && a.IsObject() {
			same = fmt.Sprint(b.Value()) == fmt.Sprint(a.Value())
		}
		what := "unchanged " + name
		if sent == nil {
			what = name
		}
		j.Check(rule, same, ex, what, name+" as before: "+describe(b), name+" "+describe(a))
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
