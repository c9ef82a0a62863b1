package tripwire_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
	"github.com/conformance-suite/conformance/internal/tripwire"
)

// world is a reference server with a tripwire-guarded client; deleteNow
// removes a page behind the client's back, as another editor would.
type world struct {
	cl   *client.Client
	tw   *tripwire.Tripwire
	ref  testkit.Server
	sent atomic.Int64 // requests that reached the server
}

func newWorld(t *testing.T, wrap func(http.Handler) http.Handler) *world {
	t.Helper()
	w := &world{}
	w.ref = testkit.ReferenceWith(t, referenceOptions(), func(h http.Handler) http.Handler {
		if wrap != nil {
			h = wrap(h)
		}
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			w.sent.Add(1)
			h.ServeHTTP(rw, r)
		})
	})
	cl, err := client.New(client.Config{BaseURL: w.ref.URL, Token: w.ref.Token, AuthToken: w.ref.AuthToken, MaxInFlight: 8, ReadCache: true})
	if err != nil {
		t.Fatal(err)
	}
	w.tw = tripwire.New()
	w.tw.CheckEvery = 4
	cl.SetWriteGuard(w.tw)
	w.cl = cl
	return w
}

// deleteNow deletes key on the server directly, past the client.
func (w *world) deleteNow(t *testing.T, key string) {
	t.Helper()
	q := url.Values{"token": {w.ref.Token}, "authentication": {w.ref.AuthToken}}
	req := httptest.NewRequest(http.MethodDelete, "/api/pages/"+key+"?"+q.Encode(), nil)
	rec := httptest.NewRecorder()
	w.ref.Server.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("deleting %s behind the client's back: %d %s", key, rec.Code, rec.Body)
	}
}

func (w *world) create(name string) *client.Exchange {
	return w.cl.Do(context.Background(), client.Request{Method: http.MethodPost, Path: "/api/pages", Credentials: client.BothTokens,
		JSON: map[string]any{"title": "conformance tripwire " + name, "slug": "conformance-20261127t0000-abcdef-" + name, "type": "draft", "content": "x"}})
}

func (w *world) del(key string) *client.Exchange {
	return w.cl.Do(context.Background(), client.Request{Method: http.MethodDelete, Path: client.KeyPath("pages", key), Credentials: client.BothTokens})
}

// TestForeignLossTrips: a page the run never touched vanishes between two
// writes; by the next check the tripwire has stopped every write: the
// write is not sent, its error says the site lost data and names the page.
func TestForeignLossTrips(t *testing.T) {
	w := newWorld(t, nil)
	for i := range 3 {
		if ex := w.create(fmt.Sprint(i)); ex.Status != http.StatusCreated {
			t.Fatalf("create %d: %d %v", i, ex.Status, ex.Err)
		}
	}
	w.deleteNow(t, "alpha-post")
	var stopped *client.Exchange
	for i := 3; i < 8 && stopped == nil; i++ {
		if ex := w.create(fmt.Sprint(i)); tripwire.IsStopped(ex.Err) {
			stopped = ex
		}
	}
	if stopped == nil {
		t.Fatalf("eight writes went out after a foreign page vanished (checks every 4)")
	}
	if stopped.Sent || !strings.Contains(stopped.Err.Error(), "alpha-post") || !strings.Contains(stopped.Err.Error(), "lost data") {
		t.Errorf("the stopped write: sent %v, err %v; want not sent, naming alpha-post", stopped.Sent, stopped.Err)
	}
	before := w.sent.Load()
	for _, ex := range []*client.Exchange{w.del("conformance-20261127t0000-abcdef-0"), w.create("late")} {
		if !tripwire.IsStopped(ex.Err) {
			t.Errorf("a write after the trip: %d %v, want stopped", ex.Status, ex.Err)
		}
	}
	if n := w.sent.Load() - before; n != 0 {
		t.Errorf("%d requests reached the site after the trip, want none", n)
	}
	if trip := w.tw.Tripped(); trip == nil || fmt.Sprint(trip.Missing) != "[alpha-post]" {
		t.Errorf("Tripped() = %+v, want alpha-post missing", trip)
	}
}

