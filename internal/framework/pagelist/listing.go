package pagelist

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/spool"
)

// A whole-site listing (numberOfItems=-1) is read as a stream
// (client.Stream): each page object is looked at once, as it arrives, by
// the checks that need the whole object (PageCheck, on the listing of
// every type), and only a slim copy of it is kept: the members the
// whole-site rules compare (slimMembers: keys, types, tags, categories,
// uuids, slugs and links), or, for the other listings, whose rules compare
// keys and types, fewer (briefMembers). The copies of a listing past a
// few dozen pages are kept on disk (PageList, internal/spool), so that
// memory does not grow with the site (16 bytes a page), and an answer of
// any size is checked in full. The read cache keeps the slim
// listing, so every rule of the run that asks for the same listing shares
// one read.

// maxListed bounds the pages a listing keeps: far more than any site the
// suite has met; the stream stops there and a larger listing is not
// compared (Listing.Problem says so) rather than allowed to take the
// memory of the machine.
const maxListed = 100_000

// Listing is every page a query of the page list matches, as read once.
type Listing struct {
	// Pages are the slim page objects (slimMembers only; briefMembers
	// for a listing of some types only), in the order listed.
	Pages PageList
	// Ex is the exchange that gave them (the last page of a walk).
	Ex *client.Exchange
	// Problem says why no consistent listing could be had ("" when
	// Pages holds every matching page).
	Problem string
	// found holds each page check's findings.
	found map[string]*checkFindings
}

// pageFold keeps a slim copy of every page object of a listing and runs
// the page checks on the whole object. Past spillAt bytes of copies it
// keeps them on disk (PageList).
type pageFold struct {
	view   pageView
	checks []PageCheck
	pages  []gjson.Result
	found  map[string]*checkFindings
	size   int64 // what the pages kept in memory weigh
	over   bool  // more than maxListed pages
	// refs are the pages once spilled to store (the view's pageStore's
	// file); failed is why a page could not be kept there.
	store  *spool.Spool
	refs   []spool.Ref
	failed error
}

func newPageFold(v pageView) *pageFold {
	f := &pageFold{view: v, checks: v.checks, found: map[string]*checkFindings{}}
	for _, c := range v.checks {
		f.found[c.Name] = &checkFindings{}
	}
	return f
}

func (f *pageFold) Item(raw []byte) {
	if f.kept() >= maxListed {
		f.over = true
		return
	}
	if len(f.checks) > 0 {
		page := gjson.ParseBytes(raw)
		for _, c := range f.checks {
			if found := f.found[c.Name]; !found.done() {
				found.add(f.kept(), page, c.Check(page))
			} else {
				found.stopped = true
			}
		}
	}
	f.keep(f.view.slim(raw))
}

// keep keeps one page's copy: in memory, or on disk once the copies kept
// in memory pass spillAt.
func (f *pageFold) keep(page string) {
	if f.store != nil {
		f.spill(page)
		return
	}
	f.pages = append(f.pages, gjson.Parse(page))
	f.size += int64(len(page)) + 64
	if f.size > spillAt {
		if f.store = f.view.store.get(); f.store != nil {
			for _, p := range f.pages {
				f.spill(p.Raw)
			}
			f.pages, f.size = nil, 0
		}
	}
}

func (f *pageFold) spill(page string) {
	r, err := f.store.Append(page)
	if err != nil {
		f.failed = err
	}
	f.refs = append(f.refs, r)
}

// kept is how many pages the fold has kept, in memory or on disk.
func (f *pageFold) kept() int { return len(f.pages) + len(f.refs) }

// Full reports that the fold keeps no more pages (maxListed, or the disk
// failed): the stream stops there.
func (f *pageFold) Full() bool { return f.over || f.failed != nil }

func (f *pageFold) Value() (any, int64) {
	v := &foldedListing{pages: PageListOf(f.pages), found: f.found, over: f.over}
	if f.store == nil {
		return v, f.size
	}
	if f.failed != nil {
		v.problem = "the pages it listed could not be kept on disk to compare with: " + f.failed.Error()
	}
	refs := slices.Clip(f.refs)
	if cap(f.refs) > len(f.refs)+len(f.refs)/8 { // kept for the run: no room to grow
		refs = slices.Clone(f.refs)
	}
	v.pages = PageList{store: f.store, refs: refs}
	return v, int64(len(refs))*16 + 64
}

// foldedListing is a pageFold's value (client.Exchange.Folded).
type foldedListing struct {
	pages   PageList
	only    []string // the keys a keyed fold kept (kept.go); nil: every page
	found   map[string]*checkFindings
	over    bool
	problem string // the pages could not be kept
}

// slimMembers are the members of a page object a listing keeps: those the
// whole-site rules compare (keys, types, tags and categories, uuids,
// slugs, links). A rule that compares another member across the site adds
// it here; one that judges a page whole does so as the listing streams
// (Reader.Check).
var slimMembers = []string{"key", "uuid", "title", "description", "type", "slug", "date", "dateRaw", "dateUTC", "tags",
	"username", "category", "permalink", "coverImage", "coverImageFilename"}

