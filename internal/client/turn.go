package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// A sending's turn on the wire, and what decides whether a request is sent
// again (send, in send.go, loops over these steps).

// turn is one sending's place on the wire, between takeTurn and endTurn.
type turn struct {
	// held: a guard's own read, on the wire its write already holds
	// (it neither takes nor releases the wire, and is not guarded).
	held bool
	// guarded: the write guard is asked before a write and told after.
	guarded bool
	write   bool // the request may change the target (Alone)
	alone   bool // the wire is held alone, as it must be released
	lead    bool // a guard's check that takes the waiting reads along
	// needed: a read in the spare room until it is closed (SpareRoom).
	needed <-chan struct{}
}

// claim is what the turn holds of the wire.
func (tu *turn) claim() claim {
	return claim{alone: tu.alone, write: tu.write, lead: tu.lead, spare: tu.needed != nil, needed: tu.needed}
}

// takeTurn waits for the --rps limiter and the wire and, for a guarded
// write, asks the guard first: Ahead before the wire is taken (its own
// reads go out on the shared wire), BeforeWrite once it is held. An error
// means nothing was sent and nothing is held; errWireLost means ctx ended
// before the wire was had.
func (c *Client) takeTurn(ctx context.Context, method string) (*turn, error) {
	if err := c.waitTurn(ctx); err != nil {
		return nil, err
	}
	held := onHeldWire(ctx)
	tu := &turn{held: held, guarded: c.guard != nil && !held, write: Alone(method)}
	if tu.guarded && tu.write {
		c.guard.Ahead(ctx, c.leadRead(ctx))
	}
	tu.alone = tu.write && !c.wire.parallelWrites
	tu.lead = !tu.write && leadsReads(ctx)
	if !tu.write {
		tu.needed = spareUntil(ctx)
	}
	if !held && !c.wire.acquire(ctx, tu.claim()) {
		return nil, errWireLost
	}
	if !tu.guarded || !tu.write {
		return tu, nil
	}
	var err error
	tu.alone, err = c.beforeWrite(ctx, tu.alone)
	if err != nil {
		if !errors.Is(err, errWireLost) { // on errWireLost nothing is held
			c.wire.release(tu.claim())
		}
		return nil, err
	}
	return tu, nil
}

// notSentError is what a request records when takeTurn let nothing go out:
// a wire not had before ctx ended is named like any other end of ctx.
func (c *Client) notSentError(ctx context.Context, err error) error {
	if errors.Is(err, errWireLost) {
		return c.transportError(ctx, nil, ctx.Err(), phaseLimit)
	}
	return err
}

// endTurn tells the guard what a sending brought back, then lets the
// wire go: the guard has learnt of a write before anything else may go.
func (c *Client) endTurn(tu *turn, req *http.Request, t *try) {
	// A write is told even unanswered: the server may have acted on it.
	if tu.guarded && (t.status != 0 || tu.write) {
		c.guard.Answered(Answer{Method: req.Method, URL: req.URL, Status: t.status, Body: t.body,
			Complete: t.err == nil && !t.truncated, Streamed: t.streamed != nil, ItemKeys: t.keys})
	}
	if !tu.held {
		c.wire.release(tu.claim())
	}
}

// repeatAfterCut reports whether a try that failed is sent again: once,
// for a request safe to repeat whose connection was cut, while the run
// goes on. The cause of the first failure is noted on ex.
func (c *Client) repeatAfterCut(ctx context.Context, safeToRepeat bool, t *try, ex *Exchange) bool {
	if !safeToRepeat || ex.TransportRetry != "" || FailureKind(t.err) != KindClosed || ctx.Err() != nil {
		return false
	}
	ex.TransportRetry = Cause(t.err)
	return true
}

// retryBusy waits and reports whether a read answered 429/503 is sent
// again (retryAfter decides), noting the retry on ex. False after an
// interrupted wait too.
func (c *Client) retryBusy(ctx context.Context, t *try, retried int, ex *Exchange) bool {
	wait, retry := c.retryAfter(ctx, ex.Method, t, retried)
	if !retry || !sleep(ctx, wait) {
		return false
	}
	ex.Retries = append(ex.Retries, fmt.Sprintf("%d %s (Retry-After %q), retried after %s",
		t.status, http.StatusText(t.status), t.header.Get("Retry-After"), wait))
	return true
}

// keepTry records on ex the try that stands.
func keepTry(ex *Exchange, kept *try) {
	ex.Status, ex.Header, ex.Truncated, ex.Err = kept.status, kept.header, kept.truncated, kept.err
	ex.BodyCut = kept.bodyCut()
	ex.FinalURL, ex.Redirect = kept.finalURL, kept.redirect
	switch {
	case kept.status != 0 && kept.streamed != nil:
		ex.setStreamed(kept.streamed)
	case kept.status != 0:
		ex.setBody(kept.body, kept.size)
	}
}
