package writes

// The judges of what the views showed after the run's writes (shown.go).

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/coverkit"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// termKind is what tags and categories differ in, for the judges.
type termKind struct {
	noun, endpoint, section string
	// singleView and listView are the write table's columns of its views.
	singleView, listView coverage.Way
	singles              func(v *seen) []*client.Exchange
	keys                 func(v *seen) []string
	list                 func(v *seen) *client.Exchange
	carried              func(page gjson.Result) []string
}

var (
	tagKind = termKind{noun: "tag", endpoint: "tags", section: "tag", singleView: coverage.ViewTag, listView: coverage.ViewTagList,
		singles: func(v *seen) []*client.Exchange { return v.tags }, keys: func(v *seen) []string { return v.look.tags },
		list: func(v *seen) *client.Exchange { return v.tagList }, carried: termKeys}
	catKind = termKind{noun: "category", endpoint: "categories", section: "category", singleView: coverage.ViewCategory,
		listView: coverage.ViewCatList,
		singles:  func(v *seen) []*client.Exchange { return v.cats }, keys: func(v *seen) []string { return v.look.cats },
		list: func(v *seen) *client.Exchange { return v.catList },
		carried: func(page gjson.Result) []string {
			if c := page.Get("category"); c.Type == gjson.String && c.Str != "" {
				return []string{c.Str}
			}
			return nil
		}}
)

// now is the page as the read after a write gave it, and whether it
// reads at all (false after a delete, or when the read failed).
func (v *seen) now() (gjson.Result, bool) {
	if v.page == nil || v.page.Err != nil || v.page.Status != http.StatusOK || !v.get(v.page, "data").IsObject() {
		return gjson.Result{}, false
	}
	return v.get(v.page, "data"), true
}

// keys are the keys the page had around the write (the new one first).
func (v *seen) keys() []string {
	return match.Uniq(slices.DeleteFunc([]string{v.key, v.old}, func(k string) bool { return k == "" }))
}

// needViews makes the spec not checked when the chain made no write whose
// views were read (its create or an earlier write failed).
func needViews(views []*seen) {
	if len(views) == 0 {
		verdicts.NotChecked("the page this check needs was not written (see PAGE-CREATE-201 and PAGE-EDIT-OK)")
	}
}

// unjudged keeps why a judge left answers unjudged (a body cut at the
// run's read limit, --max-body, is no violation of the spec, and a term's
// view that gives no list of pages is the shape rules' concern), and
// whether it judged any: a judge that judged none makes its spec not
// checked, for those reasons.
type unjudged struct {
	judged  bool
	reasons []string
	// mark, when set, marks the write table's cells of the views judged
	// after a write (suite.markViews).
	mark func(v *seen, views ...coverage.Way)
}

// exercised marks cells the check judged (see Check.Exercised).
func (u *unjudged) exercised(check *coverkit.Check, cells ...coverage.ID) {
	u.judged = true
	check.Exercised(cells...)
}

// viewed marks views judged after v's write (see mark).
func (u *unjudged) viewed(v *seen, views ...coverage.Way) {
	if u.mark != nil {
		u.mark(v, views...)
	}
}

// skip notes why an answer was not judged.
func (u *unjudged) skip(format string, args ...any) {
	u.reasons = append(u.reasons, fmt.Sprintf(format, args...))
}

// unread reports whether the body of ex was not read whole, noting why.
func (u *unjudged) unread(ex *client.Exchange) bool {
	if why := pagelist.Unread(ex); why != "" {
		u.skip("%s", why)
		return true
	}
	return false
}

// orNotChecked makes the spec not checked when the check judged nothing
// and found nothing while answers were left unjudged; call it before
// check.Expect.
func (u *unjudged) orNotChecked(check *coverkit.Check) {
	if !u.judged && len(check.Problems()) == 0 && len(u.reasons) > 0 {
		verdicts.NotChecked("no answer could be judged: %s", strings.Join(match.Uniq(u.reasons), "; "))
	}
}

// isList reports whether ex answered 200 with data (as it came), an array.
func (v *seen) isList(ex *client.Exchange) bool {
	return ex.Err == nil && ex.Status == http.StatusOK && v.get(ex, "data").IsArray()
}

