package client

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

// The wire is the one place that decides which requests of the run may be
// on their way together, whoever sends them (a spec, a batch, prepares
// side by side, a shared fixture, background uploads, the settings
// restore, the cleanup, the final sweep, `conformance cleanup`, the
// preflight).
//
// A write is alone on the wire. The spec promises no transactions, and
// the host keeps its content in flat files that every request reads whole,
// without a lock, and every write truncates and rewrites: a request that
// overlaps a write sees an empty site, and if it writes too, it saves that
// empty view (shared observations, host storage). So while a request that
// is not GET, HEAD or OPTIONS is on its way, no other request of the run
// is; reads go side by side with reads only. A write refused by the
// server counts as a write: a broken server may act on it.
//
// Config.ParallelWrites lifts this for servers whose storage is
// transactional; it is never the default.
//
// Writes go before reads: while a write waits, no read goes on the wire,
// so the reads that pile up behind the writes go out together once no
// write waits. Prepares side by side write, read back, write again; served
// in arrival order, each read back would cost a round trip of its own
// between two writes.
//
// Among writes, and among reads, the wire is handed out in the order it
// was asked for. A read let go in no particular order could wait behind
// later ones round after round (a chain of one page's requests was seen
// waiting a second and a half for its read); first come, first served, a
// read waits for the writes and at most the reads asked for before it.
type wire struct {
	mu sync.Mutex
	// maxReads bounds the requests sharing the wire (MaxInFlight).
	maxReads int
	// shared counts the requests on the wire side by side (reads; writes
	// too with parallelWrites), alone the one holding it alone (0 or 1).
	shared, alone  int
	parallelWrites bool
	// waitAlone and waitShared are the senders waiting, in the order they
	// asked: while one waits to hold the wire alone, no new request shares
	// it.
	waitAlone, waitShared []*waiter
	// What the wire saw, for tests and benchmarks: the writes on their
	// way now and sent, and the overlaps: a write that started while
	// another request was on its way, or a request that started while a
	// write was (zero unless parallelWrites).
	writesOnWire       int
	writes, overlapped int64
	// leadOnWire counts the lead reads on their way: meanwhile the reads
	// waiting go before the writes waiting.
	leadOnWire int
	// lastGrant is when a request last got the wire (spareMayGo).
	lastGrant time.Time
}

// claim is what a sender asks of the wire.
type claim struct {
	alone bool // to hold it alone, else to share it
	write bool // the request is a write (for the counts)
	// lead: a guard's check that takes the reads waiting along with it,
	// ahead of the writes waiting (see WriteGuard.Ahead).
	lead bool
	// resume: a write that gave the wire back for a check, which waits
	// first in line again.
	resume bool
	// spare: a read in the spare room of the wire until needed is closed
	// (SpareRoom).
	spare  bool
	needed <-chan struct{}
}

// waiter is one sender waiting for the wire: granted is closed once it
// holds it.
type waiter struct {
	claim
	granted chan struct{}
	done    bool // granted; under wire.mu
}

func newWire(maxInFlight int, parallelWrites bool) *wire {
	if maxInFlight <= 0 {
		maxInFlight = math.MaxInt
	}
	return &wire{maxReads: maxInFlight, parallelWrites: parallelWrites}
}

// Alone reports whether a request of method must be the only request of
// the run on its way: anything but GET, HEAD and OPTIONS (safe methods,
// RFC 9110 9.2.1), which the spec and the host leave unwritten.
func Alone(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, "":
		return false
	}
	return true
}

