package reads

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// kit carries what the specs of one container share: the target, the
// group their requests are prepared in (framework.Prepare), the listing of
// every type that most of them compare with, fetched once for the group,
// and what the container's setup supplied. The read specs and their
// helpers hang off it.
type kit struct {
	t     *framework.Fixture
	g     *framework.Group
	every func(ctx context.Context) listing
	// typeWalks walk each type's listing once for the group (walkType).
	typeWalks map[string]func(ctx context.Context) typeWalk
	made      *supplies
}

// supplies is what a container's setup created for the checks, or why it
// could not (reasons shown when a spec cannot check its rule).
type supplies struct {
	notes []string
	// typed holds, for each page type the listing of every type lacked, the
	// page the setup created of that type (confirmed by a read) or why
	// there is none.
	typed map[string]typedPage
}

// typedPage is a page the setup created of a type the listing of every type
// lacked: its key, and problem when it cannot serve (not created, or not
// read back with that type).
type typedPage struct{ key, problem string }

// newKit starts the group of one top-level container of t's specs; made is
// what its setup supplies (filled before the first spec runs).
func newKit(t *framework.Fixture, phase ginkgo.SpecPriority, made *supplies) kit {
	k := kit{t: t, g: t.NewGroup(phase), made: made}
	k.every = framework.Share(k.g, func(ctx context.Context) listing {
		return k.listAll(ctx, pagelist.EveryTypeQuery())
	})
	k.typeWalks = map[string]func(ctx context.Context) typeWalk{}
	for _, ty := range pagelist.PageTypes() {
		k.typeWalks[ty] = framework.Share(k.g, func(ctx context.Context) typeWalk { return k.walkType(ctx, ty) })
	}
	return k
}

// note records a setup problem.
func (k kit) note(format string, args ...any) {
	k.made.notes = append(k.made.notes, fmt.Sprintf(format, args...))
}

// lacking is the reason for a rule left unchecked because the target has no
// data of some kind: why the run did not (or could not) create it.
func (k kit) lacking(what string) string {
	reason := "the target has " + what
	switch {
	case !k.t.CanWrite():
		reason += ", and this run may not create pages (read-only run or no --auth-token)"
	case len(k.made.notes) > 0:
		reason += ", and preparing it failed: " + strings.Join(k.made.notes, "; ")
	default:
		reason += ", even after this run created pages for the check"
	}
	return reason
}

// listing is what Pages.ListAll brought for a prepare function:
// every page matching a query and the exchange that gave them, or why no
// consistent listing could be had.
type listing struct {
	items   pagelist.PageList // slim page objects (pagelist.Listing)
	ex      *client.Exchange
	problem string
	all     pagelist.Listing
}

// listAll is Pages.ListAll for a prepare function.
func (k kit) listAll(ctx context.Context, q url.Values) listing {
	l := k.t.Pages.ListAll(ctx, q)
	return listing{items: l.Pages, ex: l.Ex, problem: l.Problem, all: l}
}

// pages returns a listing's pages to a judge, and names its exchange as
// evidence (the group's shared listing is another spec's request); the
// rule is not checked when the listing could not be had.
func (k kit) pages(l listing) (pagelist.PageList, *client.Exchange) {
	k.t.Judged(l.ex)
	if l.problem != "" {
		verdicts.NotChecked("%s", l.problem)
	}
	return l.items, l.ex
}

// everyPage is pages for the listing of every type; a target with no page
// at all leaves the rule not checked.
func (k kit) everyPage(l listing) (pagelist.PageList, *client.Exchange) {
	items, ex := k.pages(l)
	if items.Len() == 0 {
		verdicts.NotChecked("the target has no page at all")
	}
	return items, ex
}

// childPage is the first child page (key parent/child) the listing of
// every type holds; without one the rule is not checked.
func (k kit) childPage(l listing) gjson.Result {
	items, _ := k.pages(l)
	child, ok := items.First(pagelist.IsChildPage)
	if !ok {
		verdicts.NotChecked("%s", k.lacking("no child page (key parent/child)"))
	}
	return child
}

// counted is what the number of pages of every type rests on: the first
// list page, and when its meta.total is not an integer (PAGE-LIST-SHAPE's
// concern) the listing of every type.
type counted struct {
	first *client.Exchange
	all   *listing
}

