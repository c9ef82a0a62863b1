package framework

import (
	"context"
	"slices"

	"github.com/conformance-suite/conformance/internal/client"
)

// This file lets a spec send independent requests side by side, and show
// as its evidence exchanges made before it ran (a BeforeAll's fixtures, a
// prepare function, a batch shared by several specs).

// All sends reqs side by side, at most Options.Concurrency at a time (one
// by one when it is 1 or unset), under the run's --rps limit, and returns
// their exchanges in the order given. They are recorded in that order too,
// so a run's sequence numbers and reports do not depend on which answer
// came first.
//
// The requests must be independent: none may need another's answer, and a
// read beside a write may see the target before or after it. Typical uses:
// the same probe against every endpoint, the pages of a listing once its
// first page gave the total, one read per item of a list, the deletes of a
// container's pages. All never fails a spec: judge the exchanges it
// returns, in the spec's own goroutine.
func (t *Fixture) All(ctx context.Context, reqs ...client.Request) []*client.Exchange {
	return t.Client.DoAll(ctx, reqs, t.Concurrency)
}

// Fresh makes a helper's read (Read, ReadAuth) go to the target even when
// the run's read cache holds its answer (client.Request.Fresh): for a read
// that must see the target now although nothing was written since the last
// one — the second of two reads that tell which fields change by
// themselves. A read after a write needs no Fresh: every write empties
// the cache.
func Fresh() RequestOption {
	return func(r *client.Request) { r.Fresh = true }
}

// Judged names exchanges the running spec judges that it did not make
// itself — made in a BeforeAll for every spec of an Ordered container, by
// a prepare function or a shared fixture, or by an earlier spec — so that a failure shows them
// with the spec's own requests. Exchanges the spec made need no mention.
func (t *Fixture) Judged(exs ...*client.Exchange) {
	t.judged.add(exs...)
}

// evidence returns what a failing spec shows: the exchanges it was told it
// judges (Judged), then those recorded since it started (own), each once;
// and forgets the first, ready for the next spec.
func (t *Fixture) evidence(own []*client.Exchange) []*client.Exchange {
	var out []*client.Exchange
	for _, ex := range append(t.judged.take(), own...) {
		if ex != nil && !slices.Contains(out, ex) {
			out = append(out, ex)
		}
	}
	return out
}
