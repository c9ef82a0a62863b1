// Package rules is the one shape of a rule's judgement: plain functions
// over exchanges (and, where a rule needs it, what the site holds) return
// a Judgement, and both the specs of a normal run and the oracles of
// conformance explore call the same functions, so that a rule is judged
// in one place. Each subpackage holds the rules of one area: every (what
// every answer keeps) and paging (the page list's paging). The rule IDs
// are literals where each rule is judged.
//
// The package imports no test framework: the framework applies checks to
// exchanges (crosscutting.Watcher) and turns judgements into
// assertions; the explorer turns them into findings.
package rules

import (
	"fmt"

	"github.com/conformance-suite/conformance/internal/client"
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

// Check is one rule's judgement of any one exchange.
type Check struct {
	Rule  string
	Judge func(ex *client.Exchange) Judgement
}
