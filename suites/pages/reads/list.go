package reads

// The page list (4.1): its shape, the type filters, the page size and page
// number, and odd paging values (9.3).

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/listfilter"
	"github.com/conformance-suite/conformance/internal/rules/paging"
)

func (k kit) listShapeSpecs() {
	cases := []struct {
		name string
		q    url.Values
	}{
		{"no parameters", url.Values{}},
		{"every type, numberOfItems=2, pageNumber=2", pagelist.QueryWith(pagelist.EveryTypeQuery(), "numberOfItems", "2", "pageNumber", "2")},
		{"every type, numberOfItems=-1", pagelist.QueryWith(pagelist.EveryTypeQuery(), "numberOfItems", "-1")},
	}
	for _, c := range cases {
		whole := c.q.Get("numberOfItems") == "-1"
		framework.Prepare(k.g, "PAGE-LIST-SHAPE", func(ctx context.Context) (l listing) {
			if whole {
				// Every page: read as a stream, each page object checked
				// against page.json as it arrives, the envelope kept.
				ex, all := k.t.Pages.Read(ctx, c.q)
				if all != nil {
					return listing{items: all.Pages, ex: ex, all: *all}
				}
				return listing{ex: ex}
			}
			return listing{ex: k.t.Read(ctx, pagelist.PagesPath, c.q)}
		}, func(_ SpecContext, l listing) {
			ex := l.ex
			Expect(ex).To(match.HaveHTTPStatus(http.StatusOK))
			Expect(ex).To(match.MatchSchema("page-list.json"))
			if ex.Streamed != nil {
				Expect(ex).To(shapeOfEveryPage(l, "every item of data matches schema page.json (page-list.json's items)"))
			}
		}, framework.Case(c.name))
	}
}

// everyListed is what PAGE-LIST-ALL judges: the list at the default page
// size, and every matching page at once (numberOfItems=-1, streamed).
type everyListed struct {
	ref, ex *client.Exchange
	all     *pagelist.Listing
}

// defaultFiltered is what PAGE-LIST-DEFAULT-FILTER judges: the listing of
// every type, and without type filters the first page and every page.
type defaultFiltered struct {
	inv   listing
	first *client.Exchange
	all   listing
}

func (k kit) defaultFilterSpec() {
	framework.Prepare(k.g, "PAGE-LIST-DEFAULT-FILTER", func(ctx context.Context) (d defaultFiltered) {
		d.inv = k.every(ctx)
		if d.inv.problem != "" || d.inv.items.CountOfType("published") == d.inv.items.Len() {
			return d
		}
		// The first page as a client sees it without any parameter, then
		// every page of the default listing.
		if d.first = k.t.Read(ctx, pagelist.PagesPath, url.Values{}); isList(d.first) {
			d.all = k.listAll(ctx, url.Values{})
		}
		return d
	}, func(_ SpecContext, d defaultFiltered) {
		inv, invEx := k.pages(d.inv)
		published := pagelist.OfType("published")
		if inv.CountOfType("published") == inv.Len() {
			verdicts.NotChecked("%s", k.lacking("no page other than published ones, so a default that lets other types in would not show"))
		}
		expectList(1, d.first)
		Expect(d.first).To(eachPage("without type filters every page listed is published", pagelist.PageItems(d.first), notOfType("published")))
		all, allEx := k.pages(d.all)
		Expect(allEx).To(eachPage("without type filters every page of the whole listing is published", all, notOfType("published")))
		listed := all.KeySet(nil)
		missing := inv.KeysWhere(func(p gjson.Result) bool { return published(p) && !listed.Has(pagelist.PageKey(p)) })
		Expect(missing).To(BeEmpty(), match.Evidence(allEx,
			"without type filters the list holds every published page of the every-type list (%s); these are missing", invEx.RequestLine()))
	})
}

// typeFiltered is what PAGE-LIST-TYPE-FILTERS judges for one type: the
// listing of every type and the walk of the type alone.
type typeFiltered struct {
	inv listing
	got typeWalk
}

