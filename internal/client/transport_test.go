package client

import (
	"bytes"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// streamServer answers GETs with size bytes of JSON-ish filler, written in
// 64 KiB chunks, and counts what it managed to write.
func streamServer(t *testing.T, size int, announce bool) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var written atomic.Int64
	chunk := bytes.Repeat([]byte("[1,2,3,4,5,6,7,8,9,0]"), 64<<10/21)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if announce {
			w.Header().Set("Content-Length", strconv.Itoa(size))
		}
		for left := size; left > 0; {
			n := min(left, len(chunk))
			m, err := w.Write(chunk[:n])
			written.Add(int64(m))
			if err != nil {
				return // the client hung up: exactly what a bounded read does
			}
			left -= n
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &written
}

// TestBoundedRead checks that a body longer than MaxBody is cut there,
// marked truncated, and not taken for JSON.
func TestBoundedRead(t *testing.T) {
	for _, announce := range []bool{true, false} {
		t.Run(fmt.Sprintf("Content-Length announced %v", announce), func(t *testing.T) {
			srv, _ := streamServer(t, 10<<20, announce)
			c := newClient(t, srv.URL, func(cfg *Config) { cfg.MaxBody = 1 << 20 })
			ex := c.Do(context.Background(), Request{Path: "/api/pages"})
			if ex.Err != nil {
				t.Fatal(ex.Err)
			}
			if !ex.Truncated || ex.BodySize() != 1<<20 {
				t.Errorf("truncated=%v size=%d, want true and %d", ex.Truncated, ex.BodySize(), 1<<20)
			}
			// Only the start of a cut body is kept: it can be no JSON document.
			if n := len(ex.Body()); n == 0 || n > responseExcerpt+redactSlack {
				t.Errorf("%d bytes of the truncated body kept", n)
			}
			if ex.IsJSON() || ex.JSON().Exists() {
				t.Error("a truncated body must not count as JSON")
			}
			if !strings.Contains(ex.String(), "truncated at the read limit") {
				t.Errorf("the exchange does not say it was truncated:\n%.300s", ex.String())
			}
		})
	}
	t.Run("a body of exactly MaxBody is whole", func(t *testing.T) {
		srv, _ := streamServer(t, 1000, false)
		c := newClient(t, srv.URL, func(cfg *Config) { cfg.MaxBody = 1000 })
		ex := c.Do(context.Background(), Request{Path: "/api/pages"})
		if ex.Err != nil || ex.Truncated || len(ex.Body()) != 1000 {
			t.Errorf("err=%v truncated=%v len=%d", ex.Err, ex.Truncated, len(ex.Body()))
		}
	})
}

// TestFiftyMegabytesStayBounded streams a 50 MB body and checks that the
// client allocates about MaxBody (not 50 MB) and stops reading early.
func TestFiftyMegabytesStayBounded(t *testing.T) {
	const size = 50 << 20
	const maxBody = DefaultMaxBody
	for _, announce := range []bool{true, false} {
		t.Run(fmt.Sprintf("Content-Length announced %v", announce), func(t *testing.T) {
			srv, written := streamServer(t, size, announce)
			c := newClient(t, srv.URL, nil)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			ex := c.Do(context.Background(), Request{Path: "/api/pages"})
			runtime.ReadMemStats(&after)
			if ex.Err != nil {
				t.Fatal(ex.Err)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("50 MB body: %.1f MB allocated by the request, %.1f MB written by the server before the client hung up",
				float64(alloc)/(1<<20), float64(written.Load())/(1<<20))
			if alloc > 3*maxBody {
				t.Errorf("the request allocated %d bytes for a %d-byte limit", alloc, maxBody)
			}
			// Announced longer than the limit, it is cut for sure: no
			// buffer of the limit's size is needed to keep its excerpt.
			if announce && alloc > maxBody/4 {
				t.Errorf("the request allocated %d bytes for a body announced longer than the %d-byte limit", alloc, maxBody)
			}
			if !ex.Truncated || ex.BodySize() != maxBody {
				t.Errorf("truncated=%v size=%d", ex.Truncated, ex.BodySize())
			}
			// The server stops once the client hangs up; it may get a few
			// socket buffers further, never to the end.
			deadline := time.Now().Add(2 * time.Second)
			for written.Load() >= size && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if w := written.Load(); w >= size {
				t.Errorf("the whole %d bytes were sent: the client read past its limit", w)
			}
		})
	}
}

// TestRequestTimeout checks the per-request timeout, while waiting for the
// headers and while the body trickles in, and that the error says which.
func TestRequestTimeout(t *testing.T) {
	silent := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	t.Cleanup(silent.Close)
	trickle := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "1000")
		w.WriteHeader(http.StatusOK)
		for i := 0; i < 1000; i++ {
			if _, err := w.Write([]byte(" ")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}))
	t.Cleanup(trickle.Close)
	for _, tc := range []struct {
		name, base, cause string
	}{
		{"no answer", silent.URL, "no answer within the request timeout (300ms"},
		{"body one byte at a time", trickle.URL, "the response body did not arrive in full within the request timeout (300ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t, tc.base, func(cfg *Config) { cfg.RequestTimeout = 300 * time.Millisecond })
			start := time.Now()
			ex := c.Do(context.Background(), Request{Path: "/api/pages"})
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("took %s with a 300ms request timeout", took)
			}
			if FailureKind(ex.Err) != KindTimeout || !strings.Contains(Cause(ex.Err), tc.cause) {
				t.Errorf("err %v (kind %q), want a timeout saying %q", ex.Err, FailureKind(ex.Err), tc.cause)
			}
			if !ex.Sent {
				t.Error("a timed-out request is not marked as sent")
			}
		})
	}
}

