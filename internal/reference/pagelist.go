package reference

// The page reads: the page list and one page (spec 4.1, 4.2).

import (
	"net/http"
	"strings"
)

// PastEndTotalZero: a page past the last one gets an early answer that
// counted nothing: meta.total 0. Only the other answers with the same
// filters show the total is wrong (PAGE-LIST-TOTAL-AGREES): on its own,
// page 13 of nothing is past the end as well.
var PastEndTotalZero = declare(breaks("past-end-total-zero", "PAGE-LIST-TOTAL-AGREES",
	"A pageNumber past the last page answers meta.total 0, as if no page matched (an early answer for an empty slice)."))

// UntaggedHasMoreFromSlice: with untagged=true, meta.hasMore is worked
// out from the pages kept (a full slice means more may follow), so a
// page whose slice lost tagged pages says no more follow.
var UntaggedHasMoreFromSlice = declare(breaks("untagged-hasmore-from-slice", "PAGE-LIST-META-CONSISTENT",
	"With untagged=true, meta.hasMore is true exactly when data holds a full page: false on a page that lost tagged pages though later pages follow."))

// ListKeepsDeletedPage: the page list is served from an index that a
// delete does not update: a deleted page is still listed, as it last was,
// though reading it answers 404.
var ListKeepsDeletedPage = declare(breaks("list-keeps-deleted-page", "PAGE-DELETE-GONE PAGE-LIST-TYPE-FILTERS",
	"GET /api/pages still lists a deleted page, as it last was (its entry in the list's index outlives it); reading it answers 404."))

// ListTypesAsFirstListed: the page list filters each page by the type it
// had when a listing first saw it: an edit of its type does not move it
// from one listing to another (an index of types filled lazily, never
// brought up to date).
var ListTypesAsFirstListed = declare(breaks("list-types-as-first-listed", "PAGE-LIST-TYPE-FILTERS",
	"GET /api/pages filters each page by the type it had when a listing first saw it: after an edit of its type it "+
		"stays in the listings of its old type, and out of those of its new one."))

// listedType is the type a page is listed under: its own, or under
// ListTypesAsFirstListed the one the lazily filled index first noted.
// The caller holds the lock.
func (s *view) listedType(p *page) string {
	if !s.mutated(ListTypesAsFirstListed) {
		return p.typ
	}
	first := memo(s.Server, ListTypesAsFirstListed, func() map[string]string { return map[string]string{} })
	if _, ok := first[p.uuid]; !ok {
		first[p.uuid] = p.typ
	}
	return first[p.uuid]
}

// keepListed notes a page a delete removed, which ListKeepsDeletedPage
// still lists. The caller holds the lock.
func (s *view) keepListed(p *page) {
	if s.mutated(ListKeepsDeletedPage) {
		deleted := memo(s.Server, ListKeepsDeletedPage, func() map[string]*page { return map[string]*page{} })
		deleted[p.key] = p.clone()
	}
}

// listed is the pages of the page list whose type keep keeps, newest
// first: the site's pages, and under ListKeepsDeletedPage those deleted
// whose key no page has now. The caller holds the lock.
func (s *view) listed(keep func(typ string) bool) []*page {
	out := s.sortedPages(func(p *page) bool { return keep(s.listedType(p)) })
	if !s.mutated(ListKeepsDeletedPage) {
		return out
	}
	for key, p := range memo(s.Server, ListKeepsDeletedPage, func() map[string]*page { return map[string]*page{} }) {
		if s.pages[key] == nil && keep(p.typ) {
			out = append(out, p)
		}
	}
	sortNewestFirst(out)
	return out
}

// listPagesH answers GET /api/pages (spec 4.1).
func (s *view) listPagesH(r *http.Request, _ route, in *input, _ string) response {
	if r := s.exploreList(in); r != nil {
		return *r
	}
	types := map[string]bool{
		"published": in.flag("published", true),
		"static":    in.flag("static", false),
		"sticky":    in.flag("sticky", false),
		"draft":     in.flag("draft", false),
		"scheduled": in.flag("scheduled", false),
	}
	matching := s.listed(func(typ string) bool { return types[typ] })
	// meta.total counts the type-filtered pages; untagged is not reflected.
	total := len(matching)
	untagged := in.flag("untagged", false)
	if untagged && s.mutated(UntaggedBeforePagination) {
		matching = untaggedOnly(matching)
	}
	if untagged && s.mutated(MetaTotalCountsUntagged) {
		total = len(untaggedOnly(matching))
	}
	lp := s.listPageOf(in)
	slice, hasMore := s.cut(&lp, matching)
	if untagged && !s.mutated(UntaggedBeforePagination) {
		slice = untaggedOnly(slice)
	}
	if untagged && s.mutated(UntaggedHasMoreFromSlice) {
		hasMore = len(slice) == lp.size
	}
	if s.mutated(PastEndTotalZero) && !lp.all && lp.number > 1 && (lp.number-1)*lp.size >= len(matching) {
		total = 0
	}
	if slice == nil {
		slice = []*page{}
	}
	return success(http.StatusOK, "List of pages",
		kv{"numberOfItems", lp.reported},
		kv{"meta", obj{
			{"total", total},
			{"pageNumber", lp.number},
			{"pageSize", lp.reported},
			{"hasMore", hasMore},
		}},
		kv{"data", s.pageObjs(slice, baseURL(r))})
}

