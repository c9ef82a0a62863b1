package reads

// Walking the page list page by page (4.1 meta, 8).

import (
	"context"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/paging"
)

// maxWalk bounds how many pages of one listing a spec visits (the
// default page size on a large site could make many).
const maxWalk = 12

// Page sizes of the paging rules: constants, so that a big site is read
// in pages no larger than a small site's (a size that grew with the site
// would make a single list page larger than the read limit, and leave the
// rule unchecked exactly where it matters).
const (
	// smallPageSize is the "small" size of PAGE-LIST-META-CONSISTENT,
	// PAGE-LIST-UNTAGGED-AFTER-PAGINATION and
	// PAGE-LIST-TOTAL-IGNORES-UNTAGGED, which visit at most maxWalk pages.
	smallPageSize = 5
	// maxWalkPageSize caps the size at which each type's listing is
	// walked whole (walkSize).
	maxWalkPageSize = 100
	// maxWalkPages bounds the pages of one type's walk (200,000 pages).
	maxWalkPages = 2000
)

// walkSize is the page size at which a type's listing of n pages is walked
// whole: about eight pages on a small site, pages of maxWalkPageSize on a
// big one.
func walkSize(n int) int { return min(maxWalkPageSize, max(smallPageSize, (n+7)/8)) }

// metaWalk is what PAGE-LIST-META-CONSISTENT judges: the first page of
// the walk and the later pages it visits.
type metaWalk struct {
	first *client.Exchange
	rest  []*client.Exchange
}

func (k kit) walkSpecs() {
	for _, small := range []bool{true, false} {
		name := "default page size, every type"
		if small {
			name = "small page size, every type"
		}
		q := pagelist.EveryTypeQuery()
		if small {
			q = pagelist.QueryWith(q, "numberOfItems", strconv.Itoa(smallPageSize))
		}
		framework.Prepare(k.g, "PAGE-LIST-META-CONSISTENT", func(ctx context.Context) (w metaWalk) {
			w.first = k.lists(ctx, pagelist.QueryWith(q, "pageNumber", "1"))[0]
			total, okTotal := intOf(w.first, "meta.total")
			size, okSize := intOf(w.first, "meta.pageSize")
			if small {
				size = smallPageSize
			}
			if !isList(w.first) || !okTotal || !okSize || size <= 0 {
				return w
			}
			// The later pages depend only on the first one's total: they
			// go side by side.
			w.rest = k.lists(ctx, pageQueries(q, visit(max(pageCount(total, size), 1))[1:]...)...)
			return w
		}, func(_ SpecContext, w metaWalk) {
			size := smallPageSize
			expectList(1, w.first)
			total := integer(w.first, "meta.total")
			if pageSize := integer(w.first, "meta.pageSize"); !small {
				size = pageSize
			}
			Expect(size).To(BeNumerically(">", 0), match.Evidence(w.first, "the page size is positive"))
			pages := pageCount(total, size)
			pns := visit(max(pages, 1))
			// Each page judged as a one-by-one walk would.
			checkMeta(w.first, 1, size, total)
			for i, ex := range w.rest {
				expectList(1, ex)
				checkMeta(ex, pns[i+1], size, total)
			}
			if pages < 2 {
				verdicts.NotChecked("%s", k.lacking(count(total, "page")+" of every type, one list page at size "+
					strconv.Itoa(size)+": hasMore and partly filled pages cannot be seen"))
			}
		}, framework.Case(name))
	}

	framework.Prepare(k.g, "PAGE-LIST-WALK", func(ctx context.Context) []typeWalk {
		var ws []typeWalk
		for _, ty := range pagelist.PageTypes() {
			ws = append(ws, k.typeWalks[ty](ctx))
		}
		return ws
	}, func(_ SpecContext, ws []typeWalk) {
		walked := 0
		for i, w := range ws {
			ty := pagelist.PageTypes()[i]
			if w.problem != "" {
				verdicts.NotChecked("%s", w.problem)
			}
			expectList(1, w.pages[0])
			total := w.count
			if n, ok := intOf(w.pages[0], "meta.total"); ok {
				total = n // else the every-type listing's count (PAGE-LIST-SHAPE judges meta)
			}
			items, last := w.items()
			pages := pageCount(total, w.size)
			Expect(items.RepeatedKeys()).To(BeEmpty(), match.Evidence(last,
				"walking pages 1 to %d of only %s=true at numberOfItems=%d yields each page once (these keys came more than once)", pages, ty, w.size))
			Expect(items.Len()).To(Equal(total), match.Evidence(last,
				"walking pages 1 to %d of only %s=true at numberOfItems=%d yields all %d matching pages (meta.total of %s)",
				pages, ty, w.size, total, w.pages[0].RequestLine()))
			if pages >= 2 {
				walked++
			}
		}
		if walked == 0 {
			verdicts.NotChecked("%s", k.lacking("no page type with more than "+strconv.Itoa(smallPageSize)+
				" pages, so no type's listing spans several list pages"))
		}
	}, framework.Case("each type alone, every page"))
}

