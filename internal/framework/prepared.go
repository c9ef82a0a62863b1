package framework

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/client"
)

// This file prepares the fixtures of several specs side by side. Ginkgo
// runs one spec after another; a spec that creates a page, edits it,
// reads it back and deletes it waits for each answer in turn. Prepare
// splits a spec in two: prepare makes the requests and returns what they
// brought, judge asserts on it. When the first spec of a Group runs, the
// prepare functions of every spec of the group that the run selected start
// together (at most Options.Concurrency at a time, handed out in the order
// the specs were registered); each spec then waits for its own and judges
// it. With --concurrency 1 they run one after another, in that order.
//
// What stays as before:
//   - verdicts: judge runs in the spec's goroutine, as an It body would;
//   - evidence and order: the requests of a prepare are held (client.Hold)
//     and recorded when its spec judges them, as the spec's own requests:
//     sequence numbers, reports and the cross-cutting checks see the same
//     order in every run, whatever answered first;
//   - no trace: prepares run in the background context, which ends before
//     the final sweep; what they create goes into the Ledger before the
//     request that creates it is sent (CreatePage does).

// Group is the specs whose fixtures are prepared together. Its specs must
// stand in one top-level container (Ginkgo runs those one after another,
// never interleaved with another's), and what they prepare must not
// disturb each other: each on its own pages, or all reads.
type Group struct {
	t       *Fixture
	phase   ginkgo.SpecPriority
	queued  bool // started by its phase (specBegins); under t.prep.mu
	members []*prepared
	launch  sync.Once
	// started counts the members launch started, judged those whose spec
	// has taken its result: the spec that judges the last of them
	// registers the cleanups of what the group shares (Share). Ginkgo
	// runs a container's specs sorted by source location, not in the
	// order they were registered, so the last to run is only known then.
	mu      sync.Mutex
	started int
	judged  int
	shared  cleanups
	// helds are the held requests of the group's shared fixtures.
	helds lockedList[*client.Held]
	// creates is the group's guard of refused creates (GuardCreates).
	creates *CreateGuard
	// spare: its prepares' reads take the wire's spare room (InSpareRoom)
	// until needed is closed: once one of its specs waits for them.
	spare      bool
	needed     chan struct{}
	neededOnce sync.Once
}

// InSpareRoom makes the reads of g's prepares go in the wire's spare room
// (client.SpareRoom): beside the other reads of the run, never in their
// way. Only for reads whose answers do not depend on when they are sent
// (probes the target must refuse whatever it holds): they may then go out
// beside the writes phase's reads. It returns g.
func (g *Group) InSpareRoom() *Group {
	g.spare, g.needed = true, make(chan struct{})
	return g
}

// waitedFor is told that a spec of g waits for its prepare: reads in the
// spare room go as any read from then on.
func (g *Group) waitedFor() {
	if g.spare {
		g.neededOnce.Do(func() { close(g.needed) })
	}
}

// prepared is one spec of a group: its prepare function, and once it ran,
// its result.
type prepared struct {
	key     string // SpecKey of the spec, matched against the run's selection
	def     specDef
	run     func(ctx context.Context) any
	started bool // set by launch, before the spec runs
	done    chan struct{}
	value   any
	panic   any
	held    *client.Held
	namer   *namer // names the pages its prepare creates
	// after are the members its prepare runs after (After).
	after []*prepared
	// slots are the group's places, one of which its prepare holds while
	// it runs (nil when its spec prepared it alone): await gives it up
	// while waiting for a shared fixture or an earlier prepare (After).
	slots chan struct{}
	// shared are the held requests of the shared fixtures (Share) its
	// prepare used: the spec that judges it records them before its own,
	// when no earlier spec has, so that evidence never shows a request
	// not yet numbered.
	sharedMu sync.Mutex
	shared   []*client.Held
	// cleanups are what prepare deferred (Adopt, GuardCreate): the spec
	// that judges it registers them with ginkgo.DeferCleanup.
	cleanups cleanups
}

// NewGroup returns an empty group of t, whose specs stand in a top-level
// container of phase (PhaseReads and so on): its prepares start with the
// other groups of that phase (see startsAt), or at its own first spec,
// whichever comes first.
func (t *Fixture) NewGroup(phase ginkgo.SpecPriority) *Group {
	g := &Group{t: t, phase: phase}
	t.prep.mu.Lock()
	t.prep.groups = append(t.prep.groups, g)
	t.prep.mu.Unlock()
	return g
}

