package client

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/testkit"
)

// slowAnswers answers every request after d.
func slowAnswers(d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(d)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"0","message":"ok"}`))
	})
}

// mixedTraffic sends reads and writes from many goroutines at once, single
// requests and batches, as prepares side by side and batches of probes do.
func mixedTraffic(cl *Client) {
	methods := []string{http.MethodGet, http.MethodPost, http.MethodGet, http.MethodPut, http.MethodGet,
		http.MethodDelete, http.MethodHead, http.MethodPatch, http.MethodOptions, http.MethodGet}
	var wg sync.WaitGroup
	for i, m := range methods {
		wg.Go(func() {
			cl.Do(context.Background(), Request{Method: m, Path: fmt.Sprintf("/api/single/%d", i), Fresh: true})
		})
	}
	for b := range 3 {
		wg.Go(func() {
			var reqs []Request
			for i, m := range methods {
				reqs = append(reqs, Request{Method: m, Path: fmt.Sprintf("/api/batch/%d/%d", b, i), Fresh: true})
			}
			cl.DoAll(context.Background(), reqs, 8)
		})
	}
	wg.Wait()
}

// TestWriteAloneOnTheWire: whoever sends them, side by side or in batches,
// no request of the client is on its way while a write (any method but
// GET, HEAD, OPTIONS) is, at any --concurrency; reads still go side by
// side. With ParallelWrites (the opt-in for transactional storage) writes
// do overlap: the watch can see it.
func TestWriteAloneOnTheWire(t *testing.T) {
	for _, c := range []struct {
		maxInFlight    int
		parallelWrites bool
	}{{0, false}, {1, false}, {8, false}, {8, true}} {
		t.Run(fmt.Sprintf("concurrency %d parallel-writes %v", c.maxInFlight, c.parallelWrites), func(t *testing.T) {
			watch := testkit.NewWireWatch()
			srv := httptest.NewServer(watch.Wrap(slowAnswers(20 * time.Millisecond)))
			t.Cleanup(srv.Close)
			cl := newClient(t, srv.URL, func(cfg *Config) {
				cfg.MaxInFlight, cfg.ParallelWrites = c.maxInFlight, c.parallelWrites
			})
			mixedTraffic(cl)
			seen, stats := watch.Seen(), cl.WireStats()
			if seen.Requests != 40 || seen.Writes != 16 || stats.Writes != 16 {
				t.Fatalf("%d requests and %d writes reached the server, the client sent %d writes; want 40, 16, 16",
					seen.Requests, seen.Writes, stats.Writes)
			}
			if c.parallelWrites {
				if len(seen.Overlaps) == 0 || stats.Overlaps == 0 {
					t.Errorf("with parallel writes nothing overlapped a write (server %d, client %d): the watch proves nothing",
						len(seen.Overlaps), stats.Overlaps)
				}
				return
			}
			if len(seen.Overlaps) > 0 || stats.Overlaps > 0 {
				t.Errorf("%d requests overlapped a write at the server (client counted %d), first: %s",
					len(seen.Overlaps), stats.Overlaps, seen.Overlaps[0])
			}
			if c.maxInFlight != 1 && seen.Peak < 2 {
				t.Errorf("peak in flight %d: reads no longer go side by side", seen.Peak)
			}
		})
	}
}

// TestWriteSeenThrough: a write on its way when the run is interrupted (its
// context ends) is waited for until its answer: the server goes on with it
// whatever the client does, and the cleanup's requests that follow must
// not overlap it.
func TestWriteSeenThrough(t *testing.T) {
	watch := testkit.NewWireWatch()
	srv := httptest.NewServer(watch.Wrap(slowAnswers(200 * time.Millisecond)))
	t.Cleanup(srv.Close)
	cl := newClient(t, srv.URL, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *Exchange)
	go func() { done <- cl.Do(ctx, Request{Method: http.MethodDelete, Path: "/api/pages/x"}) }()
	for watch.Seen().Requests == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	// The cleanup's read, sent at once.
	cleanup := cl.Do(context.Background(), Request{Path: "/api/pages", Fresh: true})
	ex := <-done
	if ex.Err != nil || ex.Status != http.StatusOK {
		t.Errorf("the interrupted write: status %d, err %v; want its answer", ex.Status, ex.Err)
	}
	if cleanup.Status != http.StatusOK {
		t.Errorf("the read after it: status %d, err %v", cleanup.Status, cleanup.Err)
	}
	if o := watch.Seen().Overlaps; len(o) > 0 {
		t.Errorf("the read after an interrupted write overlapped it: %s", o[0])
	}
}

// TestWriteWaitingHoldsLaterReads: a write waiting for the reads on their
// way is served before reads that come after it, so a stream of reads
// never keeps a write waiting for ever.
func TestWriteWaitingHoldsLaterReads(t *testing.T) {
	watch := testkit.NewWireWatch()
	watch.KeepTimeline = true
	srv := httptest.NewServer(watch.Wrap(slowAnswers(50 * time.Millisecond)))
	t.Cleanup(srv.Close)
	cl := newClient(t, srv.URL, func(cfg *Config) { cfg.MaxInFlight = 8 })
	var wg sync.WaitGroup
	wg.Go(func() { cl.Do(context.Background(), Request{Path: "/api/first", Fresh: true}) })
	for watch.Seen().Requests == 0 {
		time.Sleep(time.Millisecond)
	}
	wg.Go(func() { cl.Do(context.Background(), Request{Method: http.MethodPost, Path: "/api/write"}) })
	queued(t, cl.wire, 0, 1) // the write is waiting now
	wg.Go(func() { cl.Do(context.Background(), Request{Path: "/api/later", Fresh: true}) })
	wg.Wait()
	var order []string
	for _, l := range watch.Seen().Timeline {
		var at float64
		var sign, method, path string
		if _, err := fmt.Sscanf(l, "%fs %s %s %s", &at, &sign, &method, &path); err == nil && sign == "+" {
			order = append(order, path)
		}
	}
	if fmt.Sprint(order) != "[/api/first /api/write /api/later]" {
		t.Errorf("requests began in the order %v, want the write before the later read", order)
	}
}

// claimGuard is a write guard whose check, once the write holds the wire,
// reads a path another read has claimed in the read cache.
type claimGuard struct {
	claimed chan struct{} // closed once the other read is on its way
	path    string
}

func (g claimGuard) BeforeWrite(_ context.Context, read func(Request) *Exchange) error {
	<-g.claimed
	time.Sleep(50 * time.Millisecond) // the other read claims, then waits for the wire
	read(Request{Path: g.path})
	return nil
}

func (claimGuard) Ahead(context.Context, func(Request) *Exchange)  {}
func (claimGuard) Beside(context.Context, func(Request) *Exchange) {}
func (claimGuard) Answered(Answer)                                 {}

// TestGuardReadOnHeldWireIgnoresClaims: a read that claimed a path in the
// read cache and waits for the wire a write holds must not keep that
// write's guard from reading the same path on the held wire: the guard's
// read goes to the target, and both requests end.
func TestGuardReadOnHeldWireIgnoresClaims(t *testing.T) {
	srv := httptest.NewServer(slowAnswers(10 * time.Millisecond))
	t.Cleanup(srv.Close)
	cl := newClient(t, srv.URL, func(c *Config) { c.ReadCache, c.AuthToken = true, "auth-token-0123456789" })
	g := claimGuard{claimed: make(chan struct{}), path: "/api/pages"}
	cl.SetWriteGuard(g)
	done := make(chan struct{})
	go func() {
		defer close(done)
		var wg sync.WaitGroup
		wg.Go(func() {
			cl.Do(context.Background(), Request{Method: http.MethodPut, Path: "/api/pages/x", Credentials: BothTokens})
		})
		time.Sleep(20 * time.Millisecond) // the write has the wire
		close(g.claimed)
		wg.Go(func() { cl.Do(context.Background(), Request{Path: "/api/pages"}) })
		wg.Wait()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("deadlock: the guard's read waits for a claim whose read waits for the wire the guard's write holds")
	}
}

// TestWireAloneWithoutGuard: a read sent on the wire WithWireAlone holds
// goes out at once, with no write guard installed as with one.
func TestWireAloneWithoutGuard(t *testing.T) {
	srv := httptest.NewServer(slowAnswers(time.Millisecond))
	t.Cleanup(srv.Close)
	cl := newClient(t, srv.URL, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var ex *Exchange
	if !cl.WithWireAlone(ctx, func(read func(Request) *Exchange) { ex = read(Request{Path: "/api/pages"}) }) {
		t.Fatal("the wire could not be had alone")
	}
	if ex == nil || ex.Err != nil || ex.Status == 0 {
		t.Fatalf("the read on the held wire: %+v, want an answer", ex)
	}
}

// queued waits until n senders wait for w to share it and alone waiters
// to hold it alone.
func queued(t *testing.T, w *wire, shared, alone int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		w.mu.Lock()
		ok := len(w.waitShared) == shared && len(w.waitAlone) == alone
		w.mu.Unlock()
		if ok {
			return
		}
	}
	t.Fatalf("the wire never had %d senders waiting to share it and %d to hold it alone", shared, alone)
}

// granted is the next name on got, failing t when none comes.
func granted(t *testing.T, got <-chan string) string {
	t.Helper()
	select {
	case name := <-got:
		return name
	case <-time.After(2 * time.Second):
		t.Fatal("no sender got the wire")
		return ""
	}
}

// TestWireFirstComeFirstServed: reads waiting for a full wire get it in
// the order they asked, not in whatever order they wake up: a read never
// waits behind reads that asked after it.
func TestWireFirstComeFirstServed(t *testing.T) {
	ctx := context.Background()
	w := newWire(1, false)
	if !w.acquire(ctx, claim{}) {
		t.Fatal("an idle wire was not granted")
	}
	got := make(chan string, 5)
	for i := range 5 {
		go func() {
			w.acquire(ctx, claim{})
			got <- fmt.Sprint(i)
		}()
		queued(t, w, i+1, 0)
	}
	for want := range 5 {
		w.release(claim{})
		if i := granted(t, got); i != fmt.Sprint(want) {
			t.Fatalf("read %s got the wire when read %d, which asked before it, was still waiting", i, want)
		}
	}
	w.release(claim{})
}

// TestLeadTakesWaitingReadsBeforeWrites: a lead (a guard's check, Ahead)
// goes before the writes waiting, and the reads waiting go with it; the
// write goes once they are all off the wire.
func TestLeadTakesWaitingReadsBeforeWrites(t *testing.T) {
	ctx := context.Background()
	w := newWire(8, false)
	if !w.acquire(ctx, claim{}) {
		t.Fatal("an idle wire was not granted")
	}
	got := make(chan string, 3)
	send := func(name string, c claim) {
		go func() {
			w.acquire(ctx, c)
			got <- name
		}()
	}
	send("write", claim{alone: true, write: true})
	queued(t, w, 0, 1)
	send("read", claim{})
	queued(t, w, 1, 1) // behind the write: writes go first
	send("lead", claim{lead: true})
	first, second := granted(t, got), granted(t, got)
	if !(first == "lead" && second == "read") && !(first == "read" && second == "lead") {
		t.Fatalf("granted %s and %s first, want the lead and the read waiting, before the write", first, second)
	}
	select {
	case name := <-got:
		t.Fatalf("%s got the wire while reads were on it", name)
	case <-time.After(20 * time.Millisecond):
	}
	for _, c := range []claim{{}, {}, {lead: true}} {
		w.release(c)
	}
	if name := granted(t, got); name != "write" {
		t.Fatalf("granted %s, want the write", name)
	}
	if st := (WireStats{Writes: w.writes, Overlaps: w.overlapped}); st.Overlaps != 0 {
		t.Errorf("%d overlaps", st.Overlaps)
	}
}

// aheadGuard asks every write to give the wire back for a check ahead of
// it, aheads times (ErrCheckAhead), and counts the checks Ahead sent.
type aheadGuard struct {
	mu             sync.Mutex
	aheads, checks int
}

func (g *aheadGuard) BeforeWrite(context.Context, func(Request) *Exchange) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.aheads > 0 {
		g.aheads--
		return ErrCheckAhead
	}
	return nil
}

func (g *aheadGuard) Ahead(_ context.Context, read func(Request) *Exchange) {
	read(Request{Path: "/api/check", Fresh: true})
	g.mu.Lock()
	g.checks++
	g.mu.Unlock()
}

func (*aheadGuard) Beside(context.Context, func(Request) *Exchange) {}
func (*aheadGuard) Answered(Answer)                                 {}

// TestWriteGivesTheWireBackForChecks: a write whose guard answers
// ErrCheckAhead lets a check go (Ahead, a lead) and then goes itself, as
// often as the guard asks, up to maxChecksAhead: it never fails with the
// guard's request, and never waits for ever.
func TestWriteGivesTheWireBackForChecks(t *testing.T) {
	srv := httptest.NewServer(slowAnswers(time.Millisecond))
	t.Cleanup(srv.Close)
	for _, aheads := range []int{1, 2, 10} {
		cl := newClient(t, srv.URL, func(c *Config) { c.AuthToken = "auth-token-0123456789" })
		g := &aheadGuard{aheads: aheads}
		cl.SetWriteGuard(g)
		ex := cl.Do(context.Background(), Request{Method: http.MethodPut, Path: "/api/pages/x", Credentials: BothTokens})
		if ex.Err != nil || ex.Status != http.StatusOK {
			t.Fatalf("%d checks asked: the write got %v (status %d), want it sent", aheads, ex.Err, ex.Status)
		}
		// Ahead is asked once before the write waits for the wire, then
		// once for each check the guard asked for.
		if want := 1 + min(aheads, maxChecksAhead); g.checks != want {
			t.Errorf("%d checks asked: %d sent, want %d", aheads, g.checks, want)
		}
	}
}
