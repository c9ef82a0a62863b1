// Package writes checks the page lifecycle of the spec: create (4.3), the
// page types (3), edit (4.4), delete (4.5) and writes to hierarchical keys
// (2.1). Every page it creates carries the run marker and is deleted again,
// also when a spec fails. (The request-body rules of section 1 are
// suites/protocol's.)
package writes

import (
	"context"

	. "github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// suite is the run's fixture and the fixtures of the page write specs: a
// few pages, each created, edited, read back and deleted by one chain of
// requests, whose answers carry the checks of many rules. The chains run
// side by side (one group); each spec judges its share of one chain.
type suite struct {
	t *framework.Fixture
	k kit
	g *framework.Group
	// categories is GET /api/categories, read once for the chains that
	// send a category.
	categories func(ctx context.Context) *client.Exchange

	hierarchy *chain[*hierarchy] // hierarchy.go
	full      *chain[*fullPage]  // fullpage.go
	form      *chain[*formPage]  // formpage.go
	// Pages created with one type and edited to others (types.go).
	published, static, sticky, scheduled *chain[*typedPage]
	// Refused writes (refusals.go).
	invalidCreate              *chain[*invalidCreate]
	editMissing, deleteMissing *chain[*missingKey]
	// A create whose slug another page's key has (sideeffects.go).
	collision *chain[*collision]
	// deletion is what the views showed after the static chain's delete,
	// judged again on the listing of every page at the run's end (nil
	// until the chain made it).
	deletion *seen
	// missing is the edit of a key no page has, whose key the listing of
	// every page at the run's end must not list either (nil until made).
	missing *missingKey
}

// Register adds the specs of the page lifecycle for target t, in one
// top-level container: one group, whose chains are made side by side when
// its first spec runs (see chain). Pages are drafts unless the rule needs
// another type; the published, static and sticky pages carry a date far in
// the past. The sections are in the order of the chains' leads (see
// judgeOn): the section of a chain's lead comes before every other section
// that judges the chain.
func Register(t *framework.Fixture) {
	registerSiteModel(t)
	var s *suite
	Describe("Page writes", framework.PhaseWrites, func() {
		s = &suite{t: t, k: kit{t}, g: t.NewGroup(framework.PhaseWrites)}
		s.categories = framework.Share(s.g, func(ctx context.Context) *client.Exchange { return t.Read(ctx, "/api/categories", nil) })
		s.hierarchy = newChain(s, s.makeHierarchy)
		s.full = newChain(s, s.makeFullPage)
		s.form = newChain(s, s.makeFormPage)
		s.published = newChain(s, s.makePublished)
		s.static = newChain(s, s.makeStatic)
		s.sticky = newChain(s, s.makeSticky)
		s.scheduled = newChain(s, s.makeScheduled)
		s.invalidCreate = newChain(s, s.makeInvalidCreate)
		s.editMissing = newChain(s, s.makeEditMissing)
		s.deleteMissing = newChain(s, s.makeDeleteMissing)
		s.collision = newChain(s, s.makeCollision)

		Describe("4.3 POST /api/pages", Label(spec.CreatePage.Label()), s.registerCreate)
		Describe("4.5 DELETE /api/pages/{key}", Label(spec.DeletePage.Label()), s.registerDelete)
		Describe("4.4 PUT /api/pages/{key}", Label(spec.EditPage.Label()), s.registerEdit)
		Describe("3 Page types", s.registerTypes)
		Describe("2.1 Writes to parent/child keys", s.registerHierarchy)
		Describe("4.3-4.5, 7 What refused and colliding writes leave", s.registerSideEffects)
		Describe("2.1, 2.2, 2.3, 4.1 Writes show everywhere", s.registerShown)
	})
	// After every write of the run: the listing of every page that its
	// sweep reads anyway (framework.RunPagesAtEnd).
	Describe("3.3 What the run's deletes leave", framework.PhaseRunEnd, func() {
		t.It("PAGE-DELETE-GONE", s.judgeGoneAtEnd, framework.Case("the listing of every page at the run's end does not list the deleted page"))
	})
	Describe("4.4, 7 What a refused edit of a missing key leaves", framework.PhaseRunEnd, func() {
		t.It("PAGE-REFUSED-WRITE-NO-EFFECT", s.judgeMissingAtEnd,
			framework.Case("the listing of every page at the run's end does not list the key a refused edit addressed"), spec.EditPage)
	})
}

// registerShown checks that the run's writes show in every view: the page
// list under the filters that should and should not show a page, the
// single page, the tag and category views (shown.go), and that the answer
// of each write is the page as then read.
func (s *suite) registerShown() {
	const runPages = "the run's pages, after their writes"
	written := func(p *typedPage) []*seen { return p.views }
	judgeOn(s, s.full, "PAGE-VIEWS-AGREE", s.judgeViewsOfWrites, framework.Case("the answers of a create and two edits"), framework.Writes)
	judgeOn(s, s.published, "PAGE-VIEWS-AGREE", func(_ SpecContext, p *typedPage) { s.judgePageViews(written(p)) },
		framework.Case(runPages+": a published page created and edited"), framework.Writes)
	judgeOn(s, s.scheduled, "PAGE-VIEWS-AGREE", func(_ SpecContext, p *typedPage) { s.judgePageViews(written(p)) },
		framework.Case(runPages+": a page published by an edit"), framework.Writes)
	published := "a published page created, then edited to static"
	scheduled := "a page published by an edit"
	static := "a page with a tag and a category, deleted"
	on := func(c *chain[*typedPage], id, name string, judge func(p *typedPage)) {
		judgeOn(s, c, id, func(_ SpecContext, p *typedPage) { judge(p) }, framework.Case(runPages+": "+name), framework.Writes)
	}
	for _, c := range []struct {
		page *chain[*typedPage]
		name string
	}{{s.published, published}, {s.scheduled, scheduled}, {s.static, static}} {
		on(c.page, "PAGE-LIST-TYPE-FILTERS", c.name, func(p *typedPage) { s.judgeListedAfterWrites(withGone(p)) })
	}
	// A term taken off a page (an edit), or a page deleted: its views drop it.
	for _, c := range []struct {
		page *chain[*typedPage]
		name string
	}{{s.published, published}, {s.static, static}} {
		on(c.page, "TAG-LIST-CONSISTENT", c.name, func(p *typedPage) { s.judgeTermsDropPage(tagKind, withGone(p)) })
		on(c.page, "CAT-LIST-CONSISTENT", c.name, func(p *typedPage) { s.judgeTermsDropPage(catKind, withGone(p)) })
	}
	// A page published with a term (a create, an edit): its views name it.
	for _, c := range []struct {
		page *chain[*typedPage]
		name string
	}{{s.published, published}, {s.scheduled, scheduled}} {
		on(c.page, "TAG-LIST-COMPLETE", c.name, func(p *typedPage) { s.judgeTermsNamePage(tagKind, p.views) })
		on(c.page, "CAT-LIST-COMPLETE", c.name, func(p *typedPage) { s.judgeTermsNamePage(catKind, p.views) })
		on(c.page, "TAG-NAME-IN-PAGES", c.name, func(p *typedPage) { s.judgeTermViews(tagKind, true, p.views) })
	}
	// The term lists are read after the published page's create.
	on(s.published, "TAG-VIEWS-AGREE", published, func(p *typedPage) { s.judgeTermViews(tagKind, false, p.views) })
	on(s.published, "CAT-VIEWS-AGREE", published, func(p *typedPage) { s.judgeTermViews(catKind, false, p.views) })
	judgeOn(s, s.static, "PAGE-DELETE-GONE", func(_ SpecContext, p *typedPage) { s.judgeGoneEverywhere(p.gone) },
		framework.Case("no listing, tag or category view names the deleted page"))
}

// withGone is what the views showed after each write of p, its delete
// included.
func withGone(p *typedPage) []*seen {
	if p.gone == nil {
		return p.views
	}
	return append(append([]*seen(nil), p.views...), p.gone)
}

func (s *suite) registerCreate() {
	judgeOn(s, s.hierarchy, "PAGE-CREATE-201", judgeCreate201)
	judgeOn(s, s.full, "PAGE-CREATE-FIELDS", s.judgeCreateFields)
	judgeOn(s, s.sticky, "PAGE-CREATE-SLUG-FROM-TITLE", s.judgeSlugFromTitle)
	judgeOn(s, s.form, "PAGE-TITLE-ENCODED", s.judgeTitleForm, framework.Case("form body"))
	judgeOn(s, s.invalidCreate, "PAGE-CREATE-INVALID-TYPE", s.judgeCreateInvalidType)
	judgeOn(s, s.hierarchy, "PAGE-CREATE-PARENT", s.judgeCreateParent)
	judgeOn(s, s.full, "PAGE-TITLE-ENCODED", s.judgeTitleJSON, framework.Case("JSON body"))
	judgeOn(s, s.full, "PAGE-CONTENT-MARKDOWN", s.judgeMarkdown)
	judgeOn(s, s.full, "PAGE-TAGS-MAP", s.judgeTagsMap)
	judgeOn(s, s.full, "PAGE-COVER-IMAGE-ABSOLUTE", s.judgeCoverImage,
		framework.Case("a page created with a cover image filename"), framework.Writes)
}

func (s *suite) registerDelete() {
	judgeOn(s, s.static, "PAGE-DELETE-OK", judgeDeleteOK)
	judgeOn(s, s.static, "PAGE-DELETE-GONE", s.judgeDeleteGone)
	judgeOn(s, s.deleteMissing, "PAGE-DELETE-404", judgeMissing404)
}

func (s *suite) registerEdit() {
	judgeOn(s, s.scheduled, "PAGE-EDIT-OK", s.judgeEditOK)
	judgeOn(s, s.published, "PAGE-EDIT-INVALID-400", s.judgeEditInvalid)
	judgeOn(s, s.editMissing, "PAGE-EDIT-404", judgeMissing404)
	judgeOn(s, s.full, "PAGE-EDIT-PARTIAL", s.judgePartial)
	judgeOn(s, s.published, "PAGE-EDIT-KEY-CHANGE", func(_ SpecContext, p *typedPage) {
		s.judgeKeyChange(p, "title changed")
	}, framework.Case("title changed"))
	// slug is not listed for edit (4.4): a server may ignore it, or refuse
	// it with 400 (then this case is not checked).
	judgeOn(s, s.static, "PAGE-EDIT-KEY-CHANGE", func(_ SpecContext, p *typedPage) {
		s.judgeKeyChange(p, "title and slug changed")
	}, framework.Case("title and slug changed"))
	judgeOn(s, s.static, "PAGE-UUID-STABLE", s.judgeUUIDStable)
}

// registerTypes checks PAGE-TYPE-ROUNDTRIP for each type, on create and on
// edit. Published, static and sticky pages get a past date (a future one
// may legitimately make them scheduled); scheduled gets a future date. On
// edit each type is reached from another: draft from scheduled, published
// from draft, static from published, sticky from static, scheduled from
// sticky.
func (s *suite) registerTypes() {
	for _, c := range []struct {
		typ  string
		page *chain[*typedPage]
	}{{"published", s.published}, {"static", s.static}, {"sticky", s.sticky}, {"scheduled", s.scheduled}} {
		judgeOn(s, c.page, "PAGE-TYPE-ROUNDTRIP", func(_ SpecContext, p *typedPage) {
			s.judgeTypeCreate(c.typ, p.created, p.read)
		}, framework.Case("create with type "+c.typ), spec.CreatePage)
	}
	judgeOn(s, s.full, "PAGE-TYPE-ROUNDTRIP", func(_ SpecContext, p *fullPage) {
		s.judgeTypeCreate("draft", p.created, p.read)
	}, framework.Case("create with type draft"), spec.CreatePage)

	for _, c := range []struct {
		from, typ string
		page      *chain[*typedPage]
		edit      int // which edit of the page
	}{
		{"scheduled", "draft", s.scheduled, 0},
		{"draft", "published", s.scheduled, 1},
		{"published", "static", s.published, 0},
		{"static", "sticky", s.static, 0},
		{"sticky", "scheduled", s.sticky, 0},
	} {
		judgeOn(s, c.page, "PAGE-TYPE-ROUNDTRIP", func(_ SpecContext, p *typedPage) {
			s.judgeTypeEdit(p, c.edit, c.from, c.typ)
		}, framework.Case("edit to type "+c.typ), spec.EditPage)
	}
}

func (s *suite) registerHierarchy() {
	judgeOn(s, s.hierarchy, "PAGE-EDIT-HIERARCHICAL", s.judgeEditHierarchical, spec.EditPage)
	judgeOn(s, s.hierarchy, "PAGE-DELETE-HIERARCHICAL", judgeDeleteHierarchical, spec.DeletePage, spec.GetPage)
}