// countEvery reads what total needs, for a prepare function.
func (k kit) countEvery(ctx context.Context) counted {
	c := counted{first: k.t.Read(ctx, pagelist.PagesPath, pagelist.EveryTypeQuery())}
	if isList(c.first) && !isInteger(c.first.Get("meta.total")) {
		l := k.every(ctx)
		c.all = &l
	}
	return c
}

// value is the number of pages of every type, for a prepare function: ok
// is false where total would stop the spec.
func (c counted) value() (n int, ok bool) {
	switch {
	case !isList(c.first):
		return 0, false
	case c.all == nil:
		return int(c.first.Get("meta.total").Num), true
	case c.all.problem != "":
		return 0, false
	}
	return c.all.items.Len(), true
}

// total is the number of pages of every type, for a judge: the first
// page's meta.total when it is an integer, otherwise the number of pages
// the listing of every type holds. It expects the first page to be a list.
func (k kit) total(c counted) int {
	expectList(2, c.first)
	if c.all == nil {
		return int(c.first.Get("meta.total").Num)
	}
	items, _ := k.pages(*c.all)
	return items.Len()
}

// lists sends GET /api/pages with each of qs side by side, each read as
// a stream whose pages are kept slim (Pages.ReadLists: what a
// judge reads with pagelist.PageItems), and returns the answers in the
// order of qs, unjudged: the judge judges each with expectList where the
// one-by-one walk judged it, so that the first failure a spec shows stays
// the same.
func (k kit) lists(ctx context.Context, qs ...url.Values) []*client.Exchange {
	return k.t.Pages.ReadLists(ctx, qs...)
}

// isList reports whether ex (a GET /api/pages answer) is what expectList
// expects, for a prepare function deciding whether to go on.
func isList(ex *client.Exchange) bool {
	return ex.StatusErr() == nil && ex.Status == http.StatusOK && ex.IsJSON() && ex.Get("data").IsArray()
}

// expectList expects ex (a GET /api/pages answer) to be 200 with a data
// array; offset is the caller's depth, as ExpectWithOffset takes it.
func expectList(offset int, ex *client.Exchange) {
	ExpectWithOffset(offset, ex).To(match.HaveHTTPStatus(http.StatusOK))
	ExpectWithOffset(offset, ex).To(match.HaveJSON("data", match.BeJSONArray()))
}

// pageQueries is q with pageNumber set to each of pns.
func pageQueries(q url.Values, pns ...int) []url.Values {
	out := make([]url.Values, len(pns))
	for i, pn := range pns {
		out[i] = pagelist.QueryWith(q, "pageNumber", strconv.Itoa(pn))
	}
	return out
}

// integer reads a member that must be an integer (spec 4.1 list envelope).
func integer(ex *client.Exchange, path string) int {
	ExpectWithOffset(1, ex).To(match.Holds(path+" is an integer", func(ex *client.Exchange) []string {
		if !isInteger(ex.Get(path)) {
			return []string{path + " is " + match.Show(ex.Get(path))}
		}
		return nil
	}))
	return int(ex.Get(path).Num)
}

// intOf is integer for a prepare function: ok is false where integer
// would fail the spec.
func intOf(ex *client.Exchange, path string) (n int, ok bool) {
	r := ex.Get(path)
	return int(r.Num), isInteger(r)
}

// isInteger reports whether a JSON value is an integral number.
func isInteger(r gjson.Result) bool {
	return r.Type == gjson.Number && r.Num == math.Trunc(r.Num)
}

// eachPage expects problem to find nothing wrong with any of items (page
// objects that ex, or a walk ending with ex, listed); each problem is shown
// with the page's key. expect says what holds of every page.
func eachPage(expect string, items pagelist.PageList, problem func(it gjson.Result) string) types.GomegaMatcher {
	return match.Holds(expect, func(*client.Exchange) []string {
		var out []string
		for _, it := range items.Scan { // each problem is a string of its own (concatenated)
			if p := problem(it); p != "" {
				out = append(out, "page "+match.Show(it.Get("key"))+": "+p)
			}
		}
		return out
	})
}
