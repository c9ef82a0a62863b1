package reads

// Walking the page list page by page (4.1 meta, 8) and untagged=true.

import (
	"context"
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

// untaggedWalk is what PAGE-LIST-UNTAGGED-AFTER-PAGINATION and
// PAGE-LIST-TOTAL-IGNORES-UNTAGGED judge: the listing of every type, and
// list pages without and with untagged=true, in pairs.
type untaggedWalk struct {
	inv   listing
	pairs []*client.Exchange
}

func (k kit) untaggedSpecs() {
	// Counted from the number of pages, not meta (PAGE-LIST-SHAPE's concern).
	sized := func(pagelist.PageList) (int, url.Values) {
		return smallPageSize, pagelist.QueryWith(pagelist.EveryTypeQuery(), "numberOfItems", strconv.Itoa(smallPageSize))
	}
	framework.Prepare(k.g, "PAGE-LIST-UNTAGGED-AFTER-PAGINATION", func(ctx context.Context) (w untaggedWalk) {
		if w.inv = k.every(ctx); w.inv.problem != "" {
			return w
		}
		size, q := sized(w.inv.items)
		// Every list page visited, without and with untagged=true, side by
		// side.
		var qs []url.Values
		for pn := 1; pn <= min(pageCount(w.inv.items.Len(), size), maxWalk); pn++ {
			plain := pagelist.QueryWith(q, "pageNumber", strconv.Itoa(pn))
			qs = append(qs, plain, pagelist.QueryWith(plain, "untagged", "true"))
		}
		if len(qs) == 0 {
			qs = append(qs, pagelist.QueryWith(q, "pageNumber", "1"))
		}
		w.pairs = k.lists(ctx, qs...)
		return w
	}, func(_ SpecContext, w untaggedWalk) {
		inv, _ := k.pages(w.inv)
		size, _ := sized(inv)
		// Each pair judged in turn as a one-by-one walk would.
		expectList(1, w.pairs[0])
		var untaggedPerPage []int
		for pn := 1; pn <= min(pageCount(inv.Len(), size), maxWalk); pn++ {
			plain, ex := w.pairs[2*pn-2], w.pairs[2*pn-1]
			if pn > 1 {
				expectList(1, plain)
			}
			want := untaggedKeys(pagelist.PageItems(plain))
			expectList(1, ex)
			Expect(listfilter.UntaggedSlice(keysOf(ex), want).Problems()).To(BeEmpty(), match.Evidence(ex, "untagged=true on page %d "+
				"keeps exactly the untagged pages of the same page without it (%s; the order within the page is not specified)", pn, plain.RequestLine()))
			untaggedPerPage = append(untaggedPerPage, len(want))
		}
		if !filterOrderShows(untaggedPerPage, size) {
			verdicts.NotChecked("%s", k.lacking("no tagged page on a list page before one holding an untagged page, so "+
				"filtering before or after pagination gives the same pages"))
		}
	}, framework.Case("every page of a walk, every type"))

	framework.Prepare(k.g, "PAGE-LIST-TOTAL-IGNORES-UNTAGGED", func(ctx context.Context) (w untaggedWalk) {
		if w.inv = k.every(ctx); w.inv.problem != "" || !w.inv.items.Any(isTagged) {
			return w
		}
		_, q := sized(w.inv.items)
		var qs []url.Values
		for _, plain := range []url.Values{pagelist.EveryTypeQuery(), pagelist.QueryWith(q, "pageNumber", "2")} {
			qs = append(qs, plain, pagelist.QueryWith(plain, "untagged", "true"))
		}
		w.pairs = k.lists(ctx, qs...)
		return w
	}, func(_ SpecContext, w untaggedWalk) {
		inv, _ := k.pages(w.inv)
		if !inv.Any(isTagged) {
			verdicts.NotChecked("%s", k.lacking("no tagged page, so untagged=true could not change the count"))
		}
		for i := 0; i < len(w.pairs); i += 2 {
			plain, ex := w.pairs[i], w.pairs[i+1]
			expectList(1, plain)
			expectList(1, ex)
			Expect(integer(ex, "meta.total")).To(Equal(integer(plain, "meta.total")), match.Evidence(ex,
				"meta.total with untagged=true is the one without it (%s): it counts the type filters only", plain.RequestLine()))
		}
	}, framework.Case("every type"))
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

// isTagged reports whether a page object has tags (listfilter.Tagged).
// The spec's form is a non-empty object; a non-empty string or array
// (earlier releases) counts too, so that a shape problem
// (PAGE-OBJECT-SHAPE) does not also read as "untagged".
func isTagged(item gjson.Result) bool { return listfilter.Tagged(item) }

// untaggedKeys keeps the keys of the pages without tags, in order.
func untaggedKeys(items pagelist.PageList) []string {
	var keys []string
	for _, it := range items.All() {
		if !isTagged(it) {
			keys = append(keys, it.Get("key").String())
		}
	}
	if keys == nil {
		keys = []string{}
	}
	return keys
}

// filterOrderShows reports whether filtering the untagged pages before
// pagination would have given other pages than filtering after it, on a
// walk whose list pages (of size) held untaggedPerPage untagged pages each.
// Filtering first fills every page but the last with size untagged pages,
// in the list's order; filtering after pagination keeps each page's own. As
// both split the same sequence, they give the same pages exactly when the
// counts agree, whatever the order within a page.
func filterOrderShows(untaggedPerPage []int, size int) bool {
	left := 0
	for _, n := range untaggedPerPage {
		left += n
	}
	for _, n := range untaggedPerPage {
		if n != min(size, left) {
			return true
		}
		left -= n
	}
	return false
}

// tagBeforeUntagged reports whether some tagged page comes before an
// untagged one: only then does filtering before pagination give other
// slices than filtering after it.
func tagBeforeUntagged(items pagelist.PageList) bool {
	seenTagged := false
	for _, it := range items.Scan {
		if isTagged(it) {
			seenTagged = true
		} else if seenTagged {
			return true
		}
	}
	return false
}
