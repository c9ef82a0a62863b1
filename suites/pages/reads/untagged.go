package reads

// untagged=true (4.1): it filters the pages of the same list page, after
// pagination, and leaves meta.total as it is.

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
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/listfilter"
)

// untaggedWalk is what PAGE-LIST-UNTAGGED-AFTER-PAGINATION and
// PAGE-LIST-TOTAL-IGNORES-UNTAGGED judge: the listing of every type, and
// list pages without and with untagged=true, in pairs (pns: the page
// number of each pair, for the first rule).
type untaggedWalk struct {
	inv   listing
	pns   []int
	pairs []*client.Exchange
}

func (k kit) untaggedSpecs() {
	// Counted from the number of pages, not meta (PAGE-LIST-SHAPE's concern).
	q := pagelist.QueryWith(pagelist.EveryTypeQuery(), "numberOfItems", strconv.Itoa(smallPageSize))
	framework.Prepare(k.g, "PAGE-LIST-UNTAGGED-AFTER-PAGINATION", func(ctx context.Context) (w untaggedWalk) {
		if w.inv = k.every(ctx); w.inv.problem != "" {
			return w
		}
		// Every list page visited, without and with untagged=true, side by
		// side.
		w.pns = untaggedVisit(w.inv.items)
		var qs []url.Values
		for _, pn := range w.pns {
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
		layout := untaggedLayoutOf(inv, smallPageSize)
		// Each pair judged in turn as a one-by-one walk would.
		expectList(1, w.pairs[0])
		var untaggedPerPage []int // of the pages walked from page 1 on
		shown := false
		for i, pn := range w.pns {
			plain, ex := w.pairs[2*i], w.pairs[2*i+1]
			if i > 0 {
				expectList(1, plain)
			}
			want := untaggedKeys(pagelist.PageItems(plain))
			expectList(1, ex)
			Expect(listfilter.UntaggedSlice(keysOf(ex), want).Problems()).To(BeEmpty(), match.Evidence(ex, "untagged=true on page %d "+
				"keeps exactly the untagged pages of the same page without it (%s; the order within the page is not specified)", pn, plain.RequestLine()))
			if pn == i+1 {
				untaggedPerPage = append(untaggedPerPage, len(want))
			}
			// A page tells the two apart when the listing of every type
			// says so (it knows the untagged pages past the walk), and the
			// page holds the pages that listing shows there.
			shown = shown || layout.decides(pn) && layout.holds(plain, inv, pn)
		}
		if !shown && !filterOrderShows(untaggedPerPage, smallPageSize) {
			verdicts.NotChecked("%s", k.lacking("no tagged page on a list page before one holding an untagged page, so "+
				"filtering before or after pagination gives the same pages"))
		}
	}, framework.Case("every page of a walk, every type"))

	framework.Prepare(k.g, "PAGE-LIST-TOTAL-IGNORES-UNTAGGED", func(ctx context.Context) (w untaggedWalk) {
		if w.inv = k.every(ctx); w.inv.problem != "" || !w.inv.items.Any(isTagged) {
			return w
		}
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

// untaggedVisit is the list pages (at smallPageSize) that
// PAGE-LIST-UNTAGGED-AFTER-PAGINATION visits: the first maxWalk and, when
// the listing of every type (items) shows that none of them tells
// filtering before pagination from filtering after it (a site whose
// first pages are all untagged, its first tagged page far down), the
// first page that does.
func untaggedVisit(items pagelist.PageList) []int {
	l := untaggedLayoutOf(items, smallPageSize)
	var pns []int
	for pn := 1; pn <= min(len(l.perPage), maxWalk); pn++ {
		pns = append(pns, pn)
	}
	if filterOrderShows(l.perPage[:len(pns)], smallPageSize) || slices.ContainsFunc(pns, l.decides) {
		return pns
	}
	for pn := len(pns) + 1; pn <= len(l.perPage); pn++ {
		if l.decides(pn) {
			return append(pns, pn)
		}
	}
	return pns
}

// untaggedLayout is where the untagged pages of a listing stand, list page
// by list page at size.
type untaggedLayout struct {
	size    int
	perPage []int // the untagged pages of each list page
	ahead   []int // ahead[i]: those of the list pages before page i+1
	total   int
}

func untaggedLayoutOf(items pagelist.PageList, size int) untaggedLayout {
	l := untaggedLayout{size: size, perPage: make([]int, pageCount(items.Len(), size))}
	items.Scan(func(i int, p gjson.Result) bool {
		if !isTagged(p) && i/size < len(l.perPage) {
			l.perPage[i/size]++
		}
		return true
	})
	l.ahead = make([]int, len(l.perPage))
	for i, n := range l.perPage {
		l.ahead[i] = l.total
		l.total += n
	}
	return l
}

// decides reports whether list page pn tells the two readings apart: the
// untagged pages it holds (filtered after pagination) are not those page
// pn of the untagged pages alone holds (filtered before).
func (l untaggedLayout) decides(pn int) bool {
	if pn < 1 || pn > len(l.perPage) {
		return false
	}
	after, n := l.ahead[pn-1], l.perPage[pn-1]
	before, end := min((pn-1)*l.size, l.total), min(pn*l.size, l.total)
	if n == 0 && before == end {
		return false // both empty
	}
	return after != before || after+n != end
}

// holds reports whether the list answer ex holds the pages list page pn
// of items holds (in any order): then the layout of items is that of the
// pages ex is a page of.
func (l untaggedLayout) holds(ex *client.Exchange, items pagelist.PageList, pn int) bool {
	got := slices.Sorted(slices.Values(keysOf(ex)))
	var want []string
	for i := (pn - 1) * l.size; i < min(pn*l.size, items.Len()); i++ {
		want = append(want, pagelist.PageKey(items.At(i)))
	}
	slices.Sort(want)
	return slices.Equal(got, want)
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