// Prepare registers a spec of rule id, like Fixture.It with the same
// arguments, whose requests prepare makes (when the group's first spec
// runs, beside the others') and whose verdict judge gives from what prepare
// returned.
//
// prepare runs in a goroutine of its own, outside any spec: it must not
// assert, fail, skip or call NotChecked. It returns what it got (exchanges,
// keys, a reason it stopped early) and judge decides. It may use All. A
// spec the run does not check before its body (read-only run, no
// authentication token, settings writes not allowed) prepares nothing.
// An After argument makes prepare wait for the prepares of other rules.
func Prepare[T any](g *Group, id string, prepare func(ctx context.Context) T, judge func(ctx ginkgo.SpecContext, v T), args ...any) bool {
	return prepareAt(2, g, id, prepare, judge, args...)
}

// prepareAt is Prepare for a caller skip frames up (the spec's location).
func prepareAt[T any](skip int, g *Group, id string, prepare func(ctx context.Context) T, judge func(ctx ginkgo.SpecContext, v T), args ...any) bool {
	args, after := splitAfter(args)
	d, ok := g.t.define(id, args)
	if !ok {
		return false
	}
	loc := callerLocation(skip)
	m := &prepared{key: SpecKey(loc, d.text), def: d, done: make(chan struct{}),
		run:   func(ctx context.Context) any { return prepare(ctx) },
		namer: g.t.newNamer("f"), after: g.earlier(d, after)}
	g.members = append(g.members, m)
	return g.t.register(d, loc, func(ctx ginkgo.SpecContext) {
		g.start()
		if !m.started {
			// Not foreseen by the selection: prepared here, alone.
			m.exec(ctx)
		}
		g.waitedFor()
		select {
		case <-m.done:
		case <-ctx.Done():
			ginkgo.Fail("interrupted while its requests were on their way")
		}
		m.release(g.t.Client)
		if g.lastJudged(m) {
			// Before the spec's own, so that they run after them.
			g.shared.register()
			// Every spec of the group has judged what its prepares
			// read: their bodies may go (client.Unpin), not before.
			ginkgo.DeferCleanup(g.unpin)
		}
		m.cleanups.register()
		if m.panic != nil {
			panic(m.panic)
		}
		// The nil of an interface type T comes back as a nil any.
		v, _ := m.value.(T)
		judge(ctx, v)
	})
}

// Share returns a function that gives every prepare function of g the same
// fixture: the first call runs fn, later and concurrent ones wait for its
// value (giving up their place among the group's --concurrency meanwhile).
// fn's requests are recorded by the first spec judged whose prepare used
// the fixture, whichever prepare made it. What fn creates is removed when the group's last spec ends, not
// with the spec whose prepare happened to make it, since other prepares
// may still be using it. fn follows the rules of a prepare function.
func Share[T any](g *Group, fn func(ctx context.Context) T) func(ctx context.Context) T {
	done := make(chan struct{})
	var value T
	var panicked any
	var held *client.Held
	names := g.t.newNamer("s")
	var mu sync.Mutex
	started := false
	return func(ctx context.Context) T {
		m, _ := ctx.Value(memberKey{}).(*prepared)
		mu.Lock()
		first := !started
		started = true
		mu.Unlock()
		if first {
			func() {
				defer close(done)
				defer func() { panicked = caught(recover()) }()
				var hctx context.Context
				hctx, held = client.Hold(context.WithValue(context.WithValue(ctx, cleanupsKey{}, &g.shared), namerKey{}, names))
				g.helds.add(held)
				value = fn(hctx)
			}()
		} else if !m.await(ctx, done) {
			var zero T
			return zero
		}
		if m != nil {
			m.uses(held)
		}
		if panicked != nil {
			panic(panicked)
		}
		return value
	}
}

// await waits until done is closed, false when ctx ends first. Meanwhile
// m's prepare (nil: a spec's body) gives up its place among the group's
// --concurrency, so that waiting for a shared fixture never keeps the
// prepares that would let it finish from starting; it takes a place again
// before it goes on.
func (m *prepared) await(ctx context.Context, done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
	}
	if m != nil && m.slots != nil {
		<-m.slots
		defer func() { m.slots <- struct{}{} }()
	}
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}

// SpecKey names a spec by where it was registered and its leaf text, as
// the run's selection (Fixture.Select) lists them: specs registered in a
// loop share a location but not a text.
func SpecKey(loc types.CodeLocation, leafText string) string {
	return fmt.Sprintf("%s:%d %s", loc.FileName, loc.LineNumber, leafText)
}

// Select tells t which specs the run will run (SpecKey of each), from a
// preview of the suite: a group prepares only those. Without it every
// spec of a group counts as selected.
func (t *Fixture) Select(keys []string) {
	set := make(map[string]bool, len(keys))
	for _, k := range keys {
		set[k] = true
	}
	t.prep.mu.Lock()
	t.prep.selected = set
	t.prep.mu.Unlock()
}