// acquire waits for the wire as c asks for it: alone once nothing is on
// it, or shared while nothing holds it alone or waits to, up to maxReads
// at once; each in the order asked (dispatch). False when ctx ends first.
func (w *wire) acquire(ctx context.Context, c claim) bool {
	wt := &waiter{claim: c, granted: make(chan struct{})}
	w.mu.Lock()
	if c.alone {
		w.waitAlone = queue(w.waitAlone, wt)
	} else {
		w.waitShared = queue(w.waitShared, wt)
	}
	w.dispatch()
	w.mu.Unlock()
	needed := c.needed
	for {
		select {
		case <-wt.granted:
			return true
		case <-needed:
			w.promote(wt)
			needed = nil
			continue
		case <-ctx.Done():
		}
		break
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if wt.done {
		// Granted as ctx ended: given back unused, and not counted.
		if c.write {
			w.writes--
		}
		w.free(c)
		return false
	}
	w.waitAlone = slices.DeleteFunc(w.waitAlone, func(x *waiter) bool { return x == wt })
	w.waitShared = slices.DeleteFunc(w.waitShared, func(x *waiter) bool { return x == wt })
	w.dispatch() // reads a waiting write kept off may go now
	return false
}

// dispatch hands the wire to the waiters it can take now: the first
// waiting to hold it alone once nothing is on it, else, while none waits
// so, the first waiting to share it, up to maxReads. A lead read goes
// before the writes waiting, and while it is on its way so do the reads
// waiting. The caller holds w.mu.
func (w *wire) dispatch() {
	for {
		shareable := len(w.waitShared) > 0 && w.alone == 0 && w.shared < w.maxReads
		switch {
		case shareable && (w.waitShared[0].lead || w.leadOnWire > 0):
			w.grant(w.waitShared[0])
			w.waitShared = w.waitShared[1:]
		case len(w.waitAlone) > 0:
			if w.alone > 0 || w.shared > 0 {
				return
			}
			w.grant(w.waitAlone[0])
			w.waitAlone = w.waitAlone[1:]
		case shareable && (!w.waitShared[0].spare || w.spareMayGo()):
			w.grant(w.waitShared[0])
			w.waitShared = w.waitShared[1:]
		default:
			return
		}
	}
}

// queue puts wt in its line: behind those of its rank or above, ahead of
// those below, so each rank in the order asked (claim.rank).
func queue(line []*waiter, wt *waiter) []*waiter {
	i := len(line)
	for i > 0 && line[i-1].rank() < wt.rank() {
		i--
	}
	return slices.Insert(line, i, wt)
}

// rank orders a line: a write back for its turn after a check (resume)
// and a lead first, the reads that take the spare room (SpareRoom) last.
func (c claim) rank() int {
	switch {
	case c.resume || c.lead:
		return 1
	case c.spare:
		return -1
	}
	return 0
}

// grant puts wt on the wire and counts it. The caller holds w.mu.
func (w *wire) grant(wt *waiter) {
	if (wt.write && w.shared+w.alone > 0) || w.writesOnWire > 0 {
		w.overlapped++
	}
	if wt.alone {
		w.alone++
	} else {
		w.shared++
	}
	if wt.write {
		w.writes++
		w.writesOnWire++
	}
	if wt.lead {
		w.leadOnWire++
	}
	w.lastGrant = time.Now()
	wt.done = true
	close(wt.granted)
}

func (w *wire) release(c claim) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.free(c)
}

// free takes a request off the wire and hands it to those waiting. The
// caller holds w.mu.
func (w *wire) free(c claim) {
	if c.alone {
		w.alone--
	} else {
		w.shared--
	}
	if c.write {
		w.writesOnWire--
	}
	if c.lead {
		w.leadOnWire--
	}
	w.dispatch()
}

// WireStats is what the wire saw: the writes sent, and the overlaps (a
// write that started while another request of the run was on its way, or
// a request that started while a write was).
type WireStats struct {
	Writes, Overlaps int64
}

// WireStats reports what the wire saw so far.
func (c *Client) WireStats() WireStats {
	c.wire.mu.Lock()
	defer c.wire.mu.Unlock()
	return WireStats{Writes: c.wire.writes, Overlaps: c.wire.overlapped}
}

// ParallelWrites reports whether writes may share the wire (the opt-in
// for transactional storage).
func (c *Client) ParallelWrites() bool { return c.wire.parallelWrites }

// WriteGuard watches the run's traffic for a site that is losing data and
// can stop every further write (the tripwire). The client calls it from
// the one place every request passes through, so no sender can pass it by.
type WriteGuard interface {
	// BeforeWrite is called for each write once it has the wire to itself
	// (nothing else of the run is on its way), before it is sent. A non-nil
	// error stops the write: it is not sent, and the error is its
	// Exchange's Err. read sends a read on the held wire (recorded at once,
	// never held, never seen by Answered), for the guard's own checks. Under
	// --parallel-writes the write shares the wire and read is nil: a guard
	// that must read returns ErrNeedWireAlone, and is asked again with a
	// read once the write holds the wire alone.
	BeforeWrite(ctx context.Context, read func(Request) *Exchange) error
	// Ahead is called for each write before it waits for the wire; read
	// sends a read beside other reads (told to Answered), for a check
	// that need not hold the wire alone: a lead, which goes before the
	// writes waiting and takes the reads waiting along, so that it rides
	// with reads the run would send after those writes anyway.
	Ahead(ctx context.Context, read func(Request) *Exchange)
	// Beside is called when a batch of reads starts (DoAll); read sends a
	// read beside them (told to Answered), for a check that is due: one
	// that then costs no round trip of its own. The batch waits for it.
	Beside(ctx context.Context, read func(Request) *Exchange)
	// Answered is told each answer the target sent, and each write that got
	// none (Status 0: it may have been acted on), before the request leaves
	// the wire: a read's answer is told before any later write is
	// sent, a write's before any later request. Reads told side by side
	// call it concurrently.
	Answered(a Answer)
}

