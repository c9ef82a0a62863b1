// Package sitemodel is the site as the run's own writes must have left it:
// every answer of a run is read for what it shows of the run's pages (Read),
// and once the run is over the answers are replayed in the order they were
// on the wire (Judge): each write changes what the model holds (a page
// created, edited, renamed, deleted; a refused write changes nothing), and
// every read is judged against it (a page reads as it did since its last
// write, a deleted or renamed-away key is gone from every view, a page of
// the run is listed and named by its tags and category as its type and
// terms say). Where the spec does not say what a value is (how a key is
// derived, what a field reads back as), the model takes it from the first
// answer that shows it and judges only that later answers agree: it never
// guesses. The normal run and conformance explore both feed it.
package sitemodel

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/marker"
	"github.com/conformance-suite/conformance/internal/rules/listfilter"
)

// Items gives the objects a list answer carries at path (a listing's
// items, a term's pages): a run reads big listings as streams
// (pagelist.KeptItems), explore reads bodies whole.
type Items func(ex *client.Exchange, path string) Kept

// Kept are the objects kept of a list answer.
type Kept struct {
	Pages []gjson.Result
	// Whole: every item of the answer was read.
	Whole bool
	// Only, when not nil, are the only keys whose objects were kept: of
	// any other key the answer says nothing.
	Only []string
}

// WholeBody reads the array at path of a body read whole (explore's).
func WholeBody(ex *client.Exchange, path string) Kept {
	return Kept{Pages: ex.Get(path).Array(), Whole: !ex.Truncated && !ex.BodyCut}
}

// Seen is one answer of the run, as the model keeps it: only what it shows
// of the run's own pages.
type Seen struct {
	Ex       *client.Exchange
	From, To time.Time
	write    *write
	// single is the key a GET /api/pages/{key} asked for, and whether it
	// answered 200 (found) or 404 (gone); nil for other answers.
	single *single
	pages  []shown   // the run's page objects the answer shows
	list   *listing  // a listing that holds every page of its types
	terms  []termSaw // what a tag's or category's views say of its pages
}

type single struct {
	key          string
	found, gone  bool
	answerStatus int
}

// shown is one page object of the run in an answer; where says which part.
type shown struct {
	key, where string
	obj        gjson.Result
}

// listing is a complete page list: every page whose type is one of types.
type listing struct {
	types []string
	keys  map[string]bool // the run's keys it lists
	only  map[string]bool // when not nil, the only keys it says anything of
}

// termSaw is what one view of a term (its single view, or its item in the
// term list) names of the run's pages.
type termSaw struct {
	kind  termKind
	term  string
	names map[string]bool
	where string
}

// write is a request that may have changed the site.
type write struct {
	method, key string // key: the page a PUT or DELETE names ("" for others)
	page        bool   // a write of /api/pages
	status      int
	answered    bool   // a status from the API itself
	newKey      string // data.key of a page write's success
}

// Read reads one answer of run runID for the model; ok is false when it
// shows nothing the model judges or changes (a path outside the API, a
// request never sent, another run's page). apiPrefix is the path the API's
// endpoints start with ("/api/", or "/blog/api/" on a site under a path).
func Read(ex *client.Exchange, runID, apiPrefix string, items Items) (Seen, bool) {
	u, err := url.Parse(ex.URL)
	if err != nil || !ex.Sent || !strings.HasPrefix(u.Path, apiPrefix) {
		return Seen{}, false
	}
	s := Seen{Ex: ex}
	s.From, s.To = ex.WireSpan()
	endpoint, key := splitPath(strings.TrimPrefix(u.Path, apiPrefix))
	ours := func(k string) bool { return marker.HasRunMarker(k, runID) }
	if client.Alone(ex.Method) {
		s.readWrite(ex, endpoint, key, ours)
		return s, true
	}
	if ex.Method != http.MethodGet || ex.Status != http.StatusOK && ex.Status != http.StatusNotFound {
		return Seen{}, false
	}
	switch {
	case endpoint == "pages" && key != "":
		s.readSingle(ex, key, ours)
	case endpoint == "pages":
		s.readListing(ex, u.Query(), ours, items)
	case (endpoint == "tags" || endpoint == "categories") && key != "":
		s.readTerm(ex, kindOf(endpoint), key, ours, items)
	case endpoint == "tags" || endpoint == "categories":
		s.readTermList(ex, kindOf(endpoint), ours, items)
	}
	if s.single == nil && len(s.pages) == 0 && s.list == nil && len(s.terms) == 0 {
		return Seen{}, false
	}
	return s, true
}

// readWrite keeps a write: what it named, how it was answered, and the
// page a page write's success carries.
func (s *Seen) readWrite(ex *client.Exchange, endpoint, key string, ours func(string) bool) {
	s.write = &write{method: ex.Method, page: endpoint == "pages", key: key, status: ex.Status,
		answered: ex.Status != 0 && ex.Fault() == ""}
	if !s.write.page || ex.Status < 200 || ex.Status >= 300 {
		return
	}
	if d := ex.Get("data"); d.IsObject() {
		s.write.newKey = strings.Clone(d.Get("key").String())
		if ours(s.write.newKey) {
			s.pages = append(s.pages, shown{key: s.write.newKey, where: "the answer to " + ex.Method, obj: own(d)})
		}
	}
}

