package writes

// The pages created with one type and edited to another (3): their edits
// also carry the checks of edit (4.4), and one of them, deleted by the
// spec's DELETE, those of delete (4.5).

import (
	"context"
	"maps"
	"net/http"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// typedPage is a page created with one type, read back, then edited to
// other types, each edit read back.
type typedPage struct {
	trail
	created *client.Exchange
	key     string // the page created ("" when the create made none)
	read    *client.Exchange
	edits   []*editStep
	invalid *editStep // an edit with a type outside the five (published page)
	deleted *deletion // the page deleted by the spec's DELETE (static page)
	// views are what the page list and the tag and category views showed
	// after the writes that read them (shown.go), in order; gone is the
	// last of them when it followed a delete.
	views []*seen
	gone  *seen
}

// editStep is one edit of a page and what followed it.
type editStep struct {
	sent map[string]any
	// refused is the first answer when it refused the slug sent (400; slug
	// is not listed for edit, 4.4): the edit went again without it.
	refused  *client.Exchange
	ex       *client.Exchange // the answer to the edit
	from, at string           // the page's key before and after the edit
	read     *client.Exchange // GET of at (nil when not read)
	views    *seen            // what the views showed with read (nil: none read)
}

// deletion is DELETE of a page, reading its key afterwards and deleting it
// again.
type deletion struct{ del, read, again *client.Exchange }

// createTyped creates a page of type typ with fields and reads it back,
// with what lookAfter names from the create's answer (nil: the page alone).
func (s *suite) createTyped(ctx context.Context, typ string, fields map[string]any, lookAfter func(answer *client.Exchange) *look) *typedPage {
	p := &typedPage{}
	body := map[string]any{"type": typ, "date": pastDate}
	if typ == "scheduled" {
		body["date"] = futureDate() // a past date may legitimately publish it
	}
	maps.Copy(body, fields)
	p.created, p.key = s.t.CreatePage(ctx, body)
	p.add(p.created)
	switch {
	case p.key == "":
	case lookAfter != nil:
		v := s.readAfter(ctx, &p.trail, *lookAfter(p.created), p.key, "", p.created)
		v.kinds = createKinds(sentFields(p.created))
		p.read, p.views = v.page, append(p.views, v)
	default:
		p.read = p.add(s.k.read(ctx, p.key))
	}
	return p
}

// edit sends body to the page at key, follows the page where the edit took
// it (candidate: the run-marked key a new title or slug may give it) and,
// when readBack says so, reads it there, with what lookAfter names from the
// edit's answer (nil: the page alone).
func (p *typedPage) edit(ctx context.Context, s *suite, key string, body map[string]any, candidate string,
	readBack func(*client.Exchange) bool, lookAfter func(answer *client.Exchange) *look) *editStep {
	k := s.k
	e := &editStep{sent: body, from: key}
	was := p.lastRead()
	e.ex = p.add(k.edit(ctx, key, body))
	if _, slug := body["slug"]; slug && e.ex.Err == nil && e.ex.Status == http.StatusBadRequest {
		e.refused = e.ex
		retry := maps.Clone(body)
		delete(retry, "slug")
		e.ex = p.add(k.edit(ctx, key, retry))
	}
	var candidates []string
	if candidate != "" {
		candidates = append(candidates, candidate)
	}
	e.at = k.t.FollowEdit(ctx, key, e.ex, candidates...)
	switch {
	case !readBack(e.ex):
	case lookAfter != nil:
		e.views = s.readAfter(ctx, &p.trail, *lookAfter(e.ex), e.at, key, e.ex)
		now, _ := e.views.now()
		e.views.kinds = editKinds(sentFields(e.ex), e.ex, was, now, key, e.at)
		e.read, p.views = e.views.page, append(p.views, e.views)
	default:
		e.read = p.add(k.read(ctx, e.at))
	}
	return e
}

// lastRead is the page as its last read showed it (its data; absent when
// none read it).
func (p *typedPage) lastRead() gjson.Result {
	last := p.read
	for _, e := range p.edits {
		if e.read != nil {
			last = e.read
		}
	}
	if last == nil || last.Err != nil || last.Status != http.StatusOK {
		return gjson.Result{}
	}
	return last.Get("data")
}

// always and succeeded tell edit when to read the page back: after any
// answer, or after a success only (a refused edit leaves nothing to judge
// in the page).
func always(*client.Exchange) bool { return true }

func succeeded(ex *client.Exchange) bool { return ex.Err == nil && ex.Status >= 200 && ex.Status < 300 }

// toType is an edit to type typ, with other fields, read back with what
// lookAfter names (nil: the page alone).
func (p *typedPage) toType(ctx context.Context, s *suite, key, typ string, fields map[string]any, candidate string,
	lookAfter func(answer *client.Exchange) *look) string {
	body := map[string]any{"type": typ}
	maps.Copy(body, fields)
	e := p.edit(ctx, s, key, body, candidate, always, lookAfter)
	p.edits = append(p.edits, e)
	return e.at
}

// makePublished: published, with a tag of the run's, the target's first
// category and a cover image (the listing of published pages and both
// views of the tag and category read beside it); then static with a new
// title, description, content, date, cover image, another tag and the
// second category (PAGE-EDIT-KEY-CHANGE, title changed; the listings of
// published and of static pages, the single views of the old and new tag
// and category and the term lists read beside it); then an edit with a
// type outside the five (PAGE-EDIT-INVALID-400; PAGE-REFUSED-WRITE-NO-EFFECT
// when refused; the listing of static pages and the page's tag and
// category read beside it: no view shows the refused edit).
func (s *suite) makePublished(ctx context.Context) *typedPage {
	cats := s.categoryKeys(ctx)
	fields := map[string]any{"slug": s.t.Marker("type-published"), "tags": s.tagName("Views A"), "coverImage": coverImageFile(s.t)}
	if len(cats) > 0 {
		fields["category"] = cats[0]
	}
	p := s.createTyped(ctx, "published", fields, func(answer *client.Exchange) *look {
		return &look{what: "after its create", listTypes: [][]string{{"published"}}, tags: termKeys(answer.Get("data")),
			cats: cats[:min(1, len(cats))], lists: true}
	})
	if p.key == "" {
		return p
	}
	// Every field the page object shows that an edit can change, so that
	// each view read after it shows each (the write table of the coverage
	// map).
	edit := map[string]any{"title": s.k.title("Retitled"), "tags": s.tagName("Views B"), "date": editedDate,
		"description": "Conformance retitled description " + s.t.RunID, "content": "Conformance retitled content " + s.t.RunID,
		"coverImage": s.t.Marker("cover-retitled") + ".png"}
	if len(cats) > 1 {
		edit["category"] = cats[1]
	}
	before := p.views[0].look
	// The views it left (the old tag and category), those it went to
	// (their pages show it), and the term lists.
	at := p.toType(ctx, s, p.key, "static", edit, s.t.Marker("retitled"), func(answer *client.Exchange) *look {
		return &look{what: "after an edit to static with a new title, tag and category", listTypes: [][]string{{"published"}, {"static"}},
			tags: match.Uniq(append(slices.Clone(before.tags), termKeys(answer.Get("data"))...)), cats: cats[:min(2, len(cats))],
			lists: true}
	})
	// Read back whatever the answer: accepted, the page's type is judged;
	// refused, the page must be as the read after the edit to static shows
	// it (PAGE-REFUSED-WRITE-NO-EFFECT), in every view that shows it.
	p.invalid = p.edit(ctx, s, at, map[string]any{"type": invalidType, "description": "Conformance edit with an invalid type"},
		"", always, func(*client.Exchange) *look {
			last := p.views[len(p.views)-1]
			now, _ := last.now()
			return &look{what: "after an edit refused for its type", listTypes: [][]string{{"static"}}, tags: termKeys(now),
				cats: catKind.carried(now)}
		})
	s.k.remove(ctx, p.invalid.at)
	return p
}

// tagName is a run-marked tag name (whose key the server derives).
func (s *suite) tagName(words string) string { return "Conformance " + s.t.RunID + " " + words }

// categoryKeys are the keys of the categories GET /api/categories lists
// (read once for the group, shown among the evidence of each chain that
// uses it).
func (s *suite) categoryKeys(ctx context.Context) []string {
	ex := s.categories(ctx)
	var keys []string
	if ex.Err == nil && ex.Status == http.StatusOK {
		for _, c := range ex.Get("data").Array() {
			if key := c.Get("key"); key.Type == gjson.String && key.Str != "" {
				keys = append(keys, key.Str)
			}
		}
	}
	return keys
}

// makeStatic: static, with a tag of the run's and the target's first
// category, then sticky with a new title and slug (PAGE-EDIT-KEY-CHANGE
// with slug, PAGE-UUID-STABLE; its old key and the single views of its
// tag and category read beside it: they name it no more by its old key);
// then deleted, read (beside the listing of sticky pages and the views of
// its tag and category: no view names it any more, nor, at the run's
// end, the listing of every page) and deleted again (PAGE-DELETE-OK,
// PAGE-DELETE-GONE).
func (s *suite) makeStatic(ctx context.Context) *typedPage {
	cats := s.categoryKeys(ctx)
	fields := map[string]any{"slug": s.t.Marker("type-static"), "tags": s.tagName("Views D")}
	if len(cats) > 0 {
		fields["category"] = cats[0]
	}
	p := s.createTyped(ctx, "static", fields, nil)
	if p.key == "" {
		return p
	}
	terms := &look{what: "after an edit to sticky with a new title and slug", tags: termKeys(p.created.Get("data")),
		cats: cats[:min(1, len(cats))]}
	at := p.toType(ctx, s, p.key, "sticky", map[string]any{"title": s.k.title("Renamed"), "slug": s.t.Marker("renamed")},
		s.t.Marker("renamed"), func(*client.Exchange) *look { return terms })
	path := pagelist.PagePath(at)
	d := &deletion{del: p.add(s.t.Write(ctx, http.MethodDelete, path, nil))}
	// The listing of the type the page had; that of every type is read
	// at the run's end (judgeGoneAtEnd).
	p.gone = s.readAfter(ctx, &p.trail, look{what: "after its delete", listTypes: [][]string{{"sticky"}},
		tags: terms.tags, cats: terms.cats, lists: true}, at, at, d.del)
	p.gone.kinds = []string{coverage.WriteDelete}
	s.deletion = p.gone
	d.read = p.gone.page
	d.again = p.add(s.t.Write(ctx, http.MethodDelete, path, nil))
	if d.read.Err == nil && d.read.Status == http.StatusNotFound {
		s.t.Ledger.RemovePage(at) // gone: its cleanup has nothing to send
	}
	p.deleted = d
	return p
}

// makeSticky: sticky and created without slug (PAGE-CREATE-SLUG-FROM-TITLE),
// then scheduled.
func (s *suite) makeSticky(ctx context.Context) *typedPage {
	p := s.createTyped(ctx, "sticky", map[string]any{"slug": nil, "title": s.k.title("Slug From Title")}, nil)
	if p.key == "" {
		return p
	}
	at := p.toType(ctx, s, p.key, "scheduled", map[string]any{"date": futureDate()}, "", nil)
	s.k.remove(ctx, at)
	return p
}

// makeScheduled: scheduled, then draft with a new description (PAGE-EDIT-OK),
// then published with a date in the past, a tag of the run's and the
// target's last category (the listing of published pages, the single
// views of the tag and category and the term lists read beside it).
func (s *suite) makeScheduled(ctx context.Context) *typedPage {
	cats := s.categoryKeys(ctx)
	p := s.createTyped(ctx, "scheduled", map[string]any{"slug": s.t.Marker("type-scheduled")}, nil)
	if p.key == "" {
		return p
	}
	at := p.toType(ctx, s, p.key, "draft", map[string]any{"description": "Conformance edited " + s.t.RunID}, "", nil)
	publish := map[string]any{"date": pastDate, "tags": s.tagName("Views C")}
	if len(cats) > 0 {
		publish["category"] = cats[len(cats)-1]
	}
	at = p.toType(ctx, s, at, "published", publish, "", func(answer *client.Exchange) *look {
		return &look{what: "after an edit that published it with a tag and a category", listTypes: [][]string{{"published"}},
			tags: termKeys(answer.Get("data")), cats: cats[len(cats)-min(1, len(cats)):], lists: true}
	})
	s.k.remove(ctx, at)
	return p
}

// judgeTypeCreate: PAGE-TYPE-ROUNDTRIP on a create with type typ.
func (s *suite) judgeTypeCreate(typ string, created, read *client.Exchange) {
	s.k.created(created, "the create with type "+typ)
	if created.Get("data.type").Exists() {
		s.t.ExpectReadBack(bodyCell("type", coverage.Create), created, "data.type", haveType(typ), "the create response")
	}
	s.t.ExpectReadBack(bodyCell("type", coverage.Create), expectRead(read, "its type"), "data.type", haveType(typ), "the page read back")
}

// judgeTypeEdit: PAGE-TYPE-ROUNDTRIP on edit number i of page p, to type
// typ from type from.
func (s *suite) judgeTypeEdit(p *typedPage, i int, from, typ string) {
	needPage(p.created, p.key)
	e := p.edits[i]
	Expect(e.ex).To(match.BeSuccess(http.StatusOK), "the edit from type %s to %s", from, typ)
	if e.ex.Get("data.type").Exists() {
		s.t.ExpectReadBack(bodyCell("type", coverage.Edit), e.ex, "data.type", haveType(typ), "the edit response")
	}
	s.t.ExpectReadBack(bodyCell("type", coverage.Edit), expectRead(e.read, "its type"), "data.type", haveType(typ),
		"the page read back after the edit from "+from)
}

// judgeKeyChange: PAGE-EDIT-KEY-CHANGE on the first edit of p, which sent
// a new title (and a slug, in the case named so): when the key changed,
// the old key, read beside the new one, answers 404 (3.2: the page left
// it; 4.2: no page has it).
func (s *suite) judgeKeyChange(p *typedPage, name string) {
	needPage(p.created, p.key)
	e := p.edits[0]
	if _, slug := e.sent["slug"]; slug && e.refused != nil {
		verdicts.NotChecked("the edit sending slug was refused with HTTP 400; slug is not listed for edit (4.4), so a server may refuse it")
	}
	Expect(e.ex).To(match.BeSuccess(http.StatusOK), "an edit with the %s", name)
	newKey := e.ex.Get("data.key").String()
	Expect(newKey).NotTo(BeEmpty(), match.Evidence(e.ex, "data.key of the edit response"))
	Expect(newKey).To(Equal(e.at), match.Evidence(e.ex, "data.key names where the page now is"))
	got := expectRead(e.read, "under the key the edit returned")
	expectString(got, "data.key", newKey, "the page read under the key the edit returned")
	s.t.ExpectReadBack(bodyCell("title", coverage.Edit), got, "data.title", match.BeEncodedOnce(e.sent["title"].(string)),
		"the page read under the key the edit returned is the edited page")
	if e.views != nil {
		s.markViews(e.views, coverage.ViewSingle)
	}
	if newKey == e.from {
		s.t.Observe("PAGE-EDIT-KEY-CHANGE: an edit with the %s kept the key (the spec allows it)", name)
		return
	}
	Expect(e.views).NotTo(BeNil(), "the old key %s read after the edit", e.from)
	s.markViews(e.views, coverage.ViewOldKey)
	Expect(e.views.left).To(match.HaveHTTPStatus(http.StatusNotFound),
		"the old key %s, read right after the edit moved the page to %s: no page has it any more", e.from, newKey)
}

// judgeUUIDStable: the page is renamed by an edit with a new title and slug
// (by the title alone when the server refuses slug on edit).
func (s *suite) judgeUUIDStable(_ SpecContext, p *typedPage) {
	needPage(p.created, p.key)
	uuid := expectRead(p.read, "its uuid").Get("data.uuid").String()
	e := p.edits[0]
	if e.refused != nil {
		s.t.Observe("PAGE-UUID-STABLE: an edit sending slug was refused with HTTP 400; the page is renamed by its title alone")
	}
	Expect(e.ex).To(match.HaveHTTPStatus(http.StatusOK), "an edit with a new title and slug")
	expectString(expectRead(e.read, "after the rename"), "data.uuid", uuid, "the uuid after the edit")
	if e.at == e.from {
		verdicts.NotChecked("the edit with a new title and slug kept the key, so no rename happened (the uuid did stay the same)")
	}
}

func (s *suite) judgeEditOK(_ SpecContext, p *typedPage) {
	needPage(p.created, p.key)
	e := p.edits[0]
	Expect(e.ex).To(match.BeSuccess(http.StatusOK))
	Expect(e.ex).To(match.MatchSchema("page-response.json"))
	s.t.ExpectReadBack(bodyCell("description", coverage.Edit), e.ex, "data.description", Equal(e.sent["description"]),
		"the updated page object")
}

func (s *suite) judgeEditInvalid(_ SpecContext, p *typedPage) {
	needPage(p.created, p.key)
	ex := p.invalid.ex
	if succeeded(ex) {
		// Accepted: the spec does not list which values an edit validates,
		// so a server may ignore or replace the value; it may not store it
		// (a page's type is one of five, 2.1).
		Expect(ex).To(match.BeSuccess(http.StatusOK), "an accepted edit with type %q", invalidType)
		expectValidType(ex, "the edit response to an edit with type "+invalidType, true)
		after := expectRead(p.invalid.read, "after the accepted edit")
		expectValidType(after, "the page edited with type "+invalidType, false)
		s.t.Observe("PAGE-EDIT-INVALID-400: an edit with type %q was accepted and the page's type is %s",
			invalidType, after.Get("data.type").Raw)
		return
	}
	// Refused: that the page is as it was is PAGE-REFUSED-WRITE-NO-EFFECT's
	// (judgeRefusedEdit).
	Expect(ex).To(match.BeHandlerError(http.StatusBadRequest), "an edit with type %q", invalidType)
}

// judgeSlugFromTitle: the spec says only that the slug is "derived from the
// title" (4.3), not how: case, separators, stop words, length and suffixes
// are the server's. So the slug must be non-empty, be the page's key, and
// keep some word of the title; the usual derivation
// ("conformance-<run>-slug-from-title", which also carries the run marker)
// is only recorded.
func (s *suite) judgeSlugFromTitle(_ SpecContext, p *typedPage) {
	s.k.created(p.created, "the create without slug")
	title := s.k.title("Slug From Title")
	got := expectRead(p.read, "the page created without slug")
	slug := got.Get("data.slug")
	Expect(slug.Type == gjson.String && slug.Str != "").To(BeTrue(),
		match.Evidence(got, "the page created without slug has a slug (a non-empty string); it is %s", pagelist.JSONText(slug)))
	expectString(got, "data.key", slug.Str, "the key of a top-level page created without slug is its slug")
	Expect(keepsTitleWord(slug.Str, title)).To(BeTrue(),
		match.Evidence(got, "the slug %q is derived from the title %q: it keeps at least one of the title's words", slug.Str, title))
	if usual := s.t.Marker("slug-from-title"); slug.Str != usual {
		s.t.Observe("PAGE-CREATE-SLUG-FROM-TITLE: the title %q gave the slug %q (lowercase words joined by '-' would be %q; the spec does not say how slugs are derived)",
			title, slug.Str, usual)
	}
}

// A deleted page stays in the ledger until it reads as gone: its cleanup
// then sends one more DELETE (404 counts as gone).

func judgeDeleteOK(_ SpecContext, p *typedPage) {
	needPage(p.created, p.key)
	Expect(p.deleted.del).To(match.BeSuccess(http.StatusOK))
	Expect(p.deleted.del).To(match.MatchSchema("delete-response.json"))
}

func (s *suite) judgeDeleteGone(_ SpecContext, p *typedPage) {
	needPage(p.created, p.key)
	Expect(p.deleted.del).To(match.HaveHTTPStatus(http.StatusOK), "the first delete")
	s.markViews(p.gone, coverage.ViewSingle)
	Expect(p.deleted.read).To(match.BeHandlerError(http.StatusNotFound), "reading the deleted page")
	Expect(p.deleted.again).To(match.BeHandlerError(http.StatusNotFound), "deleting it again")
}
