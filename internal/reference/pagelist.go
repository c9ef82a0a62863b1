package reference

// The page reads: the page list and one page (spec 4.1, 4.2).

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

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
	if s.mutated(DefaultIncludesStatic) {
		if !in.has("static") {
			types["static"] = true
		}
		if !in.has("sticky") {
			types["sticky"] = true
		}
	}
	if s.mutated(StickyFilterIgnored) {
		types["sticky"] = false
	}
	matching := s.sortedPages(func(p *page) bool { return types[p.typ] })
	// meta.total counts the type-filtered pages; untagged is not reflected.
	total := len(matching)
	untagged := in.flag("untagged", false)
	if untagged && s.mutated(UntaggedBeforePagination) {
		matching = untaggedOnly(matching)
	}
	if untagged && s.mutated(MetaTotalCountsUntagged) {
		total = len(untaggedOnly(matching))
	}

	n, nOK := in.integer("numberOfItems")
	pn, pOK := in.integer("pageNumber")
	if (in.has("numberOfItems") && !nOK) || (in.has("pageNumber") && !pOK) {
		if s.mutated(BadPaging500) {
			return failure(http.StatusInternalServerError, "Internal server error.")
		}
		if s.mutated(BenignBadPaging400) {
			return failure(http.StatusBadRequest, "numberOfItems and pageNumber must be integers.")
		}
		if s.mutated(BenignBadPaging422) {
			return failure(http.StatusUnprocessableEntity, "numberOfItems and pageNumber must be integers.")
		}
	}

	// Page size: -1 means all; any other non-positive or non-numeric value
	// falls back to the default.
	size := defaultPageSize
	if s.mutated(BenignDefaultPageSize10) {
		size = 10
	}
	all := false
	switch {
	case nOK && n == -1:
		all = true
	case nOK && n > 0:
		size = n
	case nOK && s.mutated(ZeroSizeEmpty):
		size = 0
	case !nOK && s.mutated(DefaultSizeMisreported):
		size = 10
	}
	reported := size
	if !nOK && s.mutated(DefaultSizeMisreported) {
		reported = defaultPageSize
	}
	// Page number: below 1 or non-numeric means 1.
	emptyPage := false
	if !pOK || pn < 1 {
		emptyPage = pOK && s.mutated(PageNumberZeroEmpty)
		pn = 1
	}

	avail := len(matching)
	var slice []*page
	hasMore := false
	if all {
		slice = matching
		if s.mutated(AllCapped) && len(slice) > defaultPageSize {
			slice = slice[:defaultPageSize]
		}
		pn, reported = 1, -1
		if s.mutated(BenignAllReportsTotal) {
			reported = len(slice)
		}
	} else if size > 0 && !emptyPage {
		lastPage := (avail + size - 1) / size // number of non-empty pages
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
		hasMore = pn < lastPage
		if s.mutated(HasMoreWrongOnLastPage) && pn == lastPage {
			hasMore = true
		}
	}
	if s.mutated(BenignReversedListOrder) {
		// Oldest first within the slice: no order is stated (spec 4.1).
		slice = slices.Clone(slice)
		slices.Reverse(slice)
	}
	if untagged && !s.mutated(UntaggedBeforePagination) {
		slice = untaggedOnly(slice)
	}
	if slice == nil {
		slice = []*page{}
	}
	if !all && len(slice) == 0 && pn > 1 && s.mutated(PastEnd404) {
		return failure(http.StatusNotFound, "Page not found.")
	}

	metaPage := pn
	if s.mutated(MetaPageNumberZeroBased) {
		metaPage = pn - 1
	}
	var numberOfItems any = reported
	if s.mutated(NumberOfItemsAsString) {
		numberOfItems = strconv.Itoa(reported)
	}
	body := []kv{{"numberOfItems", numberOfItems}}
	if !s.mutated(ListNoMeta) {
		body = append(body, kv{"meta", obj{
			{"total", total},
			{"pageNumber", metaPage},
			{"pageSize", reported},
			{"hasMore", hasMore},
		}})
	}
	body = append(body, kv{"data", s.pageObjs(slice, baseURL(r))})
	return success(http.StatusOK, "List of pages", body...)
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
		if s.mutated(MissingPage200) {
			return failure(http.StatusOK, "Page not found.")
		}
		if s.mutated(EmptyBodyOn404) {
			return response{code: http.StatusNotFound, kind: kindHandlerError, raw: []byte{}}
		}
		return failure(http.StatusNotFound, "Page not found.")
	}
	var data any = s.pageObj(p, baseURL(r))
	if s.mutated(GetPageInArray) {
		data = []any{data}
	}
	return success(http.StatusOK, "Page filtered by key: "+p.key, kv{"data", data})
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