// judgeListedAfterWrites: PAGE-LIST-TYPE-FILTERS on the run's pages: a
// listing read after a write lists the page exactly when the page's type,
// as read back beside it, is one of the listing's types; after a delete no
// listing lists it. A page is judged missing only from an answer that
// holds the whole listing, and judged not listed only by one (listed.go).
func (s *suite) judgeListedAfterWrites(views []*seen) {
	needViews(views)
	check := s.t.NewCheck()
	var u unjudged
	for _, v := range views {
		s.t.Judged(v.exchanges()...)
		page, reads := v.now()
		typ := page.Get("type").String()
		for _, l := range v.lists {
			if u.unread(l.reads[0].ex) {
				continue
			}
			if ex := l.noList(v); ex != nil {
				check.Problem(ex, "%s, the listing with %v gave no page list (%s)", v.what, l.types, match.Outcome(ex))
				continue
			}
			for _, key := range v.keys() {
				want := v.mustList(l.types, key)
				listed, decided, at := l.shows(key)
				if !decided {
					u.skip("%s", l.undecided(v, key))
					continue
				}
				u.exercised(check, cellsOfTypes(l.types)...)
				s.markViews(v, coverage.ViewList)
				if listed != want {
					check.Problem(at, "%s (type %s), the listing with only %v on %s page %s", v.what, typeWords(typ, reads), l.types,
						map[bool]string{true: "lacks", false: "lists"}[want], key)
				}
			}
		}
	}
	u.orNotChecked(check)
	check.Expect("a listing read after a write lists the page exactly when its type is one the listing asks for (4.1)")
}

func typeWords(typ string, reads bool) string {
	if !reads {
		return "gone"
	}
	return typ
}

// cellsOfTypes are the query cells a listing with types on exercises.
func cellsOfTypes(types []string) []coverage.ID {
	var out []coverage.ID
	for _, ty := range types {
		out = append(out, coverage.CellID("query", ty, coverage.Sent))
	}
	return out
}

// termShown is how a term's single view (read as a stream) answered:
// names says whether it names a key in its list or its pages; gone is a
// 404; ok is false when it answered otherwise than 200 with a list of
// pages.
type termShown struct {
	names    func(key string) bool
	gone, ok bool
}

func (v *seen) termShown(ex *client.Exchange) termShown {
	if ex.Err == nil && ex.Status == http.StatusNotFound {
		return termShown{gone: true, names: func(string) bool { return false }}
	}
	if ex.Err != nil || ex.Status != http.StatusOK || !v.get(ex, "data.list").IsArray() {
		return termShown{}
	}
	list, pages := strs(v.get(ex, "data.list")), pagelist.PageItems(ex).Keys()
	return termShown{ok: true, names: func(key string) bool { return slices.Contains(list, key) || slices.Contains(pages, key) }}
}

// judgeTermsNamePage: TAG-LIST-COMPLETE / CAT-LIST-COMPLETE on the run's
// pages: after a write that leaves the page published, each of its terms
// read names it, in its single view and in the term list.
func (s *suite) judgeTermsNamePage(k termKind, views []*seen) {
	needViews(views)
	check := s.t.NewCheck()
	var u unjudged
	for _, v := range views {
		s.t.Judged(v.exchanges()...)
		page, reads := v.now()
		if !reads || page.Get("type").String() != "published" {
			continue // only published pages must be listed (see the rule's Reading)
		}
		carried := k.carried(page)
		for i, term := range k.keys(v) {
			if !slices.Contains(carried, term) {
				continue
			}
			single := k.singles(v)[i]
			switch shown := v.termShown(single); {
			case u.unread(single):
			case !shown.ok:
				check.Problem(single, "%s, the published page %s carries %s %q, whose single view does not name it (%s)",
					v.what, v.key, k.noun, term, match.Outcome(single))
			default:
				u.exercised(check, coverage.CellID(k.section, "list", coverage.Views))
				s.markViews(v, k.singleView)
				if !shown.names(v.key) {
					check.Problem(single, "%s, the published page %s carries %s %q, whose single view does not name it (%s)",
						v.what, v.key, k.noun, term, match.Outcome(single))
				}
			}
			switch list := k.list(v); {
			case list == nil || u.unread(list):
			case !v.isList(list):
				check.Problem(list, "%s, the published page %s carries %s %q; GET /api/%s gave no list (%s)",
					v.what, v.key, k.noun, term, k.endpoint, match.Outcome(list))
			default:
				u.exercised(check, coverage.CellID(k.section, "list", coverage.Views))
				s.markViews(v, k.listView)
				if names, ok := v.listed(list, term, v.key); !names || !ok {
					check.Problem(list, "%s, the published page %s carries %s %q, whose item in GET /api/%s does not name it",
						v.what, v.key, k.noun, term, k.endpoint)
				}
			}
		}
	}
	u.orNotChecked(check)
	check.Expect(fmt.Sprintf("a %s's views name every published page that carries it, also right after the page's writes", k.noun))
}

