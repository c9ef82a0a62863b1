package tripwire

// Reading the page list: how many pages of every type, and which.

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/marker"
)

// totalQuery asks for one page of every type: its meta.total counts them
// all (spec 4.1 rule 1).
func totalQuery() url.Values {
	q := everyTypeQuery()
	q.Set("numberOfItems", "1")
	return q
}

// everyTypeQuery turns every type filter on (spec 4.1): the query of the
// whole-site listing without its page size.
func everyTypeQuery() url.Values {
	q := marker.AllPagesQuery()
	q.Del("numberOfItems")
	return q
}

// everyType reports whether a page-list query turns every type filter on.
func everyType(q url.Values) bool {
	for k := range everyTypeQuery() {
		if q.Get(k) != "true" {
			return false
		}
	}
	return true
}

// listedTotal is the meta.total of a page-list answer.
func listedTotal(ex *client.Exchange) (int, bool) {
	if ex.Err != nil || ex.Status != http.StatusOK {
		return 0, false
	}
	return totalOf(ex.Body())
}

func totalOf(body []byte) (int, bool) {
	t := gjson.GetBytes(body, "meta.total")
	if t.Type != gjson.Number {
		return 0, false
	}
	n, err := strconv.Atoi(t.Raw)
	return n, err == nil
}

// walkSize is the page size of a listing walked a page at a time, when the
// every-type listing at once is cut or refused.
const walkSize = 100

// maxWalk bounds a walk (a million pages).
const maxWalk = 10000

// listKeys lists the key of every page of every type: at once
// (numberOfItems=-1, read as a stream, so a big site's listing costs its
// keys, not its pages), or a page at a time when that answer is cut or no
// list. ok is false when no complete listing could be had.
func listKeys(_ context.Context, read func(client.Request) *client.Exchange) (map[string]bool, bool) {
	ex := read(client.Request{Method: http.MethodGet, Path: "/api/pages", Query: marker.AllPagesQuery(),
		Stream: &client.Stream{Path: "data", Name: "tripwire keys", New: func() client.Fold { return &keyFold{keys: map[string]bool{}} }}})
	if keys, ok := ex.Folded().(map[string]bool); ok && ex.Err == nil && ex.Status == http.StatusOK && !ex.Truncated && !ex.BodyCut {
		return keys, true
	}
	keys := map[string]bool{}
	for n := 1; n <= maxWalk; n++ {
		q := everyTypeQuery()
		q.Set("numberOfItems", strconv.Itoa(walkSize))
		q.Set("pageNumber", strconv.Itoa(n))
		ex := read(client.Request{Method: http.MethodGet, Path: "/api/pages", Query: q})
		page, ok := keysOf(ex)
		if !ok {
			return nil, false
		}
		added := 0
		for k := range page {
			if !keys[k] {
				keys[k] = true
				added++
			}
		}
		if len(page) == 0 || !ex.Get("meta.hasMore").Bool() {
			return keys, true
		}
		if added == 0 {
			return nil, false // the pages repeat: no end to reach
		}
	}
	return nil, false
}

// keysOf is the set of page keys of a complete page-list answer.
func keysOf(ex *client.Exchange) (map[string]bool, bool) {
	if ex.Err != nil || ex.Status != http.StatusOK || ex.Truncated || ex.BodyCut || !ex.Get("data").IsArray() {
		return nil, false
	}
	keys := map[string]bool{}
	for _, p := range ex.Get("data").Array() {
		keys[p.Get("key").String()] = true
	}
	return keys, true
}

// keyFold keeps the key of each page of a streamed listing.
type keyFold struct {
	keys  map[string]bool
	bytes int64
}

func (f *keyFold) Item(raw []byte) {
	k := gjson.GetBytes(raw, "key").String()
	f.keys[k] = true
	f.bytes += int64(len(k)) + 16
}

func (f *keyFold) Value() (any, int64) { return f.keys, f.bytes }
