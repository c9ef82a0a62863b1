package taxonomy

import (
	"context"
	"fmt"
	"hash/maphash"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/coverkit"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/readback"
)

// The same fact in two places: a tag or category in its list and in its
// single view, a tag's name in the tag list and in the tags object of each
// page that carries it, a page in the page list, on its own and among the
// pages of its tags and category. Every view compared here is a read the
// run makes anyway (the page list of every type, the term lists, their
// single views and the pages they name, as the other read specs make
// them): read again with the same request before any write, each is the
// client's read cache's answer, no request of its own.

// RegisterViews adds the specs that compare the views of tags, categories
// and pages in the run's reads (one Group). The run's own pages are
// compared after its writes by suites/pages/writes.
func RegisterViews(t *framework.Fixture) {
	ginkgo.Describe("2.1, 2.2, 2.3 The same fact in every view", framework.PhaseReads, func() {
		g := t.NewGroup(framework.PhaseReads)
		read := framework.Share(g, func(ctx context.Context) siteViews { return readSiteViews(ctx, t) })
		framework.Prepare(g, "PAGE-VIEWS-AGREE", read, func(_ ginkgo.SpecContext, v siteViews) { v.judgePages(t) },
			framework.Case("the site's pages, as the reads show them"))
		framework.Prepare(g, "TAG-VIEWS-AGREE", read, func(_ ginkgo.SpecContext, v siteViews) { v.terms[0].judgeAgree(t) })
		framework.Prepare(g, "CAT-VIEWS-AGREE", read, func(_ ginkgo.SpecContext, v siteViews) { v.terms[1].judgeAgree(t) })
		framework.Prepare(g, "TAG-NAME-IN-PAGES", read, func(_ ginkgo.SpecContext, v siteViews) { v.judgeTagNames(t) },
			framework.Case("the site's pages, as the reads show them"))
	})
}

// siteViews is what the run's reads show of the site: the page list of
// every type, and per kind (tags, then categories) the list, the single
// views of a sample, and each page the sample's lists name, read on its own.
type siteViews struct {
	listing   pagelist.PageList
	listingEx *client.Exchange
	problem   string // the listing could not be read
	terms     [2]termViews
	pages     map[string]*client.Exchange // GET /api/pages/{key}
	// data is each answer's data as it came: a body larger than a few KiB
	// is released once the spec that records it ends, and the specs that
	// judge these reads come one after another.
	data map[*client.Exchange]gjson.Result
}

// termViews is one kind's list and the single views of its sample.
type termViews struct {
	k       kind
	listEx  *client.Exchange
	items   map[string]gjson.Result // the list's items by key
	sample  []string
	singles []*client.Exchange // singles[i] is GET /api/<endpoint>/<sample[i]>
	data    map[*client.Exchange]gjson.Result
}

// readSiteViews reads what the other read specs read (so each read is the
// cache's answer): the two lists, the listing of every type, the single
// views of the sample of each kind, the pages the sample's lists name.
func readSiteViews(ctx context.Context, t *framework.Fixture) siteViews {
	v := siteViews{pages: map[string]*client.Exchange{}, data: map[*client.Exchange]gjson.Result{}}
	for i, k := range kinds {
		tv := termViews{k: k, listEx: t.Read(ctx, "/api/"+k.endpoint, nil), items: map[string]gjson.Result{}, data: v.data}
		v.data[tv.listEx] = tv.listEx.Get("data")
		var ts []term
		for _, item := range v.data[tv.listEx].Array() {
			key := item.Get("key")
			if key.Type != gjson.String || key.Str == "" {
				continue
			}
			tv.items[key.Str] = item
			ts = append(ts, term{key: key.Str, list: strs(item.Get("list"))})
		}
		var named []string
		for _, tm := range sample(ts) {
			tv.sample = append(tv.sample, tm.key)
			named = append(named, match.Uniq(tm.list)...)
		}
		v.terms[i] = tv
		// A few of the pages the sample names are read on their own: the
		// single view beside the listing's and the terms' (the other read
		// specs read each page once, in the listing of every type).
		for _, key := range match.Uniq(named)[:min(pagesReadAlone, len(match.Uniq(named)))] {
			v.pages[key] = nil
		}
	}
	l := t.Pages.ListAll(ctx, pagelist.EveryTypeQuery())
	v.listing, v.listingEx, v.problem = l.Pages, l.Ex, l.Problem
	var paths []string
	for _, tv := range v.terms {
		for _, key := range tv.sample {
			paths = append(paths, client.KeyPath(tv.k.endpoint, key))
		}
	}
	// As the taxonomy specs read them (the read cache's answers): streamed,
	// their pages kept slim.
	singles := t.Pages.ReadStreamed(ctx, "data.pages", paths...)
	for _, ex := range singles {
		v.data[ex] = ex.Get("data")
	}
	for i := range v.terms {
		n := len(v.terms[i].sample)
		v.terms[i].singles, singles = singles[:n], singles[n:]
	}
	keys := sortedKeys(v.pages)
	for i, ex := range readAll(ctx, t, "pages", keys) {
		v.data[ex] = ex.Get("data")
		v.pages[keys[i]] = ex
	}
	return v
}

