package framework

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"sync/atomic"

	"github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// This file holds what prepared.go's groups lean on: the cleanups a
// prepare function collects for its spec, the names of the pages prepares
// create, panics carried from a prepare to its spec, Got, and the phases.

// cleanups collects the cleanups of a prepare function, which runs
// outside any spec and so cannot register them itself. take returns those
// no spec has registered.
type cleanups struct {
	lockedList[func(context.Context)]
}

// register hands the cleanups collected so far to ginkgo.DeferCleanup, in
// the running spec.
func (c *cleanups) register() {
	for _, fn := range c.take() {
		ginkgo.DeferCleanup(fn)
	}
}

// cleanupsKey carries a prepare function's *cleanups in its context.
type cleanupsKey struct{}

// DeferCleanup runs fn when the current spec ends, also when it fails or
// the run is interrupted (ginkgo.DeferCleanup); called in a prepare
// function (ctx of Prepare), when the spec that judges it ends; in a Share
// function, when the group's last spec ends. Suites use it for cleanups
// they compose themselves (one guard over the requests of several
// prepares, say).
func (t *Fixture) DeferCleanup(ctx context.Context, fn func(context.Context)) {
	if c, ok := ctx.Value(cleanupsKey{}).(*cleanups); ok {
		c.add(fn)
		return
	}
	ginkgo.DeferCleanup(fn)
}

// CollectingCleanups is ctx made to collect what DeferCleanup registers
// under it, for code that runs outside any spec (tests, tools), and the
// function that runs what it collected, last registered first.
func CollectingCleanups(ctx context.Context) (context.Context, func(context.Context)) {
	c := &cleanups{}
	return context.WithValue(ctx, cleanupsKey{}, c), func(ctx context.Context) {
		for _, fn := range slices.Backward(c.take()) {
			fn(ctx)
		}
	}
}

// namer names the pages one prepare function, or one shared fixture,
// creates (PageFields): from the order they were registered in and a
// count of its own, so a page gets the same slug in every run, whichever
// prepare ran first.
type namer struct {
	prefix string
	n      atomic.Int64
}

// namerKey carries the *namer of a prepare or Share function's context.
type namerKey struct{}

// newNamer returns the next namer of the run, its prefix starting with
// kind.
func (t *Fixture) newNamer(kind string) *namer {
	t.prep.mu.Lock()
	defer t.prep.mu.Unlock()
	t.prep.namers++
	return &namer{prefix: fmt.Sprintf("%s%d", kind, t.prep.namers)}
}

// pageSlug is the run-marked slug of the next page created with ctx: named
// by its prepare or shared fixture (namer), else by a count of the run's
// own, which only specs, one after another, use.
func (t *Fixture) pageSlug(ctx context.Context) string {
	if nm, ok := ctx.Value(namerKey{}).(*namer); ok {
		return t.Marker(fmt.Sprintf("%s-p%d", nm.prefix, nm.n.Add(1)))
	}
	return t.Marker(fmt.Sprintf("p%d", t.names.Add(1)))
}

// raised is a panic of a function that ran outside any spec (a prepare,
// Share's fn), with the stack it was raised on: the spec that raises it
// again shows where it came from, not where it was raised again.
type raised struct {
	value any
	stack []byte
}

func (r raised) String() string {
	return fmt.Sprintf("%v\n\nraised outside the spec, at:\n%s", r.value, r.stack)
}

// caught keeps what recover returned, with the stack of the panic, for a
// spec to raise again; nil when there was no panic. Called in the
// deferred function that recovered, the stack is still the panic's.
func caught(r any) any {
	if r == nil {
		return nil
	}
	if _, ok := r.(raised); ok {
		return r // raised by Share's fn: its own stack says more
	}
	return raised{value: r, stack: debug.Stack()}
}

// Got is what a prepare function returns for a spec that judges one
// exchange: the exchange, or why the spec is not checked (a prepare
// function may not say so itself). Judge calls Exchange.
type Got struct {
	ex         *client.Exchange
	notChecked string
}

// GotExchange is a Got holding ex.
func GotExchange(ex *client.Exchange) Got { return Got{ex: ex} }

// GotNothing is a Got whose spec is not checked, for the reason given.
func GotNothing(format string, args ...any) Got {
	return Got{notChecked: fmt.Sprintf(format, args...)}
}

// Exchange returns the exchange, or makes the running spec not checked
// with the reason the prepare function gave.
func (g Got) Exchange() *client.Exchange {
	if g.notChecked != "" {
		verdicts.NotCheckedAt(g.notChecked, 1)
	}
	return g.ex
}

// Phases order the run's top-level containers (Ginkgo runs higher
// priorities first; the cross-cutting checks come last of all). Reads come
// first, while the read cache holds (any other request empties it): first
// those whose container sets up pages a target lacks (its BeforeAll writes
// before any other read of the run is on its way), then all the others,
// their groups side by side; then the probes that carry no valid
// authentication (refused writes); then page and file writes; settings
// writes last, so no other spec sees the site with a setting changed. Put
// one on each top-level Describe, and the same on its group (NewGroup).
const (
	PhaseReadsSetUp     = ginkgo.SpecPriority(450)
	PhaseReads          = ginkgo.SpecPriority(400)
	PhaseProbes         = ginkgo.SpecPriority(300)
	PhaseWrites         = ginkgo.SpecPriority(200)
	PhaseSettingsWrites = ginkgo.SpecPriority(100)
	// PhaseSpareReads is that of reads whose answers do not depend on when
	// they are sent (probes the target must refuse: Group.InSpareRoom).
	// Its groups start with the settings writes, whose reads go out one at
	// a time, between the updates: the spare reads fill those rounds
	// instead of rounds of their own in the reads phase, where every
	// round is full. Its specs judge after the settings writes.
	PhaseSpareReads = ginkgo.SpecPriority(99)
	// PhaseRunEnd is that of the specs that judge what the run's writes
	// left on the site, on the listing of every page the sweep reads
	// anyway (RunPagesAtEnd): after every spec that may write (those that
	// judge the errors the whole run provoked, at -500, send refused
	// writes), before the every-answer checks, which judge its request.
	PhaseRunEnd = ginkgo.SpecPriority(-700)
	// PhaseEveryAnswer is that of the specs that judge every answer of
	// the run (the cross-cutting checks' tallies): after every other.
	PhaseEveryAnswer = ginkgo.SpecPriority(-1000)
)
