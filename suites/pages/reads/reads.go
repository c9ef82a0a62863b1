// Package reads checks the page reads of the spec: the page object (2.1),
// the page list with its filters and pagination (4.1, 8, 9.3) and
// single-page reads (4.2). It creates pages only where the target lacks
// data a rule needs, and removes them again.
package reads

import (
	"context"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Register adds the specs of the page object (2.1), the page list and its
// pagination (4.1, 8, 9.3) and single-page reads (4.2) for target t.
//
// They read whatever the target holds. The specs of the first container
// need nothing in particular (a type filter with no page of its type on the
// target creates one in its own spec). Those of the second need pages of
// some kind: its BeforeAll adds what the target lacks (a child page, a
// tagged page listed before an untagged one, a page that is not published,
// enough pages for several list pages), as run-marked drafts deleted after
// the container, and only when the run may write; otherwise the rules
// concerned are reported not checked with the reason. Every spec reads
// afresh, so pages other specs create or delete do not matter.
func Register(t *framework.Fixture) {
	var notes []string
	k := kit{t: t, notes: &notes}

	Describe("Page reads", func() {
		sections(k.objectSpecs, func() {
			k.listShapeSpecs()
			k.typeFilterSpecs()
			k.pastEndSpecs()
			k.badPagingSpecs()
		}, k.getSpecs)
	})

	Describe("Page reads needing pages of some kind", Ordered, ContinueOnFailure, func() {
		BeforeAll(func(ctx SpecContext) { k.prepare(ctx) })
		sections(k.slugSpecs, func() {
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

// prepare creates, when the run may write, what the target lacks for the
// checks: never fails (a spec whose data is still missing says why).
func (k kit) prepare(ctx context.Context) {
	if !k.t.CanWrite() {
		return
	}
	items, _, problem := k.t.ListAllPages(ctx, framework.EveryTypeQuery())
	if problem != "" {
		k.note("%s", problem)
		return
	}
	created := 0
	create := func(what string, fields map[string]any) string {
		// Each page gets a date of its own (unless it has one): the list's
		// order is not specified, and a server sorting by date alone may
		// order pages of equal dates differently from one request to the
		// next, which would make a walk over the pages meaningless.
		if _, ok := fields["date"]; !ok {
			dated := map[string]any{"date": fmt.Sprintf("2001-01-05 %02d:%02d:00", 10+created/60, created%60)}
			for f, v := range fields {
				dated[f] = v
			}
			fields = dated
		}
		ex, key := k.createPage(ctx, fields)
		if key == "" {
			k.note("creating %s failed (%s)", what, framework.Outcome(ex))
		} else {
			created++
		}
		return key
	}
	if _, ok := framework.FirstChildPage(items); !ok {
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
	nonPublished := len(items) - len(framework.PagesOfType(items, "published"))
	if nonPublished == 0 && created == 0 {
		create("a draft page", nil)
	}
	// Enough pages for several list pages, at a small size and, when the
	// default page size is modest, at the default size too.
	want := minPages
	first := k.t.Read(ctx, framework.PagesPath, framework.EveryTypeQuery())
	if size := first.Get("meta.pageSize"); size.Type == gjson.Number && size.Num > 0 && size.Num <= maxPad {
		want = max(want, int(size.Num)+1)
	}
	for i := len(items) + created; i < want; i++ {
		if create("a draft page", nil) == "" {
			break
		}
	}
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