// selects reports whether the run will run the spec named key.
func (t *Fixture) selects(key string) bool {
	t.prep.mu.Lock()
	defer t.prep.mu.Unlock()
	return t.prep.selected == nil || t.prep.selected[key]
}

// preparations is the fixture's record of its groups and the run's
// selection.
type preparations struct {
	mu       sync.Mutex
	groups   []*Group
	selected map[string]bool // nil: every spec
	namers   int             // namers made so far (newNamer)
}

// start launches, once, the prepare function of every member the run
// selected and checks: at most Concurrency at a time, started in the order
// registered.
func (g *Group) start() {
	g.launch.Do(func() {
		var todo []*prepared
		for _, m := range g.members {
			if g.t.selects(m.key) && g.t.gate(m.def) == "" {
				m.started = true
				todo = append(todo, m)
			}
		}
		g.mu.Lock()
		g.started = len(todo)
		g.mu.Unlock()
		ctx := g.t.backgroundContext()
		if g.spare {
			ctx = client.SpareRoom(ctx, g.needed)
		}
		n := max(g.t.Concurrency, 1)
		if g.spare && n > 1 {
			// All at once: each waits for the spare room on the wire,
			// which bounds what is in flight.
			n = max(len(todo), 1)
		}
		slots := make(chan struct{}, n)
		g.t.background.wg.Go(func() {
			for _, m := range todo {
				select {
				case slots <- struct{}{}:
				case <-ctx.Done():
					m.exec(ctx) // ends at once, its context done
					continue
				}
				m.slots = slots
				g.t.background.wg.Go(func() {
					defer func() { <-slots }()
					m.exec(ctx)
				})
			}
		})
	})
}

// unpin lets the client release the bodies of what the group's prepares
// and shared fixtures read (client.Unpin): they stay whole while any spec
// of the group may still judge them, whichever spec recorded them.
func (g *Group) unpin() {
	for _, m := range g.members {
		if m.held != nil {
			g.t.Client.Unpin(m.held)
		}
	}
	for _, h := range g.helds.snapshot() {
		g.t.Client.Unpin(h)
	}
}

// lastJudged counts m's spec as judged and reports whether every member
// launch started has been judged now (or before: a member the selection
// did not foresee, prepared alone, may come after them all).
func (g *Group) lastJudged(m *prepared) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if m.started {
		g.judged++
	}
	return g.judged >= g.started
}

// exec runs m's prepare function with its requests held, and keeps what it
// returned or the panic it raised.
func (m *prepared) exec(ctx context.Context) {
	ctx = context.WithValue(context.WithValue(ctx, memberKey{}, m), namerKey{}, m.namer)
	hctx, h := client.Hold(context.WithValue(ctx, cleanupsKey{}, &m.cleanups))
	m.held = h
	defer close(m.done)
	defer func() { m.panic = caught(recover()) }()
	m.waitForEarlier(ctx)
	m.value = m.run(hctx)
}

// memberKey carries the *prepared whose prepare function runs with a
// context.
type memberKey struct{}

// uses notes that m's prepare used the shared fixture whose requests h
// holds.
func (m *prepared) uses(h *client.Held) {
	m.sharedMu.Lock()
	defer m.sharedMu.Unlock()
	if !slices.Contains(m.shared, h) {
		m.shared = append(m.shared, h)
	}
}

// release records the requests of m's prepare, after those of the shared
// fixtures it used that no earlier spec recorded.
func (m *prepared) release(c *client.Client) {
	m.sharedMu.Lock()
	shared := slices.Clone(m.shared)
	m.sharedMu.Unlock()
	for _, h := range shared {
		c.Release(h)
	}
	c.Release(m.held)
}

// releasePrepared records what prepares held but no spec judged (a spec
// skipped by --fail-fast or an interrupt), once every prepare has
// returned: the run's request count and exchanges include them. Then it
// runs the cleanups no spec took over (those of a prepare whose spec did
// not run, those of a group's shared fixtures when its last spec did not
// run), latest first and a group's shared ones after its members': pages
// are removed and settings restored all the same.
func (t *Fixture) releasePrepared(ctx context.Context) {
	t.prep.mu.Lock()
	groups := t.prep.groups
	t.prep.mu.Unlock()
	var left []func(context.Context)
	for _, g := range groups {
		left = append(left, g.shared.take()...) // run after the members'
		for _, m := range g.members {
			if m.started {
				<-m.done
			}
		}
		g.unpin()
		helds := g.helds.take()
		for _, m := range g.members {
			if m.started {
				<-m.done
				m.release(t.Client)
				left = append(left, m.cleanups.take()...)
			}
		}
		for _, h := range helds { // shared fixtures no judged spec used
			t.Client.Release(h)
		}
	}
	for i := len(left) - 1; i >= 0; i-- {
		left[i](ctx)
	}
}