// Answer is what a guard is told of one answered request.
type Answer struct {
	Method string
	URL    *url.URL // as sent, tokens included: never to be shown
	Status int
	// Body is what was read of the body; Complete is false when it was cut
	// (--max-body, a closed connection).
	Body     []byte
	Complete bool
	// Streamed: the answer was read as a stream (Request.Stream); Body is
	// its envelope without the items, and ItemKeys the key member of each
	// item (a page listing's keys).
	Streamed bool
	ItemKeys []string
}

// SetWriteGuard installs g on c; nil removes it. Call it before the run's
// first request.
func (c *Client) SetWriteGuard(g WriteGuard) { c.guard = g }

// heldWireKey marks the context of a guard's own reads, sent while the
// write that asked for them holds the whole wire.
type heldWireKey struct{}

// onHeldWire reports whether ctx is a guard's read on a held wire.
func onHeldWire(ctx context.Context) bool { return ctx.Value(heldWireKey{}) != nil }

// guardContext is the context of a guard's own reads: recorded under the
// scope "tripwire", never held for a spec (client.Hold), and, when
// heldWire, sent on the wire the write that asked for them holds alone.
func guardContext(ctx context.Context, heldWire bool) context.Context {
	ctx = context.WithValue(WithScope(ctx, "tripwire"), holdKey{}, (*Held)(nil))
	if heldWire {
		ctx = context.WithValue(ctx, heldWireKey{}, true)
	}
	return ctx
}

// leadKey marks the context of a guard's check sent ahead of a write
// (WriteGuard.Ahead): a lead on the wire.
type leadKey struct{}

// leadContext is ctx for a lead read.
func leadContext(ctx context.Context) context.Context { return context.WithValue(ctx, leadKey{}, true) }

// leadsReads reports whether ctx is a lead read's.
func leadsReads(ctx context.Context) bool { return ctx.Value(leadKey{}) != nil }

// leadRead returns the read function a guard's Ahead is given: a lead.
func (c *Client) leadRead(ctx context.Context) func(Request) *Exchange {
	ctx = leadContext(guardContext(ctx, false))
	return func(r Request) *Exchange { return c.Do(ctx, r) }
}

// guardRead returns the read function a guard's BeforeWrite is given: its
// requests go on the wire the write already holds.
func (c *Client) guardRead(ctx context.Context) func(Request) *Exchange {
	ctx = guardContext(ctx, true)
	return func(r Request) *Exchange { return c.Do(ctx, r) }
}

// errWireLost: the wire could not be had alone for a guard's check before
// ctx ended (nothing is held then).
var errWireLost = errors.New("the wire could not be had alone")

// beforeWrite asks the guard whether a write that holds the wire (alone,
// or shared under --parallel-writes) may go. A guard that must read on a
// quiet wire is asked again once the write holds it alone. It returns
// whether the write now holds the wire alone; on errWireLost it holds
// nothing.
func (c *Client) beforeWrite(ctx context.Context, alone bool) (bool, error) {
	var read func(Request) *Exchange
	if alone {
		read = c.guardRead(ctx)
	}
	err := c.guard.BeforeWrite(ctx, read)
	for tries := 0; alone && errors.Is(err, ErrCheckAhead); tries++ {
		if tries == maxChecksAhead {
			return true, nil // the guard checks with the wire held in time
		}
		// The check rides with the reads waiting, not on a round trip of
		// its own between two writes; the write keeps its place first in
		// line.
		c.wire.release(claim{alone: true, write: true})
		c.guard.Ahead(ctx, c.leadRead(ctx))
		if !c.wire.acquire(ctx, claim{alone: true, write: true, resume: true}) {
			return false, errWireLost
		}
		err = c.guard.BeforeWrite(ctx, read)
	}
	if alone || !errors.Is(err, ErrNeedWireAlone) {
		return alone, err
	}
	c.wire.release(claim{write: true})
	if !c.wire.acquire(ctx, claim{alone: true, write: true}) {
		return false, errWireLost
	}
	return true, c.guard.BeforeWrite(ctx, c.guardRead(ctx))
}

// maxChecksAhead bounds how often one write gives the wire back for a
// guard's check (ErrCheckAhead): once is the rule, more only when the
// writes before it in line made another check due meanwhile.
const maxChecksAhead = 3

// WithWireAlone runs f with the whole wire held, as a write holds it: the
// reads f sends with read go out with nothing of the run beside them, are
// recorded at once under the scope "tripwire", and are not told to the
// guard. It is for a guard's check after the run's last write
// (WriteGuard.BeforeWrite gets the same read for its own). False, and f
// not run, when ctx ends before the wire is free.
func (c *Client) WithWireAlone(ctx context.Context, f func(read func(Request) *Exchange)) bool {
	if !c.wire.acquire(ctx, claim{alone: true}) {
		return false
	}
	defer c.wire.release(claim{alone: true})
	f(c.guardRead(ctx))
	return true
}
