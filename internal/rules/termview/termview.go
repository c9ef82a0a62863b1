// Package termview judges one answer of a single tag or category (GET
// /api/tags/{key}, GET /api/categories/{key}; spec 2.2, 2.3, 4.6, 4.7) on
// its own: its pages are exactly the pages its list names
// (TAG-PAGES-MATCH-LIST, CAT-PAGES-MATCH-LIST), each of them carries the
// term (TAG-LIST-CONSISTENT, CAT-LIST-CONSISTENT), and each of a tag's
// pages gives the tag the tag's name (TAG-NAME-IN-PAGES). What one answer
// shows needs no other read, so the run judges every such answer it
// receives, whoever asked for it: suites/taxonomy adds Checks to the
// run's cross-cutting watcher, and the answers the page writes suite reads
// right after its writes are judged as the first reads are.
package termview

import (
	"fmt"
	"iter"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/readback"
)

// View is one answer of a single tag or category, as it is judged.
type View struct {
	Tag  bool         // an answer of GET /api/tags/{key}; false: of GET /api/categories/{key}
	Term gjson.Result // its data: the term, with key, name and list
	// Pages yields the page objects of data.pages, in order (those a
	// streamed answer's fold kept, for an answer read as a stream). Each is
	// valid during its turn only (the pages of a long stream, read back
	// from disk, share one buffer: pagelist.PageList.Scan): a judgement
	// keeps nothing of one but copies, and no map key made of its text.
	Pages iter.Seq[gjson.Result]
}

// ArrayPages yields the items of pages, a JSON array (data.pages of an
// answer read whole).
func ArrayPages(pages gjson.Result) iter.Seq[gjson.Result] {
	return func(yield func(gjson.Result) bool) {
		pages.ForEach(func(_, p gjson.Result) bool { return yield(p) })
	}
}

// Checks are the rules judged on every answer of a single term. view reads
// an exchange as a View; false when the exchange is not an answer of GET
// /api/tags/{key} or GET /api/categories/{key} that can be judged (another
// request, an error, a body not read whole, data that is no object or
// pages that are no array: the shape rules' concern).
func Checks(view func(ex *client.Exchange) (View, bool)) []rules.Check {
	on := func(tag bool, judge func(View) rules.Judgement) func(ex *client.Exchange) rules.Judgement {
		return func(ex *client.Exchange) rules.Judgement {
			v, ok := view(ex)
			if !ok || v.Tag != tag {
				return rules.CannotJudge()
			}
			return judge(v)
		}
	}
	return []rules.Check{
		{Rule: "TAG-PAGES-MATCH-LIST", Judge: on(true, PagesMatchList)},
		{Rule: "CAT-PAGES-MATCH-LIST", Judge: on(false, PagesMatchList)},
		{Rule: "TAG-LIST-CONSISTENT", Judge: on(true, PagesCarryTerm)},
		{Rule: "CAT-LIST-CONSISTENT", Judge: on(false, PagesCarryTerm)},
		{Rule: "TAG-NAME-IN-PAGES", Judge: on(true, TagNames)},
	}
}

// maxShown bounds the problems one judgement words.
const maxShown = 4

// violation words problems as one judgement (none: it conforms).
func violation(problems []string) rules.Judgement {
	switch {
	case len(problems) == 0:
		return rules.Conforms()
	case len(problems) > maxShown:
		problems = append(problems[:maxShown:maxShown], fmt.Sprintf("and %d more", len(problems)-maxShown))
	}
	return rules.Violation("%s", strings.Join(problems, "; "))
}

// PagesMatchList judges TAG-PAGES-MATCH-LIST and CAT-PAGES-MATCH-LIST: the
// keys of the term's pages are exactly the keys its list names, as
// multisets (no order is stated). A term without a list is the GET-SHAPE
// rule's concern: not judged.
func PagesMatchList(v View) rules.Judgement {
	list := v.Term.Get("list")
	if !list.IsArray() {
		return rules.CannotJudge()
	}
	// left counts the keys list names that no page has matched yet. A
	// page's key only looks a count up (never stored: see View.Pages).
	left := map[string]*int{}
	var named []string
	for _, k := range list.Array() {
		key := k.String()
		if left[key] == nil {
			left[key] = new(int)
			named = append(named, key)
		}
		*left[key]++
	}
	var problems []string
	for p := range v.Pages {
		if n := left[p.Get("key").String()]; n != nil && *n > 0 {
			*n--
			continue
		}
		problems = append(problems, fmt.Sprintf("pages holds page %s, which list does not name (that often)", rules.Show(p.Get("key"))))
	}
	for _, key := range named {
		if *left[key] > 0 {
			problems = append(problems, fmt.Sprintf("pages lacks page %q, which list names", key))
		}
	}
	return violation(problems)
}

