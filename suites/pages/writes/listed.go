package writes

// The listings read after a write (shown.go), targeted: a big site's
// listing of one type is megabytes, so a listing is read whole only where
// it must show that a page is not in it (after a delete, or an edit that
// renamed the page or changed its type). Where it must list the page, its
// first page goes out beside the write's other views and, when that does
// not hold the page, its last pages; only then the whole listing, before
// any verdict that the page is missing. The spec leaves the order of the
// list open, but the host lists pages newest first, and the run's pages
// carry a date far in the past (pastDate): they come last.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

const (
	// firstPageSize is the size of the first page read of a listing: a
	// listing of at most that many pages (a small site's) is whole in it.
	firstPageSize = 50
	// lastPageSize is the size of the last pages read: two of them hold
	// more pages than a run has of one type at once.
	lastPageSize = 25
)

// listRead is one answer of a listing and what it showed.
type listRead struct {
	ex *client.Exchange
	// part names the part of the listing asked for ("its first 50
	// pages"); whole: the answer holds every page of the listing.
	part  string
	whole bool
	keys  []string // the keys looked for that it lists
}

// listing is the answers of one filtered listing read after a write, in
// the order read: its first page or the whole, then its last pages, then
// the whole.
type listing struct {
	types       []string
	reads       []listRead
	tail, whole bool // its last pages, the whole listing were asked for
}

// request reads l, its pages of the keys looked for kept whole: the whole
// listing (numberOfItems -1), or page n of size.
func (s *suite) request(l *listing, keys []string, size, n int64) client.Request {
	q := pagelist.QueryWith(pagelist.PageTypeQuery(l.types...), "numberOfItems", strconv.FormatInt(size, 10))
	if size == -1 {
		l.whole = true
	} else {
		q.Set("pageNumber", strconv.FormatInt(n, 10))
	}
	return s.t.Pages.ListRequest(q, keys...)
}

// firstRequest is the first read of l: the whole listing when wholeFirst
// (a key must be shown absent whatever the page read back says: the key
// a page left, or a deleted page's), else its first page.
func (s *suite) firstRequest(l *listing, keys []string, wholeFirst bool) client.Request {
	if wholeFirst {
		return s.request(l, keys, -1, 0)
	}
	return s.request(l, keys, firstPageSize, 1)
}

// add keeps what the answer ex to the read r of l showed.
func (l *listing) add(v *seen, r client.Request, ex *client.Exchange) {
	size, page := r.Query.Get("numberOfItems"), r.Query.Get("pageNumber")
	read := listRead{ex: ex, keys: keysOf(ex)}
	switch {
	case size == "-1":
		read.part = "read whole"
		read.whole = v.readable(ex)
	case page == "1":
		// Whole when it holds as many pages as meta.total counts.
		read.part = "its first " + size + " pages"
		total := v.get(ex, "meta.total")
		read.whole = v.readable(ex) && total.Type == gjson.Number && ex.Streamed != nil &&
			int64(ex.Streamed.Items) == total.Int()
	default:
		read.part = "its page " + page + " of " + size
	}
	l.reads = append(l.reads, read)
}

// readable reports whether ex answered 200 with a list, read whole.
func (v *seen) readable(ex *client.Exchange) bool {
	return pagelist.Unread(ex) == "" && v.isList(ex)
}

// mustList reports whether a listing with types on must list key, by the
// page read back beside it: the page's key, when its type is one of them.
func (v *seen) mustList(types []string, key string) bool {
	page, reads := v.now()
	return reads && key == v.key && slices.Contains(types, page.Get("type").String())
}

// shows says what l showed of key: listed, in the answer at; or not
// listed, decided when an answer that holds the whole listing (at) lacks
// it.
func (l *listing) shows(key string) (listed, decided bool, at *client.Exchange) {
	for _, r := range l.reads {
		if slices.Contains(r.keys, key) {
			return true, true, r.ex
		}
		if r.whole && at == nil {
			at = r.ex
		}
	}
	return false, at != nil, at
}

// readRest reads what the listings of v still need to decide, once the
// page read back beside their first reads says which keys each must list:
// a round for the last pages or the whole listing, and one more for the
// whole listing when the last pages lack the page.
func (s *suite) readRest(ctx context.Context, tr *trail, v *seen) {
	for range 2 {
		var reqs []client.Request
		var of []*listing
		for _, l := range v.lists {
			for _, r := range s.next(v, l) {
				reqs, of = append(reqs, r), append(of, l)
			}
		}
		if len(reqs) == 0 {
			return
		}
		for i, ex := range s.t.All(ctx, reqs...) {
			tr.add(ex)
			v.bodies[ex] = ex.JSON()
			of[i].add(v, reqs[i], ex)
		}
	}
}

// next is what to read of l to decide each key: nothing when every key is
// decided, or its first answer gave no list to look further in; its last
// pages when a key it must list is not found yet; else the whole listing.
func (s *suite) next(v *seen, l *listing) []client.Request {
	first := l.reads[0].ex
	if !v.readable(first) || l.whole {
		return nil
	}
	find, absent := false, false
	for _, key := range v.keys() {
		if _, decided, _ := l.shows(key); !decided {
			must := v.mustList(l.types, key)
			find, absent = find || must, absent || !must
		}
	}
	total := v.get(first, "meta.total")
	switch {
	case !find && !absent:
		return nil
	case find && !l.tail && total.Type == gjson.Number:
		l.tail = true
		return s.lastPages(l, v.keys(), total.Int())
	}
	return []client.Request{s.request(l, v.keys(), -1, 0)}
}

// lastPages reads the last two pages of lastPageSize of l, a listing of
// total pages.
func (s *suite) lastPages(l *listing, keys []string, total int64) []client.Request {
	last := max(1, (total+lastPageSize-1)/lastPageSize)
	var out []client.Request
	for n := max(1, last-1); n <= last; n++ {
		out = append(out, s.request(l, keys, lastPageSize, n))
	}
	return out
}

// noList is the first answer of l, read whole, that gave no page list
// (nil when every one did).
func (l *listing) noList(v *seen) *client.Exchange {
	for _, r := range l.reads {
		if pagelist.Unread(r.ex) == "" && !v.isList(r.ex) {
			return r.ex
		}
	}
	return nil
}

// undecided says why l decided nothing of key: an answer that was to
// hold the page or the whole listing was not read whole, or gave no list.
func (l *listing) undecided(v *seen, key string) string {
	var parts []string
	for _, r := range l.reads {
		if why := pagelist.Unread(r.ex); why != "" {
			return why
		}
		if !v.isList(r.ex) {
			return fmt.Sprintf("%s, the listing with %v (%s) gave no page list (%s)", v.what, l.types, r.part, match.Outcome(r.ex))
		}
		parts = append(parts, r.part)
	}
	return fmt.Sprintf("%s, the listing with %v was not read whole (%s), and the parts read do not list page %s",
		v.what, l.types, strings.Join(parts, "; "), key)
}
