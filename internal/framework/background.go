package framework

import (
	"context"
	"strings"
	"sync"
	"time"
)

// This file runs work beside the specs: the prepare functions of groups
// (Prepare), and a group started as soon as the run's reads are over
// (Group.StartAfterReads), so that a fixture that must wait
// (FILES-NEWEST-FIRST needs two uploads more than a second apart) does so
// while the run does something useful.

// backgroundWork is the work running beside the specs: its context, which
// ends when the specs end (before the sweep, so no background request
// lands after it), and the goroutines the sweep waits for.
type backgroundWork struct {
	mu     sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// afterReads are the groups waiting for the first spec past the
	// reads phase (Group.StartAfterReads).
	afterReads []*Group
}

// SleepUntil waits until at, or less if ctx ends first; it reports whether
// at was reached. A gap the spec needs (FILES-NEWEST-FIRST's second since
// the first upload) costs only what is left of it.
func SleepUntil(ctx context.Context, at time.Time) bool {
	if time.Until(at) <= 0 {
		return ctx.Err() == nil
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(time.Until(at)):
		return true
	}
}

// backgroundContext is the context of the work beside the specs, made when
// the first group starts.
func (t *Fixture) backgroundContext() context.Context {
	b := &t.background
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ctx == nil {
		b.ctx, b.cancel = context.WithCancel(context.Background())
	}
	return b.ctx
}

// stopBackground ends the background context and waits until all work
// beside the specs has returned: after it, no background request is on its way. Install's
// AfterSuite calls it before the sweep.
func (t *Fixture) stopBackground() {
	b := &t.background
	b.mu.Lock()
	if b.cancel != nil {
		b.cancel()
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// StartAfterReads makes g start its prepares when the run leaves its
// reads, at the first spec of a later phase (a SpecPriority below
// PhaseReads), instead of at g's own first spec. For a fixture that must
// wait: FILES-NEWEST-FIRST's second upload comes more than a second after
// the first, and that second then passes while the probes and the other
// writes run. What g prepares does not change: only the specs the run
// selects and does not gate, held and judged by g's own specs, which must
// stand in a container of a later phase than the reads. Its requests may
// land while specs of other containers run: they must touch nothing but
// what they create (a page of the run, its files), and no spec past the
// reads may compare site-wide listings taken at two moments.
func (g *Group) StartAfterReads() {
	b := &g.t.background
	b.mu.Lock()
	defer b.mu.Unlock()
	b.afterReads = append(b.afterReads, g)
}

// specBegins is told the priority of each spec as it begins (Install's
// BeforeEach): at the first past the reads phase, it starts the groups
// waiting for that (StartAfterReads).
func (t *Fixture) specBegins(priority int) {
	if priority >= int(PhaseReads) {
		return
	}
	b := &t.background
	b.mu.Lock()
	groups := b.afterReads
	b.afterReads = nil
	b.mu.Unlock()
	// Ginkgo builds the tree of containers once for the runner's preview
	// of the selection and again for the run, and so registers each group
	// twice: only the latest of the groups with the same specs is the one
	// the run's specs judge.
	latest := map[string]*Group{}
	for _, g := range groups {
		latest[g.signature()] = g
	}
	for _, g := range groups {
		if latest[g.signature()] == g {
			g.start()
		}
	}
}

// signature names a group by the specs it prepares.
func (g *Group) signature() string {
	keys := make([]string, len(g.members))
	for i, m := range g.members {
		keys[i] = m.key
	}
	return strings.Join(keys, "\n")
}