// splitPath splits "pages/a/b" into the endpoint and the key it names
// (decoded).
func splitPath(rest string) (endpoint, key string) {
	endpoint, key, _ = strings.Cut(rest, "/")
	if k, err := url.PathUnescape(key); err == nil {
		key = k
	}
	return endpoint, key
}

func (s *Seen) readSingle(ex *client.Exchange, key string, ours func(string) bool) {
	if !ours(key) {
		return
	}
	s.single = &single{key: key, found: ex.Status == http.StatusOK, gone: ex.Status == http.StatusNotFound, answerStatus: ex.Status}
	if d := ex.Get("data"); s.single.found && d.IsObject() && d.Get("key").String() == key {
		s.pages = append(s.pages, shown{key: key, where: "GET /api/pages/" + key, obj: own(d)})
	}
}

// readListing keeps a page list's items of the run, and the list as
// complete when it asks for every page of its types on one page (4.1:
// numberOfItems -1) and came whole.
func (s *Seen) readListing(ex *client.Exchange, q url.Values, ours func(string) bool, items Items) {
	if ex.Status != http.StatusOK {
		return
	}
	kept := items(ex, "data")
	keys := map[string]bool{}
	for _, p := range kept.Pages {
		if k := p.Get("key").String(); ours(k) {
			k = strings.Clone(k)
			keys[k] = true
			s.pages = append(s.pages, shown{key: k, where: ex.Method + " " + ex.URL, obj: own(p)})
		}
	}
	types, ok := listfilter.TypesOfQuery(q)
	if kept.Whole && ok && q.Get("numberOfItems") == "-1" && len(q["untagged"]) == 0 && (q.Get("pageNumber") == "" || q.Get("pageNumber") == "1") {
		s.list = &listing{types: types, keys: keys}
		if kept.Only != nil {
			s.list.only = map[string]bool{}
			for _, k := range kept.Only {
				s.list.only[k] = true
			}
		}
	}
}

// readTerm keeps what a term's single view names (its list and its pages)
// of the run's pages; a 404 names none. A view that gives no list of pages
// is the shape rules' concern, not the model's.
func (s *Seen) readTerm(ex *client.Exchange, k termKind, term string, ours func(string) bool, items Items) {
	where := ex.Method + " " + ex.URL
	if ex.Status == http.StatusNotFound {
		s.terms = append(s.terms, termSaw{kind: k, term: term, names: map[string]bool{}, where: where})
		return
	}
	list := ex.Get("data.list")
	kept := items(ex, "data.pages")
	if !kept.Whole || kept.Only != nil || !list.IsArray() {
		return
	}
	saw := termSaw{kind: k, term: term, names: map[string]bool{}, where: where}
	for _, v := range list.Array() {
		if ours(v.String()) {
			saw.names[strings.Clone(v.String())] = true
		}
	}
	for _, p := range kept.Pages {
		if key := p.Get("key").String(); ours(key) {
			key = strings.Clone(key)
			saw.names[key] = true
			s.pages = append(s.pages, shown{key: key, where: "the pages of " + where, obj: own(p)})
		}
	}
	s.terms = append(s.terms, saw)
}

// readTermList keeps what each item of GET /api/tags or /api/categories
// names in its list.
func (s *Seen) readTermList(ex *client.Exchange, k termKind, ours func(string) bool, items Items) {
	kept := items(ex, "data")
	if ex.Status != http.StatusOK || !kept.Whole || kept.Only != nil {
		return
	}
	for _, it := range kept.Pages {
		list := it.Get("list")
		if !list.IsArray() {
			continue
		}
		saw := termSaw{kind: k, term: strings.Clone(it.Get("key").String()), names: map[string]bool{}, where: "the item of " + it.Get("key").String() + " in GET " + ex.URL}
		for _, v := range list.Array() {
			if ours(v.String()) {
				saw.names[strings.Clone(v.String())] = true
			}
		}
		s.terms = append(s.terms, saw)
	}
}

// own is a copy of v that holds no part of the answer's body: the model
// keeps a few page objects of the run to the end, never a big body.
func own(v gjson.Result) gjson.Result { return gjson.Parse(strings.Clone(v.Raw)) }

// Recorder keeps the answers of one run for Judge, from the run's first
// write of a page on: before it, no page of the run exists to judge, and a
// big site's views would only be held for nothing. Record may be called
// from many goroutines.
type Recorder struct {
	runID, apiPrefix string
	items            Items
	mu               sync.Mutex
	seen             []Seen
	wrote            bool
}

// NewRecorder keeps the answers of run runID (see Read).
func NewRecorder(runID, apiPrefix string, items Items) *Recorder {
	return &Recorder{runID: runID, apiPrefix: apiPrefix, items: items}
}

// Record reads one answer for the model.
func (r *Recorder) Record(ex *client.Exchange) {
	r.mu.Lock()
	wrote := r.wrote
	r.mu.Unlock()
	if !wrote && !(client.Alone(ex.Method) && strings.Contains(ex.URL, r.apiPrefix+"pages")) {
		return
	}
	s, ok := Read(ex, r.runID, r.apiPrefix, r.items)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.wrote = true
	r.seen = append(r.seen, s)
}

// Judge judges the answers recorded so far.
func (r *Recorder) Judge() Verdicts {
	r.mu.Lock()
	seen := slices.Clone(r.seen)
	r.mu.Unlock()
	return Judge(seen)
}