// pagesReadAlone is how many of the pages the sampled terms name are read
// with GET /api/pages/{key}, per kind of term.
const pagesReadAlone = 2

func sortedKeys(m map[string]*client.Exchange) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// exchanges are the reads v holds, for a spec's evidence.
func (v siteViews) exchanges() []*client.Exchange {
	out := []*client.Exchange{v.listingEx}
	for _, tv := range v.terms {
		out = append(out, tv.listEx)
		out = append(out, tv.singles...)
	}
	for _, key := range sortedKeys(v.pages) {
		out = append(out, v.pages[key])
	}
	return out
}

// ok reports whether ex answered 200 with data (as it came), an object.
func ok(ex *client.Exchange, data map[*client.Exchange]gjson.Result) bool {
	return ex != nil && ex.Err == nil && ex.Status == http.StatusOK && data[ex].IsObject()
}

// judgePages: PAGE-VIEWS-AGREE on the site's pages: each page's item in
// the listing of every type, its single view, and its objects among the
// pages of the tags and categories read.
func (v siteViews) judgePages(t *framework.Fixture) {
	t.Judged(v.exchanges()...)
	var others []pageRef // the views besides the listing's
	for _, key := range sortedKeys(v.pages) {
		if ex := v.pages[key]; ok(ex, v.data) {
			others = append(others, pageRef{name: "GET /api/pages/" + key, ex: ex, obj: v.data[ex]}.identified())
		}
	}
	inTerm := map[string][]coverage.ID{} // the pages cells of the terms showing a page
	for _, tv := range v.terms {
		for i, ex := range tv.singles {
			if !ok(ex, v.data) {
				continue
			}
			pages := pagelist.PageItems(ex)
			for at, p := range pages.Scan {
				ref := pageRef{name: fmt.Sprintf("the pages of GET /api/%s/%s", tv.k.endpoint, tv.sample[i]), ex: ex, list: pages, at: at, obj: p}
				ref = ref.identified()
				ref.obj = gjson.Result{} // read again when compared: a term of a big site has many pages
				others = append(others, ref)
				inTerm[ref.key] = append(inTerm[ref.key], tv.cell("pages"))
			}
		}
	}
	check := t.NewCheck()
	keys, byKey := v.groupViews(others, func(r pageRef) (string, bool) { return r.key, true })
	for _, key := range keys {
		// A term's pages compared with the page's other views.
		check.Exercised(inTerm[key]...)
		check.Same("page "+key, pageCell, nil, views(byKey[key]), coverage.PageFields()...)
	}
	// The content, rendered and raw: the listing of every type keeps a
	// digest of each (pagelist.DigestMember), a single view the text.
	for _, p := range v.listing.Scan {
		key := p.Get("key").String()
		single := v.pages[key]
		if !ok(single, v.data) {
			continue
		}
		for _, f := range []string{"content", "contentRaw"} {
			kept, whole := p.Get(pagelist.DigestMember(f)), v.data[single].Get(f)
			if !kept.Exists() || !whole.Exists() {
				continue
			}
			check.Exercised(pageCell(f))
			if kept.Str != pagelist.ContentDigest(whole) {
				check.Problem(single, "page %s: %s differs between GET /api/pages (every type) and GET /api/pages/%s", key, f, key)
			}
		}
	}
	// The key itself: views of one page (one uuid) give it one key.
	_, byUUID := v.groupViews(others, func(r pageRef) (string, bool) { return r.uuid, r.uuid != "" })
	for _, uuid := range slices.Sorted(maps.Keys(byUUID)) {
		check.Same("the page of uuid "+uuid, pageCell, nil, views(byUUID[uuid]), "key")
	}
	check.Expect("a page reads the same in every answer that shows it (2.1)")
}