// TestOwnWritesDoNotTrip: the run's own creates and deletes, refused
// probes to keys that do not exist and writes to its own pages change the
// listing only as they should: no trip, and a check costs one read.
func TestOwnWritesDoNotTrip(t *testing.T) {
	w := newWorld(t, nil)
	for i := range 10 {
		key := "conformance-20261127t0000-abcdef-" + fmt.Sprint(i)
		if ex := w.create(fmt.Sprint(i)); ex.Status != http.StatusCreated {
			t.Fatalf("create: %d %v", ex.Status, ex.Err)
		}
		if i%2 == 0 {
			if ex := w.del(key); ex.Status != http.StatusOK {
				t.Fatalf("delete: %d %v", ex.Status, ex.Err)
			}
		}
		w.del("conformance-20261127t0000-abcdef-no-such-" + fmt.Sprint(i))                                      // 404
		w.cl.Do(context.Background(), client.Request{Method: http.MethodDelete, Path: "/api/pages/alpha-post"}) // 401: no auth token
	}
	if trip := w.tw.Tripped(); trip != nil {
		t.Fatalf("tripped on the run's own writes: %s", trip.Summary())
	}
	writes, checks := w.tw.Stats()
	reads := 0
	for _, ex := range w.cl.Exchanges() {
		if ex.Method == http.MethodGet && !ex.Replayed {
			reads++
		}
	}
	// No batch of reads took a check along: each went ahead of a write,
	// every 4+2 writes.
	if checks < writes/6-1 || reads > checks+1 {
		t.Errorf("%d writes, %d checks, %d reads: want a check every 6 writes, one read each (plus the baseline)", writes, checks, reads)
	}
}

// TestCheckRidesAlongWithReads: a check that is due goes out with the next
// batch of reads the run sends anyway (Beside), not ahead of a write on a
// round trip of its own; with no batch, it still comes, later.
func TestCheckRidesAlongWithReads(t *testing.T) {
	w := newWorld(t, nil)
	for i := range 4 {
		if ex := w.create(fmt.Sprint(i)); ex.Status != http.StatusCreated {
			t.Fatalf("create: %d %v", ex.Status, ex.Err)
		}
	}
	_, before := w.tw.Stats()
	exs := w.cl.DoAll(context.Background(), []client.Request{{Method: http.MethodGet, Path: "/api/tags"}}, 8)
	if _, after := w.tw.Stats(); after != before+1 {
		t.Fatalf("a batch of reads after 4 writes made %d checks, want 1 (the one due)", after-before)
	}
	if exs[0].Status != http.StatusOK {
		t.Fatalf("the batch's own read: %d", exs[0].Status)
	}
	w.cl.DoAll(context.Background(), []client.Request{{Method: http.MethodGet, Path: "/api/categories"}}, 8)
	if _, again := w.tw.Stats(); again != before+1 {
		t.Errorf("a second batch with no write between made another check (%d)", again-before-1)
	}
}

// TestCheckGoesAheadOfAWrite: in a stretch of writes that no batch of
// reads comes between, the check goes once one and a half times
// CheckEvery writes passed, as a read of its own that the write waits for
// (a lead: it would take the reads waiting along), not with the wire held
// after twice as many.
func TestCheckGoesAheadOfAWrite(t *testing.T) {
	w := newWorld(t, nil) // CheckEvery 4: ahead after 6 writes, held after 8
	w.create("0")
	_, first := w.tw.Stats()
	seq := w.cl.Seq()
	for i := 1; i <= 6; i++ {
		w.create(fmt.Sprint(i))
	}
	if _, now := w.tw.Stats(); now != first+1 {
		t.Fatalf("7 writes made %d checks after the baseline, want 1 (ahead of the 7th)", now-first)
	}
	var sent []string
	for _, ex := range w.cl.Since(seq) {
		sent = append(sent, ex.Method)
	}
	want := []string{"POST", "POST", "POST", "POST", "POST", "GET", "POST"}
	if !slices.Equal(sent, want) {
		t.Errorf("sent %v, want %v: the check between the 6th and the 7th write", sent, want)
	}
}

// TestCheckGoesAheadOfQueuedWrites: writes that asked for the wire
// before a check came due (they passed Ahead with nothing due) do not
// carry the run past it: the one that finds it due gives the wire back
// for the check (ErrCheckAhead), instead of the check waiting until the
// wire is held after twice CheckEvery writes.
func TestCheckGoesAheadOfQueuedWrites(t *testing.T) {
	release := make(chan struct{})
	w := newWorld(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/tags" {
				<-release // holds the wire while the writes queue up
			}
			h.ServeHTTP(rw, r)
		})
	})
	w.create("0")
	_, first := w.tw.Stats()
	var wg sync.WaitGroup
	wg.Go(func() {
		w.cl.Do(context.Background(), client.Request{Method: http.MethodGet, Path: "/api/tags", Fresh: true})
	})
	time.Sleep(50 * time.Millisecond)
	for i := 1; i <= 6; i++ {
		wg.Go(func() { w.create(fmt.Sprint(i)) })
	}
	time.Sleep(100 * time.Millisecond) // all six wait for the wire, past Ahead
	close(release)
	wg.Wait()
	if _, now := w.tw.Stats(); now != first+1 {
		t.Fatalf("7 writes made %d checks after the baseline, want 1 (ahead of the 7th)", now-first)
	}
}

