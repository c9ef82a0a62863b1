// Package reads checks the page reads of the spec: the page object (2.1),
// the page list with its filters and pagination (4.1, 8, 9.3) and
// single-page reads (4.2). It creates pages only where the target lacks
// data a rule needs, and removes them again.
package reads

import (
	"context"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/rules/pageobj"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Register adds the specs of the page object (2.1), the page list and its
// pagination (4.1, 8, 9.3) and single-page reads (4.2) for target t.
//
// They read whatever the target holds. The specs of the first container
// need nothing in particular. Those of the second need pages of some kind:
// its BeforeAll adds what the target lacks (a page of each type, a child
// page, a tagged page listed before an untagged one, a page that is not
// published, enough pages for several list pages), as run-marked pages
// deleted after the container, and only when the run may write; otherwise
// the rules concerned are reported not checked with the reason.
//
// The specs of each container are prepared together (framework.Prepare):
// their reads go out side by side when its first spec runs, and each spec
// judges its own. They only read, so they may: nothing one reads changes
// what another sees. Identical reads are sent once (the run's read
// cache), so the specs ask for the same listings with the same queries.
//
// Both containers are in the reads phase. The second writes only on a
// target lacking data, in a write run, and before any of its specs reads:
// in a write run it comes first (framework.PhaseReadsSetUp), before the
// groups of the other reads start, so no other spec sees its pages being
// made, and the writes merely empty the read cache for those that come
// after; in a run that cannot write it is one of the reads.
func Register(t *framework.Fixture) {
	// The shape of every page object of every whole listing, checked as
	// the listing streams by (PAGE-OBJECT-SHAPE, PAGE-LIST-SHAPE).
	t.Pages.Check(pageShape)
	// The paging of every answer to GET /api/pages of the run, whichever
	// spec asked for it (every.go).
	registerEveryAnswer(t)
	Describe("Page reads", framework.PhaseReads, func() {
		k := newKit(t, framework.PhaseReads, &supplies{})
		sections(k.objectSpecs, func() {
			k.listShapeSpecs()
			k.pastEndSpecs()
			k.badPagingSpecs()
		}, k.getSpecs)
	})

	// A run that may write creates what the target lacks before any other
	// read (PhaseReadsSetUp); one that may not creates nothing, and its
	// reads go out with the others of the phase.
	phase := framework.PhaseReadsSetUp
	if !t.CanWrite() {
		phase = framework.PhaseReads
	}
	Describe("Page reads needing pages of some kind", phase, Ordered, ContinueOnFailure, func() {
		k := newKit(t, phase, &supplies{typed: map[string]typedPage{}})
		BeforeAll(func(ctx SpecContext) { k.setUp(ctx) })
		sections(k.slugSpecs, func() {
			k.typeFilterSpecs()
			k.defaultFilterSpec()
			k.sizeSpecs()
			k.walkSpecs()
			k.untaggedSpecs()
		}, k.hierarchicalSpec)
	})
}

// sections files one container's specs under the spec sections they check:
// the page object, the page list and the single page read, with the same
// texts and endpoint labels in both containers.
func sections(object, list, single func()) {
	Describe("2.1 Page object", object)
	Describe("4.1 GET /api/pages", Label(spec.ListPages.Label()), list)
	Describe("4.2 GET /api/pages/{key}", Label(spec.GetPage.Label()), single)
}

// minPages is how many pages (of any type) the pagination specs want: with
// the page size smallSize picks, at least three pages, the last one partly
// filled.
const minPages = 7

// maxPad bounds the default page size up to which the setup creates drafts
// to fill more than one default-size page (a site whose default is larger
// is checked with the pages it has).
const maxPad = 30

// setUp creates, when the run may write, what the target lacks for the
// checks: never fails (a spec whose data is still missing says why).
func (k kit) setUp(ctx context.Context) {
	if !k.t.CanWrite() {
		return
	}
	// The first page of every type, for the default page size (see want
	// below), beside the listing: the page size does not change with the
	// pages made here.
	all, beside := k.t.Pages.ListAllBeside(ctx, pagelist.EveryTypeQuery(),
		client.Request{Method: http.MethodGet, Path: pagelist.PagesPath, Query: pagelist.EveryTypeQuery()})
	first := beside[0]
	if all.Problem != "" {
		k.note("%s", all.Problem)
		return
	}
	items := all.Pages
	created := 0
	// Each page gets a date of its own (unless it has one): the list's
	// order is not specified, and a server sorting by date alone may order
	// pages of equal dates differently from one request to the next, which
	// would make a walk over the pages meaningless.
	dated := func(fields map[string]any) map[string]any {
		if _, ok := fields["date"]; ok {
			return fields
		}
		out := map[string]any{"date": fmt.Sprintf("2001-01-05 %02d:%02d:00", 10+created/60, created%60)}
		for f, v := range fields {
			out[f] = v
		}
		return out
	}
	// drafts counts the drafts of every type's listing and those made
	// (create makes drafts).
	drafts := items.CountOfType("draft")
	create := func(what string, fields map[string]any) string {
		ex, key := k.createPage(ctx, dated(fields))
		if key == "" {
			k.note("creating %s failed (%s)", what, match.Outcome(ex))
		} else {
			created++
			drafts++
		}
		return key
	}
	for _, ty := range pagelist.PageTypes() {
		if !items.Any(pagelist.OfType(ty)) {
			made := k.createOfType(ctx, ty, dated)
			if made.key != "" {
				created++
				if ty == "draft" {
					drafts++
				}
			}
			k.made.typed[ty] = made
		}
	}
	if !items.Any(pagelist.IsChildPage) {
		if parent := create("a parent page", map[string]any{"slug": k.t.Marker("parent")}); parent != "" {
			create("a child page", map[string]any{"slug": k.t.Marker("child"), "parent": parent})
		}
	}
	if !tagBeforeUntagged(items) {
		// Untagged, tagged, untagged by date: a tagged page then comes before
		// an untagged one whichever way the list sorts by date.
		create("an untagged page", map[string]any{"slug": k.t.Marker("untagged-old"), "date": "2001-01-01 10:00:00"})
		create("a tagged page", map[string]any{"slug": k.t.Marker("tagged"), "date": "2001-01-02 10:00:00",
			"tags": k.t.Marker("tag")})
		create("an untagged page", map[string]any{"slug": k.t.Marker("untagged-new"), "date": "2001-01-03 10:00:00"})
	}
	nonPublished := items.Len() - items.CountOfType("published")
	if nonPublished == 0 && created == 0 {
		create("a draft page", nil)
	}
	// Enough pages for several list pages, at a small size and, when the
	// default page size is modest, at the default size too.
	want := minPages
	if size := first.Get("meta.pageSize"); size.Type == gjson.Number && size.Num > 0 && size.Num <= maxPad {
		want = max(want, int(size.Num)+1)
	}
	for i := items.Len() + created; i < want; i++ {
		if create("a draft page", nil) == "" {
			break
		}
	}
	// A type whose own listing spans several list pages (PAGE-LIST-WALK
	// walks each type alone): drafts, when no type has enough.
	most := drafts
	for _, ty := range pagelist.PageTypes() {
		most = max(most, items.CountOfType(ty))
	}
	for ; most <= smallPageSize; most++ {
		if create("a draft page", nil) == "" {
			break
		}
	}
}

// createOfType creates a page of type ty for PAGE-LIST-TYPE-FILTERS, where
// the listing of every type shows none: a filter that drops the type from
// every listing then still shows. A read must confirm the page's type;
// problem says why the page cannot serve (key is set when it was created
// all the same). dated gives the page its date.
func (k kit) createOfType(ctx context.Context, ty string, dated func(map[string]any) map[string]any) typedPage {
	fields := map[string]any{"type": ty, "slug": k.t.Marker(ty)}
	if ty == "scheduled" {
		// The other types get a past date: a published page with a future
		// date may legitimately become scheduled.
		fields["date"] = time.Now().AddDate(10, 0, 0).Format("2006-01-02 15:04:05")
	}
	ex, key := k.createPage(ctx, dated(fields))
	if key == "" {
		return typedPage{problem: fmt.Sprintf("the list of every type shows no %s page and creating one failed (%s)",
			ty, match.Outcome(ex))}
	}
	read := k.t.Read(ctx, pagelist.PagePath(key), nil)
	if got := read.Get("data.type").String(); read.Status != http.StatusOK || got != ty {
		return typedPage{key: key, problem: fmt.Sprintf("the list of every type shows no %s page, and the %s page created "+
			"for the check (%s) reads back with type %s (%s)", ty, ty, key, match.Show(read.Get("data.type")), match.Outcome(read))}
	}
	return typedPage{key: key}
}

// createPage creates a page for a check (deleted after it) with content:
// which fields a create requires is not shown (4.3), and a server may well
// refuse a page without content.
func (k kit) createPage(ctx context.Context, fields map[string]any) (*client.Exchange, string) {
	body := map[string]any{"content": "Page created by a conformance run to check page reads."}
	for f, v := range fields {
		body[f] = v
	}
	return k.t.CreatePage(ctx, body)
}

// pageShape is PAGE-OBJECT-SHAPE's check of every whole page object a
// listing streams (rules/pageobj), for CheckListedPages.
var pageShape = pagelist.PageCheck{Name: pageobj.Schema, Check: func(page gjson.Result) []pagelist.PageProblem {
	var out []pagelist.PageProblem
	for _, p := range pageobj.Violations(page) {
		out = append(out, pagelist.PageProblem(p))
	}
	return out
}}