// TestRunDeadline checks Config.Deadline: a request waiting at the
// deadline is cut whatever --request-timeout says, and none is sent after.
func TestRunDeadline(t *testing.T) {
	silent := newRecorder(t, func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	c := newClient(t, silent.URL, func(cfg *Config) {
		cfg.RequestTimeout = time.Minute
		cfg.Deadline = time.Now().Add(300 * time.Millisecond)
	})
	start := time.Now()
	ex := c.Do(context.Background(), Request{Path: "/api/pages"})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %s with a deadline 300ms away", took)
	}
	if FailureKind(ex.Err) != KindRunDeadline || !ex.Sent {
		t.Errorf("err %v (kind %q, sent %v), want a run-deadline failure of a sent request", ex.Err, FailureKind(ex.Err), ex.Sent)
	}
	ex = c.Do(context.Background(), Request{Path: "/api/pages"})
	if !errors.Is(ex.Err, ErrRunDeadline) || ex.Sent {
		t.Errorf("after the deadline: err %v sent %v, want ErrRunDeadline and nothing sent", ex.Err, ex.Sent)
	}
	if n := silent.count(); n != 1 {
		t.Errorf("the server got %d requests, want 1", n)
	}
}

// TestRedirects checks that same-host redirects are followed at most 3
// times and that a redirect to another host is never followed, so the
// tokens never reach it.
func TestRedirects(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other host received %s %s: the tokens went there", r.Method, r.URL.Path)
	}))
	t.Cleanup(other.Close)

	t.Run("same host, two hops, followed", func(t *testing.T) {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
			switch {
			case strings.HasPrefix(r.URL.Path, "/api/"):
				http.Redirect(w, r, "/hop1"+r.URL.RequestURI(), http.StatusFound)
			case strings.HasPrefix(r.URL.Path, "/hop1/"):
				http.Redirect(w, r, "/hop2"+strings.TrimPrefix(r.URL.RequestURI(), "/hop1"), http.StatusTemporaryRedirect)
			default:
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"status":"0","message":"ok"}`)
			}
		})
		c := newClient(t, rec.URL, nil)
		ex := c.Do(context.Background(), Request{Path: "/api/pages"})
		if ex.Err != nil || ex.Status != 200 || ex.Redirect != "" {
			t.Fatalf("err %v status %d note %q", ex.Err, ex.Status, ex.Redirect)
		}
		if !strings.Contains(ex.FinalURL, "/hop2/api/pages") {
			t.Errorf("FinalURL %q", ex.FinalURL)
		}
		assertNoSecrets(t, "FinalURL", ex.FinalURL)
		if n := rec.count(); n != 3 {
			t.Errorf("%d requests, want 3", n)
		}
		if got := rec.last(t).Query.Get("token"); got != testToken {
			t.Errorf("the token did not follow a same-host redirect: %q", got)
		}
	})

	t.Run("same host, 307 keeps a POST body", func(t *testing.T) {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/pages" {
				http.Redirect(w, r, "/index.php/api/pages", http.StatusTemporaryRedirect)
				return
			}
			w.WriteHeader(http.StatusCreated)
		})
		c := newClient(t, rec.URL, nil)
		ex := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, JSON: map[string]any{"title": "T"}})
		if ex.Err != nil || ex.Status != http.StatusCreated {
			t.Fatalf("err %v status %d", ex.Err, ex.Status)
		}
		if last := rec.last(t); last.Fields["title"] != "T" || last.Fields["token"] != testToken {
			t.Errorf("the redirected POST lost its body: %v", last.Fields)
		}
	})

	t.Run("same host, a loop stops after 3 redirects", func(t *testing.T) {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.Path+"?"+r.URL.RawQuery+"&again=1", http.StatusFound)
		})
		c := newClient(t, rec.URL, nil)
		ex := c.Do(context.Background(), Request{Path: "/api/pages"})
		if ex.Err != nil || ex.Status != http.StatusFound || !strings.Contains(ex.Redirect, "more than 3") {
			t.Errorf("err %v status %d note %q, want the 4th 302 recorded with a note", ex.Err, ex.Status, ex.Redirect)
		}
		if n := rec.count(); n != 4 {
			t.Errorf("%d requests, want 4 (the first and 3 redirects)", n)
		}
	})

	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
		t.Run("another host is never contacted: "+m, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
				// Echo the query into Location, as careless sites do.
				http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
			})
			c := newClient(t, rec.URL, nil)
			ex := c.Do(context.Background(), Request{Method: m, Path: "/api/pages/x", Credentials: BothTokens})
			if ex.Err != nil || ex.Status != http.StatusTemporaryRedirect || !strings.Contains(ex.Redirect, "another host") {
				t.Errorf("err %v status %d note %q", ex.Err, ex.Status, ex.Redirect)
			}
			assertNoSecrets(t, "exchange", ex.String())
			if !strings.Contains(ex.String(), "not followed") {
				t.Errorf("the exchange does not report the refused redirect:\n%s", ex)
			}
		})
	}
}

// TestTLS checks a self-signed certificate: refused with a clear error,
// accepted with --ca-cert holding it, or with --insecure.
func TestTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"0","message":"ok"}`)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are the point
	srv.StartTLS()
	t.Cleanup(srv.Close)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("untrusted", func(t *testing.T) {
		ex := newClient(t, srv.URL, nil).Do(context.Background(), Request{Path: "/api/pages"})
		if FailureKind(ex.Err) != KindTLS || !strings.Contains(Cause(ex.Err), "certificate") {
			t.Errorf("err %v (kind %q), want a TLS failure naming the certificate", ex.Err, FailureKind(ex.Err))
		}
		assertNoSecrets(t, "TLS error", ex.Err.Error())
	})
	t.Run("--ca-cert", func(t *testing.T) {
		ex := newClient(t, srv.URL, func(cfg *Config) { cfg.CACert = caFile }).Do(context.Background(), Request{Path: "/api/pages"})
		if ex.Err != nil || ex.Status != 200 {
			t.Errorf("err %v status %d", ex.Err, ex.Status)
		}
	})
	t.Run("--insecure", func(t *testing.T) {
		ex := newClient(t, srv.URL, func(cfg *Config) { cfg.Insecure = true }).Do(context.Background(), Request{Path: "/api/pages"})
		if ex.Err != nil || ex.Status != 200 {
			t.Errorf("err %v status %d", ex.Err, ex.Status)
		}
	})
	t.Run("--ca-cert that holds no certificate", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.pem")
		_ = os.WriteFile(bad, []byte("not a certificate"), 0o600)
		if _, err := New(Config{BaseURL: srv.URL, CACert: bad}); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("plain HTTP client to a TLS server is named", func(t *testing.T) {
		plain := newRecorder(t, nil)
		ex := newClient(t, strings.Replace(plain.URL, "http://", "https://", 1), nil).Do(context.Background(), Request{Path: "/api/pages"})
		if ex.Err == nil || FailureKind(ex.Err) != KindTLS {
			t.Errorf("err %v (kind %q)", ex.Err, FailureKind(ex.Err))
		}
	})
}

// TestRetries checks that reads answered 429/503 are retried a bounded
// number of times, honouring Retry-After (capped), that each retry is
// recorded, and that writes are never retried.
func TestRetries(t *testing.T) {
	// failing answers status to the first n requests, then 200.
	failing := func(status, n int, retryAfter string) http.HandlerFunc {
		var count atomic.Int64
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			if count.Add(1) <= int64(n) {
				if retryAfter != "" {
					w.Header().Set("Retry-After", retryAfter)
				}
				w.WriteHeader(status)
				_, _ = io.WriteString(w, `{"message":"slow down"}`)
				return
			}
			_, _ = io.WriteString(w, `{"status":"0","message":"ok"}`)
		}
	}
	cases := []struct {
		name         string
		method       string
		status, n    int
		retryAfter   string
		retries      int
		maxWait      time.Duration
		wantStatus   int
		wantRequests int
		minTook      time.Duration
		maxTook      time.Duration
	}{
		{"GET 503 twice then 200", http.MethodGet, 503, 2, "0", 2, 0, 200, 3, 0, time.Second},
		{"GET 429 always: bounded", http.MethodGet, 429, 100, "0", 2, 0, 429, 3, 0, time.Second},
		{"GET 429 with --retries 0", http.MethodGet, 429, 1, "0", 0, 0, 429, 1, 0, time.Second},
		{"Retry-After capped by MaxRetryWait", http.MethodGet, 503, 1, "3600", 2, 200 * time.Millisecond, 200, 2, 200 * time.Millisecond, 2 * time.Second},
		{"Retry-After as an HTTP date", http.MethodGet, 429, 1, time.Now().Add(-time.Minute).UTC().Format(http.TimeFormat), 2, 0, 200, 2, 0, time.Second},
		{"POST is never retried", http.MethodPost, 503, 100, "0", 2, 0, 503, 1, 0, time.Second},
		{"PUT is never retried", http.MethodPut, 429, 100, "0", 2, 0, 429, 1, 0, time.Second},
		{"DELETE is never retried", http.MethodDelete, 503, 100, "0", 2, 0, 503, 1, 0, time.Second},
		{"500 is not retried", http.MethodGet, 500, 100, "0", 2, 0, 500, 1, 0, time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, failing(tc.status, tc.n, tc.retryAfter))
			c := newClient(t, rec.URL, func(cfg *Config) { cfg.Retries, cfg.MaxRetryWait = tc.retries, tc.maxWait })
			start := time.Now()
			ex := c.Do(context.Background(), Request{Method: tc.method, Path: "/api/pages", Credentials: BothTokens})
			took := time.Since(start)
			if ex.Err != nil || ex.Status != tc.wantStatus {
				t.Errorf("err %v status %d, want %d", ex.Err, ex.Status, tc.wantStatus)
			}
			if n := rec.count(); n != tc.wantRequests {
				t.Errorf("the server got %d requests, want %d", n, tc.wantRequests)
			}
			if len(ex.Retries) != tc.wantRequests-1 || c.Retries() != tc.wantRequests-1 {
				t.Errorf("%d retries recorded (client total %d), want %d: %v", len(ex.Retries), c.Retries(), tc.wantRequests-1, ex.Retries)
			}
			if len(ex.Retries) > 0 && !strings.Contains(ex.String(), "retried:") {
				t.Errorf("the exchange does not report its retries:\n%s", ex)
			}
			if took < tc.minTook || took > tc.maxTook {
				t.Errorf("took %s, want between %s and %s", took, tc.minTook, tc.maxTook)
			}
		})
	}
	t.Run("a wait past the deadline is not started", func(t *testing.T) {
		rec := newRecorder(t, failing(429, 100, "2"))
		c := newClient(t, rec.URL, func(cfg *Config) { cfg.Retries = 5 })
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		start := time.Now()
		ex := c.Do(ctx, Request{Path: "/api/pages"})
		if ex.Err != nil || ex.Status != 429 || time.Since(start) > 400*time.Millisecond || rec.count() != 1 {
			t.Errorf("err %v status %d after %s and %d requests: want the 429 kept at once", ex.Err, ex.Status, time.Since(start), rec.count())
		}
	})
}

