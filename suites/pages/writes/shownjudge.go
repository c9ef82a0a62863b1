package writes

// The judges of what the views showed after the run's writes (shown.go).

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
)

// termKind is what tags and categories differ in, for the judges.
type termKind struct {
	noun, endpoint, section string
	singles                 func(v *seen) []*client.Exchange
	keys                    func(v *seen) []string
	list                    func(v *seen) *client.Exchange
	carried                 func(page gjson.Result) []string
}

var (
	tagKind = termKind{noun: "tag", endpoint: "tags", section: "tag",
		singles: func(v *seen) []*client.Exchange { return v.tags }, keys: func(v *seen) []string { return v.look.tags },
		list: func(v *seen) *client.Exchange { return v.tagList }, carried: termKeys}
	catKind = termKind{noun: "category", endpoint: "categories", section: "category",
		singles: func(v *seen) []*client.Exchange { return v.cats }, keys: func(v *seen) []string { return v.look.cats },
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
	return framework.Uniq(slices.DeleteFunc([]string{v.key, v.old}, func(k string) bool { return k == "" }))
}

// needViews makes the spec not checked when the chain made no write whose
// views were read (its create or an earlier write failed).
func needViews(views []*seen) {
	if len(views) == 0 {
		framework.NotChecked("the page this check needs was not written (see PAGE-CREATE-201 and PAGE-EDIT-OK)")
	}
}

// judgeListedAfterWrites: PAGE-LIST-TYPE-FILTERS on the run's pages: a
// listing read after a write lists the page exactly when the page's type,
// as read back beside it, is one of the listing's types; after a delete no
// listing lists it.
func (s *suite) judgeListedAfterWrites(views []*seen) {
	needViews(views)
	check := s.t.NewCheck()
	for _, v := range views {
		s.t.Judged(v.exchanges()...)
		page, reads := v.now()
		typ := page.Get("type").String()
		for i, types := range v.listTypes {
			ex := v.listings[i]
			if ex.Err != nil || ex.Status != http.StatusOK || !v.get(ex, "data").IsArray() {
				check.Problem(ex, "%s, the listing with %v gave no page list (%s)", v.what, types, framework.Outcome(ex))
				continue
			}
			got := v.keysOf(ex)
			for _, key := range v.keys() {
				want := reads && key == v.key && slices.Contains(types, typ)
				check.Exercised(cellsOfTypes(types)...)
				if slices.Contains(got, key) != want {
					check.Problem(ex, "%s (type %s), the listing with only %v on %s page %s", v.what, typeWords(typ, reads), types,
						map[bool]string{true: "lacks", false: "lists"}[want], key)
				}
			}
		}
	}
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

// judgeTermsNamePage: TAG-LIST-COMPLETE / CAT-LIST-COMPLETE on the run's
// pages: after a write that leaves the page published, each of its terms
// read names it, in its single view and in the term list.
func (s *suite) judgeTermsNamePage(k termKind, views []*seen) {
	needViews(views)
	check := s.t.NewCheck()
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
			check.Exercised(coverage.CellID(k.section, "list", coverage.Views))
			if names, found := v.singleNames(k.singles(v)[i], v.key); !names || !found {
				check.Problem(k.singles(v)[i], "%s, the published page %s carries %s %q, whose single view does not name it (%s)",
					v.what, v.key, k.noun, term, framework.Outcome(k.singles(v)[i]))
			}
			if list := k.list(v); list != nil {
				if names, ok := v.listed(list, term, v.key); !names || !ok {
					check.Problem(list, "%s, the published page %s carries %s %q, whose item in GET /api/%s does not name it",
						v.what, v.key, k.noun, term, k.endpoint)
				}
			}
		}
	}
	check.Expect(fmt.Sprintf("a %s's views name every published page that carries it, also right after the page's writes", k.noun))
}

