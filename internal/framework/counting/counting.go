// Package counting makes gomega.Default count the assertions it hands out,
// as they are evaluated: what "no vacuous passes" rests on (see the
// framework's assertions.go). Install puts the wrapper around Gomega's own
// package-level default, the one hook into package-level state, and it is
// Gomega's (gomega.Default is a variable meant to be wrapped: the wrapper
// hands Gomega the original through Inner).
package counting

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/onsi/gomega"
	"github.com/onsi/gomega/types"
)

// Counter counts the assertions evaluated by the running spec.
type Counter struct{ n atomic.Int64 }

func (c *Counter) add() { c.n.Add(1) }

// Reset starts a new count.
func (c *Counter) Reset() { c.n.Store(0) }

// Count is the number of assertions evaluated since the last Reset.
func (c *Counter) Count() int64 { return c.n.Load() }

// Install makes gomega.Default count into c. Installing again (another
// counter in the same process) replaces the earlier wrapper instead of
// stacking a second one around it.
func Install(c *Counter) {
	inner := gomega.Default
	if w, ok := inner.(countingGomega); ok {
		inner = w.Gomega
	}
	gomega.Default = countingGomega{Gomega: inner, counter: c}
}

// countingGomega is gomega.Default with every assertion it hands out
// counted when it is evaluated. Set* methods pass through (embedded).
type countingGomega struct {
	types.Gomega
	counter *Counter
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
	counter *Counter
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
