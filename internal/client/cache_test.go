package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// cached returns a client with the read cache on for a recorder.
func cached(t *testing.T, rec *recorder, change func(*Config)) *Client {
	t.Helper()
	return newClient(t, rec.URL, func(c *Config) {
		c.ReadCache = true
		if change != nil {
			change(c)
		}
	})
}

// reads counts the GETs of path the server received.
func reads(rec *recorder, path string) int {
	n := 0
	for _, r := range rec.requests() {
		if r.Method == http.MethodGet && r.Path == path {
			n++
		}
	}
	return n
}

// countingBody answers each request with a body naming how many requests
// the server had, so a replay is told from a fresh answer.
func countingBody() http.HandlerFunc {
	var n atomic.Int64
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"status":"0","data":{"answer":%d,"path":%q}}`, n.Add(1), r.URL.Path)
	}
}

func TestReadCacheOffByDefault(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newClient(t, rec.URL, nil)
	for range 2 {
		if ex := c.Do(context.Background(), Request{Path: "/api/pages"}); ex.Replayed {
			t.Error("a read was replayed with the cache off")
		}
	}
	if got := reads(rec, "/api/pages"); got != 2 {
		t.Errorf("the server got %d reads, want 2", got)
	}
}

// TestReadCacheReplaysRepeatedRead: the second identical read is not sent;
// it is recorded as a replay of the first, carries the same answer and
// number, counts as no request and is not shown to the observers twice.
func TestReadCacheReplaysRepeatedRead(t *testing.T) {
	rec := newRecorder(t, countingBody())
	c := cached(t, rec, nil)
	var observed int
	c.OnExchange(func(*Exchange) { observed++ })
	ctx := context.Background()
	c.SetScope("spec 1")
	first := c.Do(ctx, Request{Path: "/api/pages"})
	c.SetScope("spec 2")
	again := c.Do(ctx, Request{Path: "/api/pages"})

	if got := reads(rec, "/api/pages"); got != 1 {
		t.Fatalf("the server got %d reads, want 1", got)
	}
	if !again.Replayed || first.Replayed {
		t.Fatalf("replayed: first %v, second %v", first.Replayed, again.Replayed)
	}
	if again.Seq != first.Seq || c.Seq() != 1 || len(c.Exchanges()) != 1 {
		t.Errorf("seq %d (first %d), Seq() %d, %d exchanges: a replay is no request", again.Seq, first.Seq, c.Seq(), len(c.Exchanges()))
	}
	if got := c.Since(0); len(got) != 2 || got[1] != again {
		t.Errorf("Since(0) gives %d exchanges; the replay must be recorded for the spec that used it", len(got))
	}
	if again.Scope != "spec 2" {
		t.Errorf("replay scope %q, want the spec that used it", again.Scope)
	}
	if observed != 1 {
		t.Errorf("observers saw %d exchanges, want the real one once", observed)
	}
	if again.Status != http.StatusOK || again.Get("data.answer").Int() != 1 || string(again.Body()) != string(first.Body()) {
		t.Errorf("replay: %d %s", again.Status, again.Body())
	}
	if s := again.String(); !strings.Contains(s, "replayed: not sent again; this is the answer to #1") || !strings.Contains(s, "reproduce: curl") {
		t.Errorf("a replay must say so and still give the curl line:\n%s", s)
	}
	assertNoSecrets(t, "replay", again.String())
}

// TestRefusedWriteEmptiesCache is the pitfall the cache must not fall in:
// a write the server refuses may still have had an effect (that is what
// AUTH-REFUSED-WRITE-NO-EFFECT checks), so the read after it must reach
// the server. The same holds for writes that fail in transit and for
// writes that succeed.
func TestRefusedWriteEmptiesCache(t *testing.T) {
	for _, c := range []struct {
		name  string
		write http.HandlerFunc
	}{
		{"refused 401", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"status":"1","message":"no"}`)
		}},
		{"refused 400", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadRequest) }},
		{"accepted", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{"status":"0"}`) }},
		{"connection dropped", func(w http.ResponseWriter, _ *http.Request) {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			read := countingBody()
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					read(w, r)
					return
				}
				c.write(w, r)
			})
			cl := cached(t, rec, nil)
			ctx := context.Background()
			cl.Do(ctx, Request{Path: "/api/pages"})
			cl.Do(ctx, Request{Method: http.MethodDelete, Path: "/api/pages/x", Credentials: BothTokens, AuthValue: new("wrong")})
			after := cl.Do(ctx, Request{Path: "/api/pages"})
			if after.Replayed || reads(rec, "/api/pages") != 2 {
				t.Errorf("the read after a write (%s) was answered from the cache", c.name)
			}
		})
	}
}

// TestUnsentWriteKeepsCache: a write refused by the read-only guard never
// left the client and cannot have changed the target.
func TestUnsentWriteKeepsCache(t *testing.T) {
	rec := newRecorder(t, countingBody())
	c := cached(t, rec, func(c *Config) { c.ReadOnly = true })
	ctx := context.Background()
	c.Do(ctx, Request{Path: "/api/tags"})
	if ex := c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens}); ex.Err != ErrReadOnly {
		t.Fatalf("write in a read-only run: %v", ex.Err)
	}
	if ex := c.Do(ctx, Request{Path: "/api/tags"}); !ex.Replayed {
		t.Error("a write that was never sent emptied the cache")
	}
}

// TestSafeMethodsKeepCache: HEAD and OPTIONS (the CORS preflight at the
// run's start) are safe by definition and leave the cache as it is; a
// DELETE, even refused, still empties it.
func TestSafeMethodsKeepCache(t *testing.T) {
	for _, c := range []struct {
		method string
		kept   bool
	}{{http.MethodOptions, true}, {http.MethodHead, true}, {http.MethodDelete, false}} {
		t.Run(c.method, func(t *testing.T) {
			rec := newRecorder(t, countingBody())
			cl := cached(t, rec, nil)
			ctx := context.Background()
			cl.Do(ctx, Request{Path: "/api/tags"})
			cl.Do(ctx, Request{Method: c.method, Path: "/api/pages", Credentials: NoTokens})
			if ex := cl.Do(ctx, Request{Path: "/api/tags"}); ex.Replayed != c.kept {
				t.Errorf("after %s the repeated read was replayed: %v, want %v", c.method, ex.Replayed, c.kept)
			}
		})
	}
}

// TestReadCacheKeepsOnlyWholeAnswers: busy answers, errors, cut and
// truncated bodies are never replayed.
func TestReadCacheKeepsOnlyWholeAnswers(t *testing.T) {
	for _, c := range []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"429", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
		}},
		{"503", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }},
		{"cut body", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, `{"status":`)
			w.(http.Flusher).Flush()
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		}},
		{"truncated", func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, `{"data":"`+strings.Repeat("x", 200)+`"}`)
		}},
		{"timeout", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := newRecorder(t, c.handler)
			cl := cached(t, rec, func(c *Config) { c.MaxBody = 100; c.RequestTimeout = 200 * time.Millisecond })
			cl.Do(context.Background(), Request{Path: "/api/pages"})
			if ex := cl.Do(context.Background(), Request{Path: "/api/pages"}); ex.Replayed {
				t.Errorf("a %s answer was replayed", c.name)
			}
		})
	}
}

// TestReadCacheKey: reads that differ in URL, tokens or any header are
// different reads; reads with a body are never answered.
func TestReadCacheKey(t *testing.T) {
	rec := newRecorder(t, countingBody())
	c := cached(t, rec, nil)
	ctx := context.Background()
	base := Request{Path: "/api/pages"}
	c.Do(ctx, base)
	for name, r := range map[string]Request{
		"query":        {Path: "/api/pages", Query: map[string][]string{"page": {"2"}}},
		"wrong token":  {Path: "/api/pages", TokenValue: new("wrong")},
		"no token":     {Path: "/api/pages", Credentials: NoTokens},
		"both tokens":  {Path: "/api/pages", Credentials: BothTokens},
		"header probe": {Path: "/api/pages", Header: http.Header{"Accept": {"text/html"}}},
	} {
		if ex := c.Do(ctx, r); ex.Replayed {
			t.Errorf("%s: answered with the plain read's answer", name)
		}
	}
	if ex := c.Do(ctx, base); !ex.Replayed {
		t.Error("the plain read again: not replayed")
	}
	hc := cached(t, rec, func(c *Config) { c.CredentialsPlacement = CredentialsInHeader })
	hc.Do(ctx, base)
	if ex := hc.Do(ctx, Request{Path: "/api/pages", TokenValue: new("wrong")}); ex.Replayed {
		t.Error("header mode: a read with another token in Authorization was answered from the cache")
	}
	if ex := hc.Do(ctx, Request{Path: "/api/pages", Placement: InQuery}); ex.Replayed {
		t.Error("header mode: a placement probe was answered with the header read's answer")
	}
}

// TestFreshRead: Request.Fresh goes to the target and its answer is the
// one later reads replay.
func TestFreshRead(t *testing.T) {
	rec := newRecorder(t, countingBody())
	c := cached(t, rec, nil)
	ctx := context.Background()
	c.Do(ctx, Request{Path: "/api/pages"})
	fresh := c.Do(ctx, Request{Path: "/api/pages", Fresh: true})
	if fresh.Replayed || fresh.Get("data.answer").Int() != 2 {
		t.Fatalf("fresh read: replayed %v, answer %s", fresh.Replayed, fresh.Get("data.answer"))
	}
	if ex := c.Do(ctx, Request{Path: "/api/pages"}); !ex.Replayed || ex.Get("data.answer").Int() != 2 || ex.Seq != fresh.Seq {
		t.Errorf("after a fresh read: replayed %v, answer %s, seq %d: want the fresh answer #%d",
			ex.Replayed, ex.Get("data.answer"), ex.Seq, fresh.Seq)
	}
}

// TestReplayOutlivesRelease: the original exchange releases its body when
// its scope ends; the cache keeps the body, and every replay shares it.
func TestReplayOutlivesRelease(t *testing.T) {
	big := `{"status":"0","data":"` + strings.Repeat("y", 10<<10) + `"}`
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, big) })
	c := cached(t, rec, nil)
	ctx := context.Background()
	c.SetScope("one")
	first := c.Do(ctx, Request{Path: "/api/pages"})
	c.SetScope("two")
	if !first.BodyReleased() {
		t.Fatal("the 10 KiB body was not released with its scope")
	}
	again := c.Do(ctx, Request{Path: "/api/pages"})
	if !again.Replayed || string(again.Body()) != big || again.Get("status").String() != "0" {
		t.Fatalf("replay after release: replayed %v, %d bytes", again.Replayed, len(again.Body()))
	}
	// One body serves them all: a replay costs no copy of it.
	if third := c.Do(ctx, Request{Path: "/api/pages"}); &third.Body()[0] != &again.Body()[0] {
		t.Error("each replay holds a copy of the body")
	}
}

// TestReadCacheBound: a body over the bound is not kept; older entries make
// room for newer ones.
func TestReadCacheBound(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"p":"`+strings.Repeat("z", 600)+r.URL.Path+`"}`)
	})
	c := cached(t, rec, func(c *Config) { c.ReadCacheBytes = 1500 })
	ctx := context.Background()
	for _, p := range []string{"/a", "/b", "/c"} {
		c.Do(ctx, Request{Path: p})
	}
	for _, p := range []string{"/b", "/c", "/a"} {
		want := p != "/a"
		if ex := c.Do(ctx, Request{Path: p}); ex.Replayed != want {
			t.Errorf("%s replayed %v, want %v (two of ~620 bytes fit in 1500)", p, ex.Replayed, want)
		}
	}
	small := cached(t, rec, func(c *Config) { c.ReadCacheBytes = 100 })
	small.Do(ctx, Request{Path: "/a"})
	if ex := small.Do(ctx, Request{Path: "/a"}); ex.Replayed {
		t.Error("a body over the whole bound was kept")
	}
}