// typeWalk is one type's listing walked whole, a page at a time: what
// PAGE-LIST-TYPE-FILTERS and PAGE-LIST-WALK judge.
type typeWalk struct {
	size    int
	pages   []*client.Exchange
	count   int    // the type's pages in the listing of every type
	problem string // that listing could not be had
}

// walkType walks the listing of type ty alone: the pages the listing of
// every type foresees side by side, then those its first page's
// meta.total or a last page that says more follow adds.
func (k kit) walkType(ctx context.Context, ty string) typeWalk {
	inv := k.every(ctx)
	if inv.problem != "" {
		return typeWalk{problem: inv.problem}
	}
	n := inv.items.CountOfType(ty)
	w := typeWalk{size: walkSize(n), count: n}
	q := pagelist.QueryWith(pagelist.PageTypeQuery(ty), "numberOfItems", strconv.Itoa(w.size))
	read := func(from, to int) {
		var pns []int
		for pn := from; pn <= to; pn++ {
			pns = append(pns, pn)
		}
		w.pages = append(w.pages, k.lists(ctx, pageQueries(q, pns...)...)...)
	}
	read(1, max(1, pageCount(n, w.size)))
	for len(w.pages) < maxWalkPages {
		last, need := w.pages[len(w.pages)-1], len(w.pages)
		if !isList(last) {
			break
		}
		if total, ok := intOf(w.pages[0], "meta.total"); ok && isList(w.pages[0]) {
			need = max(need, pageCount(total, w.size))
		}
		if need == len(w.pages) {
			if pagelist.PageItems(last).Len() < w.size || !last.Get("meta.hasMore").Bool() {
				break
			}
			need++
		}
		read(len(w.pages)+1, min(need, maxWalkPages))
	}
	return w
}

// items judges each page of the walk a list answer and returns their
// pages in order, and the last page read.
func (w typeWalk) items() (pagelist.PageList, *client.Exchange) {
	if w.problem != "" {
		verdicts.NotChecked("%s", w.problem)
	}
	lists := make([]pagelist.PageList, 0, len(w.pages))
	for _, ex := range w.pages {
		expectList(2, ex)
		lists = append(lists, pagelist.PageItems(ex))
	}
	return pagelist.JoinPages(lists...), w.pages[len(w.pages)-1]
}

// checkMeta checks one page of a walk (PAGE-LIST-META-CONSISTENT): page
// pn at size a page of total pages, as internal/rules/paging judges it,
// and the same meta.total on every page.
func checkMeta(ex *client.Exchange, pn, size, total int) {
	expectChecks(ex, paging.Meta(ex, pagelist.PageItems(ex).Len(), paging.Request{Page: pn},
		paging.Slice{Total: total, Size: size, Page: pn})...)
	v := paging.Total(ex, total)
	Expect(v.Problem).To(BeEmpty(), match.Evidence(ex, "meta.total is the same on every page (%d)", total))
}

// pageCount is the number of non-empty pages of size s.
func pageCount(total, s int) int { return paging.Slice{Total: total, Size: s}.Pages() }

// visit lists the page numbers a walk visits: all of them, or on a
// long listing the first ones and the last two.
func visit(pages int) []int {
	var out []int
	for pn := 1; pn <= pages; pn++ {
		if pages <= maxWalk || pn <= maxWalk-2 || pn >= pages-1 {
			out = append(out, pn)
		}
	}
	return out
}

// count says how many of noun: "1 page", "3 pages", "0 published pages".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
