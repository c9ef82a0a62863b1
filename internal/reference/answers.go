package reference

// Mutants around the handlers. A handler answers like a conforming server;
// a mutant whose whole effect is on what the request says (an input the
// handler then reads otherwise) or on the answer (its status or body) is a
// row of answerMutants instead, applied around the handlers of one
// endpoint and method. They run inside the request's transaction, on the
// handler's own answer only: a refusal before the handler (a token, the
// authentication) is left as it is.

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// answerMutant changes the requests to one endpoint and method (keyed:
// with a key after the endpoint) before its handler reads them (before),
// or the handler's answer (after); either may be nil.
type answerMutant struct {
	mutant   Mutant
	endpoint string
	keyed    bool
	method   string
	before   func(in *input)
	after    func(s *Server, a response, rt route, in *input) response
}

// answerMutants are applied in this order; an after of the page list acts
// on a successful answer only, so the first that refuses a request wins.
var answerMutants = []answerMutant{
	// The page list (spec 4.1).
	{mutant: DefaultIncludesStatic, endpoint: "pages", method: http.MethodGet, before: func(in *input) {
		for _, f := range []string{"static", "sticky"} {
			if !in.has(f) {
				in.vals[f] = true
			}
		}
	}},
	{mutant: StickyFilterIgnored, endpoint: "pages", method: http.MethodGet, before: func(in *input) { delete(in.vals, "sticky") }},
	{mutant: BadPaging500, endpoint: "pages", method: http.MethodGet, after: onBadPaging(http.StatusInternalServerError, "Internal server error.")},
	{mutant: BenignBadPaging400, endpoint: "pages", method: http.MethodGet, after: onBadPaging(http.StatusBadRequest, badPagingMsg)},
	{mutant: BenignBadPaging422, endpoint: "pages", method: http.MethodGet, after: onBadPaging(http.StatusUnprocessableEntity, badPagingMsg)},
	{mutant: PastEnd404, endpoint: "pages", method: http.MethodGet, after: pastEnd404},
	{mutant: BenignReversedListOrder, endpoint: "pages", method: http.MethodGet, after: onListed(func(a response) response {
		// Oldest first within the slice: no order is stated (spec 4.1).
		data, _ := member(a.body, "data").([]any)
		data = slices.Clone(data)
		slices.Reverse(data)
		return withMember(a, "data", data)
	})},
	{mutant: MetaPageNumberZeroBased, endpoint: "pages", method: http.MethodGet, after: onListed(func(a response) response {
		meta, ok := member(a.body, "meta").(obj)
		if !ok {
			return a
		}
		n, _ := member(meta, "pageNumber").(int)
		return withMember(a, "meta", slices.Clone(meta).set("pageNumber", n-1))
	})},
	{mutant: NumberOfItemsAsString, endpoint: "pages", method: http.MethodGet, after: onListed(func(a response) response {
		n, _ := member(a.body, "numberOfItems").(int)
		return withMember(a, "numberOfItems", strconv.Itoa(n))
	})},
	{mutant: ListNoMeta, endpoint: "pages", method: http.MethodGet, after: onListed(func(a response) response {
		a.body = a.body.without("meta")
		return a
	})},

	// One page (spec 4.2); the first of the two 404 mutants wins.
	{mutant: MissingPage200, endpoint: "pages", keyed: true, method: http.MethodGet, after: func(_ *Server, a response, _ route, _ *input) response {
		if a.code == http.StatusNotFound {
			a.code = http.StatusOK
		}
		return a
	}},
	{mutant: EmptyBodyOn404, endpoint: "pages", keyed: true, method: http.MethodGet, after: func(_ *Server, a response, _ route, _ *input) response {
		if a.code == http.StatusNotFound {
			a.body, a.raw = nil, []byte{}
		}
		return a
	}},
	{mutant: GetPageInArray, endpoint: "pages", keyed: true, method: http.MethodGet, after: onSuccess(func(a response, _ route) response {
		return withMember(a, "data", []any{member(a.body, "data")})
	})},
	{mutant: PageOldKeyCached, endpoint: "pages", keyed: true, method: http.MethodGet, after: func(s *Server, a response, rt route, _ *input) response {
		cache := pageCache(s)
		switch {
		case a.kind == kindSuccess && a.code == http.StatusOK:
			cache[rt.key] = a
		case a.code == http.StatusNotFound:
			if cached, ok := cache[rt.key]; ok {
				return cached
			}
		}
		return a
	}},

	// Create and edit (spec 4.3, 4.4).
	{mutant: CreateReturnsKeyOnly, endpoint: "pages", method: http.MethodPost, after: onSuccess(keyOnly)},
	{mutant: CreateReturns200, endpoint: "pages", method: http.MethodPost, after: onSuccess(func(a response, _ route) response {
		a.code = http.StatusOK
		return a
	})},
	{mutant: EditReportsOldKey, endpoint: "pages", keyed: true, method: http.MethodPut, after: func(s *Server, a response, rt route, _ *input) response {
		if a.kind != kindSuccess {
			return a
		}
		data, _ := member(a.body, "data").(obj)
		return withMember(a, "data", slices.Clone(data).set("key", s.targetKey(rt)))
	}},
	{mutant: EditReturnsKeyOnly, endpoint: "pages", keyed: true, method: http.MethodPut, after: onSuccess(keyOnly)},
	{mutant: PageOldKeyCached, endpoint: "pages", keyed: true, method: http.MethodPut, after: func(s *Server, a response, _ route, _ *input) response {
		if a.kind == kindSuccess {
			data, _ := member(a.body, "data").(obj)
			key, _ := member(data, "key").(string)
			delete(pageCache(s), key) // the page's key now; not the one it had
		}
		return a
	}},

	// Delete (spec 4.5).
	{mutant: PageOldKeyCached, endpoint: "pages", keyed: true, method: http.MethodDelete, after: func(s *Server, a response, rt route, _ *input) response {
		if a.kind == kindSuccess {
			delete(pageCache(s), rt.key)
		}
		return a
	}},
}

