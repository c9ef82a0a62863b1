package taxonomy

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sort"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

// This file holds what the specs of one kind share: the list endpoint
// read once, and the sample of terms they check, made (when the target
// has none to check and the run may write) with one draft page for all of
// them. The specs of a kind are prepared together (framework.Group): their
// reads go out side by side, the identical ones once (the read cache).

// term is one tag or category as the list endpoint gives it.
type term struct {
	key  string
	list []string // page keys
}

// terms is a sample of terms to check, or why there is none.
type terms struct {
	sample []term
	reason string // non-empty: the specs that need terms are not checked
}

// shared is the fixtures of one kind's group.
type shared struct {
	t *framework.Fixture
	k kind
	// listed is GET /api/<endpoint> as first read, and its terms.
	listed func(ctx context.Context) listed
	// created is the list read again after the run created a draft page
	// with a term (once for the group, by the first spec that needs it).
	created func(ctx context.Context) listed
	// everyPage is the listing of every page type (pagelist.Listing),
	// read once for the run and shared with the page rules.
	everyPage func(ctx context.Context) pagelist.Listing
	// views are the single views of the terms the specs check, read once
	// for the group (a big category's view holds every page of it in
	// full: each spec judges the same answer, none reads it again).
	views func(ctx context.Context) map[string]*client.Exchange
}

// listed is a read of the list endpoint and the terms it gave (reason is
// set when there are none to go by: no list, or no draft could be made).
type listed struct {
	ex     *client.Exchange
	terms  []term
	reason string
	// what the target lacked, and the term the draft carries (created).
	what, made string
}

func newShared(t *framework.Fixture, g *framework.Group, k kind, everyPage func(ctx context.Context) pagelist.Listing) *shared {
	s := &shared{t: t, k: k, everyPage: everyPage}
	s.listed = framework.Share(g, s.listTerms)
	s.created = framework.Share(g, s.createTerm)
	s.views = framework.Share(g, s.readViews)
	return s
}

// listTerms reads the list endpoint; a list that cannot be read leaves
// the specs that need terms not checked (the LIST-SHAPE rule judges that
// response).
func (s *shared) listTerms(ctx context.Context) listed {
	k := s.k
	ex := s.t.Read(ctx, "/api/"+k.endpoint, nil)
	if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsArray() {
		return listed{ex: ex, reason: fmt.Sprintf("GET /api/%s did not give a list to start from (%s; see %s)",
			k.endpoint, match.Outcome(ex), k.ids.listShape)}
	}
	var out []term
	for _, item := range ex.Get("data").Array() {
		key := item.Get("key")
		if key.Type != gjson.String || key.Str == "" {
			continue
		}
		out = append(out, term{key: key.Str, list: strs(item.Get("list"))})
	}
	return listed{ex: ex, terms: out}
}

// ensure returns the sample of terms a spec checks. When the target has
// none (or, with needPages, none that names a page) and the run may write,
// the group's created makes a draft page with a tag of the run's own, or
// in an existing category, and looks again. The spec does not say whether
// a draft is listed under its terms (the previous release listed only
// published, static and sticky pages), so when the draft does not show,
// the rules are reported not checked rather than failed.
func (s *shared) ensure(ctx context.Context, needPages bool) terms {
	l := s.listed(ctx)
	if l.reason != "" {
		return terms{reason: l.reason}
	}
	if usable(l.terms, needPages) {
		return terms{sample: sample(l.terms)}
	}
	again := s.created(ctx)
	switch {
	case again.reason != "":
		return terms{reason: again.reason}
	case !usable(again.terms, needPages):
		return terms{reason: fmt.Sprintf("the target lists %s; a draft page the run created with %s %q did not change that "+
			"(the spec does not say whether drafts are listed)", again.what, s.k.noun, again.made)}
	}
	return terms{sample: sample(again.terms)}
}