// TestOwnPagesVanishTrips: pages the run created and never deleted are no
// longer listed: the listing shrank in a way the run's deletes do not
// explain.
func TestOwnPagesVanishTrips(t *testing.T) {
	w := newWorld(t, nil)
	for i := range 3 {
		w.create(fmt.Sprint(i))
	}
	for i := range 3 {
		w.deleteNow(t, "conformance-20261127t0000-abcdef-"+fmt.Sprint(i))
	}
	for i := 3; i < 8; i++ {
		w.create(fmt.Sprint(i))
	}
	trip := w.tw.Tripped()
	if trip == nil || !strings.Contains(trip.Shrink, "fewer than") {
		t.Fatalf("Tripped() = %+v, want the run's own pages counted missing", trip)
	}
}

// TestBrokenListingIsNoLoss: a page list that leaves out pages which
// still read fine (a broken list the rules will report, or pages of a type
// no filter names), the site's or the run's own, is no data loss: no trip,
// a note says why.
func TestBrokenListingIsNoLoss(t *testing.T) {
	hide := atomic.Bool{}
	w := newWorld(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if hide.Load() && r.Method == http.MethodGet && r.URL.Path == "/api/pages" {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				body := strings.Replace(rec.Body.String(), `"key":"alpha-post"`, `"key":"hidden"`, 1)
				body = ownRe.ReplaceAllString(body, `"key":"x"`)      // like a page of a type no filter names
				body = totalRe.ReplaceAllString(body, `"total":"$1"`) // no number: the check reads the listing
				rw.Header().Set("Content-Type", "application/json")
				_, _ = rw.Write([]byte(body))
				return
			}
			h.ServeHTTP(rw, r)
		})
	})
	w.create("0")
	hide.Store(true)
	for i := 1; i < 10; i++ {
		w.create(fmt.Sprint(i))
	}
	if trip := w.tw.Tripped(); trip != nil {
		t.Fatalf("tripped on a listing that hides a page that still reads fine: %s", trip.Summary())
	}
	notes := strings.Join(w.tw.Notes(), "\n")
	for _, want := range []string{"alpha-post still reads", "conformance-20261127t0000-abcdef-0 still reads"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q, want one saying %s as a page", notes, want)
		}
	}
}

var ownRe = regexp.MustCompile(`"key":"conformance-20261127t0000-abcdef-\d+"`)

var totalRe = regexp.MustCompile(`"total":(\d+)`)

func referenceOptions() reference.Options { return reference.Options{} }

// keysFold keeps nothing: the write guard's own key fold is what counts.
type keysFold struct{}

func (keysFold) Item([]byte)         {}
func (keysFold) Value() (any, int64) { return true, 1 }

// TestStreamedListingIsTheBaseline: an every-type listing read as a stream
// (its items never kept whole) still gives the tripwire the site's pages
// before the first write: the keys the client kept of its items. A page
// of that listing vanishing later trips it, with no listing of its own
// read before the first write.
func TestStreamedListingIsTheBaseline(t *testing.T) {
	w := newWorld(t, nil)
	q := url.Values{"numberOfItems": {"-1"}}
	for _, ty := range []string{"published", "draft", "static", "sticky", "scheduled"} {
		q.Set(ty, "true")
	}
	ex := w.cl.Do(context.Background(), client.Request{Path: "/api/pages", Query: q,
		Stream: &client.Stream{Path: "data", New: func() client.Fold { return keysFold{} }}})
	if ex.Streamed == nil || ex.Streamed.Items == 0 || ex.Err != nil {
		t.Fatalf("the listing was not streamed: %+v %v", ex.Streamed, ex.Err)
	}
	w.deleteNow(t, "alpha-post")
	var stopped bool
	for i := range 8 {
		if ex := w.create(fmt.Sprint(i)); tripwire.IsStopped(ex.Err) {
			stopped = true
			break
		}
	}
	if !stopped {
		t.Fatal("a page of the streamed baseline vanished and eight writes went out")
	}
	if trip := w.tw.Tripped(); trip == nil || fmt.Sprint(trip.Missing) != "[alpha-post]" {
		t.Errorf("Tripped() = %+v, want alpha-post missing", trip)
	}
}

