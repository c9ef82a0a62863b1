package framework

import (
	"net/url"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"
	gtypes "github.com/onsi/gomega/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/coverkit"
	"github.com/conformance-suite/conformance/internal/framework/match"
)

// The coverage kit: the assertions that fill cells of the spec coverage
// map (internal/coverage), and what the framework measures on its own.
//
// A cell is filled only by an assertion that ran on real data, in a spec
// that was judged (passed or failed; a spec reported not checked fills
// nothing). So the suites never say "this is covered": they call the
// assertions below, which mark the cells they exercise when they assert —
// ExpectReadBack for a value sent and read back, a Check for what must hold
// over many values (a field kept by an update, a fact the same in several
// views). The framework adds, at the end of each judged spec, what the
// exchanges it asserted on show of the page list's query parameters and
// of where the tokens travelled; the cross-cutting checks mark the kinds
// they judge (Coverage.Mark, from any goroutine).

// pendingMark is a cell the running spec exercised, kept until the spec's
// verdict is known.
type pendingMark struct {
	id   coverage.ID
	rule string
}

// specCoverage is the running spec's share of the map: its rule and the
// cells it exercised so far.
type specCoverage struct {
	rule    string
	pending lockedList[pendingMark]
}

// exercised notes that the running spec asserted on cells.
func (t *Fixture) exercised(ids ...coverage.ID) {
	for _, id := range ids {
		t.cover.pending.add(pendingMark{id: id, rule: t.cover.rule})
	}
}

// beginSpecCoverage starts the running spec's share (the It wrapper).
func (t *Fixture) beginSpecCoverage(rule string) {
	t.cover.pending.take()
	t.cover.rule = rule
}

// endSpecCoverage commits the running spec's marks when it was judged:
// the cells its assertions exercised, and what the exchanges it made or
// judged (own) show of query parameters and token placements. Install's
// AfterEach calls it, once the spec's verdict is known.
func (t *Fixture) endSpecCoverage(report *types.SpecReport, own []*client.Exchange) {
	marks := t.cover.pending.take()
	judged := report.State == types.SpecStatePassed || report.State == types.SpecStateFailed
	if !judged || t.cover.rule == "" || t.assertions.Count() == 0 {
		return
	}
	for _, m := range marks {
		t.Coverage.Mark(m.id, m.rule)
	}
	var reqs []coverage.Request
	for _, ex := range append(t.judged.snapshot(), own...) {
		if ex != nil && ex.StatusErr() == nil && ex.Status != 0 {
			reqs = append(reqs, t.coverageRequest(ex))
		}
	}
	t.Coverage.Judged(t.cover.rule, reqs)
}

// coverageRequest is what the map needs of ex: method, endpoint, the query
// parameters sent and where each token went.
func (t *Fixture) coverageRequest(ex *client.Exchange) coverage.Request {
	r := coverage.Request{Method: ex.Method, Status: ex.Status, TokenUse: use(ex.APIToken), AuthUse: use(ex.AuthToken)}
	u, err := url.Parse(ex.URL)
	if err != nil {
		return r
	}
	r.Endpoint = t.CrossCutting.EndpointShape(u.Path)
	q := u.Query()
	for name := range q {
		if name != "token" && name != "authentication" {
			r.Query = append(r.Query, name)
		}
	}
	slices.Sort(r.Query)
	r.TokenIn = placedIn(ex, q, "token")
	r.AuthIn = placedIn(ex, q, "authentication")
	return r
}

func use(u client.TokenUse) string {
	switch u {
	case client.TokenMissing:
		return coverage.UseMissing
	case client.TokenWrong:
		return coverage.UseWrong
	}
	return coverage.UseValid
}

// placedIn says where ex carried the parameter name: the query, the body
// (a DELETE's JSON body apart), a header, or "" (nowhere to be seen).
func placedIn(ex *client.Exchange, q url.Values, name string) string {
	if q.Has(name) {
		return coverage.InQuery
	}
	body := ex.RequestBody
	if strings.Contains(body, `"`+name+`"`) || strings.HasPrefix(body, name+"=") || strings.Contains(body, "&"+name+"=") ||
		strings.Contains(body, `name="`+name+`"`) {
		if ex.Method == "DELETE" {
			return coverage.InJSONBody
		}
		return coverage.InBody
	}
	header := client.AuthorizationHeader
	if name == "authentication" {
		header = client.AuthTokenHeader
	}
	if ex.RequestHeader.Get(header) != "" {
		return coverage.InHeader
	}
	return ""
}

// ExpectReadBack expects the value at path of ex — a page or the settings
// read back after a request that sent it, or the answer to that request —
// to match m, and marks cell: the value sent came back. It asserts like
// Expect(ex).To(match.HaveJSON(path, m), desc...).
func (t *Fixture) ExpectReadBack(cell coverage.ID, ex *client.Exchange, path string, m gtypes.GomegaMatcher, desc ...any) {
	if ex != nil && ex.IsJSON() {
		t.exercised(cell)
		// Read on the page itself: the single page's view after the write
		// that sent it (the write table's).
		if w := coverage.ReadBackWriteCell(cell); w != "" && t.readsOnePage(ex) {
			t.exercised(w)
		}
	}
	gomega.ExpectWithOffset(1, ex).To(match.HaveJSON(path, m), desc...)
}

// readsOnePage reports whether ex is GET /api/pages/{key}.
func (t *Fixture) readsOnePage(ex *client.Exchange) bool {
	return ex.Method == "GET" && t.CrossCutting.Endpoint(ex) == "/api/pages/{key}"
}

// Exercised notes that the running spec asserts on cells: they are
// marked when it is judged (passed or failed), as a Check's are. For an
// assertion made with Expect itself, beside it.
func (t *Fixture) Exercised(ids ...coverage.ID) { t.exercised(ids...) }

// NewCheck starts a check for the running spec: the cells it exercises
// are marked for this spec when it asserts (Check.Expect).
func (t *Fixture) NewCheck() *coverkit.Check { return coverkit.New(t.exercised) }