// createTerm creates the draft page that gives a term a page to name, and
// reads the list again.
func (s *shared) createTerm(ctx context.Context) listed {
	t, k := s.t, s.k
	before := s.listed(ctx).terms
	what := "no " + k.noun
	if len(before) > 0 {
		what = fmt.Sprintf("no %s that names a page", k.noun)
	}
	// This read rule writes only in this fallback, and only when writes are
	// allowed: read-only runs still check whatever the target has.
	if !t.CanWrite() {
		return listed{reason: fmt.Sprintf("the target lists %s, and a read-only run cannot create one", what)}
	}
	fields := map[string]any{"title": "Conformance taxonomy " + t.RunID}
	var made string
	if k.endpoint == "tags" {
		made = t.Marker("tag")
		fields["tags"] = made
	} else {
		if len(before) == 0 {
			return listed{reason: "the target lists no category, and the API cannot create one"}
		}
		made = before[0].key
		fields["category"] = made
	}
	ex, key := t.CreatePage(ctx, fields)
	if key == "" {
		return listed{reason: fmt.Sprintf("the target lists %s, and creating a draft page with %s %q failed (%s)",
			what, k.noun, made, match.Outcome(ex))}
	}
	again := s.listTerms(ctx)
	again.what, again.made = what, made
	return again
}

func usable(terms []term, needPages bool) bool {
	if !needPages {
		return len(terms) > 0
	}
	for _, tm := range terms {
		if len(tm.list) > 0 {
			return true
		}
	}
	return false
}

// sample keeps at most maxTerms terms, those naming pages first and of
// those the ones naming fewest pages, as long as the pages they name add
// up to no more than maxSampledPages (the first of them whatever its
// size: the rules on a view's pages need one): a single view expands
// every page a term names into a full page object, which on a big site
// makes the large terms' views the heaviest answers of the API, and on a
// site of a few big categories their views weigh as much as the listing
// of every page.
func sample(terms []term) []term {
	sorted := append([]term(nil), terms...)
	weight := func(t term) int {
		if len(t.list) == 0 {
			return math.MaxInt
		}
		return len(t.list)
	}
	sort.SliceStable(sorted, func(i, j int) bool { return weight(sorted[i]) < weight(sorted[j]) })
	var out []term
	pages := 0
	for _, t := range sorted {
		if len(out) == maxTerms {
			break
		}
		if n := len(t.list); n > 0 && pages > 0 && pages+n > maxSampledPages {
			continue // the terms naming no page, last, still fit
		}
		pages += len(t.list)
		out = append(out, t)
	}
	return out
}

// readViews reads, side by side, the single view of every term of the
// samples the specs check (with and without pages named).
func (s *shared) readViews(ctx context.Context) map[string]*client.Exchange {
	var keys []string
	for _, needPages := range []bool{false, true} {
		for _, tm := range s.ensure(ctx, needPages).sample {
			keys = append(keys, tm.key)
		}
	}
	keys = match.Uniq(keys)
	out := map[string]*client.Exchange{}
	for i, ex := range s.readViewsOf(ctx, keys) {
		out[keys[i]] = ex
	}
	return out
}

// readViewsOf reads the single view of each term of keys side by side,
// each as a stream: its pages (full page objects, as many as the term
// names) are checked against page.json as they arrive and kept slim
// (Pages.ReadStreamed), so a big category's view costs no more
// memory than a small one's.
func (s *shared) readViewsOf(ctx context.Context, keys []string) []*client.Exchange {
	paths := make([]string, len(keys))
	for i, key := range keys {
		paths[i] = client.KeyPath(s.k.endpoint, key)
	}
	return s.t.Pages.ReadStreamed(ctx, "data.pages", paths...)
}

// readTerms gives the single view of each of terms (read once for the
// group: views), in the order of terms.
func (s *shared) readTerms(ctx context.Context, terms []term) []*client.Exchange {
	views := s.views(ctx)
	out := make([]*client.Exchange, len(terms))
	for i, tm := range terms {
		if out[i] = views[tm.key]; out[i] == nil {
			// Not in a sample the views were read for: read it now.
			out[i] = s.readViewsOf(ctx, []string{tm.key})[0]
		}
	}
	return out
}

// readAll sends GET /api/<endpoint>/<key> for each of keys side by side
// (Fixture.All) and returns the answers in the order of keys.
func readAll(ctx context.Context, t *framework.Fixture, endpoint string, keys []string) []*client.Exchange {
	return t.All(ctx, keyReads(endpoint, keys)...)
}

// keyReads is GET /api/<endpoint>/<key> for each of keys.
func keyReads(endpoint string, keys []string) []client.Request {
	reqs := make([]client.Request, len(keys))
	for i, key := range keys {
		reqs[i] = client.Request{Method: http.MethodGet, Path: client.KeyPath(endpoint, key)}
	}
	return reqs
}

// strs returns the string items of a JSON array (nil for anything else).
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
