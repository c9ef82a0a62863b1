package framework

import (
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/conformance-suite/conformance/internal/framework/match"
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

// assertionCounter counts the assertions evaluated by the running spec.
type assertionCounter struct{ n atomic.Int64 }

func (c *assertionCounter) add()         { c.n.Add(1) }
func (c *assertionCounter) reset()       { c.n.Store(0) }
func (c *assertionCounter) count() int64 { return c.n.Load() }

// countAssertions makes gomega.Default count into t's counter. Installing
// again (another Fixture in the same process) replaces the earlier wrapper
// instead of stacking a second one around it.
func countAssertions(t *Fixture) {
	inner := gomega.Default
	if c, ok := inner.(countingGomega); ok {
		inner = c.Gomega
	}
	gomega.Default = countingGomega{Gomega: inner, counter: &t.assertions}
}

// countingGomega is gomega.Default with every assertion it hands out
// counted when it is evaluated. Set* methods pass through (embedded).
type countingGomega struct {
	types.Gomega
	counter *assertionCounter
}

// Inner is how Gomega finds the instance it configures
// (RegisterFailHandler) behind a wrapper of gomega.Default.
func (g countingGomega) Inner() types.Gomega { return g.Gomega }

func (g countingGomega) Ω(actual any, extra ...any) types.Assertion {
	return g.ExpectWithOffset(0, actual, extra...)
}

func (g countingGomega) Expect(actual any, extra ...any) types.Assertion {
	return g.ExpectWithOffset(0, actual, extra...)
}

func (g countingGomega) ExpectWithOffset(offset int, actual any, extra ...any) types.Assertion {
	return countingAssertion{counted[types.Assertion]{g.Gomega.ExpectWithOffset(offset, actual, extra...), offset, g.counter}}
}

func (g countingGomega) Eventually(actualOrCtx any, args ...any) types.AsyncAssertion {
	return g.EventuallyWithOffset(0, actualOrCtx, args...)
}

func (g countingGomega) EventuallyWithOffset(offset int, actualOrCtx any, args ...any) types.AsyncAssertion {
	return countingAsync{counted[types.AsyncAssertion]{g.Gomega.EventuallyWithOffset(offset, actualOrCtx, args...), offset, g.counter}}
}

func (g countingGomega) Consistently(actualOrCtx any, args ...any) types.AsyncAssertion {
	return g.ConsistentlyWithOffset(0, actualOrCtx, args...)
}

func (g countingGomega) ConsistentlyWithOffset(offset int, actualOrCtx any, args ...any) types.AsyncAssertion {
	return countingAsync{counted[types.AsyncAssertion]{g.Gomega.ConsistentlyWithOffset(offset, actualOrCtx, args...), offset, g.counter}}
}

// applier is what an assertion and an asynchronous assertion of Gomega
// share: the ways to apply a matcher, and WithOffset.
type applier[A any] interface {
	Should(m types.GomegaMatcher, desc ...any) bool
	ShouldNot(m types.GomegaMatcher, desc ...any) bool
	To(m types.GomegaMatcher, desc ...any) bool
	ToNot(m types.GomegaMatcher, desc ...any) bool
	NotTo(m types.GomegaMatcher, desc ...any) bool
	WithOffset(offset int) A
}

// counted counts an assertion when a matcher is applied to it (an
// Eventually or Consistently once, not once per poll), and has its failure
// recorded in words (withFacts). The wrapper is one more frame between the
// suite's line and Gomega's failure, so it passes Gomega the caller's
// offset plus one: failures still point at the suite's line.
type counted[A applier[A]] struct {
	inner   A
	offset  int
	counter *assertionCounter
}

func (c counted[A]) eval() A {
	c.counter.add()
	return c.inner.WithOffset(c.offset + 1)
}

func (c counted[A]) Should(m types.GomegaMatcher, desc ...any) bool {
	return c.eval().Should(match.WithFacts(m), desc...)
}

func (c counted[A]) ShouldNot(m types.GomegaMatcher, desc ...any) bool {
	return c.eval().ShouldNot(match.WithFacts(m), desc...)
}

func (c counted[A]) To(m types.GomegaMatcher, desc ...any) bool {
	return c.eval().To(match.WithFacts(m), desc...)
}

func (c counted[A]) ToNot(m types.GomegaMatcher, desc ...any) bool {
	return c.eval().ToNot(match.WithFacts(m), desc...)
}

func (c counted[A]) NotTo(m types.GomegaMatcher, desc ...any) bool {
	return c.eval().NotTo(match.WithFacts(m), desc...)
}

// countingAssertion is a counted Expect or Ω.
type countingAssertion struct{ counted[types.Assertion] }

func (a countingAssertion) WithOffset(offset int) types.Assertion {
	a.offset = offset
	return a
}

func (a countingAssertion) Error() types.Assertion {
	a.inner = a.inner.Error()
	return a
}

// countingAsync is a counted Eventually or Consistently.
type countingAsync struct{ counted[types.AsyncAssertion] }

func (a countingAsync) WithOffset(offset int) types.AsyncAssertion {
	a.offset = offset
	return a
}

func (a countingAsync) with(inner types.AsyncAssertion) types.AsyncAssertion {
	a.inner = inner
	return a
}

func (a countingAsync) WithTimeout(d time.Duration) types.AsyncAssertion {
	return a.with(a.inner.WithTimeout(d))
}

func (a countingAsync) WithPolling(d time.Duration) types.AsyncAssertion {
	return a.with(a.inner.WithPolling(d))
}

func (a countingAsync) Within(d time.Duration) types.AsyncAssertion { return a.with(a.inner.Within(d)) }

func (a countingAsync) ProbeEvery(d time.Duration) types.AsyncAssertion {
	return a.with(a.inner.ProbeEvery(d))
}

func (a countingAsync) WithContext(ctx context.Context) types.AsyncAssertion {
	return a.with(a.inner.WithContext(ctx))
}

func (a countingAsync) WithArguments(args ...any) types.AsyncAssertion {
	return a.with(a.inner.WithArguments(args...))
}

func (a countingAsync) MustPassRepeatedly(n int) types.AsyncAssertion {
	return a.with(a.inner.MustPassRepeatedly(n))
}

// startCounting begins a spec's count.
func (t *Fixture) startCounting() { t.assertions.reset() }

// assertionsOf is what the running spec of rule evaluated: its Gomega
// assertions and, for a spec that reports a rule's checks of every
// response (a cross-cutting rule, or a shape rule's case judged on every
// response: suites/protocol), each response the rule judged over the run
// (it asserts through t.CrossCutting, not through Gomega).
func (t *Fixture) assertionsOf(rule spec.Rule) int {
	n := int(t.assertions.count())
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
