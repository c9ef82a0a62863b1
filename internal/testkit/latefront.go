package testkit

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
)

// The tests of writes that got no answer run the reference server behind a
// front (LateFront) that holds chosen writes past the client's request
// timeout and carries them out afterwards, as a front with a busy worker
// queue does.

// LateServer serves the reference server behind f.
func LateServer(tb testing.TB, f *LateFront) Server {
	tb.Helper()
	return ReferenceWith(tb, reference.Options{}, func(h http.Handler) http.Handler {
		f.Next = h
		return f
	})
}

// LateFront holds the writes Late matches for Hold (longer than the
// client's request timeout: the client gives up), then hands them to the server; with
// again set, it carries out the last held write again every 50ms until the
// test ends (a queue that keeps a copy of it).
type LateFront struct {
	Late   func(r *http.Request, body []byte) bool
	Hold   time.Duration
	Again  bool
	Deny   func(r *http.Request) bool // answered 500, never carried out
	Next   http.Handler
	mu     sync.Mutex
	landed []string // method and path of each held write once carried out
}

func (f *LateFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if f.Deny != nil && f.Deny(r) {
		http.Error(w, "refused by the test's front", http.StatusInternalServerError)
		return
	}
	if f.Late == nil || !f.Late(r, body) {
		f.Next.ServeHTTP(w, r)
		return
	}
	time.Sleep(f.Hold)
	f.land(r, body)
	if f.Again {
		go func() {
			for range 200 { // 10s at most: every test ends sooner
				time.Sleep(50 * time.Millisecond)
				f.land(r, body)
			}
		}()
	}
}

// land carries out the held write r, whose client stopped waiting.
func (f *LateFront) land(r *http.Request, body []byte) {
	r2 := r.Clone(context.WithoutCancel(r.Context()))
	r2.Body = io.NopCloser(bytes.NewReader(body))
	f.Next.ServeHTTP(httptest.NewRecorder(), r2)
	f.mu.Lock()
	f.landed = append(f.landed, r.Method+" "+r.URL.Path)
	f.mu.Unlock()
}

func (f *LateFront) Landed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.landed)
}

// NoTokens fails the test when a token of ref is in any of the run's
// notes.
func NoTokens(t testing.TB, ref Server, notes ...string) {
	t.Helper()
	all := strings.Join(notes, "\n")
	t.Logf("the run's notes:\n%s", all)
	for _, tok := range []string{ref.Token, ref.AuthToken} {
		if strings.Contains(all, tok) {
			t.Errorf("a token's value is in the run's notes:\n%s", all)
		}
	}
}
