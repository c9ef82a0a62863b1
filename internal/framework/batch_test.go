package framework

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
)

// slowServer answers every request after delay, counting how many it
// serves at once.
func slowServer(t *testing.T, delay time.Duration) (url string, peak func() int) {
	t.Helper()
	var mu sync.Mutex
	now, most := 0, 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		now++
		most = max(most, now)
		mu.Unlock()
		time.Sleep(delay)
		mu.Lock()
		now--
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"0","data":"` + r.URL.Path + `"}`))
	}))
	t.Cleanup(ts.Close)
	return ts.URL, func() int { mu.Lock(); defer mu.Unlock(); return most }
}

func fixtureOn(t *testing.T, url string, opts Options) *Fixture {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: url, Token: "tok-en-value", ReadCache: true})
	if err != nil {
		t.Fatal(err)
	}
	return New(c, opts)
}

// TestAllConcurrency: All sends at most Options.Concurrency at once (one
// by one when unset) and returns the exchanges in the order given.
func TestAllConcurrency(t *testing.T) {
	for _, c := range []struct{ concurrency, peak int }{{0, 1}, {1, 1}, {4, 4}} {
		url, peak := slowServer(t, 30*time.Millisecond)
		f := fixtureOn(t, url, Options{Concurrency: c.concurrency})
		var reqs []client.Request
		for _, p := range []string{"/a", "/b", "/c", "/d", "/e", "/f", "/g", "/h"} {
			reqs = append(reqs, client.Request{Path: p})
		}
		out := f.All(context.Background(), reqs...)
		if peak() != c.peak {
			t.Errorf("Concurrency %d: peak in flight %d, want %d", c.concurrency, peak(), c.peak)
		}
		for i, ex := range out {
			if ex.Get("data").String() != reqs[i].Path || ex.Seq != i+1 {
				t.Errorf("Concurrency %d: exchange %d is %s #%d", c.concurrency, i, ex.Get("data"), ex.Seq)
			}
		}
	}
}

// TestEvidenceShowsJudgedExchanges: a failing spec shows the exchanges it
// named with Judged first, then its own, each once; the next spec starts
// with none.
func TestEvidenceShowsJudgedExchanges(t *testing.T) {
	url, _ := slowServer(t, 0)
	f := fixtureOn(t, url, Options{})
	ctx := context.Background()
	fixture := f.Client.Do(ctx, client.Request{Path: "/fixture"}) // a BeforeAll's
	mark := f.Client.Seq()
	own := f.Client.Do(ctx, client.Request{Path: "/own"})
	replay := f.Client.Do(ctx, client.Request{Path: "/fixture"}) // the cache answers
	f.Judged(fixture, nil, fixture, own)
	got := f.evidence(f.Client.Since(mark))
	if len(got) != 3 || got[0] != fixture || got[1] != own || got[2] != replay {
		var lines []string
		for _, ex := range got {
			lines = append(lines, ex.RequestLine())
		}
		t.Fatalf("evidence:\n%s", strings.Join(lines, "\n"))
	}
	if !replay.Replayed {
		t.Error("the repeated read was not replayed")
	}
	if next := f.evidence(nil); len(next) != 0 {
		t.Errorf("the next spec inherits %d judged exchanges", len(next))
	}
}