// pageRef is one view of a page: an object held (obj), or page at of a
// list the run kept (on disk when long), read when compared; key and
// uuid identify it (strings of their own: a part of a page's text would
// keep the whole page in memory).
type pageRef struct {
	name      string
	ex        *client.Exchange
	obj       gjson.Result
	list      pagelist.PageList
	at        int
	key, uuid string
}

// identified is r with its key and uuid (a uuid only when it is a
// non-empty string), read from its object.
func (r pageRef) identified() pageRef {
	r.key = strings.Clone(r.obj.Get("key").String())
	if u := r.obj.Get("uuid"); u.Type == gjson.String {
		r.uuid = strings.Clone(u.Str)
	}
	return r
}

// views reads the objects of refs, to compare.
func views(refs []pageRef) []coverkit.View {
	out := make([]coverkit.View, len(refs))
	for i, r := range refs {
		obj := r.obj
		if !obj.Exists() {
			obj = r.list.At(r.at)
		}
		out[i] = coverkit.View{Name: r.name, Ex: r.ex, Obj: obj}
	}
	return out
}

// groupViews groups the views of the site's pages (the listing's, then
// others) by what of returns (their key, or their uuid) and keeps the
// groups of two views or more, in the order first seen: what the listing
// of a site of many pages costs here is a count a page (of a hash), and a
// reference to each page in a group, not a view.
func (v siteViews) groupViews(others []pageRef, of func(pageRef) (string, bool)) ([]string, map[string][]pageRef) {
	seed := maphash.MakeSeed()
	count := map[uint64]int32{} // a false match only groups a page alone: nothing to compare
	// A listed page as a reference: borrowed (key and uuid parts of the
	// page lent by Scan) while counted, identified when kept.
	listed := func(at int, p gjson.Result) pageRef {
		ref := pageRef{name: "GET /api/pages (every type)", ex: v.listingEx, list: v.listing, at: at}
		ref.key = p.Get("key").String()
		if u := p.Get("uuid"); u.Type == gjson.String {
			ref.uuid = u.Str
		}
		return ref
	}
	for at, p := range v.listing.Scan {
		if s, ok := of(listed(at, p)); ok {
			count[maphash.String(seed, s)]++
		}
	}
	for _, o := range others {
		if s, ok := of(o); ok {
			count[maphash.String(seed, s)]++
		}
	}
	var order []string
	groups := map[string][]pageRef{}
	add := func(ref pageRef) {
		if s, ok := of(ref); ok && count[maphash.String(seed, s)] > 1 {
			if _, seen := groups[s]; !seen {
				order = append(order, s)
			}
			groups[s] = append(groups[s], ref)
		}
	}
	for at, p := range v.listing.Scan {
		if ref := listed(at, p); count[maphash.String(seed, ref.key)] > 1 || count[maphash.String(seed, ref.uuid)] > 1 {
			ref.key, ref.uuid = strings.Clone(ref.key), strings.Clone(ref.uuid) // kept: strings of their own
			add(ref)                                                            // its object read again when compared
		}
	}
	for _, o := range others {
		add(o)
	}
	return order, groups
}

func pageCell(f string) coverage.ID { return coverage.CellID("page", f, coverage.Views) }

// judgeAgree: TAG-VIEWS-AGREE / CAT-VIEWS-AGREE: each term of the sample in
// the list and in its single view.
func (tv termViews) judgeAgree(t *framework.Fixture) {
	t.Judged(append([]*client.Exchange{tv.listEx}, tv.singles...)...)
	if len(tv.items) == 0 {
		verdicts.NotChecked("GET /api/%s lists no %s to compare (%s)", tv.k.endpoint, tv.k.noun, match.Outcome(tv.listEx))
	}
	check := t.NewCheck()
	for i, ex := range tv.singles {
		if !ok(ex, tv.data) {
			continue // GET-SHAPE's concern
		}
		key := tv.sample[i]
		check.Same(tv.k.noun+" "+key, tv.cell, sameTermField, []coverkit.View{
			{Name: "GET /api/" + tv.k.endpoint, Ex: tv.listEx, Obj: tv.items[key]},
			{Name: "GET /api/" + tv.k.endpoint + "/" + key, Ex: ex, Obj: tv.data[ex]},
		}, "key", "name", "description", "template", "list")
	}
	check.Expect(fmt.Sprintf("a %s reads the same in GET /api/%s and GET /api/%s/{key} (%s)", tv.k.noun, tv.k.endpoint,
		tv.k.endpoint, tv.k.section))
}

