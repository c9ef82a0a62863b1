package taxonomy

import (
	"context"
	"fmt"
	"net/http"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/single"
)

// Each rule's check is a prepare function, which makes the requests (side
// by side with the other specs of its kind) and returns what they brought,
// and a judge, which asserts on it in the spec.

// singles is the single views of a sample of terms, in its order.
type singles struct {
	terms
	views []*client.Exchange
}

// readSingles reads the single view of each term of ts (none when ts
// has a reason).
func (s *shared) readSingles(ctx context.Context, ts terms) singles {
	if ts.reason != "" {
		return singles{terms: ts}
	}
	return singles{terms: ts, views: s.readTerms(ctx, ts.sample)}
}

// listShape is the list as read for TAG-LIST-SHAPE / CAT-LIST-SHAPE, and,
// when it was empty, read again after ensure.
type listShape struct {
	first, again *client.Exchange
	reason       string // why there is no second read of an empty list
}

// prepareListShape: TAG-LIST-SHAPE / CAT-LIST-SHAPE (spec 2.2, 2.3, 4.6,
// 4.7). An empty list shows the envelope only, not the shape of an item:
// the run then creates a term when it may (ensure), or the rule is
// reported not checked rather than passed.
func (s *shared) prepareListShape(ctx context.Context) listShape {
	first := s.listed(ctx).ex
	if first.Err != nil || first.Status != http.StatusOK || len(first.Get("data").Array()) > 0 {
		return listShape{first: first} // judged as it is
	}
	if ts := s.ensure(ctx, false); ts.reason != "" {
		return listShape{first: first, reason: ts.reason}
	}
	return listShape{first: first, again: s.t.Read(ctx, "/api/"+s.k.endpoint, nil)}
}

func (s *shared) judgeListShape(_ ginkgo.SpecContext, v listShape) {
	k := s.k
	check := func(ex *client.Exchange) int {
		Expect(ex).To(match.BeSuccess(http.StatusOK))
		Expect(ex).To(match.MatchSchema(k.listSchema))
		// 4.6 and 4.7: list items come "without pages" (only the single
		// view expands them).
		Expect(ex).To(match.Holds("list items carry no pages (spec "+k.section+": the list comes without pages)", itemsWithPages))
		return len(ex.Get("data").Array())
	}
	s.t.Judged(v.first) // read once for the group
	if check(v.first) == 0 {
		if v.reason != "" {
			verdicts.NotChecked("%s", v.reason)
		}
		check(v.again)
	}
}

// prepareListEntries: the LIST-SHAPE case for the entries of the items'
// lists (page keys, strings), which only a list naming a page shows: when
// none does, ensure may create a draft with a term, or the case is not
// checked.
func (s *shared) prepareListEntries(ctx context.Context) framework.Got {
	if ts := s.ensure(ctx, true); ts.reason != "" {
		return framework.GotNothing("%s", ts.reason)
	}
	return framework.GotExchange(s.t.Read(ctx, "/api/"+s.k.endpoint, nil))
}

func (s *shared) judgeListEntries(_ ginkgo.SpecContext, got framework.Got) {
	k := s.k
	ex := got.Exchange()
	Expect(ex).To(match.BeSuccess(http.StatusOK))
	Expect(ex).To(match.MatchSchema(k.listSchema))
	entries := 0
	for _, item := range ex.Get("data").Array() {
		entries += len(item.Get("list").Array())
	}
	if entries == 0 {
		verdicts.NotChecked("no %s list named a page when read again, so no list entry could be judged", k.noun)
	}
}

// prepareGetPages: the GET-SHAPE case for the items of a single view's
// pages (full page objects), judged on the terms whose list names pages.
func (s *shared) prepareGetPages(ctx context.Context) singles {
	ts := s.ensure(ctx, true)
	var named []term
	for _, tm := range ts.sample {
		if len(tm.list) > 0 {
			named = append(named, tm)
		}
	}
	ts.sample = named
	return s.readSingles(ctx, ts)
}

func (s *shared) judgeGetPages(_ ginkgo.SpecContext, v singles) {
	k := s.k
	judged := 0
	s.judgeViews(v, func(_ term, ex *client.Exchange) { judged += pagelist.PageItems(ex).Len() })
	if judged == 0 {
		verdicts.NotChecked("no single %s view held a page, so no item of pages could be judged as a page object (see %s)", k.noun, k.ids.pagesMatchList)
	}
}

// prepareGetShape: TAG-GET-SHAPE / CAT-GET-SHAPE.
func (s *shared) prepareGetShape(ctx context.Context) singles {
	return s.readSingles(ctx, s.ensure(ctx, false))
}

func (s *shared) judgeGetShape(_ ginkgo.SpecContext, v singles) {
	s.judgeViews(v, func(tm term, ex *client.Exchange) {
		Expect(ex).To(match.HoldsFields("data.key must be the "+s.k.noun+" asked for", func(ex *client.Exchange) []match.FieldProblem {
			if j := single.Named(s.k.endpoint, ex.Get("data"), tm.key); !j.Holds() {
				return []match.FieldProblem{{Field: "data.key", Problem: j.Problem}}
			}
			return nil
		}))
	})
}