func (k kit) typeFilterSpecs() {
	for _, ty := range pagelist.PageTypes() {
		framework.Prepare(k.g, "PAGE-LIST-TYPE-FILTERS", func(ctx context.Context) typeFiltered {
			return typeFiltered{inv: k.every(ctx), got: k.typeWalks[ty](ctx)}
		}, func(_ SpecContext, f typeFiltered) {
			inv, invEx := k.pages(f.inv)
			// The keys compared as sets of hashes (pagelist.KeySet): a
			// type of a big site has many pages.
			ofType := pagelist.OfType(ty)
			want := inv.KeySet(ofType)
			// Where the list of every type showed none, the setup created
			// one, whose type the create answer and a read confirm, so that
			// a filter that drops the type from every listing still shows.
			made, created := k.made.typed[ty]
			var madeKeys []string
			switch {
			case created && made.problem != "":
				verdicts.NotChecked("%s", made.problem)
			case created:
				if !want.Has(made.key) {
					want.Add(made.key)
					madeKeys = append(madeKeys, made.key)
				}
			case !inv.Any(ofType):
				verdicts.NotChecked("%s", k.lacking("no "+ty+" page in the list of every type"))
			}
			got, ex := f.got.items()
			Expect(ex).To(eachPage("with only "+ty+"=true every page listed is "+ty, got, notOfType(ty)))
			walked := got.KeySet(nil)
			missing := inv.KeysWhere(func(p gjson.Result) bool { return ofType(p) && !walked.Has(pagelist.PageKey(p)) })
			for _, key := range madeKeys {
				if !walked.Has(key) {
					missing = append(missing, key)
				}
			}
			extra := got.KeysWhere(func(p gjson.Result) bool { return !want.Has(pagelist.PageKey(p)) })
			Expect(missing).To(BeEmpty(), match.Evidence(ex, "with only %s=true the list (walked at %d a page) holds every %s page "+
				"of the every-type list (%s) and any created for the check; these are missing", ty, f.got.size, ty, invEx.RequestLine()))
			Expect(extra).To(BeEmpty(), match.Evidence(ex, "with only %s=true the list (walked at %d a page) holds no page the "+
				"every-type list (%s) does not show as %s; these are extra", ty, f.got.size, invEx.RequestLine(), ty))
		}, framework.Case(ty))
	}
}

