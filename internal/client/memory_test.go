package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestCompactionKeepsMemoryFlat makes 60 requests with 256 KiB JSON bodies,
// each in its own scope as specs are, reading every body as JSON (gjson
// keeps a copy), and checks that the heap does not grow with them: after
// SetScope only a 4 KiB excerpt of each stays.
func TestCompactionKeepsMemoryFlat(t *testing.T) {
	body := []byte(`{"status":"0","message":"` + strings.Repeat("x", 256<<10) + `"}`)
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	c := newClient(t, rec.URL, nil)
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	const n = 60
	start := heap()
	for i := 0; i < n; i++ {
		c.SetScope(fmt.Sprintf("spec %d", i))
		ex := c.Do(context.Background(), Request{Path: "/api/pages"})
		if ex.Err != nil || !ex.IsJSON() || ex.Get("status").String() != "0" {
			t.Fatalf("request %d: err %v json %v", i, ex.Err, ex.IsJSON())
		}
	}
	c.SetScope("end")
	grown := int64(heap()) - int64(start)
	t.Logf("%d exchanges of 256 KiB each: heap grew by %.2f MiB", n, float64(grown)/(1<<20))
	// Kept whole, they would take 15 MiB (30 MiB with the copies gjson makes).
	if grown > 3<<20 {
		t.Errorf("heap grew by %d bytes over %d released exchanges of %d bytes", grown, n, len(body))
	}
	// What stays is still useful: an excerpt, the size, the JSON verdict.
	old := c.Exchanges()[0]
	if old.BodySize() != len(body) || !old.IsJSON() || !strings.HasPrefix(old.BodyExcerpt(), `{"status":"0"`) {
		t.Errorf("released exchange: size %d, json %v, excerpt %.40q", old.BodySize(), old.IsJSON(), old.BodyExcerpt())
	}
	if !strings.Contains(old.String(), fmt.Sprintf("[%d bytes in all]", len(body))) {
		t.Errorf("released exchange does not give the full size:\n%.200s", old.String())
	}
}

// TestLongRequestBodyCurlIsCut checks that old exchanges do not keep a
// huge curl line (the request body) for the rest of the run.
func TestLongRequestBodyCurlIsCut(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newClient(t, rec.URL, nil)
	ex := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens,
		JSON: map[string]any{"content": strings.Repeat("y", 1<<20)}})
	if len(ex.Curl()) < 1<<20 {
		t.Fatal("the current spec should see the whole curl line")
	}
	c.SetScope("next")
	if l := len(ex.Curl()); l > 2*maxKeptCurl {
		t.Errorf("released curl line is %d bytes", l)
	}
	if len(ex.RequestBody) > 2*requestExcerpt {
		t.Errorf("request body excerpt is %d bytes", len(ex.RequestBody))
	}
}

