package reads

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// kit carries the target and what the container's setup could not prepare
// (reasons shown when a spec cannot check its rule). The read specs and their
// helpers hang off it.
type kit struct {
	t     *framework.Fixture
	notes *[]string
}

// note records a setup problem.
func (k kit) note(format string, args ...any) {
	*k.notes = append(*k.notes, fmt.Sprintf(format, args...))
}

// lacking is the reason for a rule left unchecked because the target has no
// data of some kind: why the run did not (or could not) create it.
func (k kit) lacking(what string) string {
	reason := "the target has " + what
	switch {
	case !k.t.CanWrite():
		reason += ", and this run may not create pages (read-only run or no --auth-token)"
	case len(*k.notes) > 0:
		reason += ", and preparing it failed: " + strings.Join(*k.notes, "; ")
	default:
		reason += ", even after this run created pages for the check"
	}
	return reason
}

// list sends GET /api/pages with q and expects 200 with a data array.
func (k kit) list(ctx context.Context, q url.Values) *client.Exchange {
	ex := k.t.Read(ctx, framework.PagesPath, q)
	expectList(2, ex)
	return ex
}

// lists sends GET /api/pages with each of qs side by side (Fixture.All)
// and returns the answers in the order of qs, unjudged: the caller judges
// each with expectList where the one-by-one walk judged it, so that the
// first failure a spec shows stays the same.
func (k kit) lists(ctx context.Context, qs ...url.Values) []*client.Exchange {
	reqs := make([]client.Request, len(qs))
	for i, q := range qs {
		reqs[i] = client.Request{Method: http.MethodGet, Path: framework.PagesPath, Query: q}
	}
	return k.t.All(ctx, reqs...)
}

// expectList expects ex (a GET /api/pages answer) to be 200 with a data
// array; offset is the caller's depth, as ExpectWithOffset takes it.
func expectList(offset int, ex *client.Exchange) {
	ExpectWithOffset(offset, ex).To(framework.HaveHTTPStatus(http.StatusOK))
	ExpectWithOffset(offset, ex).To(framework.HaveJSON("data", framework.BeJSONArray()))
}

// pageQueries is q with pageNumber set to each of pns.
func pageQueries(q url.Values, pns ...int) []url.Values {
	out := make([]url.Values, len(pns))
	for i, pn := range pns {
		out[i] = framework.QueryWith(q, "pageNumber", strconv.Itoa(pn))
	}
	return out
}

// integer reads a member that must be an integer (spec 4.1 list envelope).
func (k kit) integer(ex *client.Exchange, path string) int {
	ExpectWithOffset(1, ex).To(framework.Hold(path+" is an integer", func(ex *client.Exchange) []string {
		if !isInteger(ex.Get(path)) {
			return []string{path + " is " + framework.Show(ex.Get(path))}
		}
		return nil
	}))
	return int(ex.Get(path).Num)
}

// boolean reads a member that must be a boolean.
func (k kit) boolean(ex *client.Exchange, path string) bool {
	ExpectWithOffset(1, ex).To(framework.HaveJSON(path, BeAssignableToTypeOf(true)))
	return ex.Get(path).Bool()
}

// isInteger reports whether a JSON value is an integral number.
func isInteger(r gjson.Result) bool {
	return r.Type == gjson.Number && r.Num == math.Trunc(r.Num)
}

// eachPage expects problem to find nothing wrong with any of items (page
// objects that ex, or a walk ending with ex, listed); each problem is shown
// with the page's key. expect says what holds of every page.
func eachPage(expect string, items []gjson.Result, problem func(it gjson.Result) string) types.GomegaMatcher {
	return framework.Hold(expect, func(*client.Exchange) []string {
		var out []string
		for _, it := range items {
			if p := problem(it); p != "" {
				out = append(out, "page "+framework.Show(it.Get("key"))+": "+p)
			}
		}
		return out
	})
}

// total is the number of pages matching the type filters of q: the list's
// meta.total when it is an integer, otherwise (PAGE-LIST-SHAPE's concern)
// the number of pages a full listing holds.
func (k kit) total(ctx context.Context, q url.Values) int {
	ex := k.list(ctx, q)
	if r := ex.Get("meta.total"); isInteger(r) {
		return int(r.Num)
	}
	items, _ := k.everything(ctx, q)
	return len(items)
}

// everything is Fixture.ListAllPages for a spec: it reports the rule not
// checked when the reference listing cannot be had.
func (k kit) everything(ctx context.Context, q url.Values) ([]gjson.Result, *client.Exchange) {
	items, ex, problem := k.t.ListAllPages(ctx, q)
	if problem != "" {
		framework.NotChecked("%s", problem)
	}
	return items, ex
}

// everyPage is the listing of every type for a spec; a target with no page
// at all leaves the rule not checked.
func (k kit) everyPage(ctx context.Context) ([]gjson.Result, *client.Exchange) {
	items, ex := k.everything(ctx, framework.EveryTypeQuery())
	if len(items) == 0 {
		framework.NotChecked("the target has no page at all")
	}
	return items, ex
}

// childPage is the first child page (key parent/child) the target lists;
// without one the rule is not checked.
func (k kit) childPage(ctx context.Context) gjson.Result {
	items, _ := k.everything(ctx, framework.EveryTypeQuery())
	child, ok := framework.FirstChildPage(items)
	if !ok {
		framework.NotChecked("%s", k.lacking("no child page (key parent/child)"))
	}
	return child
}
