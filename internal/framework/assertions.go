package framework

import (
	"slices"

	"github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/framework/counting"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// This file makes "no vacuous passes" structural: every spec counts the
// assertions it evaluated, and a spec that ran to its end without one is
// reported not checked (verdict.NoAssertion), never passed. A pass then
// always means that something which could have failed ran on the target's
// answers.
//
// Suites assert with Gomega's package-level Expect, Ω, Eventually and
// Consistently (matchers of this package included), which all go through
// gomega.Default. Install puts a counting wrapper around it: the one
// deliberate hook of this package into package-level state, and it is
// Gomega's own (gomega.Default is a variable meant to be wrapped: the
// wrapper hands Gomega the original through Inner). The count itself lives
// on the Fixture. What bypasses gomega.Default is not counted: a bare
// ginkgo.Fail, another Gomega instance (the g of Eventually(func(g Gomega)),
// counted once by its Eventually), a Go `if` that asserts only when it found
// a problem. A spec judging only that way is reported not checked, which is
// the point: its pass would not show that anything was judged. The
// exception is the cross-cutting rules, whose spec counts the responses the
// rule judged (CrossCutting's tally).

// countAssertions makes gomega.Default count into t's counter
// (internal/framework/counting).
func countAssertions(t *Fixture) { counting.Install(&t.assertions) }

// startCounting begins a spec's count.
func (t *Fixture) startCounting() { t.assertions.Reset() }

// assertionsOf is what the running spec of rule evaluated: its Gomega
// assertions and, for a spec that reports a rule's checks of every
// response (a cross-cutting rule, or a shape rule's case judged on every
// response: suites/protocol), each response the rule judged over the run
// (it asserts through t.CrossCutting, not through Gomega).
func (t *Fixture) assertionsOf(rule spec.Rule) int {
	n := int(t.assertions.Count())
	if slices.Contains(ginkgo.CurrentSpecReport().Labels(), LabelCrossCutting) {
		n += t.CrossCutting.Tally(rule.ID).Checked
	}
	return n
}

// recordAssertions adds the running spec's count to its report entries
// (deferred by the It wrapper, so failed and not-checked specs carry it
// too).
func (t *Fixture) recordAssertions(rule spec.Rule) {
	verdicts.AddEntry(verdict.EntryAssertions, verdict.Assertions(t.assertionsOf(rule)))
}

// requireAssertion ends a spec whose body returned without evaluating an
// assertion as not checked (verdict.NoAssertion): nothing could have
// failed, so the rule must not count as passed.
func (t *Fixture) requireAssertion(rule spec.Rule) {
	if t.assertionsOf(rule) == 0 {
		verdicts.Skip(verdict.NoAssertion(), 2)
	}
}
