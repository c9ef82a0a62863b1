package client

import (
	"context"
	"slices"
	"time"
)

// The spare room of the wire. Some reads get the same answer whenever they
// are sent (a probe the target must refuse, whatever the site holds): they
// need not take a place in a full round of reads, nor a round trip of
// their own. A read in the spare room waits until it can go beside a
// round of other reads as that round goes out, with room left in it; once
// the spec that judges it waits for its answer, it goes as any read.

// spareKey carries the needed channel of a context's spare room.
type spareKey struct{}

// SpareRoom marks ctx's reads as reads in the spare room until needed is
// closed (the spec that judges them waits for them); from then on they go
// as any read.
func SpareRoom(ctx context.Context, needed <-chan struct{}) context.Context {
	return context.WithValue(ctx, spareKey{}, needed)
}

// spareUntil is the needed channel of ctx's spare room; nil when ctx's
// reads are not in it, or no longer.
func spareUntil(ctx context.Context) <-chan struct{} {
	needed, _ := ctx.Value(spareKey{}).(<-chan struct{})
	if needed == nil {
		return nil
	}
	select {
	case <-needed:
		return nil
	default:
		return needed
	}
}

// spareJoin is how long after a read got the wire a read in the spare
// room may still go beside it: the round it belongs to is going out, not
// coming back (a read let go then would cost a round trip that the write
// the answers bring would wait for).
const spareJoin = 2 * time.Millisecond

// spareMayGo reports whether a read in the spare room may go now: beside
// a round of reads going out. The caller holds w.mu.
func (w *wire) spareMayGo() bool {
	return w.shared > 0 && time.Since(w.lastGrant) < spareJoin
}

// promote makes wt, a read in the spare room, one like any other, in line
// after those waiting already, unless it holds the wire already.
func (w *wire) promote(wt *waiter) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if wt.done {
		return
	}
	w.waitShared = slices.DeleteFunc(w.waitShared, func(x *waiter) bool { return x == wt })
	wt.spare = false
	w.waitShared = queue(w.waitShared, wt)
	w.dispatch()
}