// judgeTermsDropPage: TAG-LIST-CONSISTENT / CAT-LIST-CONSISTENT on the
// run's pages: after a write that took a term off the page (or deleted the
// page), the term's views no longer name it, under its old key or its new.
func (s *suite) judgeTermsDropPage(k termKind, views []*seen) {
	needViews(views)
	check := s.t.NewCheck()
	for _, v := range views {
		s.t.Judged(v.exchanges()...)
		page, reads := v.now()
		var carried []string
		if reads {
			carried = k.carried(page)
		}
		for i, term := range k.keys(v) {
			if slices.Contains(carried, term) {
				continue
			}
			for _, key := range v.keys() {
				check.Exercised(coverage.CellID(k.section, "list", coverage.Views))
				if names, _ := v.singleNames(k.singles(v)[i], key); names {
					check.Problem(k.singles(v)[i], "%s, %s %q still names page %s, which no longer carries it", v.what, k.noun, term, key)
				}
				if list := k.list(v); list != nil {
					if names, _ := v.listed(list, term, key); names {
						check.Problem(list, "%s, the item of %s %q in GET /api/%s still names page %s, which no longer carries it",
							v.what, k.noun, term, k.endpoint, key)
					}
				}
			}
		}
	}
	check.Expect(fmt.Sprintf("a %s's views stop naming a page once a write took the %s off it or deleted it", k.noun, k.noun))
}

// judgeGoneEverywhere: PAGE-DELETE-GONE's case on the views: after the
// delete, no listing and no tag or category view names the page.
func (s *suite) judgeGoneEverywhere(v *seen) {
	if v == nil {
		framework.NotChecked("the page this check needs was not deleted (see PAGE-DELETE-OK)")
	}
	s.t.Judged(v.exchanges()...)
	check := s.t.NewCheck()
	for i, ex := range v.listings {
		check.Exercised(cellsOfTypes(v.listTypes[i])...)
		if slices.Contains(v.keysOf(ex), v.old) {
			check.Problem(ex, "the listing of every type still lists the deleted page %s", v.old)
		}
	}
	for _, k := range []termKind{tagKind, catKind} {
		for i, ex := range k.singles(v) {
			if names, _ := v.singleNames(ex, v.old); names {
				check.Problem(ex, "%s %q still names the deleted page %s", k.noun, k.keys(v)[i], v.old)
			}
			if list := k.list(v); list != nil {
				if names, _ := v.listed(list, k.keys(v)[i], v.old); names {
					check.Problem(list, "the item of %s %q in GET /api/%s still names the deleted page %s", k.noun, k.keys(v)[i], k.endpoint, v.old)
				}
			}
		}
	}
	check.Expect("a deleted page is gone from every view: the page list and its tags' and category's views (3.3)")
}

// pageViews are the views of the page a write left: its answer (when it
// carries the page), the page read back, its item in each listing read,
// its object among the pages of each term read.
func (v *seen) pageViews() []framework.View {
	var out []framework.View
	if d := v.get(v.answer, "data"); d.IsObject() && d.Get("key").String() == v.key && v.answer.Status >= 200 && v.answer.Status < 300 {
		out = append(out, framework.View{Name: "the answer to the write", Ex: v.answer, Obj: d})
	}
	if page, reads := v.now(); reads {
		out = append(out, framework.View{Name: "GET /api/pages/" + v.key, Ex: v.page, Obj: page})
	} else {
		return nil
	}
	for i, ex := range v.listings {
		for _, p := range v.get(ex, "data").Array() {
			if p.Get("key").String() == v.key {
				out = append(out, framework.View{Name: fmt.Sprintf("the listing with only %v", v.listTypes[i]), Ex: ex, Obj: p})
			}
		}
	}
	for _, ex := range append(append([]*client.Exchange(nil), v.tags...), v.cats...) {
		for _, p := range v.get(ex, "data.pages").Array() {
			if p.Get("key").String() == v.key {
				out = append(out, framework.View{Name: "the pages of " + ex.RequestLine(), Ex: ex, Obj: p})
			}
		}
	}
	return out
}