// TestConcurrentUse runs requests, JSON reads, renders and body releases from
// several goroutines at once; `go test -race` checks the locking.
func TestConcurrentUse(t *testing.T) {
	big := bytes.Repeat([]byte("z"), 2*responseExcerpt)
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"0","message":"`+string(big)+`"}`)
	})
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.RPS = 1000 })
	var seen sync.Map
	c.OnExchange(func(ex *Exchange) { seen.Store(ex.Seq, ex.IsJSON()) })
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				ex := c.Do(context.Background(), Request{Path: "/api/pages"})
				_ = ex.Get("message").String()
				_ = ex.String()
				if i%3 == 0 {
					c.SetScope(fmt.Sprintf("g%d-%d", g, i))
				}
				for _, old := range c.Since(c.Seq() - 5) {
					_ = old.BodyExcerpt()
					_ = old.JSON()
				}
			}
		}(g)
	}
	wg.Wait()
	if c.Seq() != 80 || len(c.Exchanges()) != 80 {
		t.Errorf("seq %d, %d exchanges, want 80", c.Seq(), len(c.Exchanges()))
	}
	n := 0
	seen.Range(func(any, any) bool { n++; return true })
	if n != 80 {
		t.Errorf("observers saw %d exchanges, want 80", n)
	}
}

// TestBodyRelease checks that the end of a scope releases a large body
// explicitly: Body is nil (never an excerpt posing as the body), the
// excerpt, size and JSON verdict stay, and small bodies stay whole.
func TestBodyRelease(t *testing.T) {
	large := `{"status":"0","message":"` + strings.Repeat("x", 2*responseExcerpt) + `"}`
	small := `{"status":"0","message":"ok"}`
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/large" {
			_, _ = io.WriteString(w, large)
			return
		}
		_, _ = io.WriteString(w, small)
	})
	c := newClient(t, rec.URL, nil)
	big := c.Do(context.Background(), Request{Path: "/large"})
	little := c.Do(context.Background(), Request{Path: "/small"})
	excerptBefore := big.BodyExcerpt()
	if string(big.Body()) != large || big.BodyReleased() || !big.Get("status").Exists() {
		t.Fatalf("within its scope the body must be whole: %d bytes, released %v", len(big.Body()), big.BodyReleased())
	}
	c.SetScope("next")
	if big.Body() != nil || !big.BodyReleased() {
		t.Errorf("after its scope: Body() is %d bytes, released %v; want nil and true", len(big.Body()), big.BodyReleased())
	}
	if big.BodyExcerpt() != excerptBefore || big.BodySize() != len(large) || !big.IsJSON() || big.Get("status").Exists() {
		t.Errorf("released: excerpt kept %v, size %d, json %v, status readable %v",
			big.BodyExcerpt() == excerptBefore, big.BodySize(), big.IsJSON(), big.Get("status").Exists())
	}
	if string(little.Body()) != small || little.BodyReleased() || little.Get("status").String() != "0" {
		t.Errorf("a small body must stay whole: %q released %v", little.Body(), little.BodyReleased())
	}
}

// TestScopes checks that an exchange keeps the client-wide scope, or the
// one its request's context names.
func TestScopes(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newClient(t, rec.URL, nil)
	c.SetScope("spec A")
	a := c.Do(context.Background(), Request{Path: "/api/pages"})
	b := c.Do(WithScope(context.Background(), "spec B"), Request{Path: "/api/pages"})
	if a.Scope != "spec A" || b.Scope != "spec B" {
		t.Errorf("scopes %q and %q, want spec A and spec B", a.Scope, b.Scope)
	}
	if got := c.Since(a.Seq); len(got) != 1 || got[0] != b {
		t.Errorf("Since(%d) = %d exchanges, want b only", a.Seq, len(got))
	}
	if got := c.Since(-3); len(got) != 2 {
		t.Errorf("Since(-3) = %d exchanges, want 2", len(got))
	}
}

// TestHeldBodiesStayUntilUnpinned checks the cause of a lost shared answer:
// an exchange made with a held context (a prepare function, a shared
// fixture) keeps its body whole over any number of scopes, since specs of
// later scopes judge it, until its holder unpins it; the next scope then
// releases it.
func TestHeldBodiesStayUntilUnpinned(t *testing.T) {
	large := `{"status":"0","message":"` + strings.Repeat("x", 2*responseExcerpt) + `"}`
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, large)
	})
	c := newClient(t, rec.URL, nil)
	hctx, h := Hold(context.Background())
	shared := c.Do(hctx, Request{Path: "/list"})
	c.SetScope("the spec that records it")
	c.Release(h)
	after := c.Do(hctx, Request{Path: "/list", Fresh: true}) // made after Release: pinned too
	for _, scope := range []string{"a later spec", "another"} {
		c.SetScope(scope)
		for _, ex := range []*Exchange{shared, after} {
			if string(ex.Body()) != large || ex.BodyReleased() {
				t.Fatalf("in %q a held exchange's body is %d bytes (released %v); want it whole until Unpin", scope, len(ex.Body()), ex.BodyReleased())
			}
		}
	}
	c.Unpin(h)
	c.SetScope("after the group")
	for _, ex := range []*Exchange{shared, after} {
		if ex.Body() != nil || !ex.BodyReleased() {
			t.Errorf("once unpinned, the next scope must release the body: %d bytes, released %v", len(ex.Body()), ex.BodyReleased())
		}
	}
}
