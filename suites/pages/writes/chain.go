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
// side by side with the other chains; its requests are recorded under the
// first spec judged that used it, and each spec that judges it shows them
// as its evidence (judgeOn).
type chain[T trailer] func(ctx context.Context) T

func newChain[T trailer](s *suite, makeChain func(ctx context.Context) T) chain[T] {
	return framework.Share(s.g, makeChain)
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
// judges chain c.
func judgeOn[T trailer](s *suite, c chain[T], id string, judge func(ctx SpecContext, v T), args ...any) {
	framework.Prepare(s.g, id, c, func(ctx SpecContext, v T) {
		var notMade T // the run ended before the chain was made
		if any(v) == any(notMade) {
			Fail("interrupted while the requests it judges were on their way")
		}
		s.t.Judged(v.exchanges()...)
		judge(ctx, v)
	}, args...)
}