// judgePageViews: PAGE-VIEWS-AGREE on the run's pages: after each write,
// every view of the page agrees.
func (s *suite) judgePageViews(views []*seen) {
	needViews(views)
	check := s.t.NewCheck()
	for _, v := range views {
		s.t.Judged(v.exchanges()...)
		check.Same("page "+v.key+" "+v.what, pageViewCell, nil, v.pageViews(), coverage.PageFields()...)
	}
	check.Expect("a page reads the same in every answer that shows it, right after its writes (2.1)")
}

func pageViewCell(f string) coverage.ID { return coverage.CellID("page", f, coverage.Views) }

// judgeTermViews: TAG-VIEWS-AGREE / CAT-VIEWS-AGREE, and for tags
// TAG-NAME-IN-PAGES, on the terms of the run's pages read after their
// writes: a term's list item and single view agree, and the page names its
// tags as they do. Other chains write beside this one, to pages of the
// same terms, and a batch of reads may be cut by one of their writes: so
// of a term's list only whether it names this page is compared, never the
// pages of others.
func (s *suite) judgeTermViews(k termKind, names bool, views []*seen) {
	needViews(views)
	check := s.t.NewCheck()
	for _, v := range views {
		s.t.Judged(v.exchanges()...)
		page, reads := v.now()
		for i, term := range k.keys(v) {
			shown := v.termViews(k, i, term)
			if names {
				name := page.Get("tags").Get(gjsonKey(term))
				if !reads || !name.Exists() {
					continue
				}
				for _, view := range shown {
					check.Exercised(coverage.CellID("tag", "name", coverage.Views))
					if !framework.SameJSON(view.Obj.Get("name"), name) {
						check.Problem(view.Ex, "%s, page %s gives tag %q the name %s; %s names it %s", v.what, v.key, term, name.Raw,
							view.Name, framework.JSONText(view.Obj.Get("name")))
					}
				}
				continue
			}
			check.Same(k.noun+" "+term+" "+v.what, func(f string) coverage.ID { return coverage.CellID(k.section, f, coverage.Views) },
				nil, shown, "key", "name", "description", "template")
			if len(shown) == 2 {
				in := func(view framework.View) bool { return slices.Contains(strs(view.Obj.Get("list")), v.key) }
				check.Exercised(coverage.CellID(k.section, "list", coverage.Views))
				if in(shown[0]) != in(shown[1]) {
					check.Problem(shown[1].Ex, "%s, %s names page %s in %s: %v, in %s: %v", v.what, term, v.key, shown[0].Name, in(shown[0]),
						shown[1].Name, in(shown[1]))
				}
			}
		}
	}
	what := fmt.Sprintf("a %s reads the same in its list and its single view after the run's writes", k.noun)
	if names {
		what = "a page's tags object names its tags as the tag views do, after the run's writes"
	}
	check.Expect(what)
}

// termViews are the views of the term k.keys(v)[i] read after a write:
// its item in the term list (when read) and its single view (when found).
func (v *seen) termViews(k termKind, i int, term string) []framework.View {
	var out []framework.View
	if list := k.list(v); list != nil {
		for _, it := range v.get(list, "data").Array() {
			if it.Get("key").String() == term {
				out = append(out, framework.View{Name: "GET /api/" + k.endpoint, Ex: list, Obj: it})
			}
		}
	}
	if single := k.singles(v)[i]; single.Err == nil && single.Status == http.StatusOK && v.get(single, "data").IsObject() {
		out = append(out, framework.View{Name: single.RequestLine(), Ex: single, Obj: v.get(single, "data")})
	}
	return out
}

// gjsonKey escapes a key for a gjson path.
func gjsonKey(k string) string {
	out := make([]rune, 0, len(k))
	for _, r := range k {
		if r == '.' || r == '*' || r == '?' || r == '\\' {
			out = append(out, '\\')
		}
		out = append(out, r)
	}
	return string(out)
}
