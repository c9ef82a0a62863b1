package framework

import (
	"context"
	"net/http"
	"sync"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/marker"
)

// The site as the run leaves it. The sweep at the end of a run lists every
// page of the site to find the run's pages the ledger never heard of
// (strays). A spec that judges what the run's writes left (a page deleted
// earlier is listed no more) reads that same listing (RunPagesAtEnd), in
// PhaseRunEnd, after the last spec that writes; the sweep takes it instead
// of reading its own when no write went out since, so that a big site's
// listing of every page costs the run once.

//
// The reads that wait for the run's end go out together, beside that
// listing: the file lists of the deleted pages the run uploaded to
// (pendUploads), and the read of a caller whose writes are the run's last
// (ReadWithRunPages: the settings restore's verifying read).

// runEnd keeps the listing RunPagesAtEnd read, for the sweep, and the
// pages whose file lists are still to be read.
type runEnd struct {
	mu      sync.Mutex
	listing *runListing
	uploads lockedList[string]
}

// runListing is one read of the listing of every page as the backstop
// reads it: the run's keys it held (kept as read: an exchange lets go of
// what its stream kept when its spec ends), whether it answered 200 with
// a list, and how many writes had gone out when it was sent.
type runListing struct {
	ex     *client.Exchange
	keys   []string
	listed bool
	writes int64
}

// RunPagesAtEnd returns the listing of every page, read as the sweep's
// backstop reads it (a stream that keeps the keys carrying the run's
// marker): read now, or the one an earlier call read when no write went
// out since. keys are the run's keys it lists; listed is false when it
// answered otherwise than 200 with a list (pagelist.Unread says whether
// it was read whole). Call it from a spec of PhaseRunEnd: the sweep then
// takes this listing instead of reading its own.
func (t *Fixture) RunPagesAtEnd(ctx context.Context) (ex *client.Exchange, keys []string, listed bool) {
	t.runEnd.mu.Lock()
	defer t.runEnd.mu.Unlock()
	l := t.runEnd.listing
	if l == nil || l.writes != t.Client.WireStats().Writes {
		l = t.listRunPages(ctx)
		t.runEnd.listing = l
	}
	return l.ex, l.keys, l.listed
}

// takeRunEndListing returns the listing RunPagesAtEnd read when no write
// went out since, and forgets it either way: only the sweep's first
// listing may be that one (a later one looks again, once writes without
// an answer could have landed).
func (t *Fixture) takeRunEndListing() *runListing {
	t.runEnd.mu.Lock()
	defer t.runEnd.mu.Unlock()
	l := t.runEnd.listing
	t.runEnd.listing = nil
	if l == nil || l.writes != t.Client.WireStats().Writes {
		return nil
	}
	return l
}

// ReadWithRunPages sends r side by side with the listing of every page
// that RunPagesAtEnd reads (and the file lists pendUploads left), for a
// caller whose writes are the run's last (the settings restore): the
// listing is kept for RunPagesAtEnd and the sweep, which take it when no
// write went out since (a later write makes them read it again).
func (t *Fixture) ReadWithRunPages(ctx context.Context, r client.Request) *client.Exchange {
	l, exs := t.readRunEnd(ctx, r)
	t.runEnd.mu.Lock()
	t.runEnd.listing = l
	t.runEnd.mu.Unlock()
	return exs[0]
}

// listRunPages reads the listing of every page, keeping the run's keys.
func (t *Fixture) listRunPages(ctx context.Context) *runListing {
	l, _ := t.readRunEnd(ctx)
	return l
}

// readRunEnd reads, side by side, the listing of every page (its run's
// keys kept), the file lists pendUploads left and extra, whose exchanges
// it returns. Fresh: the listing shows what the target holds now, never
// one the read cache kept from before a create whose answer was lost.
func (t *Fixture) readRunEnd(ctx context.Context, extra ...client.Request) (*runListing, []*client.Exchange) {
	writes := t.Client.WireStats().Writes
	uploads := t.runEnd.uploads.take()
	reqs := []client.Request{{Method: http.MethodGet, Path: "/api/pages", Query: marker.AllPagesQuery(), Fresh: true,
		Stream: &client.Stream{Path: "data", Name: "the run's keys", New: func() client.Fold { return &runKeys{t: t} }}}}
	reqs = append(reqs, uploadsReads(uploads)...)
	exs := t.Client.DoAll(ctx, append(reqs, extra...), len(reqs)+len(extra))
	ex := exs[0]
	t.seeUploads(uploads, exs[1:len(reqs)])
	keys, ok := ex.Folded().([]string)
	return &runListing{ex: ex, keys: keys, listed: ok && ex.Err == nil && ex.Status == http.StatusOK, writes: writes}, exs[len(reqs):]
}