func (k kit) sizeSpecs() {
	t := k.t
	// Without parameters (published pages only) a small site may not fill a
	// page; every type, with the drafts the run may create, should. Either
	// way the size used shows only when the listing is longer than it.
	for _, c := range []struct {
		name, pages string
		q           url.Values
	}{{"no parameters", "published page", url.Values{}}, {"every type", "page", pagelist.EveryTypeQuery()}} {
		k.g.OnRead("PAGE-LIST-DEFAULT-SIZE", pagelist.PagesPath, c.q, func(ex *client.Exchange) {
			expectList(1, ex)
			n, size, total := integer(ex, "numberOfItems"), integer(ex, "meta.pageSize"), integer(ex, "meta.total")
			Expect(n).To(Equal(size), match.Evidence(ex, "numberOfItems (%d) and meta.pageSize (%d) report the same page size", n, size))
			Expect(size).To(BeNumerically(">", 0), match.Evidence(ex, "the default page size is positive"))
			Expect(pagelist.PageItems(ex).Len()).To(Equal(min(size, total)),
				match.Evidence(ex, "the first page holds min(page size %d, meta.total %d) pages", size, total))
			if size != 15 {
				t.Observe("PAGE-LIST-DEFAULT-SIZE: the default page size is %d (the plugin setting's default is 15)", size)
			}
			if total <= size {
				verdicts.NotChecked("%s", k.lacking(count(total, c.pages)+", no more than the page size reported ("+
					strconv.Itoa(size)+"), so the size used cannot be seen"))
			}
		}, framework.Case(c.name))
	}

	for _, c := range []struct {
		name, pages string
		q           url.Values
	}{{"every type", "page", pagelist.EveryTypeQuery()}, {"no type parameter", "published page", url.Values{}}} {
		framework.Prepare(k.g, "PAGE-LIST-ALL", func(ctx context.Context) (e everyListed) {
			e.ref = k.t.Read(ctx, pagelist.PagesPath, c.q)
			e.ex, e.all = k.t.Pages.Read(ctx, pagelist.QueryWith(c.q, "numberOfItems", "-1"))
			return e
		}, func(_ SpecContext, e everyListed) {
			ref, ex := e.ref, e.ex
			expectList(1, ref)
			refTotal := integer(ref, "meta.total")
			expectList(1, ex)
			total := integer(ex, "meta.total")
			Expect(total).To(Equal(refTotal), match.Evidence(ex,
				"meta.total is the same with numberOfItems=-1 as with the default page size (%s)", ref.RequestLine()))
			if e.all == nil {
				verdicts.NotChecked("%s was not one JSON document within the read limits (%s)", ex.RequestLine(), match.Outcome(ex))
			}
			// Counted and compared from the stream, whatever its size.
			items := e.all.Pages
			expectChecks(ex, paging.All(ex, items.Len(), total, paging.ReadQuery(pagelist.QueryWith(c.q, "numberOfItems", "-1")))...)
			Expect(items.RepeatedKeys()).To(BeEmpty(), match.Evidence(ex, "numberOfItems=-1 lists each page once"))
			if refTotal == 0 {
				verdicts.NotChecked("%s", k.lacking("no "+c.pages))
			}
		}, framework.Case(c.name))
	}

	for _, v := range []string{"0", "-5"} {
		framework.Prepare(k.g, "PAGE-LIST-NONPOSITIVE-SIZE", func(ctx context.Context) []*client.Exchange {
			q := pagelist.QueryWith(pagelist.EveryTypeQuery(), "numberOfItems", v)
			return k.lists(ctx, paging.ReadAsQuery(q), q)
		}, func(_ SpecContext, exs []*client.Exchange) {
			k.expectReadAs(exs[0], exs[1], "numberOfItems="+v, "the default page size", "no more pages than one list page "+
				"at the default size holds, so falling back to the default size cannot be told from listing all pages")
		}, framework.Case("numberOfItems="+v))
	}

	for _, v := range []string{"0", "-1"} {
		q := pagelist.QueryWith(pagelist.EveryTypeQuery(), "numberOfItems", "2")
		framework.Prepare(k.g, "PAGE-LIST-PAGENUMBER-BELOW-1", func(ctx context.Context) []*client.Exchange {
			sent := pagelist.QueryWith(q, "pageNumber", v)
			return k.lists(ctx, paging.ReadAsQuery(sent), sent)
		}, func(_ SpecContext, exs []*client.Exchange) {
			k.expectReadAs(exs[0], exs[1], "pageNumber="+v, "page 1", "no more than 2 pages, one list page at numberOfItems=2, "+
				"so page 1 cannot be told from any other reading of pageNumber="+v)
		}, framework.Case("pageNumber="+v))
	}
}

// expectChecks expects every check of a paging rule (internal/rules/paging)
// on ex to hold.
func expectChecks(ex *client.Exchange, checks ...paging.Check) {
	for _, c := range checks {
		ExpectWithOffset(1, ex).To(match.Holds(c.Expected, func(*client.Exchange) []string {
			if c.Holds() {
				return nil
			}
			return []string{c.Problem}
		}))
	}
}

