package client

import (
	"context"
	"sync"
)

// exchangeLog is a client's record of its exchanges: it numbers them in the
// order they are recorded, names the scope each ran in, hands each to the
// observers, and releases the full bodies of finished scopes. Reads the
// read cache answered (Exchange.Replayed) are recorded too, in order, for
// the scope that used them, but get no number of their own and are shown
// to no observer: the observers judge what the target sent, once.
//
// Of identical reads, the one recorded first stands as the request and
// the others as its replays, whichever was sent: with held exchanges
// (Hold) the one sent may be recorded after one that replayed it, and the
// record must read as if they had been made one after another, in the
// order recorded (swapReplay). Every method is safe for concurrent use:
// requests may run side by side.
type exchangeLog struct {
	mu sync.Mutex
	// seq is the number of the last exchange that was no replay.
	seq int
	// entries holds every exchange in the order recorded, replays
	// included; sent[s-1] is the index in entries of exchange #s.
	entries   []*Exchange
	sent      []int
	observers []func(*Exchange)
	scope     string
	released  int // entries[:released] have released their full bodies, but pinned
	// pinned are exchanges of entries[:released] that were pinned when
	// their scope ended: released at a later SetScope once unpinned.
	pinned []*Exchange
}

// scopeKey carries a scope name through a request's context (WithScope).
type scopeKey struct{}

// WithScope returns ctx naming the scope (a spec's text) of the requests
// made with it. It overrides the client-wide SetScope for those requests
// only, so requests of several specs running at once keep their own scope.
func WithScope(ctx context.Context, scope string) context.Context {
	return context.WithValue(ctx, scopeKey{}, scope)
}

// OnExchange registers f to see every exchange as it is recorded (used by
// the cross-cutting protocol checks). f is called outside the log's lock,
// from the goroutine that made the request: with concurrent requests it
// runs concurrently and must guard its own state.
func (c *Client) OnExchange(f func(*Exchange)) {
	c.log.mu.Lock()
	defer c.log.mu.Unlock()
	c.log.observers = append(c.log.observers, f)
}

// SetScope names what is running now (a spec's text); each exchange keeps
// it unless its request's context names another (WithScope). Exchanges
// recorded before the call release their full bodies (see
// Exchange.BodyReleased), so memory stays flat over a long run whatever
// the target sends.
func (c *Client) SetScope(s string) {
	c.log.mu.Lock()
	defer c.log.mu.Unlock()
	c.log.scope = s
	var kept []*Exchange
	for _, e := range append(c.log.pinned, c.log.entries[c.log.released:]...) {
		if !e.release() {
			kept = append(kept, e)
		}
	}
	c.log.pinned = kept
	c.log.released = len(c.log.entries)
}

// Exchanges returns every request of the run so far, sent or refused, in
// order (exchange #1 first); replays are not requests and are left out.
func (c *Client) Exchanges() []*Exchange {
	c.log.mu.Lock()
	defer c.log.mu.Unlock()
	out := make([]*Exchange, len(c.log.sent))
	for i, at := range c.log.sent {
		out[i] = c.log.entries[at]
	}
	return out
}

// Since returns what was recorded after exchange number seq (from the
// start for 0): every exchange, replays included, as a spec that noted
// Seq() before its requests wants to show them.
func (c *Client) Since(seq int) []*Exchange {
	c.log.mu.Lock()
	defer c.log.mu.Unlock()
	from := 0
	if seq > 0 {
		from = len(c.log.entries)
		if seq <= len(c.log.sent) {
			from = c.log.sent[seq-1] + 1
		}
	}
	return append([]*Exchange(nil), c.log.entries[from:]...)
}

// Seq returns the sequence number of the last exchange: the number of
// requests of the run so far (replays do not count).
func (c *Client) Seq() int {
	c.log.mu.Lock()
	defer c.log.mu.Unlock()
	return c.log.seq
}

// Retries returns how many times reads answered 429 or 503 were retried
// over the run: the retries listed on the exchanges recorded so far.
func (c *Client) Retries() int {
	n := 0
	for _, e := range c.Exchanges() {
		n += len(e.Retries)
	}
	return n
}

// PlacementProbes lists the requests ("METHOD URL", redacted) that
// carried the tokens as the spec's parameters although the client sends
// them in headers (CredentialsInHeader), because they asked to
// (Request.Placement): placement probes, for the run's summary. Requests
// refused before sending are not listed. Empty with CredentialsInParams.
func (c *Client) PlacementProbes() []string {
	var out []string
	for _, e := range c.Exchanges() {
		if e.PlacementProbe && e.Sent {
			out = append(out, e.RequestLine())
		}
	}
	return out
}

// record numbers ex, files it under its scope and tells the observers;
// a replay takes the number of the exchange it repeats, and is not shown
// to the observers, which saw that one. An exchange of a held context
// (Hold) waits for its Release.
func (c *Client) record(ctx context.Context, ex *Exchange) {
	if s, ok := ctx.Value(scopeKey{}).(string); ok {
		ex.Scope = s
	}
	if h := held(ctx); h != nil && h.keep(ex) {
		return
	}
	c.log.add(ex)
}

// add records ex under the scope it names, else the current one (that of
// the spec a held exchange is released in).
func (l *exchangeLog) add(ex *Exchange) {
	l.mu.Lock()
	if ex.Scope == "" {
		ex.Scope = l.scope
	}
	// A replay of an exchange not recorded yet (held elsewhere) is
	// recorded as the request instead (swapReplay).
	swap := ex.Replayed && ex.replayOf.Seq == 0
	if ex.Replayed && !swap {
		ex.Seq = ex.replayOf.Seq
		l.entries = append(l.entries, ex)
		l.mu.Unlock()
		return
	}
	l.seq++
	ex.Seq = l.seq
	l.sent = append(l.sent, len(l.entries))
	l.entries = append(l.entries, ex)
	if swap {
		swapReplay(ex)
	}
	observers := append([]func(*Exchange){}, l.observers...)
	l.mu.Unlock()
	for _, f := range observers {
		f(ex)
	}
}

// swapReplay makes r, a replay just numbered as the request although the
// exchange o it repeats was the one sent (o is held, not recorded yet), the
// request, and o a replay of r with r's number: as they would have been had
// r been made first. The record, and so the numbers and reports, are then
// the same whichever of two holders side by side sent the read. What only
// the request that was sent carries (its retries) moves with the role.
// Called with mu held; o's holder has not released it, so no spec has
// judged it yet.
func swapReplay(r *Exchange) {
	o := r.replayOf
	r.Replayed, r.replayOf = false, nil
	r.Retries, r.TransportRetry = o.Retries, o.TransportRetry
	o.Replayed, o.replayOf, o.Seq = true, r, r.Seq
	o.Retries, o.TransportRetry = nil, ""
}