// TestRPS checks the --rps limit (golang.org/x/time/rate, burst 1).
func TestRPS(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.RPS = 20 })
	start := time.Now()
	for i := 0; i < 11; i++ {
		if ex := c.Do(context.Background(), Request{Path: "/api/pages"}); ex.Err != nil {
			t.Fatal(ex.Err)
		}
	}
	// 11 requests at 20/s: the first at once, then one every 50ms.
	if took := time.Since(start); took < 450*time.Millisecond || took > 3*time.Second {
		t.Errorf("11 requests at --rps 20 took %s, want about 500ms", took)
	}
	// A wait that cannot end before the caller's deadline sends nothing.
	slow := newClient(t, rec.URL, func(cfg *Config) { cfg.RPS = 0.1 })
	_ = slow.Do(context.Background(), Request{Path: "/api/pages"})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	before := rec.count()
	ex := slow.Do(ctx, Request{Path: "/api/pages"})
	if ex.Err == nil || ex.Sent || rec.count() != before {
		t.Errorf("err %v sent %v: a request that would wait past the deadline must not be sent", ex.Err, ex.Sent)
	}
}

// TestNotJSON checks that bodies a lenient parser would half-read (HTML,
// truncated JSON, invalid UTF-8, a nesting bomb) read as no JSON at all.
func TestNotJSON(t *testing.T) {
	bodies := map[string]string{
		"html":                     "<!doctype html><html><body>Page not found</body></html>",
		"empty":                    "",
		"truncated":                `{"status":"0","message":"List of pages","data":[{"key":"a"`,
		"invalid utf8":             "\xff\xfe{\"message\":\"x\"}",
		"invalid utf8 in a string": "{\"status\":\"0\",\"message\":\"\xff\xfe\"}",
		"nesting bomb":             strings.Repeat("[", 1_000_000),
		"closed bomb":              strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000),
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, body)
			})
			ex := newClient(t, rec.URL, nil).Do(context.Background(), Request{Path: "/api/pages"})
			if ex.Err != nil {
				t.Fatal(ex.Err)
			}
			if ex.IsJSON() || ex.JSON().Exists() || ex.Get("data").Exists() || ex.Get("message").Exists() {
				t.Errorf("body %.40q reads as JSON", body)
			}
			if s := ex.String(); len(s) > 3*responseExcerpt {
				t.Errorf("rendered exchange is %d bytes long", len(s))
			}
		})
	}
}

// TestReadAnnouncedTooLong: a body announced longer than the limit keeps
// only its first bytes and says how much was read; one that ends before
// the limit (and so before its announced length) is cut short, an error.
func TestReadAnnouncedTooLong(t *testing.T) {
	for _, c := range []struct {
		name      string
		sent      int
		size      int
		truncated bool
		cut       bool
	}{
		{"longer than the limit", 5000, 1000, true, false},
		{"ends past the excerpt, before the limit", 600, 600, false, true},
		{"ends within the excerpt", 50, 50, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, size, truncated, err := readAnnouncedTooLong(strings.NewReader(strings.Repeat("a", c.sent)), 1000, 100)
			if size != c.size || truncated != c.truncated || (err != nil) != c.cut || len(body) > 100 {
				t.Errorf("size %d truncated %v err %v, %d bytes kept; want size %d truncated %v cut %v, at most 100 kept",
					size, truncated, err, len(body), c.size, c.truncated, c.cut)
			}
			if c.cut && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("err %v, want io.ErrUnexpectedEOF", err)
			}
		})
	}
}