// TestBaselineOfABigListing: a listing larger than --max-body (a big site)
// gives the tripwire its baseline in one streamed read, its keys only, not
// a walk of the site page by page; a foreign loss is still found.
func TestBaselineOfABigListing(t *testing.T) {
	ref := testkit.Reference(t)
	cl, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken, MaxBody: 2048})
	if err != nil {
		t.Fatal(err)
	}
	tw := tripwire.New()
	tw.CheckEvery = 2
	cl.SetWriteGuard(tw)
	w := &world{cl: cl, tw: tw, ref: ref}
	w.create("0")
	reads := 0
	for _, ex := range cl.Exchanges() {
		if ex.Method == http.MethodGet {
			reads++
		}
	}
	if reads != 1 {
		t.Errorf("the baseline of a listing over --max-body took %d reads, want one streamed read", reads)
	}
	w.deleteNow(t, "alpha-post")
	for i := 1; i < 6 && w.tw.Tripped() == nil; i++ {
		w.create(fmt.Sprint(i))
	}
	if trip := tw.Tripped(); trip == nil || fmt.Sprint(trip.Missing) != "[alpha-post]" {
		t.Errorf("Tripped() = %+v, want alpha-post missing", trip)
	}
}

// newWorldWith is newWorld with the client's configuration changed by cfg.
func newWorldWith(t *testing.T, wrap func(http.Handler) http.Handler, cfg func(*client.Config)) *world {
	t.Helper()
	w := newWorld(t, wrap)
	c := client.Config{BaseURL: w.ref.URL, Token: w.ref.Token, AuthToken: w.ref.AuthToken, MaxInFlight: 8, ReadCache: true}
	cfg(&c)
	cl, err := client.New(c)
	if err != nil {
		t.Fatal(err)
	}
	cl.SetWriteGuard(w.tw)
	w.cl = cl
	return w
}

// TestParallelWritesDoNotTrip: under --parallel-writes, against storage
// that is transactional (the in-memory reference), the run's own creates
// and deletes side by side are no loss: the guard's checks wait until
// their write holds the wire alone, so no check sees a write half done.
func TestParallelWritesDoNotTrip(t *testing.T) {
	w := newWorldWith(t, nil, func(c *client.Config) { c.ParallelWrites = true })
	w.tw.CheckEvery = 2
	done := make(chan struct{})
	for g := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 3 {
				name := fmt.Sprintf("p%d-%d", g, i)
				if ex := w.create(name); ex.Status == http.StatusCreated {
					w.del(ex.Get("data.key").String())
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
	if trip := w.tw.Tripped(); trip != nil {
		t.Fatalf("tripped on the run's own writes side by side: %s", trip.Summary())
	}
}

// TestUnansweredDeleteDoesNotTrip: a delete of the run's own page that the
// server applied but did not answer in time is told to the guard as
// unanswered: the page it no longer lists is no loss.
func TestUnansweredDeleteDoesNotTrip(t *testing.T) {
	w := newWorldWith(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(rw, r)
			if r.Method == http.MethodDelete && strings.HasSuffix(r.URL.Path, "-slow") {
				time.Sleep(600 * time.Millisecond) // applied, answered too late
			}
		})
	}, func(c *client.Config) { c.RequestTimeout = 200 * time.Millisecond })
	w.tw.CheckEvery = 1
	if ex := w.create("slow"); ex.Status != http.StatusCreated {
		t.Fatalf("create: %d %v", ex.Status, ex.Err)
	}
	if ex := w.del("conformance-20261127t0000-abcdef-slow"); ex.Status != 0 {
		t.Fatalf("the slow delete got an answer in time (%d); the test needs it unanswered", ex.Status)
	}
	for i := range 4 {
		w.create(fmt.Sprint("after-", i))
	}
	if trip := w.tw.Tripped(); trip != nil {
		t.Fatalf("tripped on the run's own delete left unanswered: %s", trip.Summary())
	}
}

// TestBaselineTriedOnce: a site whose listing of every page fails gets one
// try at the baseline, not a listing (and a walk) before every write.
func TestBaselineTriedOnce(t *testing.T) {
	var listings atomic.Int64
	w := newWorld(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && r.URL.Path == "/api/pages" {
				listings.Add(1)
				http.Error(rw, `{"status":"1","message":"down"}`, http.StatusInternalServerError)
				return
			}
			h.ServeHTTP(rw, r)
		})
	})
	for i := range 5 {
		w.create(fmt.Sprint(i))
	}
	if n := listings.Load(); n > 2 {
		t.Errorf("%d listings read for 5 writes with the listing failing, want the baseline tried once", n)
	}
	if len(w.tw.Notes()) == 0 {
		t.Error("no note says the tripwire had no baseline")
	}
}