// TestInterruptedReadIsNotReplayed: once the context is done a read gets
// the interruption, never an old answer.
func TestInterruptedReadIsNotReplayed(t *testing.T) {
	rec := newRecorder(t, nil)
	c := cached(t, rec, nil)
	c.Do(context.Background(), Request{Path: "/api/pages"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ex := c.Do(ctx, Request{Path: "/api/pages"}); ex.Replayed || ex.Err == nil {
		t.Errorf("read with a cancelled context: replayed %v, err %v", ex.Replayed, ex.Err)
	}
}

// TestReadOverlappingWriteIsNotKept: a read whose answer may predate a
// write that was on its way at the same time is not kept.
func TestReadOverlappingWriteIsNotKept(t *testing.T) {
	readArrived, releaseRead := make(chan struct{}), make(chan struct{})
	var first atomic.Bool
	read := countingBody()
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && first.CompareAndSwap(false, true) {
			close(readArrived)
			<-releaseRead
		}
		read(w, r)
	})
	c := cached(t, rec, nil)
	ctx := context.Background()
	done := make(chan *Exchange)
	go func() { done <- c.Do(ctx, Request{Path: "/api/pages"}) }()
	<-readArrived
	c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens})
	close(releaseRead)
	<-done
	if ex := c.Do(ctx, Request{Path: "/api/pages"}); ex.Replayed {
		t.Error("a read that overlapped a write was kept and replayed")
	}
}

// TestGetWithBodyKeepsTheCache: a GET carrying a body (a placement probe)
// is not answered from the cache, and, being safe, does not empty it.
func TestGetWithBodyKeepsTheCache(t *testing.T) {
	rec := newRecorder(t, countingBody())
	c := cached(t, rec, nil)
	ctx := context.Background()
	c.Do(ctx, Request{Path: "/api/pages"})
	if ex := c.Do(ctx, Request{Path: "/api/pages", Placement: InBody}); ex.Replayed {
		t.Error("a GET with a body was answered from the cache")
	}
	if ex := c.Do(ctx, Request{Path: "/api/pages"}); !ex.Replayed {
		t.Error("a GET with a body emptied the cache")
	}
}
