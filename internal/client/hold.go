package client

import (
	"context"
	"sync"
)

// Requests that run side by side (fixtures prepared together, see
// framework.Group) finish in an order that changes from run to run. A
// held context keeps their exchanges aside, in the order each holder made
// them, until the holder's turn comes to be recorded (Release): sequence
// numbers, reports and the cross-cutting checks then see the same order in
// every run, whatever the concurrency.

// holdKey carries a *Held through a request's context.
type holdKey struct{}

// Held is the exchanges of the requests made with one held context, not
// yet recorded.
type Held struct {
	mu       sync.Mutex
	exs      []*Exchange
	released bool
	// pinned is every exchange made with the held context, before or
	// after Release: their bodies stay whole until Unpin (see Unpin).
	pinned   []*Exchange
	unpinned bool
}

// Hold returns ctx whose requests are recorded only when Release is called
// with the returned Held. Exchanges held are sent and cached as any
// other; they get their sequence number, and the observers see them, on
// Release. Until then the holder must not read their Seq or Replayed: of
// identical reads of several holders, the one released first is recorded
// as the request and the others as its replays, whichever was sent.
func Hold(ctx context.Context) (context.Context, *Held) {
	h := &Held{}
	return context.WithValue(ctx, holdKey{}, h), h
}

// keep pins ex and holds it when ctx is held and not yet released.
func (h *Held) keep(ex *Exchange) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.unpinned {
		ex.pin()
		h.pinned = append(h.pinned, ex)
	}
	if h.released {
		return false
	}
	h.exs = append(h.exs, ex)
	return true
}

// Release records what h holds, in the order it was made, as if it were
// made now; requests made with h's context afterwards are recorded at
// once. Call it once the holder's work is done.
func (c *Client) Release(h *Held) {
	h.mu.Lock()
	exs := h.exs
	h.exs, h.released = nil, true
	h.mu.Unlock()
	for _, ex := range exs {
		c.log.add(ex)
	}
}

// held is the Held of ctx, or nil.
func held(ctx context.Context) *Held {
	h, _ := ctx.Value(holdKey{}).(*Held)
	return h
}

// Unpin lets the bodies of every exchange made with h's context be
// released again, at the next Client.SetScope (see Exchange). Until then
// they stay whole, whichever scope recorded them: what a prepare function
// or a shared fixture read is judged by specs that run later, each in a
// scope of its own, and a body released under a later spec's judge would
// read as missing (a list "not given" that was given). The framework
// unpins a group's exchanges once the group's last spec has judged them.
// Exchanges made with h's context after Unpin are not pinned.
func (c *Client) Unpin(h *Held) {
	if h == nil {
		return
	}
	h.mu.Lock()
	pinned := h.pinned
	h.pinned, h.unpinned = nil, true
	h.mu.Unlock()
	for _, ex := range pinned {
		ex.unpin()
	}
}