// digestMembers are the members a listing of every type keeps as a digest
// only (DigestMember): the rendered and raw content, kilobytes a page,
// which PAGE-VIEWS-AGREE compares with other views all the same.
var digestMembers = []string{"content", "contentRaw"}

// DigestMember is the name under which a slim page keeps the digest of
// member (ContentDigest of its value).
func DigestMember(member string) string { return member + "#sha256" }

// ContentDigest is the digest of a JSON value as parsed: of a string, its
// text (escapes do not matter); of anything else, its JSON.
func ContentDigest(v gjson.Result) string {
	text := v.Raw
	if v.Type == gjson.String {
		text = v.Str
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// briefMembers are what the other listings keep: their rules compare keys
// and types (and, on a few small pages, tags).
var briefMembers = []string{"key", "type", "tags"}

// pageView is how a listing is read: the checks run on each whole page
// object, and the members kept of it.
type pageView struct {
	name    string
	checks  []PageCheck
	members []string
	store   *pageStore // where a long listing keeps its pages
	// Made once for every page of a listing: the members' names quoted,
	// and the gjson paths of the members and then of the digests.
	quoted  []string
	paths   []string
	digests []string // members kept as a digest (DigestMember), quoted
	// digestIf, when set, names the pages (by key) whose digests are kept:
	// those of the others are not made.
	digestIf func(key string) bool
}

// newPageView is a view keeping members of each page, and a digest of
// each of digests; its name (which tells reads apart in the read cache)
// says which.
func newPageView(name string, checks []PageCheck, members, digests []string) pageView {
	names := make([]string, len(checks))
	for i, c := range checks {
		names[i] = c.Name
	}
	if len(digests) > 0 {
		name += " with digests of " + strings.Join(digests, ", ")
	}
	v := pageView{name: name + "; checks: " + strings.Join(names, ", "), checks: checks, members: members}
	for _, m := range members {
		v.quoted = append(v.quoted, strconv.Quote(m))
		v.paths = append(v.paths, gjson.Escape(m))
	}
	for _, m := range digests {
		v.digests = append(v.digests, strconv.Quote(DigestMember(m)))
		v.paths = append(v.paths, gjson.Escape(m))
	}
	return v
}

// slim is a page object with the view's members only, made without
// parsing (or copying) the whole object: the members and digested members
// are looked up in raw in one pass, and only those found are copied.
// Anything but an object is kept as it is.
func (pv pageView) slim(raw []byte) string {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return string(raw)
	}
	all := gjson.GetManyBytes(raw, pv.paths...)
	found, digested := all[:len(pv.members)], all[len(pv.members):]
	if pv.digestIf != nil && !pv.digestIf(gjson.GetBytes(raw, "key").Str) {
		digested = nil
	}
	var digests []string
	for i, v := range digested {
		if v.Exists() {
			digests = append(digests, pv.digests[i]+":"+strconv.Quote(ContentDigest(v)))
		}
	}
	size := 2
	for i, v := range found {
		if v.Exists() {
			size += len(pv.quoted[i]) + len(v.Raw) + 2
		}
	}
	for _, d := range digests {
		size += len(d) + 1
	}
	var b strings.Builder
	b.Grow(size) // exactly: the string keeps the builder's buffer
	b.WriteByte('{')
	for i, v := range found {
		if !v.Exists() {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(pv.quoted[i])
		b.WriteByte(':')
		b.WriteString(v.Raw)
	}
	for _, d := range digests {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(d)
	}
	b.WriteByte('}')
	return b.String()
}

// viewFor is how a listing with query q is read: the listing of every type
// (the one the whole-site rules share, read once for the run) with the
// run's page checks and the slim members; the others, whose rules compare
// keys and types, unchecked (a check of the whole object costs as much as
// it is large) and brief.
func (r *Reader) viewFor(q url.Values) pageView {
	for _, ty := range PageTypes() {
		if q.Get(ty) != "true" {
			return r.pageView("brief pages", nil, briefMembers, nil)
		}
	}
	return r.pageView("slim pages", r.checks.get(), slimMembers, digestMembers)
}

// pageView is newPageView keeping a long listing's pages in the run's
// pageStore.
func (r *Reader) pageView(name string, checks []PageCheck, members, digests []string) pageView {
	v := newPageView(name, checks, members, digests)
	v.store = &r.store
	return v
}

// streamPagesAt is the stream of the array of page objects at path
// through a page fold of view v; its name tells listings read another way
// apart in the read cache.
func streamPagesAt(path string, v pageView) *client.Stream {
	return &client.Stream{Path: path, Name: v.name, New: func() client.Fold { return newPageFold(v) }}
}

// Reader.ReadStreamed sends GET path for each of paths side by side (All),
// each read as a stream whose array of page objects at arrayPath (for
// example "data.pages" of a tag's single view) goes through the run's page
// checks and is kept slim (slimMembers: PAGE-VIEWS-AGREE compares a term's
// pages with the page's other views): PageItems gives those pages,
// PassCheckOnStream what the checks found, and the body is the rest of the
// answer with that array empty.
func (r *Reader) ReadStreamed(ctx context.Context, arrayPath string, paths ...string) []*client.Exchange {
	reqs := make([]client.Request, len(paths))
	for i, p := range paths {
		reqs[i] = r.StreamedRequest(p, arrayPath)
	}
	return r.all(ctx, reqs...)
}

// Reader.Read reads one answer of the page list with query q as a stream:
// the exchange, and what the fold kept of its pages (nil unless the whole
// answer was one JSON document). The run's page checks look at each page
// of a listing of every type.
func (r *Reader) Read(ctx context.Context, q url.Values) (*client.Exchange, *Listing) {
	ex := r.c.Do(ctx, r.streamedList(q))
	return ex, listingOf(ex)
}

// streamedList is GET /api/pages with query q as Read sends it.
func (r *Reader) streamedList(q url.Values) client.Request {
	return client.Request{Method: http.MethodGet, Path: PagesPath, Query: q, Stream: streamPagesAt("data", r.viewFor(q))}
}

// listingOf is what the fold of a listing read by Read kept of its pages.
func listingOf(ex *client.Exchange) *Listing {
	v, _ := ex.Folded().(*foldedListing)
	if v == nil {
		return nil
	}
	l := &Listing{Pages: v.pages, Ex: ex, found: v.found}
	switch {
	case v.over:
		l.Problem = fmt.Sprintf("%s lists more than %d pages, more than this run keeps to compare with", ex.RequestLine(), maxListed)
	case v.problem != "":
		l.Problem = ex.RequestLine() + ": " + v.problem
	}
	return l
}

// Reader.ListAll returns every page matching the type filters of q, as the
// reference a rule's check compares against. It does not judge the server:
// it asks for numberOfItems=-1, read as a stream whatever its size, and
// when that answer is incomplete (its pages differ in number from
// meta.total: PAGE-LIST-ALL's concern), for one page of meta.total items,
// so that a broken -1 does not spill into other rules. Problem is set when
// no consistent listing could be had.
func (r *Reader) ListAll(ctx context.Context, q url.Values) Listing {
	ex, l := r.Read(ctx, QueryWith(q, "numberOfItems", "-1"))
	return r.listAllFrom(ctx, q, ex, l)
}

// Reader.ListAllBeside is ListAll with the requests beside sent side by
// side with its first read (All), for a caller that needs them too before
// it can go on: their exchanges come back in their order.
func (r *Reader) ListAllBeside(ctx context.Context, q url.Values, beside ...client.Request) (Listing, []*client.Exchange) {
	exs := r.all(ctx, append([]client.Request{r.streamedList(QueryWith(q, "numberOfItems", "-1"))}, beside...)...)
	return r.listAllFrom(ctx, q, exs[0], listingOf(exs[0])), exs[1:]
}

// listAllFrom is ListAll once its first read, of numberOfItems=-1,
// answered ex (l what its fold kept).
func (r *Reader) listAllFrom(ctx context.Context, q url.Values, ex *client.Exchange, l *Listing) Listing {
	if l != nil && l.Problem != "" {
		return *l // more pages than a run keeps: a walk would gather as many
	}
	if ex.Truncated {
		// An item or the whole answer passed its bound: walk the list a
		// page at a time instead (the pagination rules judge the walk
		// itself; here it only gathers the pages to compare with).
		return r.walkAll(ctx, q, ex)
	}
	if ex.Err != nil || ex.Status != http.StatusOK || l == nil || !ex.Get("data").IsArray() {
		return Listing{Ex: ex, Problem: fmt.Sprintf("%s did not answer 200 with a data array (%s)", ex.RequestLine(), AnswerStatus(ex))}
	}
	total := ex.Get("meta.total")
	if l.Problem != "" || total.Type != gjson.Number || int(total.Num) == l.Pages.Len() {
		// Without a usable meta.total (PAGE-LIST-SHAPE's concern) the -1
		// answer is the best listing there is.
		return *l
	}
	n := int(total.Num)
	if n > 0 {
		ex2, l2 := r.Read(ctx, QueryWith(q, "numberOfItems", strconv.Itoa(n)))
		if ex2.Err == nil && ex2.Status == http.StatusOK && l2 != nil && l2.Pages.Len() == n {
			return *l2
		}
	}
	return Listing{Ex: ex, Problem: fmt.Sprintf("the pages to compare with could not be listed: numberOfItems=-1 gave %d pages "+
		"while meta.total is %d, and numberOfItems=%d did not give them either", l.Pages.Len(), n, n)}
}
