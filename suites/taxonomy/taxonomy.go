// Package taxonomy checks spec sections 2.2, 2.3, 4.6 and 4.7: tags and
// categories, their lists and single views, and that what they list agrees
// with the pages themselves.
package taxonomy

import (
	"context"

	"github.com/onsi/ginkgo/v2"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/rules/pageobj"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Bounds on how much of a big site one run reads: the specs check a sample
// of terms and, per term, of the pages it names. Terms that name pages are
// sampled first, so the sample is never needlessly empty; the pages the
// sample's terms name add up to at most maxSampledPages, past the first
// term that names any (sample).
const (
	maxTerms        = 10
	maxPagesPerTerm = 20
	maxSampledPages = 200
)

// kind is what tags and categories differ in; every rule exists once for
// each (TAG-* and CAT-*), and one set of specs serves both.
type kind struct {
	endpoint string // path segment: "tags" or "categories"
	ids      ruleIDs
	noun     string // "tag" or "category"
	section  string // spec section of the endpoints
	list     spec.Endpoint
	get      spec.Endpoint
	// listSchema and getSchema validate the two responses.
	listSchema, getSchema string
	// uses reports whether a page object (data of GET /api/pages/{key})
	// carries the term, and if not, what it carries instead.
	uses func(page gjson.Result, key string) (ok bool, got string)
	// carried returns the keys of the terms a page object carries.
	carried func(page gjson.Result) []string
	// field is the page object's member that carries the term, and want
	// the kind of value it must be.
	field, want string
}

// ruleIDs are the rules a kind's specs check, spelt out so that a rule is
// one grep away.
type ruleIDs struct {
	listShape, listComplete, getShape, pagesMatchList, listConsistent, get404 string
}

var kinds = []kind{
	{
		endpoint: "tags", noun: "tag", section: "4.6",
		ids: ruleIDs{listShape: "TAG-LIST-SHAPE", listComplete: "TAG-LIST-COMPLETE", getShape: "TAG-GET-SHAPE",
			pagesMatchList: "TAG-PAGES-MATCH-LIST", listConsistent: "TAG-LIST-CONSISTENT", get404: "TAG-GET-404"},
		list: spec.ListTags, get: spec.GetTag,
		listSchema: "tag-list-response.json", getSchema: "tag-response.json", carried: tagsOf, field: "tags", want: "object",
		uses: func(page gjson.Result, key string) (bool, string) {
			tags := page.Get("tags")
			if !tags.IsObject() {
				return false, "tags is " + match.Show(tags) + ", not an object"
			}
			if _, ok := tags.Map()[key]; ok {
				return true, ""
			}
			return false, "tags is " + tags.Raw
		},
	},
	{
		endpoint: "categories", noun: "category", section: "4.7",
		ids: ruleIDs{listShape: "CAT-LIST-SHAPE", listComplete: "CAT-LIST-COMPLETE", getShape: "CAT-GET-SHAPE",
			pagesMatchList: "CAT-PAGES-MATCH-LIST", listConsistent: "CAT-LIST-CONSISTENT", get404: "CAT-GET-404"},
		list: spec.ListCategories, get: spec.GetCategory,
		listSchema: "category-list-response.json", getSchema: "category-response.json", carried: categoryOf, field: "category", want: "string",
		uses: func(page gjson.Result, key string) (bool, string) {
			cat := page.Get("category")
			if cat.Type == gjson.String && cat.Str == key {
				return true, ""
			}
			return false, "category is " + match.Show(cat)
		},
	},
}

// Register adds the taxonomy specs for target t: in one top-level
// container, whose reads go out together when its first spec runs (one
// Group): both lists, the single views of each sample and the pages they
// name, each read once for all the specs that judge it. The list specs of
// both kinds come first, so that both lists are read in the first wave.
func Register(t *framework.Fixture) {
	// The page objects of the single views are checked as they stream by.
	t.Pages.Check(pageShape)
	registerEveryAnswer(t)
	ginkgo.Describe("2.2, 2.3 Tags and categories", framework.PhaseReads, func() {
		g := t.NewGroup(framework.PhaseReads)
		everyPage := framework.Share(g, func(ctx context.Context) pagelist.Listing {
			return t.Pages.ListAll(ctx, pagelist.EveryTypeQuery())
		})
		var all []*shared
		for _, k := range kinds {
			all = append(all, newShared(t, g, k, everyPage))
		}
		for _, s := range all {
			k := s.k
			ginkgo.Describe(k.section+" GET /api/"+k.endpoint, ginkgo.Label(k.list.Label()), func() {
				framework.Prepare(g, k.ids.listShape, s.prepareListShape, s.judgeListShape)
				framework.Prepare(g, k.ids.listShape, s.prepareListEntries, s.judgeListEntries,
					framework.Case("list entries, on "+k.endpoint+" that name pages"))
				framework.Prepare(g, k.ids.listComplete, s.prepareListComplete, s.judgeListComplete, spec.ListPages)
			})
		}
		for _, s := range all {
			k := s.k
			ginkgo.Describe(k.section+" GET /api/"+k.endpoint+"/{key}", ginkgo.Label(k.get.Label()), func() {
				framework.Prepare(g, k.ids.getShape, s.prepareGetShape, s.judgeGetShape)
				framework.Prepare(g, k.ids.getShape, s.prepareGetPages, s.judgeGetPages,
					framework.Case("pages, as full page objects"))
				framework.Prepare(g, k.ids.pagesMatchList, s.preparePagesMatchList, s.judgePagesMatchList)
				framework.Prepare(g, k.ids.listConsistent, s.prepareListConsistent, s.judgeListConsistent)
				framework.Prepare(g, k.ids.get404, s.prepareGet404, judgeGet404)
			})
		}
	})
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