// judgeViews judges every single view v read: it answered 200 with the
// single view's shape, and passes check. v's reason, when it has one, says
// why there was nothing to judge.
func (s *shared) judgeViews(v singles, check func(tm term, ex *client.Exchange)) {
	k := s.k
	if v.reason != "" {
		verdicts.NotChecked("%s", v.reason)
	}
	s.t.Judged(v.views...) // read once for the group
	for i, ex := range v.views {
		tm := v.sample[i]
		Expect(ex).To(match.BeSuccess(http.StatusOK), "%s %q is named by GET /api/%s", k.noun, tm.key, k.endpoint)
		// The envelope and the term against the schema; the items of
		// pages, read as a stream, each against page.json as they came.
		Expect(ex).To(match.MatchSchema(k.getSchema))
		if ex.Streamed != nil {
			Expect(ex).To(pagelist.PassCheckOnStream(pageShape.Name, "data.pages", "every item of data.pages matches schema page.json"))
		}
		check(tm, ex)
	}
}

// preparePagesMatchList: TAG-PAGES-MATCH-LIST / CAT-PAGES-MATCH-LIST.
func (s *shared) preparePagesMatchList(ctx context.Context) singles {
	return s.readSingles(ctx, s.ensure(ctx, true))
}

// judgePagesMatchList: the single view's pages, as a multiset of keys,
// equal its list (order is not asserted: see the rule's Reading).
func (s *shared) judgePagesMatchList(_ ginkgo.SpecContext, v singles) {
	k := s.k
	if v.reason != "" {
		verdicts.NotChecked("%s", v.reason)
	}
	compared, named := 0, 0
	s.t.Judged(v.views...) // read once for the group
	for i, ex := range v.views {
		tm := v.sample[i]
		if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsObject() {
			continue // judged by the GET-SHAPE rule
		}
		list, source := ex.Get("data.list"), "its list"
		var listKeys []string
		if list.IsArray() {
			listKeys = strs(list)
		} else {
			// A single view without list breaks GET-SHAPE; compare with
			// the list the list endpoint gave, so this rule is still judged.
			listKeys, source = tm.list, fmt.Sprintf("its list in GET /api/%s (the single view has no list)", k.endpoint)
		}
		Expect(ex).To(match.HaveJSON("data.pages", match.BeJSONArray()), "data.pages must be an array of page objects")
		Expect(ex).To(match.Holds(fmt.Sprintf("the keys of data.pages are exactly the page keys %s names", source),
			func(ex *client.Exchange) []string { return multisetDiff(listKeys, pageKeysOf(ex)) }), "%s %q", k.noun, tm.key)
		compared++
		named += len(listKeys) + len(pageKeysOf(ex))
	}
	if compared == 0 {
		verdicts.NotChecked("no %s could be read with GET /api/%s/{key} (see %s)", k.noun, k.endpoint, k.ids.getShape)
	}
	if named == 0 {
		verdicts.NotChecked("no %s the target lists names any page, so there is nothing to compare", k.noun)
	}
}

// itemsWithPages lists the items of a term list that carry pages.
func itemsWithPages(ex *client.Exchange) []string {
	var withPages []string
	for i, item := range ex.Get("data").Array() {
		if item.Get("pages").Exists() {
			withPages = append(withPages, fmt.Sprintf("data[%d] (key %s) carries pages", i, match.Show(item.Get("key"))))
		}
	}
	return withPages
}

// pageKeysOf returns the key of each page object in data.pages of a term's
// single view, read as a stream ("" for a page without one).
func pageKeysOf(ex *client.Exchange) []string {
	var keys []string
	for _, p := range pagelist.PageItems(ex).All() {
		keys = append(keys, p.Get("key").String())
	}
	return keys
}

// multisetDiff says how got differs from want, as multisets.
func multisetDiff(want, got []string) []string {
	left := map[string]int{}
	for _, k := range want {
		left[k]++
	}
	var problems []string
	for _, k := range got {
		if left[k] > 0 {
			left[k]--
			continue
		}
		problems = append(problems, fmt.Sprintf("data.pages holds page %q, which the list does not name (that often)", k))
	}
	for _, k := range want {
		if left[k] > 0 {
			left[k]--
			problems = append(problems, fmt.Sprintf("data.pages lacks page %q, which the list names", k))
		}
	}
	return problems
}

// prepareGet404: TAG-GET-404 / CAT-GET-404.
func (s *shared) prepareGet404(ctx context.Context) framework.Got {
	return framework.GotExchange(s.t.Read(ctx, client.KeyPath(s.k.endpoint, s.t.Marker("no-such-"+s.k.noun)), nil))
}

func judgeGet404(_ ginkgo.SpecContext, got framework.Got) {
	Expect(got.Exchange()).To(match.HaveHTTPStatus(http.StatusNotFound))
	Expect(got.Exchange()).To(match.Holds(single.MissingExpect, rules.ProblemsOf(single.Missing)))
}
