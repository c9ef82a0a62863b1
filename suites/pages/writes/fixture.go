package writes

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"

	. "github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// A fixture is one chain of requests (a page created, edited, read back,
// deleted) whose answers the specs of several rules judge: one page carries
// the checks of every rule its requests can show without disturbing the
// others'. The group's fixtures are made side by side: the first spec
// registered on a fixture (its lead) makes it in its prepare function
// (framework.Prepare), beside the other leads; the specs registered after
// it judge what it brought once the lead has been judged. A spec that runs
// before the fixture was made (the run did not select its lead) makes it in
// its own body.
//
// It was written before framework.Share recorded a shared fixture's
// requests under the first spec judged that used it and freed the places
// of the prepares waiting for it; Share now does both, and this type could
// give way to it (left for a later change: the chains' verdicts were
// proved with this one).
type fixture[T trailer] struct {
	fn       func(ctx context.Context) T
	lead     bool // a spec is registered as its lead
	mu       sync.Mutex
	started  bool
	done     chan struct{}
	value    T
	panicked any
}

// trailer is a fixture's value: it lists the exchanges it judges, for the
// specs that judge them without having made them (Fixture.Judged).
type trailer interface{ exchanges() []*client.Exchange }

// trail is the exchanges of a fixture, in the order it made them.
type trail struct{ exs []*client.Exchange }

func (tr *trail) exchanges() []*client.Exchange { return tr.exs }

// add notes ex in the trail and returns it.
func (tr *trail) add(ex *client.Exchange) *client.Exchange {
	tr.exs = append(tr.exs, ex)
	return ex
}

func newFixture[T trailer](fn func(ctx context.Context) T) *fixture[T] {
	return &fixture[T]{fn: fn, done: make(chan struct{})}
}

// get returns the fixture, making it with ctx when no one has started to;
// the zero value when ctx ends before it is made. A panic of fn is raised
// again in every caller.
func (f *fixture[T]) get(ctx context.Context) T {
	f.mu.Lock()
	first := !f.started
	f.started = true
	f.mu.Unlock()
	if first {
		func() {
			defer close(f.done)
			defer func() {
				if r := recover(); r != nil {
					// With the stack it was raised on: the spec that raises
					// it again is not where it came from.
					f.panicked = fmt.Sprintf("%v\n\nraised while making the fixture, at:\n%s", r, debug.Stack())
				}
			}()
			f.value = f.fn(ctx)
		}()
	}
	select {
	case <-f.done:
	case <-ctx.Done():
		var zero T
		return zero
	}
	if f.panicked != nil {
		panic(f.panicked)
	}
	return f.value
}

// judgeOn registers the spec of rule id (It's arguments in args) that judges
// fixture f: f's lead when it is the first spec registered on f, otherwise a
// spec that judges what the lead's fixture brought.
//
// Ginkgo runs the specs of a container in the order of their code location:
// all specs registered here share this function's two lines, so in each
// container the leads (Prepare, the line above) run before the others (It,
// the line below), and a lead's container comes no later than those of the
// specs registered on its fixture after it. So the lead is judged, its
// fixture made, before any other spec of the fixture runs.
func judgeOn[T trailer](s *suite, f *fixture[T], id string, judge func(ctx SpecContext, v T), args ...any) {
	if !f.lead {
		f.lead = true
		framework.Prepare(s.g, id, f.get, judge, args...)
		return
	}
	s.t.It(id, func(ctx SpecContext) {
		v := f.get(ctx)
		if ctx.Err() != nil {
			Fail("interrupted while the requests it judges were on their way")
		}
		s.t.Judged(v.exchanges()...)
		judge(ctx, v)
	}, args...)
}
