package framework

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"
	gtypes "github.com/onsi/gomega/types"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
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
func (t *Fixture) endSpecCoverage(report types.SpecReport, own []*client.Exchange) {
	marks := t.cover.pending.take()
	judged := report.State == types.SpecStatePassed || report.State == types.SpecStateFailed
	if !judged || t.cover.rule == "" || t.assertions.count() == 0 {
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
	}
	gomega.ExpectWithOffset(1, ex).To(match.HaveJSON(path, m), desc...)
}

// Check is one assertion over many values: the cells it exercises, the
// problems it finds, and an exchange to show when it fails. Expect asserts
// that it found none and marks the cells.
type Check struct {
	t        *Fixture
	cells    []coverage.ID
	seen     map[coverage.ID]bool
	problems []string
	more     int // problems past maxProblems, counted only
	evidence *client.Exchange
}

// maxCheckProblems bounds the problems a check words: a site of many pages
// that breaks a rule on each would otherwise fill the memory and the
// report with one sentence a page.
const maxCheckProblems = 50

// NewCheck starts a check for the running spec.
func (t *Fixture) NewCheck() *Check { return &Check{t: t, seen: map[coverage.ID]bool{}} }

// Exercised notes that the check looks at cells on real data ("" names
// no cell: a value no cell of the map covers). A cell is noted once,
// however many values of it the check looks at.
func (c *Check) Exercised(ids ...coverage.ID) {
	for _, id := range ids {
		if id != "" && !c.seen[id] {
			c.seen[id] = true
			c.cells = append(c.cells, id)
		}
	}
}

// Problem adds what is wrong; ex, when not nil and the first offending
// one, is shown with the failure.
func (c *Check) Problem(ex *client.Exchange, format string, args ...any) {
	if c.evidence == nil {
		c.evidence = ex
	}
	if len(c.problems) >= maxCheckProblems {
		c.more++
		return
	}
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// Problems returns what the check found so far (the first maxCheckProblems,
// then how many more).
func (c *Check) Problems() []string {
	out := append([]string(nil), c.problems...)
	if c.more > 0 {
		out = append(out, fmt.Sprintf("and %d more", c.more))
	}
	return out
}

// Expect asserts that the check found no problem (why says what must hold),
// once it has marked the cells it exercised. A check that looked at no
// value and found nothing makes the spec not checked: nothing could have
// failed.
func (c *Check) Expect(why string) {
	if len(c.cells) == 0 && len(c.problems) == 0 {
		verdicts.NotCheckedAt("no value was there to judge: "+why, 1)
	}
	c.t.exercised(c.cells...)
	problems := c.Problems()
	gomega.ExpectWithOffset(1, problems).To(gomega.BeEmpty(), match.Evidence(c.evidence, "%s:\n  %s", why, strings.Join(problems, "\n  ")))
}

// Kept compares the fields of two reads of one record, before and after an
// update that did not send them: each field the first read has must read
// the same in the second. cell gives each field's cell ("" for none); path
// its JSON path in both reads.
func (c *Check) Kept(before, after *client.Exchange, cell func(field string) coverage.ID, path func(field string) string, fields ...string) {
	for _, f := range fields {
		b, a := before.Get(path(f)), after.Get(path(f))
		if !b.Exists() {
			continue // not there to lose (the shape rules judge its absence)
		}
		c.Exercised(cell(f))
		if !SameJSON(b, a) {
			c.Problem(after, "%s was %s, is now %s", f, b.Raw, pagelist.JSONText(a))
		}
	}
}

// View is one place a record shows: what it is, the answer it came in and
// the record itself (a page object, a tag).
type View struct {
	Name string
	Ex   *client.Exchange
	Obj  gjson.Result
}

// Same compares the fields of one record in several views: each field
// shown by two views or more must read the same in all of them (eq
// compares two values; SameJSON when nil). A view that lacks a field is
// left out of that field's comparison (the shape rules judge its absence).
func (c *Check) Same(what string, cell func(field string) coverage.ID, eq func(field string, a, b gjson.Result) bool, views []View, fields ...string) {
	if eq == nil {
		eq = func(_ string, a, b gjson.Result) bool { return SameJSON(a, b) }
	}
	for _, f := range fields {
		// The first view that shows f, compared with each later one that
		// does (without a copy of the views: a listing may hold many).
		var first *View
		var want gjson.Result
		for i := range views {
			v := &views[i]
			got := v.Obj.Get(f)
			if !got.Exists() {
				continue
			}
			if first == nil {
				first, want = v, got
				continue
			}
			c.Exercised(cell(f))
			if !eq(f, want, got) {
				c.Problem(v.Ex, "%s: %s is %s in %s but %s in %s", what, f, pagelist.JSONText(want), first.Name, pagelist.JSONText(got), v.Name)
			}
		}
	}
}

// SameJSON reports whether two JSON values are equal once parsed (key
// order and escapes do not matter).
func SameJSON(a, b gjson.Result) bool {
	if a.Exists() != b.Exists() {
		return false
	}
	// The same text, or two strings of the same value, without parsing:
	// a site's views mostly agree, and a listing has many pages.
	if a.Raw == b.Raw {
		return true
	}
	if a.Type == gjson.String && b.Type == gjson.String {
		return a.Str == b.Str
	}
	var x, y any
	if json.Unmarshal([]byte(a.Raw), &x) != nil || json.Unmarshal([]byte(b.Raw), &y) != nil {
		return a.Raw == b.Raw
	}
	return reflect.DeepEqual(x, y)
}

// SameSet reports whether two JSON arrays hold the same items, in any
// order (as multisets); other values are compared by SameJSON.
func SameSet(a, b gjson.Result) bool {
	if !a.IsArray() || !b.IsArray() {
		return SameJSON(a, b)
	}
	left := map[string]int{}
	for _, v := range a.Array() {
		left[canonical(v)]++
	}
	for _, v := range b.Array() {
		k := canonical(v)
		if left[k] == 0 {
			return false
		}
		left[k]--
	}
	for _, n := range left {
		if n != 0 {
			return false
		}
	}
	return true
}

// canonical is a JSON value re-encoded with sorted keys.
func canonical(r gjson.Result) string {
	var v any
	if json.Unmarshal([]byte(r.Raw), &v) != nil {
		return r.Raw
	}
	b, _ := json.Marshal(v)
	return string(b)
}