// cell is the views cell of a term field.
func (tv termViews) cell(f string) coverage.ID {
	section := "tag"
	if tv.k.endpoint == "categories" {
		section = "category"
	}
	return coverage.CellID(section, f, coverage.Views)
}

// sameTermField compares a term's field in two views: list as a set of
// page keys (no order is stated), the others as JSON.
func sameTermField(f string, a, b gjson.Result) bool {
	if f == "list" {
		return coverkit.SameSet(a, b)
	}
	return readback.Same(a, b)
}

// judgeTagNames: TAG-NAME-IN-PAGES on the site's pages: the name each
// page's tags object gives a key is the tag's name in the list and in its
// single view.
func (v siteViews) judgeTagNames(t *framework.Fixture) {
	tags := v.terms[0]
	t.Judged(v.exchanges()...)
	names := map[string][]coverkit.View{}
	for key, item := range tags.items {
		names[key] = append(names[key], coverkit.View{Name: "GET /api/tags", Ex: tags.listEx, Obj: item})
	}
	for i, ex := range tags.singles {
		if ok(ex, v.data) {
			names[tags.sample[i]] = append(names[tags.sample[i]],
				coverkit.View{Name: "GET /api/tags/" + tags.sample[i], Ex: ex, Obj: v.data[ex]})
		}
	}
	spelled := TagSpellings{}
	for _, p := range v.listing.Scan {
		spelled.Add(p)
	}
	for _, ex := range tags.singles {
		if ok(ex, v.data) {
			for _, p := range pagelist.PageItems(ex).All() {
				spelled.Add(p)
			}
		}
	}
	check := t.NewCheck()
	for _, p := range v.listing.Scan {
		CheckTagNames(check, v.listingEx, p, names, spelled)
	}
	for _, ex := range tags.singles {
		if ok(ex, v.data) {
			for _, p := range pagelist.PageItems(ex).All() {
				CheckTagNames(check, ex, p, names, spelled)
			}
		}
	}
	check.Expect("the name a page's tags object gives a tag key is the tag's name (2.1, 2.2); where the pages of a tag " +
		"spell its name differently, the tag's name is one of their spellings")
}

// TagSpellings holds, by tag key, the names pages give it (as raw JSON),
// each once.
type TagSpellings map[string][]string

// Add records the names page's tags object gives its keys.
func (s TagSpellings) Add(page gjson.Result) {
	page.Get("tags").ForEach(func(key, name gjson.Result) bool {
		if !slices.Contains(s[key.Str], name.Raw) {
			s[key.Str] = append(s[key.Str], name.Raw)
		}
		return true
	})
}

// CheckTagNames adds to check what page (an object of ex) gives as the name
// of each of its tags that names knows (the tag's views by key), against
// each of those views' name.
//
// Where the pages of a tag spell its name differently (spelled: "News" on
// one, "NEWS" on another, one key), a page may show the name it was given
// and the tag's views one of those names: the host keeps each page's own
// spelling and names the tag after its newest page (2.1 and 2.2 read as
// one name per tag, or as each page's own).
func CheckTagNames(check *coverkit.Check, ex *client.Exchange, page gjson.Result, names map[string][]coverkit.View, spelled TagSpellings) {
	tags := page.Get("tags")
	if !tags.IsObject() {
		return // PAGE-TAGS-MAP's and the shape rules' concern
	}
	tags.ForEach(func(key, name gjson.Result) bool {
		spellings := spelled[key.Str]
		for _, view := range names[key.Str] {
			check.Exercised(coverage.CellID("tag", "name", coverage.Views))
			got := view.Obj.Get("name")
			switch {
			case len(spellings) > 1 && !slices.ContainsFunc(spellings, func(s string) bool { return readback.Same(got, gjson.Parse(s)) }):
				check.Problem(ex, "the pages of tag %q spell its name %s; %s names it %s, none of them", key.Str,
					strings.Join(spellings, ", "), view.Name, pagelist.JSONText(got))
			case len(spellings) <= 1 && !readback.Same(got, name):
				check.Problem(ex, "page %s gives tag %q the name %s; %s names it %s", match.Show(page.Get("key")), key.Str,
					name.Raw, view.Name, pagelist.JSONText(got))
			}
		}
		return true
	})
}
