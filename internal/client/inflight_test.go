package client

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestMaxInFlight: whoever sends them (single requests from many
// goroutines, several batches at once), no more than MaxInFlight requests
// of one client are on their way at once; with no bound they all are.
func TestMaxInFlight(t *testing.T) {
	for _, c := range []struct {
		bound           int
		atLeast, atMost int // peak in flight at the server
	}{{0, 4, 12}, {1, 1, 1}, {3, 3, 3}} {
		f := &inFlight{}
		rec := newRecorder(t, f.handler)
		cl := newClient(t, rec.URL, func(cfg *Config) { cfg.MaxInFlight = c.bound })
		var wg sync.WaitGroup
		for range 4 { // 4 single requests
			wg.Go(func() { cl.Do(context.Background(), waits(40)[0]) })
		}
		for range 2 { // and 2 batches of 4, each allowed 8 at once
			wg.Go(func() { cl.DoAll(context.Background(), waits(40, 40, 40, 40), 8) })
		}
		wg.Wait()
		if p := f.peak(); p < c.atLeast || p > c.atMost {
			t.Errorf("MaxInFlight %d: peak in flight at the server %d, want %d to %d", c.bound, p, c.atLeast, c.atMost)
		}
		if n := rec.count(); n != 12 {
			t.Errorf("MaxInFlight %d: %d requests reached the server, want 12", c.bound, n)
		}
	}
}

// TestMaxInFlightInterrupted: a request waiting for a slot gives up when
// its context ends, sending nothing.
func TestMaxInFlightInterrupted(t *testing.T) {
	release := make(chan struct{})
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) { <-release })
	defer close(release)
	cl := newClient(t, rec.URL, func(cfg *Config) { cfg.MaxInFlight = 1 })
	go cl.Do(context.Background(), Request{Path: "/holds-the-slot"})
	for rec.count() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ex := cl.Do(ctx, Request{Path: "/waits"})
	if ex.Err == nil || ex.Sent || rec.count() != 1 {
		t.Errorf("a request waiting for a slot when its context ended: err %v, sent %v, %d at the server", ex.Err, ex.Sent, rec.count())
	}
}

// gate is a handler whose reads of /slow wait until open is closed; arrived
// counts them as they come in. Other requests answer at once.
type gate struct {
	open    chan struct{}
	arrived atomic.Int64
	answer  http.HandlerFunc
}

func newGate() *gate { return &gate{open: make(chan struct{}), answer: countingBody()} }

func (g *gate) handler(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/slow" {
		g.arrived.Add(1)
		<-g.open
	}
	g.answer(w, r)
}

// identicalReads sends n identical reads of /slow at once and returns their
// exchanges once the first has reached the server; the others are then on
// their way too (or waiting for it). Close g.open to let them finish.
func identicalReads(cl *Client, g *gate, n int) func() []*Exchange {
	out := make([]*Exchange, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { out[i] = cl.Do(context.Background(), Request{Path: "/slow"}) })
	}
	for g.arrived.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	// Time for the others to start: without claims they reach the server.
	time.Sleep(30 * time.Millisecond)
	return func() []*Exchange { wg.Wait(); return out }
}

// TestIdenticalReadsClaim: of identical cacheable reads on their way at
// once, one is sent and the others wait for it and replay its answer.
// A write sent while the first is on its way (only with ParallelWrites:
// otherwise a write waits until no read is on its way) means its answer
// may predate the write: the waiting reads go out again (one of them; the
// others replay that one) and get the answer from after the write.
func TestIdenticalReadsClaim(t *testing.T) {
	for _, c := range []struct {
		name      string
		write     bool
		wantSent  int
		wantFirst string // the answer number the waiting reads replay
	}{
		{"reads only", false, 1, `"answer":1`},
		{"a write between", true, 2, `"answer":3`},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGate()
			rec := newRecorder(t, g.handler)
			cl := cached(t, rec, func(cfg *Config) { cfg.ParallelWrites = c.write })
			wait := identicalReads(cl, g, 8)
			if c.write {
				cl.Do(context.Background(), Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens})
			}
			close(g.open)
			out := wait()
			if got := reads(rec, "/slow"); got != c.wantSent {
				t.Errorf("%d identical reads sent, want %d", got, c.wantSent)
			}
			replays := 0
			for _, ex := range out {
				if ex.Replayed {
					replays++
					if !strings.Contains(string(ex.Body()), c.wantFirst) {
						t.Errorf("a waiting read replayed %s, want the answer with %s", ex.Body(), c.wantFirst)
					}
				}
			}
			if replays != 8-c.wantSent {
				t.Errorf("%d replays, want %d", replays, 8-c.wantSent)
			}
		})
	}
}

// TestClaimWaiterInterrupted: a read waiting for an identical one gives up
// when its context ends, with the interruption, never an answer.
func TestClaimWaiterInterrupted(t *testing.T) {
	g := newGate()
	rec := newRecorder(t, g.handler)
	cl := cached(t, rec, nil)
	first := make(chan *Exchange)
	go func() { first <- cl.Do(context.Background(), Request{Path: "/slow"}) }()
	for g.arrived.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	ex := cl.Do(ctx, Request{Path: "/slow"})
	if el := time.Since(start); el > time.Second || ex.Err == nil || ex.Replayed || reads(rec, "/slow") != 1 {
		t.Errorf("an interrupted waiting read: %s, err %v, replayed %v, %d sent", el, ex.Err, ex.Replayed, reads(rec, "/slow"))
	}
	close(g.open)
	if ex := <-first; ex.Err != nil {
		t.Errorf("the read it waited for: %v", ex.Err)
	}
}

// TestCrossedBatchesDoNotDeadlock: two batches read the same two paths in
// opposite orders at once, so each may be the one on its way for a read
// the other waits for. A read's answer is there for the waiting one as
// soon as it stands, not only once its batch records it in order:
// otherwise each batch waits for the other forever.
func TestCrossedBatchesDoNotDeadlock(t *testing.T) {
	f := &inFlight{}
	rec := newRecorder(t, f.handler)
	for round := range 40 {
		cl := cached(t, rec, nil)
		done := make(chan struct{})
		go func() {
			var wg sync.WaitGroup
			wg.Go(func() { cl.DoAll(context.Background(), waits(5, 6), 2) })
			wg.Go(func() { cl.DoAll(context.Background(), waits(6, 5), 2) })
			wg.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("round %d: two batches reading the same paths in opposite orders never ended", round)
		}
	}
}
