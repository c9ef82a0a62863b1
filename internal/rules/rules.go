// Package rules is the one shape of a rule's judgement: plain functions
// over exchanges (and, where a rule needs it, what the site holds) return
// a Judgement, and both the specs of a normal run and the oracles of
// conformance explore call the same functions, so that a rule is judged
// in one place. Each subpackage holds the rules of one idea: every (what
// every answer keeps), envelope (status codes and the error bodies of
// section 7), tokens (the answer a request's tokens call for), single (a
// read of one resource by key), pageobj (the page object's shape),
// readback (a page read back after a write), text (how text sent reads
// back: encoded once, twice, as sent), listfilter (the page list's type
// filters and untagged), paging (the page list's paging, of one answer and
// between the answers of a run), sideeffect (what a refused or colliding
// page write left of the site) and termview (what one answer of a single
// tag or category shows on its own). The rule IDs
// are literals where each rule is judged, and named in the doc comment of
// the function that judges it; rulestest crafts answers for their tests.
//
// The package imports no test framework: the framework applies checks to
// exchanges (crosscutting.Watcher) and turns judgements into
// assertions; the explorer turns them into findings.
package rules

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/schemas"
)

// Judgement is one rule's judgement of one exchange.
type Judgement struct {
	// Skip: the rule cannot judge this exchange (not counted as checked).
	Skip bool
	// Problem is what is wrong; "" when the exchange conforms.
	Problem string
}

// Conforms is the judgement of an exchange that keeps the rule.
func Conforms() Judgement { return Judgement{} }

// CannotJudge is the judgement of an exchange the rule cannot judge.
func CannotJudge() Judgement { return Judgement{Skip: true} }

// Violation is the judgement of an exchange that breaks the rule, with
// what is wrong.
func Violation(format string, args ...any) Judgement {
	return Judgement{Problem: fmt.Sprintf(format, args...)}
}

// Holds reports whether the judgement found nothing wrong (a skip
// included).
func (j Judgement) Holds() bool { return j.Problem == "" }

// Problems is the judgement's problem as the list a check of the normal
// run holds (framework.Hold): none when it holds or cannot judge.
func (j Judgement) Problems() []string {
	if j.Problem == "" {
		return nil
	}
	return []string{j.Problem}
}

// ProblemsOf adapts a judgement of an exchange to the problems a check of
// the normal run holds (framework.Hold).
func ProblemsOf(judge func(ex *client.Exchange) Judgement) func(ex *client.Exchange) []string {
	return func(ex *client.Exchange) []string { return judge(ex).Problems() }
}

// Check is one rule's judgement of any one exchange.
type Check struct {
	Rule  string
	Judge func(ex *client.Exchange) Judgement
}

// maxViolationsShown bounds the schema violations a problem lists.
const maxViolationsShown = 3

// Schema judges doc against the embedded JSON Schema name (schemas/): a
// violation lists the first few problems, each at its JSON path.
func Schema(name string, doc []byte) Judgement {
	v, err := schemas.Validate(name, doc)
	return FromViolations(v, err)
}

// FromViolations is the judgement of a schema's verdict: the violations
// found (each "path: problem"), or the error that stopped validation.
func FromViolations(v []string, err error) Judgement {
	switch {
	case err != nil:
		return Violation("%s", err.Error())
	case len(v) == 0:
		return Conforms()
	case len(v) > maxViolationsShown:
		v = append(v[:maxViolationsShown:maxViolationsShown], fmt.Sprintf("and %d more", len(v)-maxViolationsShown))
	}
	return Violation("%s", strings.Join(v, "; "))
}

// Show renders a JSON value for a problem: "missing", or its JSON cut at
// 120 characters, as a string of its own (never a part of a long answer's
// text, which would keep all of it).
func Show(r gjson.Result) string {
	if !r.Exists() {
		return "missing"
	}
	s := []rune(r.Raw)
	if len(s) > 120 {
		return string(s[:120]) + "…"
	}
	return string(s)
}
