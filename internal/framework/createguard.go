package framework

import (
	"context"
	"net/http"
	"sync"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

// CreateGuard is GuardCreate for the creates a group's prepares send that
// the target should refuse, or that may answer without the key they made:
// each one's run-marked slug is watched before it is sent, and after the
// group's last spec every slug nobody settled is read, side by side, and a
// page found there is deleted. A prepare that reads such a slug anyway
// (Read), or whose create answered with the page (Settle), settles it: one
// read a slug, not two. Prepares side by side share it; it holds its own
// lock.
type CreateGuard struct {
	// get makes the guard's state once, by the first prepare that needs
	// it (Share): its cleanup runs with the group's shared fixtures'.
	get func(ctx context.Context) *createWatch
	t   *Fixture
}

// createWatch is what a CreateGuard knows: the slugs watched, in the order
// watched, and those settled.
type createWatch struct {
	mu      sync.Mutex
	watched []string
	settled map[string]bool
}

// GuardCreates returns g's guard of refused creates, the same on every
// call. Call it where g's specs are registered, before the prepares that
// use it.
func (g *Group) GuardCreates() *CreateGuard {
	if g.creates == nil {
		c := &CreateGuard{t: g.t}
		c.get = Share(g, func(ctx context.Context) *createWatch {
			w := &createWatch{settled: map[string]bool{}}
			g.t.DeferCleanup(ctx, func(ctx context.Context) { c.cleanup(ctx, w) })
			return w
		})
		g.creates = c
	}
	return g.creates
}

// Watch names the slug of a create about to be sent. A prepare whose run
// ended before the guard was made watches nothing: the final sweep still
// finds the run's pages by their marker.
func (c *CreateGuard) Watch(ctx context.Context, slug string) {
	if w := c.get(ctx); w != nil {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.watched = append(w.watched, slug)
	}
}

// Settle says the page at slug is accounted for (adopted, or shown
// absent): the group's cleanup does not read it again.
func (c *CreateGuard) Settle(ctx context.Context, slug string) {
	if w := c.get(ctx); w != nil {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.settled[slug] = true
	}
}

// Read reads the page at slug as it is now (slugRead) and settles it when
// the answer shows: a page found is adopted (deleted when the spec that
// judges ctx ends), a 404 shows no page there. Any other answer (an error
// status, another page) shows neither: the group's cleanup reads the slug
// again. In a run that may not write, nothing is settled: a page found
// could not be deleted.
func (c *CreateGuard) Read(ctx context.Context, slug string) *client.Exchange {
	t := c.t
	read := t.Client.Do(ctx, slugRead(t, slug))
	if !t.CanWrite() || read.Err != nil {
		return read
	}
	switch {
	case foundAt(read, slug):
		t.AdoptKey(ctx, slug)
	case read.Status != http.StatusNotFound:
		return read
	}
	c.Settle(ctx, slug)
	return read
}

// slugRead is a read of the page at slug as it is now: with both tokens
// when the run may write (a site may show drafts only then, and only then
// could a page found be deleted), else with the API token alone.
func slugRead(t *Fixture, slug string) client.Request {
	r := client.Request{Method: http.MethodGet, Path: pagelist.PagePath(slug), Credentials: client.APIToken, Fresh: true}
	if t.CanWrite() {
		r.Credentials = client.BothTokens
	}
	return r
}

// foundAt reports whether read, an answer to slugRead, shows the page at
// slug.
func foundAt(read *client.Exchange, slug string) bool {
	return read.Err == nil && read.Status == http.StatusOK && read.Get("data.key").String() == slug
}

// cleanup reads every slug of w nobody settled, side by side, and deletes
// a page found there.
func (c *CreateGuard) cleanup(ctx context.Context, w *createWatch) {
	t := c.t
	w.mu.Lock()
	var slugs []string
	for _, s := range w.watched {
		if !w.settled[s] {
			slugs = append(slugs, s)
		}
	}
	w.mu.Unlock()
	if !t.CanWrite() || len(slugs) == 0 {
		return
	}
	ctx, cancel := CleanupContext(ctx)
	defer cancel()
	reads := make([]client.Request, len(slugs))
	for i, s := range slugs {
		reads[i] = slugRead(t, s)
	}
	for i, read := range t.All(ctx, reads...) {
		if foundAt(read, slugs[i]) {
			t.Ledger.AddPage(slugs[i])
			_ = t.DeletePage(ctx, slugs[i]) // the sweep retries and reports what remains
		}
	}
}
