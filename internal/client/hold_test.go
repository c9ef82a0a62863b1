package client

import (
	"context"
	"slices"
	"sync"
	"testing"
)

// heldRun is what TestHeldOrder's holders did: the exchanges each got back,
// and the order their answers arrived in.
type heldRun struct {
	exs      [3]*Exchange
	answered []string
}

// TestHeldOrder: three holders make their requests side by side; whatever
// order the answers come in, nothing is numbered, listed or observed until
// Release, and then they are recorded in the order released, each under
// its own scope or, when its context named none, the scope current at its
// release.
func TestHeldOrder(t *testing.T) {
	for _, c := range []struct {
		name  string
		waits [3]int // ms the server takes for each holder's request
	}{
		{"last finishes first", [3]int{120, 60, 0}},
		{"first finishes first", [3]int{0, 60, 120}},
		{"middle finishes first", [3]int{90, 0, 45}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &inFlight{}
			rec := newRecorder(t, f.handler)
			var mu sync.Mutex
			var answered []string
			cl := newClient(t, rec.URL, nil)
			var observed []string
			cl.OnExchange(func(ex *Exchange) { observed = append(observed, ex.Get("data").String()) })
			cl.SetScope("before")

			var run heldRun
			helds := [3]*Held{}
			var wg sync.WaitGroup
			for i, ms := range c.waits {
				ctx, h := Hold(context.Background())
				if i == 2 {
					ctx = WithScope(ctx, "its own scope")
				}
				helds[i] = h
				wg.Go(func() {
					run.exs[i] = cl.Do(ctx, waits(ms)[0])
					mu.Lock()
					answered = append(answered, run.exs[i].Get("data").String())
					mu.Unlock()
				})
			}
			wg.Wait()
			run.answered = answered
			if f.peak() < 2 {
				t.Fatalf("peak in flight %d: the holders did not run side by side, the test proves nothing", f.peak())
			}
			if cl.Seq() != 0 || len(cl.Exchanges()) != 0 || len(cl.Since(0)) != 0 || len(observed) != 0 {
				t.Fatalf("before Release: Seq %d, %d exchanges, %d since 0, %d observed; want nothing recorded",
					cl.Seq(), len(cl.Exchanges()), len(cl.Since(0)), len(observed))
			}
			scopes := []string{"spec A", "spec B", "spec C"}
			for i, h := range helds {
				cl.SetScope(scopes[i])
				cl.Release(h)
			}
			checkHeldOrder(t, cl, run, observed, c.waits)
		})
	}
}

func checkHeldOrder(t *testing.T, cl *Client, run heldRun, observed []string, waits [3]int) {
	t.Helper()
	all := cl.Exchanges()
	if len(all) != 3 {
		t.Fatalf("%d exchanges recorded, want 3", len(all))
	}
	var want []string
	for i, ex := range run.exs {
		want = append(want, ex.Get("data").String())
		if all[i] != ex || ex.Seq != i+1 {
			t.Errorf("holder %d's exchange is #%d (log position %d), want #%d: the order released", i, ex.Seq, slices.Index(all, ex), i+1)
		}
	}
	if !slices.Equal(observed, want) {
		t.Errorf("observers saw %v, want %v", observed, want)
	}
	for i, scope := range []string{"spec A", "spec B", "its own scope"} {
		if got := run.exs[i].Scope; got != scope {
			t.Errorf("holder %d's exchange has scope %q, want %q", i, got, scope)
		}
	}
	if slices.Equal(run.answered, want) && waits[0] > waits[2] {
		t.Errorf("the server answered in order %v although the first request was the slowest: the test proves nothing", run.answered)
	}
}

// TestReleaseTwice: a second Release records nothing again, and a request
// made with a released context is recorded at once.
func TestReleaseTwice(t *testing.T) {
	rec := newRecorder(t, nil)
	cl := newClient(t, rec.URL, nil)
	ctx, h := Hold(context.Background())
	first := cl.Do(ctx, Request{Path: "/api/pages"})
	cl.Release(h)
	cl.Release(h)
	if cl.Seq() != 1 || len(cl.Since(0)) != 1 || first.Seq != 1 {
		t.Fatalf("after two Releases: Seq %d, %d recorded, first #%d; want the one exchange once", cl.Seq(), len(cl.Since(0)), first.Seq)
	}
	later := cl.Do(ctx, Request{Path: "/api/tags"})
	if later.Seq != 2 || cl.Seq() != 2 {
		t.Errorf("a request after Release is #%d (Seq %d), want recorded at once as #2", later.Seq, cl.Seq())
	}
	cl.Release(h)
	if cl.Seq() != 2 || len(cl.Since(0)) != 2 {
		t.Errorf("a third Release recorded again: Seq %d, %d recorded", cl.Seq(), len(cl.Since(0)))
	}
}

// TestHeldReplayNumbering: a read answered from the cache by a held
// exchange (the request another holder sent) is a replay of it; when its
// holder is released first it waits for its number until the original is
// recorded, and it is never counted as a request.
func TestHeldReplayNumbering(t *testing.T) {
	for _, originalFirst := range []bool{true, false} {
		rec := newRecorder(t, countingBody())
		cl := cached(t, rec, nil)
		ctxA, sender := Hold(context.Background())
		ctxB, replayer := Hold(context.Background())
		original := cl.Do(ctxA, Request{Path: "/api/pages"})
		replay := cl.Do(ctxB, Request{Path: "/api/pages"})
		if !replay.Replayed || original.Replayed || reads(rec, "/api/pages") != 1 {
			t.Fatalf("replayed: original %v, second %v; %d reads sent", original.Replayed, replay.Replayed, reads(rec, "/api/pages"))
		}
		if originalFirst {
			cl.Release(sender)
			cl.Release(replayer)
		} else {
			cl.Release(replayer)
			if replay.Seq != 0 {
				t.Errorf("a replay recorded before its original is #%d, want no number yet", replay.Seq)
			}
			cl.Release(sender)
		}
		if original.Seq != 1 || replay.Seq != 1 || cl.Seq() != 1 || len(cl.Exchanges()) != 1 || len(cl.Since(0)) != 2 {
			t.Errorf("original first %v: original #%d, replay #%d, Seq %d, %d requests, %d recorded; want both #1, one request, two recorded",
				originalFirst, original.Seq, replay.Seq, cl.Seq(), len(cl.Exchanges()), len(cl.Since(0)))
		}
	}
}
