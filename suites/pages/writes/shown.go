package writes

// Writes show everywhere (2.1, 2.2, 2.3, 3, 4.1): after a create, an edit
// of the tags, category, type and title, and a delete of a published page
// of the run, the page list under the filters that should and should not
// show it, the single page, and the tag and category views (list and
// single) reflect the write. The views a write moved the page out of are
// read again too: its old key after a rename (3.2: no page has it now),
// the single views of the terms it left, or, after a rename, of those it
// still carries (no longer naming its old key). The reads go out beside
// the read of the page back that the chain makes anyway, in one batch: no
// write waits longer.

import (
	"context"
	"net/http"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

// look is what to read beside the page after a write: listings of one
// type each (every type when empty names are given), single views of
// terms, and the term lists.
type look struct {
	what      string     // "after its create"
	listTypes [][]string // each a listing with exactly these types on (listed.go)
	tags      []string   // tag keys whose single view to read
	cats      []string   // category keys whose single view to read
	lists     bool       // read GET /api/tags and GET /api/categories
}

// seen is what the views showed after one write of a page of the run.
type seen struct {
	look
	// kinds are the kinds of the write (coverage's write table), for the
	// cells the judges of the views mark (writecells.go).
	kinds  []string
	key    string           // the page's key after the write ("" when gone)
	old    string           // its key before, when the write moved or deleted it
	answer *client.Exchange // the write's answer
	page   *client.Exchange // the page read back (nil after a delete)
	// left is GET of the old key of a page the write renamed (nil when
	// the key stayed): the view of the page it left.
	left *client.Exchange
	// lists[i] is what the listing of look.listTypes[i] showed.
	lists            []*listing
	tags, cats       []*client.Exchange // single views, in look's order
	tagList, catList *client.Exchange
	// bodies are the answers' JSON as they came: a body larger than a few
	// KiB is released once the spec that records it ends, and the specs
	// that judge these views come one after another.
	bodies map[*client.Exchange]gjson.Result
}

// get reads path in the answer ex as it came (see bodies).
func (v *seen) get(ex *client.Exchange, path string) gjson.Result {
	if ex == nil {
		return gjson.Result{}
	}
	if root, ok := v.bodies[ex]; ok {
		return root.Get(path)
	}
	return ex.Get(path)
}

// readAfter reads the page at key (unless gone) and what l names, side by
// side, and returns what they showed; the chain's trail keeps them.
func (s *suite) readAfter(ctx context.Context, tr *trail, l look, key, old string, answer *client.Exchange) *seen {
	v := &seen{look: l, key: key, old: old, answer: answer, bodies: map[*client.Exchange]gjson.Result{}}
	var reqs []client.Request
	if key != "" {
		reqs = append(reqs, readRequest(key))
	}
	if v.renamed() {
		reqs = append(reqs, readRequest(old))
	}
	// The listings and the term views are read as streams, as the
	// framework reads them (a big site's answer is larger than a body read
	// whole): of a listing only this page's objects are kept, whole (its
	// views are compared), of a term its pages slim; pagelist.PageItems
	// gives them. A listing's first read is its first page, or the whole
	// when it must show that a key is gone: the key a page left, or a
	// deleted page's (listed.go).
	firstList := len(reqs)
	for _, types := range l.listTypes {
		v.lists = append(v.lists, &listing{types: types})
		reqs = append(reqs, s.firstRequest(v.lists[len(v.lists)-1], v.keys(), v.renamed() || key == ""))
	}
	for _, k := range l.tags {
		reqs = append(reqs, s.t.Pages.StreamedRequest(client.KeyPath("tags", k), "data.pages"))
	}
	for _, k := range l.cats {
		reqs = append(reqs, s.t.Pages.StreamedRequest(client.KeyPath("categories", k), "data.pages"))
	}
	if l.lists {
		reqs = append(reqs, client.Request{Method: http.MethodGet, Path: "/api/tags"},
			client.Request{Method: http.MethodGet, Path: "/api/categories"})
	}
	exs := s.t.All(ctx, reqs...)
	v.bodies[answer] = answer.JSON()
	for _, ex := range exs {
		tr.add(ex)
		v.bodies[ex] = ex.JSON()
	}
	take := func(n int) []*client.Exchange {
		out := exs[:n]
		exs = exs[n:]
		return out
	}
	if key != "" {
		v.page = take(1)[0]
	}
	if v.renamed() {
		v.left = take(1)[0]
	}
	for i, ex := range take(len(l.listTypes)) {
		v.lists[i].add(v, reqs[firstList+i], ex)
	}
	v.tags = take(len(l.tags))
	v.cats = take(len(l.cats))
	if l.lists {
		lists := take(2)
		v.tagList, v.catList = lists[0], lists[1]
	}
	s.readRest(ctx, tr, v)
	return v
}

// renamed reports whether the write moved the page to another key, which
// it still has.
func (v *seen) renamed() bool { return v.key != "" && v.old != "" && v.old != v.key }

// exchanges are what v read, for a spec's evidence.
func (v *seen) exchanges() []*client.Exchange {
	out := []*client.Exchange{v.answer, v.page, v.left}
	for _, l := range v.lists {
		for _, r := range l.reads {
			out = append(out, r.ex)
		}
	}
	out = append(append(out, v.tags...), v.cats...)
	return append(out, v.tagList, v.catList)
}

// keysOf are the page keys a listing read as a stream holds.
func keysOf(ex *client.Exchange) []string {
	return pagelist.PageItems(ex).Keys()
}

// termKeys are the keys of the tags a page object carries (its tags
// object's keys, in order; none when tags is no object: PAGE-TAGS-MAP's
// and the shape rules' concern).
func termKeys(page gjson.Result) []string {
	var keys []string
	tags := page.Get("tags")
	if !tags.IsObject() {
		return nil
	}
	tags.ForEach(func(k, _ gjson.Result) bool {
		keys = append(keys, k.Str)
		return true
	})
	return keys
}

// listed reports whether a term list answer names key in the list of the
// term termKey: ok is false when the answer holds no such term.
func (v *seen) listed(list *client.Exchange, termKey, key string) (names, ok bool) {
	for _, item := range v.get(list, "data").Array() {
		if item.Get("key").String() == termKey {
			return slices.Contains(strs(item.Get("list")), key), true
		}
	}
	return false, false
}

// strs returns the string items of a JSON array (nil for anything else:
// gjson's Array reads a single value as an array of it).
func strs(r gjson.Result) []string {
	if !r.IsArray() {
		return nil
	}
	var out []string
	for _, v := range r.Array() {
		if v.Type == gjson.String {
			out = append(out, v.Str)
		}
	}
	return out
}
