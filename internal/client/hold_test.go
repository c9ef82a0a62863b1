package client

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// TestHeldReplayNumbering: of two holders reading the same path, one
// sends the read and the other replays its answer from the cache. The
// record must not depend on which: the one released first stands as the
// request (numbered at once, shown to the observers, counted), the other
// as its replay with the same number, as if they had been made one after
// another in the order released.
func TestHeldReplayNumbering(t *testing.T) {
	for _, senderFirst := range []bool{true, false} {
		// The first try is answered 503: the request that stands was
		// retried once, and the record says so once.
		var tries atomic.Int64
		answer := countingBody()
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
			if tries.Add(1) == 1 {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			answer(w, r)
		})
		cl := cached(t, rec, func(c *Config) { c.Retries = 1 })
		var observed []*Exchange
		cl.OnExchange(func(ex *Exchange) { observed = append(observed, ex) })
		ctxA, sender := Hold(context.Background())
		ctxB, replayer := Hold(context.Background())
		sent := cl.Do(ctxA, Request{Path: "/api/pages"})
		replayed := cl.Do(ctxB, Request{Path: "/api/pages"})
		if !replayed.Replayed || sent.Replayed || reads(rec, "/api/pages") != 2 {
			t.Fatalf("replayed: first %v, second %v; %d reads sent", sent.Replayed, replayed.Replayed, reads(rec, "/api/pages"))
		}
		first, then := sent, replayed
		if !senderFirst {
			first, then = replayed, sent
		}
		order := map[*Exchange]*Held{sent: sender, replayed: replayer}
		cl.Release(order[first])
		if first.Seq != 1 || first.Replayed || len(observed) != 1 || observed[0] != first {
			t.Errorf("sender released first %v: the first released is #%d, replayed %v, %d observed; want #1 at once, the request",
				senderFirst, first.Seq, first.Replayed, len(observed))
		}
		cl.Release(order[then])
		all := cl.Exchanges()
		if then.Seq != 1 || !then.Replayed || cl.Seq() != 1 || len(all) != 1 || all[0] != first || len(cl.Since(0)) != 2 || len(observed) != 1 {
			t.Errorf("sender released first %v: the second released is #%d, replayed %v; Seq %d, %d requests, %d recorded, %d observed; "+
				"want a replay of #1, one request, two recorded, one observed", senderFirst, then.Seq, then.Replayed, cl.Seq(), len(all),
				len(cl.Since(0)), len(observed))
		}
		if len(first.Retries) != 1 || len(then.Retries) != 0 || cl.Retries() != 1 {
			t.Errorf("sender released first %v: retries %v on the request, %v on its replay, %d in all; want the one retry on the request",
				senderFirst, first.Retries, then.Retries, cl.Retries())
		}
		if !strings.Contains(then.String(), "the answer to #1") || strings.Contains(first.String(), "replayed") {
			t.Errorf("sender released first %v: the request reads\n%s\nits replay\n%s", senderFirst, first, then)
		}
	}
}