// expectReadAs checks that the list answer ex to a query that sends an odd
// paging value (what) is the answer refEx to one that sends what the value
// must be read as (readAs): the same numberOfItems and meta, and the same
// pages in any order (none is stated for the list). When refEx's first page
// holds every page, other readings give the same answer: the rule is then
// not checked, for the reason unseen.
func (k kit) expectReadAs(refEx, ex *client.Exchange, what, readAs, unseen string) {
	expectList(2, refEx)
	if pagelist.PageItems(refEx).Len() == 0 {
		verdicts.NotChecked("%s", k.lacking("no page at all"))
	}
	expectList(2, ex)
	Expect(pagingOf(ex)).To(Equal(pagingOf(refEx)), match.Evidence(ex,
		"%s is read as %s: numberOfItems and meta are those of %s", what, readAs, refEx.RequestLine()))
	Expect(keysOf(ex)).To(ConsistOf(keysOf(refEx)), match.Evidence(ex,
		"%s gives the same pages as %s, in any order", what, refEx.RequestLine()))
	if onePage(refEx) {
		verdicts.NotChecked("%s", k.lacking(unseen))
	}
}

// keysOf returns the keys of the pages a list answer holds, in its order.
func keysOf(ex *client.Exchange) []string { return pagelist.PageItems(ex).Keys() }

// onePage reports whether a first list page holds every matching page
// (meta.total, when it is an integer, is no larger than len(data)): then
// every page number reading that lands on a page gives the same answer.
func onePage(ex *client.Exchange) bool {
	total := ex.Get("meta.total")
	return isInteger(total) && int(total.Num) <= pagelist.PageItems(ex).Len()
}

// notOfType is the problem of a page object whose type is not ty (for
// eachPage): listfilter.OfType.
func notOfType(ty string) func(it gjson.Result) string {
	return func(it gjson.Result) string { return listfilter.OfType(it, []string{ty}).Problem }
}

// pagingOf is the paging part of a list answer as sent (numberOfItems
// and the four meta members, whatever their types), compared whole between
// two answers that must be the same. Their types are PAGE-LIST-SHAPE's
// concern, not that of the rules comparing two answers.
func pagingOf(ex *client.Exchange) map[string]any {
	out := map[string]any{}
	for _, path := range []string{"numberOfItems", "meta.total", "meta.pageNumber", "meta.pageSize", "meta.hasMore"} {
		out[path] = ex.Get(path).Value()
	}
	return out
}

// pastTheEnd is what PAGE-LIST-PAST-END judges: what the number of pages
// rests on, and the page it asked for past the last one.
type pastTheEnd struct {
	count counted
	ex    *client.Exchange
}

func (k kit) pastEndSpecs() {
	for _, c := range []struct {
		name  string
		ahead int
	}{{"the page after the last", 1}, {"far past the last page", 1000}} {
		pageNumber := func(total int) int { return max(pageCount(total, 2), 1) + c.ahead }
		framework.Prepare(k.g, "PAGE-LIST-PAST-END", func(ctx context.Context) (p pastTheEnd) {
			p.count = k.countEvery(ctx)
			if total, ok := p.count.value(); ok {
				p.ex = k.t.Read(ctx, pagelist.PagesPath, pagelist.QueryWith(pagelist.EveryTypeQuery(), "numberOfItems", "2",
					"pageNumber", strconv.Itoa(pageNumber(total))))
			}
			return p
		}, func(_ SpecContext, p pastTheEnd) {
			total := k.total(p.count)
			pn, ex := pageNumber(total), p.ex
			Expect(ex).To(match.HaveHTTPStatus(http.StatusOK))
			Expect(ex).To(match.HaveJSON("data", match.BeJSONArray()),
				"pageNumber=%d, past the last page (%s at 2 a page), gives a data array", pn, count(total, "page"))
			expectChecks(ex, paging.PastEnd(ex, pagelist.PageItems(ex).Len(), paging.Slice{Total: total, Size: 2, Page: pn})...)
		}, framework.Case(c.name))
	}
}

func (k kit) badPagingSpecs() {
	for _, param := range []string{"numberOfItems", "pageNumber"} {
		for _, v := range []string{"abc", "", "2.5"} {
			name := param + "=" + v
			if v == "" {
				name = param + " empty"
			}
			k.g.OnRead("PAGE-LIST-BAD-PAGING-NO-CRASH", pagelist.PagesPath, url.Values{param: {v}}, func(ex *client.Exchange) {
				expectChecks(ex, paging.OddValue(ex))
			}, framework.Case(name))
		}
	}
}