// PageOldKeyCached: GET /api/pages/{key} answers through a cache of its
// 200 answers, by key, which a write clears under the key the page has
// after it: an edit that renames the page leaves the old key's entry, so
// the old key still answers 200 with the page as last read there, where it
// should be 404 (3.2, 4.2).
var PageOldKeyCached = declare(breaks("page-old-key-cached", "PAGE-EDIT-KEY-CHANGE",
	"After an edit renames a page, GET of its old key still answers 200 with the page as last read there: a cache of "+
		"GET /api/pages/{key} that a write clears under the page's new key only."))

// pageCache is PageOldKeyCached's cache: the 200 answers of GET
// /api/pages/{key}, by key.
func pageCache(s *Server) map[string]response {
	return memo(s, PageOldKeyCached, func() map[string]response { return map[string]response{} })
}

const badPagingMsg = "numberOfItems and pageNumber must be integers."

// aroundHandler is h with the answer mutants of rt's endpoint and method
// that are on applied around it.
func (s *Server) aroundHandler(rt route, h handlerFunc) handlerFunc {
	var on []answerMutant
	for _, m := range answerMutants {
		if s.mutated(m.mutant) && m.endpoint == rt.endpoint && m.method == rt.method && m.keyed == (rt.key != "") {
			on = append(on, m)
		}
	}
	if len(on) == 0 {
		return h
	}
	return func(v *view, r *http.Request, rt route, in *input, author string) response {
		for _, m := range on {
			if m.before != nil {
				m.before(in)
			}
		}
		a := h(v, r, rt, in, author)
		for _, m := range on {
			if m.after != nil {
				a = m.after(v.Server, a, rt, in)
			}
		}
		return a
	}
}

// onSuccess applies f to a successful answer.
func onSuccess(f func(a response, rt route) response) func(*Server, response, route, *input) response {
	return func(_ *Server, a response, rt route, _ *input) response {
		if a.kind != kindSuccess {
			return a
		}
		return f(a, rt)
	}
}

// onListed applies f to a successful answer of the page list.
func onListed(f func(a response) response) func(*Server, response, route, *input) response {
	return onSuccess(func(a response, _ route) response { return f(a) })
}

// onBadPaging answers a list request with a non-numeric or empty
// numberOfItems or pageNumber with code and msg.
func onBadPaging(code int, msg string) func(*Server, response, route, *input) response {
	return func(_ *Server, a response, _ route, in *input) response {
		_, nOK := in.integer("numberOfItems")
		_, pOK := in.integer("pageNumber")
		if a.kind != kindSuccess || !((in.has("numberOfItems") && !nOK) || (in.has("pageNumber") && !pOK)) {
			return a
		}
		return failure(code, msg)
	}
}

// pastEnd404 answers 404 for a page number beyond the last page: above 1,
// with an empty data array, numberOfItems not -1.
func pastEnd404(_ *Server, a response, _ route, in *input) response {
	n, nOK := in.integer("numberOfItems")
	pn, pOK := in.integer("pageNumber")
	data, _ := member(a.body, "data").([]any)
	if a.kind == kindSuccess && !(nOK && n == -1) && pOK && pn > 1 && len(data) == 0 {
		return failure(http.StatusNotFound, "Page not found.")
	}
	return a
}

// keyOnly answers 200 with data {key} only, like earlier releases.
func keyOnly(a response, _ route) response {
	data, _ := member(a.body, "data").(obj)
	a.code = http.StatusOK
	return withMember(a, "data", obj{{"key", member(data, "key")}})
}

// targetKey is the key of the page an edit or a delete acts on.
func (s *Server) targetKey(rt route) string {
	if s.mutated(ChildWritesHitParent) {
		key, _, _ := strings.Cut(rt.key, "/") // parent/child names parent
		return key
	}
	return rt.key
}

// member is the value of k in o, nil when o has none.
func member(o obj, k string) any {
	for _, m := range o {
		if m.k == k {
			return m.v
		}
	}
	return nil
}

// withMember is a with the member k of its body set to v (the body copied).
func withMember(a response, k string, v any) response {
	a.body = slices.Clone(a.body).set(k, v)
	return a
}