// judgeTermsDropPage: TAG-LIST-CONSISTENT / CAT-LIST-CONSISTENT on the
// run's pages: after a write that took a term off the page (or deleted the
// page), the term's views no longer name it, under its old key or its new;
// after a write that renamed it, the views of the terms it still carries
// no longer name its old key (no page has it). A term's view that is gone
// (404) names no page; one that answered otherwise than with a list is not
// judged (the shape rules' concern).
func (s *suite) judgeTermsDropPage(k termKind, views []*seen) {
	needViews(views)
	check := s.t.NewCheck()
	u := unjudged{mark: s.markViews}
	for _, v := range views {
		s.t.Judged(v.exchanges()...)
		page, reads := v.now()
		var carried []string
		if reads {
			carried = k.carried(page)
		}
		for i, term := range k.keys(v) {
			if slices.Contains(carried, term) {
				if v.renamed() {
					v.judgeDropped(check, &u, k, term, k.singles(v)[i], []string{v.old}, func(view, key string) string {
						return fmt.Sprintf("%s, %s still names page %s by its old key %s", v.what, view, v.key, key)
					})
				}
				continue
			}
			v.judgeDropped(check, &u, k, term, k.singles(v)[i], v.keys(), func(view, key string) string {
				return fmt.Sprintf("%s, %s still names page %s, which no longer carries it", v.what, view, key)
			})
		}
	}
	u.orNotChecked(check)
	check.Expect(fmt.Sprintf("a %s's views stop naming a page once a write took the %s off it or deleted it, and its old key "+
		"once a write renamed it", k.noun, k.noun))
}

// judgeDropped adds to check whether the single view single of term, and
// its item in the term list (when read), name any of keys; problem words
// a view that still names one.
func (v *seen) judgeDropped(check *coverkit.Check, u *unjudged, k termKind, term string, single *client.Exchange,
	keys []string, problem func(view, key string) string) {
	cell := coverage.CellID(k.section, "list", coverage.Views)
	switch shown := v.termShown(single); {
	case u.unread(single):
	case !shown.ok && !shown.gone:
		u.skip("the single view of %s %q gave no list of pages (%s)", k.noun, term, match.Outcome(single))
	default:
		u.exercised(check, cell)
		u.viewed(v, k.singleView)
		for _, key := range keys {
			if shown.names(key) {
				check.Problem(single, "%s", problem(fmt.Sprintf("%s %q", k.noun, term), key))
			}
		}
	}
	switch list := k.list(v); {
	case list == nil || u.unread(list):
	case !v.isList(list):
		u.skip("GET /api/%s gave no list (%s)", k.endpoint, match.Outcome(list))
	default:
		u.exercised(check, cell)
		u.viewed(v, k.listView)
		for _, key := range keys {
			if names, _ := v.listed(list, term, key); names {
				check.Problem(list, "%s", problem(fmt.Sprintf("the item of %s %q in GET /api/%s", k.noun, term, k.endpoint), key))
			}
		}
	}
}

// judgeGoneEverywhere: PAGE-DELETE-GONE's case on the views: after the
// delete, neither the listing of the type the page had nor a tag or
// category view names the page (the listing of every type is judged at
// the run's end, judgeGoneAtEnd). It is not checked unless the delete
// took.
func (s *suite) judgeGoneEverywhere(v *seen) {
	s.needDeleteTook(v)
	check := s.t.NewCheck()
	u := unjudged{mark: s.markViews}
	for _, l := range v.lists {
		switch ex := l.reads[0].ex; {
		case u.unread(ex):
		case !v.isList(ex):
			u.skip("the listing with %v gave no page list (%s)", l.types, match.Outcome(ex))
		default:
			listed, decided, at := l.shows(v.old)
			if !decided {
				u.skip("%s", l.undecided(v, v.old))
				break
			}
			u.exercised(check, cellsOfTypes(l.types)...)
			s.markViews(v, coverage.ViewList)
			if listed {
				check.Problem(at, "the listing with only %v still lists the deleted page %s", l.types, v.old)
			}
		}
	}
	for _, k := range []termKind{tagKind, catKind} {
		for i, ex := range k.singles(v) {
			v.judgeDropped(check, &u, k, k.keys(v)[i], ex, []string{v.old}, func(view, key string) string {
				return view + " still names the deleted page " + key
			})
		}
	}
	u.orNotChecked(check)
	check.Expect("a deleted page is gone from every view: the page list and its tags' and category's views (3.3)")
}
