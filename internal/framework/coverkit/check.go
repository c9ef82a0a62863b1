// Package coverkit is the assertion over many values that fills cells of
// the spec coverage map (internal/coverage): a Check collects the problems
// it finds and the cells it looked at on real data, and marks them when it
// asserts; View, Same and Kept compare one record's fields across reads.
package coverkit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/readback"
	"github.com/onsi/gomega"
	"github.com/tidwall/gjson"
)

// Check is one assertion over many values: the cells it exercises, the
// problems it finds, and an exchange to show when it fails. Expect asserts
// that it found none and marks the cells.
type Check struct {
	mark     func(...coverage.ID)
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

// New starts a check whose Expect hands the cells it exercised to mark.
func New(mark func(...coverage.ID)) *Check { return &Check{mark: mark, seen: map[coverage.ID]bool{}} }

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
	c.mark(c.cells...)
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
		if !readback.Same(b, a) {
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
		eq = func(_ string, a, b gjson.Result) bool { return readback.Same(a, b) }
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

// SameSet reports whether two JSON arrays hold the same items, in any
// order (as multisets); other values are compared by SameJSON.
func SameSet(a, b gjson.Result) bool {
	if !a.IsArray() || !b.IsArray() {
		return readback.Same(a, b)
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
