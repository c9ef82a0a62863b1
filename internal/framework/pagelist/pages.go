package pagelist

// Page helpers that the page suites (reads and writes) share: the page
// endpoints and types, queries of the page list, reading page objects out of
// an answer, and gathering every page a query matches. They judge nothing:
// the rules and their assertions live in suites/.

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
)

// PagesPath is the page list endpoint (spec 4.1) and where pages are created
// (4.3).
const PagesPath = "/api/pages"

// PagePath is the path of the page with key (spec 4.2, 4.4, 4.5).
func PagePath(key string) string { return client.KeyPath("pages", key) }

// PageTypes returns the five page types in the order of spec section 3 (a
// fresh slice each call: nothing shared is mutable).
func PageTypes() []string {
	return []string{"published", "draft", "static", "sticky", "scheduled"}
}

// PageTypeQuery sets every type filter of the page list: true for the types
// named, false for the others (spec 4.1; booleans as the string true, see
// the PAGE-LIST-TYPE-FILTERS reading).
func PageTypeQuery(on ...string) url.Values {
	q := url.Values{}
	for _, ty := range PageTypes() {
		q.Set(ty, "false")
	}
	for _, ty := range on {
		q.Set(ty, "true")
	}
	return q
}

// EveryTypeQuery asks for pages of every type: the largest listing a target
// offers, and one that holds the draft pages a run creates.
func EveryTypeQuery() url.Values { return PageTypeQuery(PageTypes()...) }

// QueryWith returns a copy of q with the given name/value pairs set (q is
// left as it was).
func QueryWith(q url.Values, kv ...string) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out.Set(kv[i], kv[i+1])
	}
	return out
}

// PageItems returns the page objects of a page list answer: its data
// array, or, of an answer read as a stream (Reader.Read, Reader.ReadLists),
// the slim pages its fold kept (none when it was not one JSON document).
func PageItems(ex *client.Exchange) PageList {
	if ex.Streamed != nil {
		if v, ok := ex.Folded().(*foldedListing); ok {
			return v.pages
		}
		return PageList{}
	}
	return PageListOf(ex.Get("data").Array())
}

// Reader.ReadLists sends GET /api/pages with each of qs side by side (All),
// each read as a stream whose page objects are kept brief (key, type,
// tags; PageItems gives them), unchecked, and returns the answers in the
// order of qs.
// Their bodies are the envelopes with data empty: judge the pages with
// PageItems, never with the data member.
func (r *Reader) ReadLists(ctx context.Context, qs ...url.Values) []*client.Exchange {
	reqs := make([]client.Request, len(qs))
	for i, q := range qs {
		reqs[i] = r.ListRequest(q)
	}
	return r.all(ctx, reqs...)
}

// JSONText renders a value of an answer for a message: its JSON as sent, or
// "missing".
func JSONText(r gjson.Result) string {
	if !r.Exists() {
		return "missing"
	}
	return r.Raw
}

// AnswerStatus says how a request ended, for a message: the transport error,
// or "HTTP <status>".
func AnswerStatus(ex *client.Exchange) string {
	if ex.Err != nil {
		return ex.Err.Error()
	}
	return "HTTP " + strconv.Itoa(ex.Status)
}

// Bounds of walkAllPages: it starts with pages of pageWalkSize items and
// makes them smaller while one page is still larger than the read limit; it
// sends at most pageWalkRequests requests per size, so a huge site costs a
// bounded number of reads.
const (
	pageWalkSize     = 100
	pageWalkRequests = 200
)

// walkAllPages gathers every page matching q by walking the list a page at
// a time, for sites whose numberOfItems=-1 answer is larger than the read
// limit (big is the -1 exchange that was cut). It tries smaller pages while
// one page is still cut.
func (r *Reader) walkAll(ctx context.Context, q url.Values, big *client.Exchange) Listing {
	last := big
	for size := pageWalkSize; size >= 4; size /= 4 {
		w := r.walkAtSize(ctx, q, size)
		last = w.last
		switch {
		case w.cut:
			continue // try smaller pages
		case w.failed:
			return Listing{Ex: last, Problem: fmt.Sprintf("the answer to %s is more than a run reads at once (a page object over "+
				"--max-body, over %d pages, or over 1 GiB in all), and walking the list instead failed at %s (%s)",
				big.RequestLine(), maxListed, last.RequestLine(), AnswerStatus(last))}
		case !w.done:
			return Listing{Ex: last, Problem: fmt.Sprintf("the site has more than %d pages matching %s: too many to compare with", size*pageWalkRequests, q.Encode())}
		}
		v, _ := w.fold.Value()
		f := v.(*foldedListing)
		l := Listing{Pages: f.pages, Ex: last, found: f.found}
		if f.problem != "" {
			l.Problem = big.RequestLine() + " (walked a page at a time): " + f.problem
		}
		return l
	}
	return Listing{Ex: last, Problem: fmt.Sprintf("the answer to %s is larger than the read limit (--max-body), even a few pages at a time", big.RequestLine())}
}

// sizedWalk is how a walk over the list at one page size ended.
type sizedWalk struct {
	fold   *pageFold        // the pages gathered
	last   *client.Exchange // the last page read
	done   bool             // every page gathered
	cut    bool             // a page was larger than the read limit
	failed bool             // a page was not a list answer
}

// walkAtSize walks the pages of q at size items a page, at most
// pageWalkRequests of them. The pages after the first go side by side, as
// many as the first one's meta.total says there are; beyond them (a total
// that is missing or too small) one at a time, until a page is short or
// says no more follow.
func (r *Reader) walkAtSize(ctx context.Context, q url.Values, size int) (w sizedWalk) {
	read := func(from, to int) []*client.Exchange {
		reqs := make([]client.Request, 0, to-from+1)
		for p := from; p <= to; p++ {
			reqs = append(reqs, client.Request{Method: http.MethodGet, Path: PagesPath,
				Query: QueryWith(q, "numberOfItems", strconv.Itoa(size), "pageNumber", strconv.Itoa(p))})
		}
		return r.all(ctx, reqs...)
	}
	expected := 1
	w.fold = newPageFold(r.viewFor(q))
	for p := 1; p <= pageWalkRequests; {
		to := max(p, min(expected, pageWalkRequests))
		for _, ex := range read(p, to) {
			w.last = ex
			if ex.Truncated {
				w.cut = true
				return w
			}
			if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsArray() {
				w.failed = true
				return w
			}
			page := PageItems(ex)
			for _, it := range page.Scan {
				w.fold.Item([]byte(it.Raw)) // the fold keeps a copy of its own
			}
			if page.Len() < size || !ex.Get("meta.hasMore").Bool() {
				w.done = true
				return w
			}
		}
		if total := w.last.Get("meta.total"); p == 1 && total.Type == gjson.Number {
			expected = (int(total.Num) + size - 1) / size
		}
		p = to + 1
	}
	return w
}
