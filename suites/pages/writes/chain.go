package writes

import (
	"context"

	. "github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// A chain is one run of requests (a page created, edited, read back,
// deleted) whose answers the specs of several rules judge: one page
// carries the checks of every rule its requests can show without
// disturbing the others'. It is a shared fixture of the suite's group
// (framework.Share): made once, by the first prepare that asks for it,
// side by side with the other chains. Its requests are recorded under the
// first spec judged that used it, its lead (judgeOn); each spec that
// judges it shows them as its evidence.
type chain[T trailer] struct {
	get  func(ctx context.Context) T
	lead bool // a spec is registered as its lead
}

func newChain[T trailer](s *suite, makeChain func(ctx context.Context) T) *chain[T] {
	return &chain[T]{get: framework.Share(s.g, makeChain)}
}

// trailer is a chain's value: it lists the exchanges it made, the evidence
// of every spec that judges it (Fixture.Judged).
type trailer interface{ exchanges() []*client.Exchange }

// trail is the exchanges of a chain, in the order it made them.
type trail struct{ exs []*client.Exchange }

func (tr *trail) exchanges() []*client.Exchange { return tr.exs }

// add notes ex in the trail and returns it.
func (tr *trail) add(ex *client.Exchange) *client.Exchange {
	tr.exs = append(tr.exs, ex)
	return ex
}

// judgeOn registers the spec of rule id (It's arguments in args) that
// judges chain c. The first spec registered on c is its lead, the spec of
// the rule c's distinctive answer belongs to (PAGE-CREATE-201 for the 201
// of a create, PAGE-DELETE-OK for the 200 of a delete, ...): c's requests
// are numbered and recorded under it.
//
// Ginkgo runs the specs of a container in the order of their code
// location: leads are registered on one line below, the others on the
// next, so in each container the leads run first; and a lead's container
// comes no later than those of the specs registered on its chain after it
// (Register orders the sections so). So the lead is the first spec judged
// that used its chain.
func judgeOn[T trailer](s *suite, c *chain[T], id string, judge func(ctx SpecContext, v T), args ...any) {
	evidenced := func(ctx SpecContext, v T) {
		var notMade T // the run ended before the chain was made
		if any(v) == any(notMade) {
			Fail("interrupted while the requests it judges were on their way")
		}
		s.t.Judged(v.exchanges()...)
		judge(ctx, v)
	}
	if !c.lead {
		c.lead = true
		framework.Prepare(s.g, id, c.get, evidenced, args...) // the lead
		return
	}
	framework.Prepare(s.g, id, c.get, evidenced, args...) // after the leads
}
