package framework

import (
	"context"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2"
)

// This file runs work beside the specs: the prepare functions of groups
// (Prepare), started by phase (specBegins), so that the groups of a phase
// make their requests side by side and a fixture that must wait
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
}

// SleepUntil waits until at, or less if ctx ends first; it reports whether
// at was reached. A gap the spec needs (FILES-NEWEST-FIRST's second since
// the first upload) costs only what is left of it.
func SleepUntil(ctx context.Context, at time.Time) bool {
	d := time.Until(at)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
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

// Groups start by phase, all the groups of a phase at once, as soon as
// the run reaches it: those of the reads at its first read spec, those of
// the probes and of the writes together at its first spec past the reads
// (probes and writes are serialised on the wire anyway, and a write
// waiting lets the reads that pile up behind it go out together), those of
// the settings writes at theirs. Ginkgo runs the top-level containers one
// after another; started by its first spec, each group would wait for the
// groups before it, and a run's time would be the sum of their chains of
// requests instead of the longest. A group's prepares therefore may run
// while specs of other containers of its phase (or, for writes, of the
// probes) run: they must touch nothing but what they create (a page of the
// run, its files), and no spec past the reads may compare site-wide
// listings taken at two moments.

// startsAt is the phase whose first spec starts the groups of phase. A
// group of PhaseReadsSetUp starts at its own first spec only: its
// container's BeforeAll makes what its prepares read (and runs after the
// run's BeforeEach, where phases start).
func startsAt(phase ginkgo.SpecPriority) ginkgo.SpecPriority {
	switch phase {
	case PhaseWrites:
		return PhaseProbes
	case PhaseSpareReads:
		return PhaseSettingsWrites
	case PhaseReadsSetUp:
		return math.MinInt32
	}
	return phase
}

// specBegins is told the priority of each spec as it begins (Install's
// BeforeEach): it starts the groups of every phase the run has reached
// (startsAt), once.
func (t *Fixture) specBegins(priority int) {
	t.prep.mu.Lock()
	var due []*Group
	for _, g := range t.prep.groups {
		if !g.queued && int(startsAt(g.phase)) >= priority {
			g.queued = true
			due = append(due, g)
		}
	}
	t.prep.mu.Unlock()
	// Ginkgo builds the tree of containers once for the runner's preview
	// of the selection and again for the run, and so registers each group
	// twice: only the latest of the groups with the same specs is the one
	// the run's specs judge.
	latest := map[string]*Group{}
	for _, g := range due {
		latest[g.signature()] = g
	}
	for _, g := range due {
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
