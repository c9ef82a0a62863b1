package writes

// The judges of how the page and its terms read in the views after the
// run's writes (shown.go): the page the same in every view, a term the
// same in its list and its single view.

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/coverkit"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/suites/taxonomy"
)

// pageViews are the views of the page a write left: its answer (when it
// carries the page), the page read back, its item in each listing read,
// its object among the pages of each term read.
func (v *seen) pageViews() []coverkit.View {
	var out []coverkit.View
	if d := v.get(v.answer, "data"); d.IsObject() && d.Get("key").String() == v.key && v.answer.Status >= 200 && v.answer.Status < 300 {
		out = append(out, coverkit.View{Name: "the answer to the write", Ex: v.answer, Obj: d})
	}
	if page, reads := v.now(); reads {
		out = append(out, coverkit.View{Name: "GET /api/pages/" + v.key, Ex: v.page, Obj: page})
	} else {
		return nil
	}
	for _, l := range v.lists {
		listed, _, ex := l.shows(v.key)
		if !listed {
			continue
		}
		for _, p := range pagelist.PageItems(ex).All() {
			if p.Get("key").String() == v.key {
				out = append(out, coverkit.View{Name: fmt.Sprintf("the listing with only %v", l.types), Ex: ex, Obj: p})
			}
		}
	}
	for _, ex := range append(append([]*client.Exchange(nil), v.tags...), v.cats...) {
		for _, p := range pagelist.PageItems(ex).All() {
			if p.Get("key").String() == v.key {
				out = append(out, coverkit.View{Name: "the pages of " + ex.RequestLine(), Ex: ex, Obj: p})
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
		views := v.pageViews()
		check.Same("page "+v.key+" "+v.what, pageViewCell, nil, views, coverage.PageFields()...)
		sameContent(check, "page "+v.key+" "+v.what, views)
		s.markPageViews(v, views)
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
		if names {
			// The tag names the page's tags object gives, against the
			// tags' views (as the read specs judge the site's pages).
			if page, reads := v.now(); reads {
				byKey := map[string][]coverkit.View{}
				for i, term := range k.keys(v) {
					byKey[term] = append(byKey[term], v.termViews(k, i, term)...)
				}
				spelled := taxonomy.TagSpellings{}
				spelled.Add(page)
				taxonomy.CheckTagNames(check, v.page, page, byKey, spelled)
			}
			continue
		}
		for i, term := range k.keys(v) {
			shown := v.termViews(k, i, term)
			check.Same(k.noun+" "+term+" "+v.what, func(f string) coverage.ID { return coverage.CellID(k.section, f, coverage.Views) },
				nil, shown, "key", "name", "description", "template")
			if len(shown) == 2 {
				in := func(view coverkit.View) bool { return slices.Contains(strs(view.Obj.Get("list")), v.key) }
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
func (v *seen) termViews(k termKind, i int, term string) []coverkit.View {
	var out []coverkit.View
	if list := k.list(v); list != nil {
		for _, it := range v.get(list, "data").Array() {
			if it.Get("key").String() == term {
				out = append(out, coverkit.View{Name: "GET /api/" + k.endpoint, Ex: list, Obj: it})
			}
		}
	}
	if single := k.singles(v)[i]; single.Err == nil && single.Status == http.StatusOK && v.get(single, "data").IsObject() {
		out = append(out, coverkit.View{Name: single.RequestLine(), Ex: single, Obj: v.get(single, "data")})
	}
	return out
}