// PagesCarryTerm judges TAG-LIST-CONSISTENT and CAT-LIST-CONSISTENT on the
// term's pages: each carries the term (its tags object has the tag's key;
// its category is the category's key). A page whose tags is no object, or
// whose category is no string, is the page shape rules' concern; a term
// without a string key, or without a page to judge, is not judged.
func PagesCarryTerm(v View) rules.Judgement {
	key := v.Term.Get("key")
	if key.Type != gjson.String || key.Str == "" {
		return rules.CannotJudge()
	}
	judged := 0
	var problems []string
	for p := range v.Pages {
		carries, ok := carried(v.Tag, p, key.Str)
		if !ok {
			continue
		}
		judged++
		if !carries {
			field := map[bool]string{true: "tags " + p.Get("tags").Raw, false: "category " + p.Get("category").Raw}[v.Tag]
			problems = append(problems, fmt.Sprintf("pages holds page %s, whose %s lacks %q", rules.Show(p.Get("key")), field, key.Str))
		}
	}
	if judged == 0 {
		return rules.CannotJudge()
	}
	return violation(problems)
}

// carried reports whether page carries the term key (tag: a key of its tags
// object; category: its category), and ok false when page shows no tags
// object (tag) or no category string (category).
func carried(tag bool, page gjson.Result, key string) (carries, ok bool) {
	if tag {
		tags := page.Get("tags")
		if !tags.IsObject() {
			return false, false
		}
		return tags.Get(gjson.Escape(key)).Exists(), true
	}
	cat := page.Get("category")
	if cat.Type != gjson.String {
		return false, false
	}
	return cat.Str == key, true
}

// TagNames judges TAG-NAME-IN-PAGES on a tag's pages: the name each page's
// tags object gives the tag's key is the tag's name. Where the pages spell
// the name differently (one key, "News" and "NEWS"), 2.1 also reads as each
// page's own name, as the rule's Reading says: the tag's name must then be
// one of their spellings. A tag without a string key or a name, or whose
// pages do not name it, is not judged.
func TagNames(v View) rules.Judgement {
	key, name := v.Term.Get("key"), v.Term.Get("name")
	if key.Type != gjson.String || !name.Exists() {
		return rules.CannotJudge()
	}
	type spelling struct {
		name gjson.Result
		page string // the first page that spells it so
	}
	var spellings []spelling
	for p := range v.Pages {
		given := p.Get("tags").Get(gjson.Escape(key.Str))
		if !p.Get("tags").IsObject() || !given.Exists() {
			continue // the shape rules' and TAG-LIST-CONSISTENT's concern
		}
		known := false
		for _, s := range spellings {
			known = known || readback.Same(s.name, given)
		}
		if !known {
			spellings = append(spellings, spelling{gjson.Parse(strings.Clone(given.Raw)), rules.Show(p.Get("key"))})
		}
	}
	switch {
	case len(spellings) == 0:
		return rules.CannotJudge()
	case len(spellings) == 1 && !readback.Same(spellings[0].name, name):
		return rules.Violation("page %s gives tag %q the name %s; the tag's name is %s", spellings[0].page, key.Str,
			spellings[0].name.Raw, name.Raw)
	case len(spellings) > 1:
		var raw []string
		for _, s := range spellings {
			if readback.Same(s.name, name) {
				return rules.Conforms()
			}
			raw = append(raw, s.name.Raw)
		}
		return rules.Violation("the pages of tag %q spell its name %s; the tag's name is %s, none of them", key.Str,
			strings.Join(raw, ", "), name.Raw)
	}
	return rules.Conforms()
}
