package reads

// Walking the page list page by page (4.1 meta, 8) and untagged=true.

import (
	"context"
	"net/url"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// maxWalk bounds how many pages of one listing a spec visits (the
// default page size on a large site could make many).
const maxWalk = 12

// metaWalk is what PAGE-LIST-META-CONSISTENT judges: at a small size, the
// first page at the default size that sized it; then the first page of
// the walk and the later pages it visits.
type metaWalk struct {
	probe, first *client.Exchange
	rest         []*client.Exchange
}

func (k kit) walkSpecs() {
	t := k.t
	for _, small := range []bool{true, false} {
		name := "default page size, every type"
		if small {
			name = "small page size, every type"
		}
		framework.Prepare(k.g, "PAGE-LIST-META-CONSISTENT", func(ctx context.Context) (w metaWalk) {
			q := framework.EveryTypeQuery()
			if small {
				w.probe = t.Read(ctx, framework.PagesPath, q)
				total, ok := intOf(w.probe, "meta.total")
				if !isList(w.probe) || !ok {
					return w
				}
				q = framework.QueryWith(q, "numberOfItems", strconv.Itoa(smallSize(total)))
			}
			w.first = t.Read(ctx, framework.PagesPath, framework.QueryWith(q, "pageNumber", "1"))
			total, okTotal := intOf(w.first, "meta.total")
			size, okSize := intOf(w.first, "meta.pageSize")
			if small {
				size, _ = strconv.Atoi(q.Get("numberOfItems"))
			}
			if !isList(w.first) || !okTotal || !okSize || size <= 0 {
				return w
			}
			// The later pages depend only on the first one's total: they
			// go side by side.
			w.rest = k.lists(ctx, pageQueries(q, visit(max(pageCount(total, size), 1))[1:]...)...)
			return w
		}, func(_ SpecContext, w metaWalk) {
			size := 0
			if small {
				expectList(1, w.probe)
				size = smallSize(integer(w.probe, "meta.total"))
			}
			expectList(1, w.first)
			total := integer(w.first, "meta.total")
			if pageSize := integer(w.first, "meta.pageSize"); !small {
				size = pageSize
			}
			Expect(size).To(BeNumerically(">", 0), framework.Evidence(w.first, "the page size is positive"))
			pages := pageCount(total, size)
			pns := visit(max(pages, 1))
			// Each page judged as a one-by-one walk would.
			checkMeta(w.first, 1, size, total, pages)
			for i, ex := range w.rest {
				expectList(1, ex)
				checkMeta(ex, pns[i+1], size, total, pages)
			}
			if pages < 2 {
				framework.NotChecked("%s", k.lacking(count(total, "page")+" of every type, one list page at size "+
					strconv.Itoa(size)+": hasMore and partly filled pages cannot be seen"))
			}
		}, framework.Case(name))
	}

	framework.Prepare(k.g, "PAGE-LIST-WALK", func(ctx context.Context) (w walk) {
		w.count = k.countEvery(ctx)
		total, ok := w.count.value()
		if !ok {
			return w
		}
		// Every page at once: they depend only on the total.
		size := smallSize(total)
		q := framework.QueryWith(framework.EveryTypeQuery(), "numberOfItems", strconv.Itoa(size))
		pns := []int{1}
		for pn := 2; pn <= pageCount(total, size); pn++ {
			pns = append(pns, pn)
		}
		exs := k.lists(ctx, pageQueries(q, pns...)...)
		w.first, w.rest = exs[0], exs[1:]
		return w
	}, func(_ SpecContext, w walk) {
		total := k.total(w.count)
		size := smallSize(total)
		expectList(1, w.first)
		pages := pageCount(total, size)
		if pages < 2 {
			framework.NotChecked("%s", k.lacking(count(total, "page")+", too few for several list pages"))
		}
		keys := framework.PageKeys(framework.PageItems(w.first))
		last := w.first
		for _, ex := range w.rest {
			expectList(1, ex)
			keys = append(keys, framework.PageKeys(framework.PageItems(ex))...)
			last = ex
		}
		Expect(repeatedKeys(keys)).To(BeEmpty(), framework.Evidence(last,
			"walking pages 1 to %d of numberOfItems=%d yields each page once (these keys came more than once)", pages, size))
		Expect(keys).To(HaveLen(total), framework.Evidence(last,
			"walking pages 1 to %d of numberOfItems=%d yields all %d matching pages (meta.total of %s)", pages, size, total, w.first.RequestLine()))
	}, framework.Case("every type"))
}

// walk is what PAGE-LIST-WALK judges: what the number of pages rests on,
// and the pages of a walk at a small size.
type walk struct {
	count counted
	first *client.Exchange
	rest  []*client.Exchange
}

// checkMeta checks one page of a walk (PAGE-LIST-META-CONSISTENT).
func checkMeta(ex *client.Exchange, pn, size, total, pages int) {
	Expect(integer(ex, "numberOfItems")).To(Equal(size), framework.Evidence(ex, "numberOfItems is the page size used (%d)", size))
	Expect(integer(ex, "meta.pageSize")).To(Equal(size), framework.Evidence(ex, "meta.pageSize is the page size used (%d)", size))
	Expect(integer(ex, "meta.pageNumber")).To(Equal(pn), framework.Evidence(ex, "meta.pageNumber is the page served (%d)", pn))
	Expect(integer(ex, "meta.total")).To(Equal(total), framework.Evidence(ex, "meta.total is the same on every page (%d)", total))
	Expect(boolean(ex, "meta.hasMore")).To(Equal(pn < pages),
		framework.Evidence(ex, "meta.hasMore is true exactly when later pages hold pages (page %d of %d)", pn, pages))
	Expect(framework.PageItems(ex)).To(HaveLen(expectedLen(total, size, pn)),
		framework.Evidence(ex, "page %d of size %d holds %d of the %d pages", pn, size, expectedLen(total, size, pn), total))
}

// untaggedWalk is what PAGE-LIST-UNTAGGED-AFTER-PAGINATION and
// PAGE-LIST-TOTAL-IGNORES-UNTAGGED judge: the listing of every type, and
// list pages without and with untagged=true, in pairs.
type untaggedWalk struct {
	inv   listing
	pairs []*client.Exchange
}

func (k kit) untaggedSpecs() {
	// Sized from the number of pages, not meta (PAGE-LIST-SHAPE's concern).
	sized := func(inv []gjson.Result) (int, url.Values) {
		size := smallSize(len(inv))
		return size, framework.QueryWith(framework.EveryTypeQuery(), "numberOfItems", strconv.Itoa(size))
	}
	framework.Prepare(k.g, "PAGE-LIST-UNTAGGED-AFTER-PAGINATION", func(ctx context.Context) (w untaggedWalk) {
		if w.inv = k.every(ctx); w.inv.problem != "" {
			return w
		}
		size, q := sized(w.inv.items)
		// Every list page visited, without and with untagged=true, side by
		// side.
		var qs []url.Values
		for pn := 1; pn <= min(pageCount(len(w.inv.items), size), maxWalk); pn++ {
			plain := framework.QueryWith(q, "pageNumber", strconv.Itoa(pn))
			qs = append(qs, plain, framework.QueryWith(plain, "untagged", "true"))
		}
		if len(qs) == 0 {
			qs = append(qs, framework.QueryWith(q, "pageNumber", "1"))
		}
		w.pairs = k.lists(ctx, qs...)
		return w
	}, func(_ SpecContext, w untaggedWalk) {
		inv, _ := k.pages(w.inv)
		size, _ := sized(inv)
		// Each pair judged in turn as a one-by-one walk would.
		expectList(1, w.pairs[0])
		var untaggedPerPage []int
		for pn := 1; pn <= min(pageCount(len(inv), size), maxWalk); pn++ {
			plain, ex := w.pairs[2*pn-2], w.pairs[2*pn-1]
			if pn > 1 {
				expectList(1, plain)
			}
			want := untaggedKeys(framework.PageItems(plain))
			expectList(1, ex)
			Expect(keysOf(ex)).To(ConsistOf(want), framework.Evidence(ex, "untagged=true on page %d keeps exactly the untagged "+
				"pages of the same page without it (%s; the order within the page is not specified)", pn, plain.RequestLine()))
			untaggedPerPage = append(untaggedPerPage, len(want))
		}
		if !filterOrderShows(untaggedPerPage, size) {
			framework.NotChecked("%s", k.lacking("no tagged page on a list page before one holding an untagged page, so "+
				"filtering before or after pagination gives the same pages"))
		}
	}, framework.Case("every page of a walk, every type"))

	framework.Prepare(k.g, "PAGE-LIST-TOTAL-IGNORES-UNTAGGED", func(ctx context.Context) (w untaggedWalk) {
		if w.inv = k.every(ctx); w.inv.problem != "" || !slices.ContainsFunc(w.inv.items, isTagged) {
			return w
		}
		_, q := sized(w.inv.items)
		var qs []url.Values
		for _, plain := range []url.Values{framework.EveryTypeQuery(), framework.QueryWith(q, "pageNumber", "2")} {
			qs = append(qs, plain, framework.QueryWith(plain, "untagged", "true"))
		}
		w.pairs = k.lists(ctx, qs...)
		return w
	}, func(_ SpecContext, w untaggedWalk) {
		inv, _ := k.pages(w.inv)
		if !slices.ContainsFunc(inv, isTagged) {
			framework.NotChecked("%s", k.lacking("no tagged page, so untagged=true could not change the count"))
		}
		for i := 0; i < len(w.pairs); i += 2 {
			plain, ex := w.pairs[i], w.pairs[i+1]
			expectList(1, plain)
			expectList(1, ex)
			Expect(integer(ex, "meta.total")).To(Equal(integer(plain, "meta.total")), framework.Evidence(ex,
				"meta.total with untagged=true is the one without it (%s): it counts the type filters only", plain.RequestLine()))
		}
	}, framework.Case("every type"))
}

// smallSize picks a page size that splits total pages into several
// pages (at most about nine requests for a walk), with a partly filled last
// page when it can.
func smallSize(total int) int {
	s := max(2, (total+7)/8)
	if total > s && total%s == 0 {
		s++
	}
	return s
}

// pageCount is the number of non-empty pages of size s.
func pageCount(total, s int) int {
	if s <= 0 || total <= 0 {
		return 0
	}
	return (total + s - 1) / s
}

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

// expectedLen is how many pages page pn of size s holds out of total.
func expectedLen(total, s, pn int) int {
	return max(0, min(s, total-(pn-1)*s))
}

// count says how many of noun: "1 page", "3 pages", "0 published pages".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// isTagged reports whether a page object has tags. The spec's form is a
// non-empty object; a non-empty string or array (earlier releases) counts
// too, so that a shape problem (PAGE-OBJECT-SHAPE) does not also read as
// "untagged".
func isTagged(item gjson.Result) bool {
	tg := item.Get("tags")
	switch {
	case tg.IsObject():
		return len(tg.Map()) > 0
	case tg.IsArray():
		return len(tg.Array()) > 0
	case tg.Type == gjson.String:
		return tg.Str != ""
	}
	return false
}

// untaggedKeys keeps the keys of the pages without tags, in order.
func untaggedKeys(items []gjson.Result) []string {
	var keys []string
	for _, it := range items {
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
func tagBeforeUntagged(items []gjson.Result) bool {
	seenTagged := false
	for _, it := range items {
		if isTagged(it) {
			seenTagged = true
		} else if seenTagged {
			return true
		}
	}
	return false
}
