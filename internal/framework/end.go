package framework

import (
	"context"
	"slices"
	"sync"
)

// endHooks is the work registered for the end of the run, after its last
// spec (AtEnd): a package with state on the target (the settings guards)
// puts it back there without the framework knowing it.
type endHooks struct {
	mu     sync.Mutex
	keys   map[string]bool
	before []func(context.Context) // before the sweep of the pages the run created
	after  []func(context.Context) // after it, with the late writes settled
}

// AtEnd registers fn for the end of the run: before the sweep of the
// pages the run created when beforeSweep, else after it, once the writes
// without an answer could have landed (and only in a run that writes).
// The hooks of each kind run last registered first, like deferred calls.
// A key registered already is not registered again; "" is never a
// duplicate.
func (t *Fixture) AtEnd(key string, beforeSweep bool, fn func(context.Context)) {
	h := &t.atEnd
	h.mu.Lock()
	defer h.mu.Unlock()
	if key != "" {
		if h.keys[key] {
			return
		}
		if h.keys == nil {
			h.keys = map[string]bool{}
		}
		h.keys[key] = true
	}
	if beforeSweep {
		h.before = append(h.before, fn)
	} else {
		h.after = append(h.after, fn)
	}
}

// runAtEnd runs the hooks of one kind (AtEnd); each runs once.
func (t *Fixture) runAtEnd(ctx context.Context, beforeSweep bool) {
	h := &t.atEnd
	h.mu.Lock()
	list := &h.after
	if beforeSweep {
		list = &h.before
	}
	fns := *list
	*list = nil
	h.mu.Unlock()
	for _, fn := range slices.Backward(fns) {
		fn(ctx)
	}
}
