package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// inFlight is a handler that answers after a delay read from the path
// (/wait/<ms>) and tracks how many requests it serves at once.
type inFlight struct {
	mu       sync.Mutex
	now, max int
}

func (f *inFlight) handler(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.now++
	f.max = max(f.max, f.now)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.now--
		f.mu.Unlock()
	}()
	var ms int
	fmt.Sscanf(r.URL.Path, "/wait/%d", &ms)
	time.Sleep(time.Duration(ms) * time.Millisecond)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"status":"0","data":%q}`, r.URL.Path)
}

func (f *inFlight) peak() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.max
}

func waits(ms ...int) []Request {
	var rs []Request
	for _, m := range ms {
		rs = append(rs, Request{Path: "/wait/" + strconv.Itoa(m)})
	}
	return rs
}

// TestDoAllOrder: answers arriving in reverse order are returned and
// recorded in submission order, numbered as if sent one by one.
func TestDoAllOrder(t *testing.T) {
	f := &inFlight{}
	rec := newRecorder(t, f.handler)
	c := newClient(t, rec.URL, nil)
	c.Do(context.Background(), Request{Path: "/before"})
	reqs := waits(200, 150, 100, 50, 0)
	out := c.DoAll(context.Background(), reqs, 8)
	if f.peak() < 2 {
		t.Errorf("peak in flight %d: the batch was not sent at once", f.peak())
	}
	all := c.Exchanges()
	if len(out) != len(reqs) || len(all) != len(reqs)+1 {
		t.Fatalf("%d exchanges returned, %d recorded", len(out), len(all))
	}
	for i, ex := range out {
		want := "/wait/" + strconv.Itoa([]int{200, 150, 100, 50, 0}[i])
		if ex.Get("data").String() != want || ex.Seq != i+2 || all[i+1] != ex {
			t.Errorf("exchange %d: %s seq %d, want %s seq %d in the log's order", i, ex.Get("data"), ex.Seq, want, i+2)
		}
	}
}

// TestDoAllBound: never more than n in flight; n = 1 is one by one.
func TestDoAllBound(t *testing.T) {
	for _, n := range []int{1, 3} {
		f := &inFlight{}
		rec := newRecorder(t, f.handler)
		c := newClient(t, rec.URL, nil)
		c.DoAll(context.Background(), waits(40, 40, 40, 40, 40, 40), n)
		if f.peak() != n {
			t.Errorf("n=%d: peak in flight %d", n, f.peak())
		}
	}
}

// TestDoAllSharesRateLimit: the --rps limit holds for a batch as a whole.
func TestDoAllSharesRateLimit(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newClient(t, rec.URL, func(c *Config) { c.RPS = 20 })
	start := time.Now()
	c.DoAll(context.Background(), waits(0, 0, 0, 0, 0, 0), 6)
	// Burst 1, then one every 50 ms: 5 waits.
	if el := time.Since(start); el < 240*time.Millisecond {
		t.Errorf("6 requests at --rps 20 took %s, want ≥ 250 ms", el)
	}
}

// TestDoAllRepeatedRead: with the read cache, a read twice in a batch is
// sent once and the second replays the first, as in sequence.
func TestDoAllRepeatedRead(t *testing.T) {
	f := &inFlight{}
	rec := newRecorder(t, f.handler)
	c := cached(t, rec, nil)
	out := c.DoAll(context.Background(), waits(30, 10, 30, 30), 4)
	if got := reads(rec, "/wait/30"); got != 1 {
		t.Errorf("the repeated read was sent %d times", got)
	}
	if out[0].Replayed || !out[2].Replayed || !out[3].Replayed || out[2].Seq != out[0].Seq || c.Seq() != 2 {
		t.Errorf("replayed %v %v %v, seqs %d %d %d, Seq() %d", out[0].Replayed, out[2].Replayed, out[3].Replayed,
			out[0].Seq, out[2].Seq, out[3].Seq, c.Seq())
	}
	// Without the cache each read is sent, as Do would.
	plain := newClient(t, rec.URL, nil)
	plain.DoAll(context.Background(), waits(30, 30), 2)
	if got := reads(rec, "/wait/30"); got != 3 {
		t.Errorf("without the cache: %d sends of the repeated read, want 3", got)
	}
}

// TestDoAllWriteInBatch: a read beside a write in a batch is not kept, and
// the write empties the cache.
func TestDoAllWriteInBatch(t *testing.T) {
	f := &inFlight{}
	rec := newRecorder(t, f.handler)
	c := cached(t, rec, nil)
	ctx := context.Background()
	c.Do(ctx, Request{Path: "/wait/0"})
	c.DoAll(ctx, []Request{
		{Method: http.MethodPost, Path: "/wait/50", Credentials: BothTokens},
		{Path: "/wait/1"},
		{Path: "/wait/0"},
	}, 3)
	for _, p := range []string{"/wait/0", "/wait/1"} {
		if ex := c.Do(ctx, Request{Path: p}); ex.Replayed {
			t.Errorf("%s was replayed after a batch with a write", p)
		}
	}
}

// TestDoAllInterrupted: cancelling mid-batch ends every request and still
// returns and records one exchange per request, in order.
func TestDoAllInterrupted(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
			io.WriteString(w, "{}")
		}
	})
	c := newClient(t, rec.URL, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	out := c.DoAll(ctx, waits(0, 0, 0, 0, 0), 2)
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("an interrupted batch took %s", el)
	}
	for i, ex := range out {
		if ex == nil || ex.Err == nil || ex.Seq != i+1 {
			t.Fatalf("exchange %d: %+v", i, ex)
		}
	}
}

// TestDoAllRace runs batches and single requests from several goroutines
// at once with the cache on, for the race detector.
func TestDoAllRace(t *testing.T) {
	f := &inFlight{}
	rec := newRecorder(t, f.handler)
	c := cached(t, rec, nil)
	c.OnExchange(func(ex *Exchange) { _ = ex.IsJSON() })
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 5 {
				c.SetScope(fmt.Sprintf("g%d-%d", g, i))
				out := c.DoAll(context.Background(), append(waits(1, 2, 1, 3), Request{Method: http.MethodDelete, Path: "/wait/1", Credentials: BothTokens}), 3)
				for _, ex := range out {
					_ = ex.Get("data").String() + ex.String()
				}
				c.Do(context.Background(), Request{Path: "/wait/2"})
			}
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, ex := range c.Exchanges() {
		if seen[ex.Seq] || ex.Replayed {
			t.Fatalf("exchange #%d listed twice or a replay among the requests", ex.Seq)
		}
		seen[ex.Seq] = true
	}
	if len(seen) != c.Seq() {
		t.Errorf("%d exchanges, Seq() %d", len(seen), c.Seq())
	}
}