// listPage is the slice of the page list that a request asks for.
type listPage struct {
	all      bool // numberOfItems -1: every page
	size     int  // pages in a full slice
	reported int  // numberOfItems and meta.pageSize
	number   int  // the page number served
	empty    bool // serve nothing (PageNumberZeroEmpty)
}

// listPageOf reads numberOfItems and pageNumber. Page size: -1 means all;
// any other non-positive or non-numeric value falls back to the default.
// Page number: below 1 or non-numeric means 1.
func (s *view) listPageOf(in *input) listPage {
	n, nOK := in.integer("numberOfItems")
	pn, pOK := in.integer("pageNumber")
	lp := listPage{size: defaultPageSize, number: pn}
	if s.mutated(BenignDefaultPageSize10) {
		lp.size = 10
	}
	switch {
	case nOK && n == -1:
		lp.all = true
	case nOK && n > 0:
		lp.size = n
	case nOK && s.mutated(ZeroSizeEmpty):
		lp.size = 0
	case !nOK && s.mutated(DefaultSizeMisreported):
		lp.size = 10
	}
	lp.reported = lp.size
	if !nOK && s.mutated(DefaultSizeMisreported) {
		lp.reported = defaultPageSize
	}
	if !pOK || pn < 1 {
		lp.empty = pOK && s.mutated(PageNumberZeroEmpty)
		lp.number = 1
	}
	return lp
}

// HasMoreCountsEveryType: meta.hasMore looks at the site's pages of every
// type, not at those the type filters match: the same in a listing of
// every type (the walks of PAGE-LIST-META-CONSISTENT), wrong on the last
// pages of a listing of some types only.
var HasMoreCountsEveryType = declare(breaks("hasmore-counts-every-type", "PAGE-LIST-META-CONSISTENT",
	"meta.hasMore says whether pages of any type follow, not pages of the types asked for: true on the last page of the listing of some types only."))

// cut returns the pages of lp out of matching and whether more follow;
// for every page, it sets the number and size lp reports.
func (s *view) cut(lp *listPage, matching []*page) ([]*page, bool) {
	if lp.all {
		slice := matching
		if s.mutated(AllCapped) && len(slice) > defaultPageSize {
			slice = slice[:defaultPageSize]
		}
		lp.number, lp.reported = 1, -1
		if s.mutated(BenignAllReportsTotal) {
			lp.reported = len(slice)
		}
		return slice, false
	}
	if lp.size <= 0 || lp.empty {
		return nil, false
	}
	avail, size, pn := len(matching), lp.size, lp.number
	lastPage := (avail + size - 1) / size // number of non-empty pages
	var slice []*page
	if pn <= lastPage {
		start := (pn - 1) * size
		end := min(start+size, avail)
		if s.mutated(PagesOverlap) && start > 0 {
			start--
			end--
		}
		if s.mutated(PageSizeOffByOne) && end-start == size {
			end--
		}
		slice = matching[start:end]
	}
	if s.mutated(HasMoreCountsEveryType) {
		return slice, pn*size < len(s.pages)
	}
	return slice, pn < lastPage || (s.mutated(HasMoreWrongOnLastPage) && pn == lastPage)
}

// validKey reports whether a page key is acceptable in a path.
func validKey(rt route) bool {
	return !hasTraversal(rt.key) && !hasTraversal(rt.rawKey)
}

// getPageH answers GET /api/pages/{key} (spec 4.2).
func (s *view) getPageH(r *http.Request, rt route, _ *input, _ string) response {
	if !validKey(rt) {
		return failure(http.StatusBadRequest, "Invalid page key.")
	}
	key := rt.key
	if s.mutated(HierarchicalReadsParent) {
		key = strings.SplitN(key, "/", 2)[0]
	}
	p := s.pages[key]
	if p == nil {
		return failure(http.StatusNotFound, "Page not found.")
	}
	return success(http.StatusOK, "Page filtered by key: "+p.key, kv{"data", s.pageObj(p, baseURL(r))})
}

func untaggedOnly(ps []*page) []*page {
	var out []*page
	for _, p := range ps {
		if len(p.tags) == 0 {
			out = append(out, p)
		}
	}
	return out
}
