package faultfront_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/faultfront"
)

// seen is one request as the backend received it.
type seen struct {
	Method, Path, RawQuery, Host, Body string
	Header                             http.Header
	At                                 time.Time
}

// backend counts what reaches it and answers 201 with a JSON body,
// unless answer is set.
type backend struct {
	URL    string
	answer http.HandlerFunc

	mu   sync.Mutex
	seen []seen
}

func newBackend(t *testing.T, answer http.HandlerFunc) *backend {
	t.Helper()
	b := &backend{answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		b.mu.Lock()
		b.seen = append(b.seen, seen{Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery,
			Host: r.Host, Body: string(body), Header: r.Header.Clone(), At: time.Now()})
		b.mu.Unlock()
		if b.answer != nil {
			b.answer(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"message":"done"}`)
	}))
	t.Cleanup(srv.Close)
	b.URL = srv.URL
	return b
}

func (b *backend) got() []seen {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.seen)
}

// newClient is a client of its own (its own kept-alive connections)
// that gives up after timeout.
func newClient(t *testing.T, timeout time.Duration, keepAlive bool) *http.Client {
	t.Helper()
	tr := &http.Transport{DisableKeepAlives: !keepAlive}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: timeout}
}

// do sends a request and reads the whole answer; err is the client's.
func do(t *testing.T, c *http.Client, method, url, body string) (*http.Response, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

func TestPassThroughKeepsTheRequestAndTheAnswer(t *testing.T) {
	b := newBackend(t, func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("X-Answer", "a")
		h.Add("Set-Cookie", "one=1")
		h.Add("Set-Cookie", "two=2")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"message":"no such file"}`)
	})
	f := faultfront.Start(t, b.URL, faultfront.Options{})
	const query = "token=secret&q=a%20b;c=d&e=%2F"
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, f.URL+"/api/files/a%2Fb?"+query, strings.NewReader(`{"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Test", "1")
	req.Header.Set("X-Forwarded-For", "10.0.0.1")
	req.Header.Set("User-Agent", "faultfront-test")
	req.Header.Set("Connection", "X-Hop")
	req.Header.Set("X-Hop", "hop-by-hop, so dropped")
	resp, err := newClient(t, 5*time.Second, true).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()

	if resp.StatusCode != http.StatusNotFound || string(body) != `{"message":"no such file"}` {
		t.Errorf("client got %d %q, want the backend's 404 and body", resp.StatusCode, body)
	}
	if got := resp.Header.Values("Set-Cookie"); !slices.Equal(got, []string{"one=1", "two=2"}) {
		t.Errorf("Set-Cookie: %q", got)
	}
	if resp.Header.Get("X-Answer") != "a" || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("answer headers not passed: %v", resp.Header)
	}
	got := b.got()
	if len(got) != 1 {
		t.Fatalf("backend saw %d requests, want 1", len(got))
	}
	s := got[0]
	if s.Method != http.MethodPut || s.Path != "/api/files/a%2Fb" || s.RawQuery != query || s.Body != `{"x":1}` {
		t.Errorf("backend saw %s %s ? %s with %q", s.Method, s.Path, s.RawQuery, s.Body)
	}
	if s.Host != strings.TrimPrefix(f.URL, "http://") {
		t.Errorf("backend saw Host %q, want the client's %q", s.Host, f.URL)
	}
	if s.Header.Get("X-Test") != "1" || s.Header.Get("User-Agent") != "faultfront-test" ||
		!slices.Equal(s.Header.Values("X-Forwarded-For"), []string{"10.0.0.1"}) {
		t.Errorf("request headers not passed as sent: %v", s.Header)
	}
	allowed := []string{"X-Test", "X-Forwarded-For", "User-Agent", "Accept-Encoding", "Content-Length"}
	for name := range s.Header {
		if !slices.Contains(allowed, name) {
			t.Errorf("backend saw header %s: %q, which the client did not send", name, s.Header[name])
		}
	}
	want := []faultfront.Record{{Method: http.MethodPut, Path: "/api/files/a%2Fb", Forwarded: true, Answered: http.StatusNotFound}}
	if r := f.Records(); !slices.Equal(r, want) {
		t.Errorf("records %+v, want %+v", r, want)
	}
}

func TestLoseAnswerActsThenClosesWithoutAnswer(t *testing.T) {
	b := newBackend(t, nil)
	f := faultfront.Start(t, b.URL, faultfront.Options{Fault: faultfront.LoseAnswer, Rate: 1})
	_, _, err := do(t, newClient(t, 5*time.Second, true), http.MethodPost, f.URL+"/api/pages?token=x", `{"title":"t"}`)
	t.Logf("client error: %v", err)
	if !errors.Is(err, io.EOF) {
		t.Errorf("client error %v, want EOF", err)
	}
	if got := b.got(); len(got) != 1 || got[0].Body != `{"title":"t"}` {
		t.Errorf("backend saw %+v, want the request once", got)
	}
	want := []faultfront.Record{{Method: http.MethodPost, Path: "/api/pages", Fault: faultfront.LoseAnswer, Forwarded: true, Answered: http.StatusCreated}}
	if r := f.Records(); !slices.Equal(r, want) {
		t.Errorf("records %+v, want %+v", r, want)
	}
	if f.Faulted() != 1 {
		t.Errorf("Faulted() = %d, want 1", f.Faulted())
	}
}

func TestResetBeforeSendNeverReachesTheBackend(t *testing.T) {
	b := newBackend(t, nil)
	f := faultfront.Start(t, b.URL, faultfront.Options{Fault: faultfront.ResetBeforeSend, Rate: 1})
	_, _, err := do(t, newClient(t, 5*time.Second, true), http.MethodPost, f.URL+"/api/pages", `{"title":"t"}`)
	t.Logf("client error: %v", err)
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("client error %v, want connection reset", err)
	}
	if got := b.got(); len(got) != 0 {
		t.Errorf("backend saw %+v, want nothing", got)
	}
	want := []faultfront.Record{{Method: http.MethodPost, Path: "/api/pages", Fault: faultfront.ResetBeforeSend}}
	if r := f.Records(); !slices.Equal(r, want) {
		t.Errorf("records %+v, want %+v", r, want)
	}
}

func TestFront503AnswersLikeNginx(t *testing.T) {
	b := newBackend(t, nil)
	f := faultfront.Start(t, b.URL, faultfront.Options{Fault: faultfront.Front503, Rate: 1})
	resp, body, err := do(t, newClient(t, 5*time.Second, true), http.MethodPost, f.URL+"/api/pages", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Content-Type") != "text/html" ||
		resp.Header.Get("Retry-After") != "1" {
		t.Errorf("got %d, Content-Type %q, Retry-After %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Retry-After"))
	}
	for _, part := range []string{"<title>503 Service Temporarily Unavailable</title>", "<hr><center>nginx</center>"} {
		if !strings.Contains(body, part) {
			t.Errorf("body %q lacks %q", body, part)
		}
	}
	if got := b.got(); len(got) != 0 {
		t.Errorf("backend saw %+v, want nothing", got)
	}
}

// faultedRequests sends each "METHOD path" in turn through a Front503
// front with opts and returns those the front faulted.
func faultedRequests(t *testing.T, opts faultfront.Options, requests []string) []string {
	t.Helper()
	opts.Fault = faultfront.Front503
	b := newBackend(t, nil)
	f := faultfront.Start(t, b.URL, opts)
	c := newClient(t, 5*time.Second, true)
	var faulted []string
	for _, r := range requests {
		method, path, _ := strings.Cut(r, " ")
		resp, _, err := do(t, c, method, f.URL+path, "")
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			faulted = append(faulted, r)
		}
	}
	if f.Faulted() != len(faulted) || len(b.got()) != len(requests)-len(faulted) {
		t.Errorf("Faulted() = %d and the backend saw %d of %d, want %d faulted", f.Faulted(), len(b.got()), len(requests), len(faulted))
	}
	return faulted
}

func TestSelection(t *testing.T) {
	tests := []struct {
		name     string
		opts     faultfront.Options
		requests []string
		want     []string
	}{
		{"writes only", faultfront.Options{Rate: 1, WritesOnly: true},
			[]string{"GET /a", "POST /a", "HEAD /a", "DELETE /a", "OPTIONS /a", "PATCH /a", "PUT /a"},
			[]string{"POST /a", "DELETE /a", "PATCH /a", "PUT /a"}},
		{"paths", faultfront.Options{Rate: 1, Paths: []string{"/api/settings", "/api/users"}},
			[]string{"GET /api/settings", "GET /api/settings/x?y=1", "GET /api/pages", "POST /api/users", "GET /api/setting"},
			[]string{"GET /api/settings", "GET /api/settings/x?y=1", "POST /api/users"}},
		{"skip counts eligible requests only", faultfront.Options{Rate: 1, Skip: 2, WritesOnly: true},
			[]string{"GET /a", "POST /a", "GET /a", "POST /b", "GET /a", "POST /c", "PUT /d"},
			[]string{"POST /c", "PUT /d"}},
		{"rate 0 faults nothing", faultfront.Options{Rate: 0},
			[]string{"POST /a", "POST /b", "POST /c"}, nil},
		{"methods", faultfront.Options{Rate: 1, Methods: []string{"POST"}},
			[]string{"GET /a", "POST /a", "PUT /a", "POST /b"}, []string{"POST /a", "POST /b"}},
		{"carrying in the query", faultfront.Options{Rate: 1, Carrying: "k123"},
			[]string{"POST /a?authentication=k123", "POST /b?authentication=x", "GET /c?x=k123"},
			[]string{"POST /a?authentication=k123", "GET /c?x=k123"}},
		{"limit", faultfront.Options{Rate: 1, Limit: 2, Skip: 1},
			[]string{"POST /a", "POST /b", "POST /c", "POST /d"}, []string{"POST /b", "POST /c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := faultedRequests(t, tt.opts, tt.requests); !slices.Equal(got, tt.want) {
				t.Errorf("faulted %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCarryingInTheBody: a request carrying the text in its body is
// eligible, and the backend still gets the whole body.
func TestCarryingInTheBody(t *testing.T) {
	b := newBackend(t, nil)
	f := faultfront.Start(t, b.URL, faultfront.Options{Fault: faultfront.LoseAnswer, Rate: 1, Carrying: "k123"})
	c := newClient(t, 5*time.Second, true)
	if _, _, err := do(t, c, http.MethodPost, f.URL+"/a", `{"authentication":"x"}`); err != nil {
		t.Fatalf("a request without the text was faulted: %v", err)
	}
	if _, _, err := do(t, c, http.MethodPost, f.URL+"/b", `{"authentication":"k123"}`); err == nil {
		t.Fatal("a request carrying the text in its body was not faulted")
	}
	if got := b.got(); len(got) != 2 || f.Faulted() != 1 || got[1].Body != `{"authentication":"k123"}` {
		t.Fatalf("the backend saw %v, %d faulted; want both requests whole, 1 faulted", got, f.Faulted())
	}
}

func TestRateAndSeed(t *testing.T) {
	requests := make([]string, 200)
	for i := range requests {
		requests[i] = "POST /api/pages/" + string(rune('a'+i%26))
	}
	run := func(seed int64) []string {
		return faultedRequests(t, faultfront.Options{Rate: 0.3, Seed: seed}, requests)
	}
	// Indices rather than names: the names repeat.
	indices := func(seed int64) []int {
		t.Helper()
		opts := faultfront.Options{Fault: faultfront.Front503, Rate: 0.3, Seed: seed}
		f := faultfront.Start(t, newBackend(t, nil).URL, opts)
		c := newClient(t, 5*time.Second, true)
		for range 64 {
			if _, _, err := do(t, c, http.MethodPost, f.URL+"/x", ""); err != nil {
				t.Fatal(err)
			}
		}
		var out []int
		for i, r := range f.Records() {
			if r.Fault != "" {
				out = append(out, i)
			}
		}
		return out
	}
	if n := len(run(1)); n < 35 || n > 85 {
		t.Errorf("rate 0.3 faulted %d of %d", n, len(requests))
	}
	a, again, other := indices(7), indices(7), indices(8)
	if !slices.Equal(a, again) {
		t.Errorf("seed 7 faulted %v, then %v", a, again)
	}
	if slices.Equal(a, other) {
		t.Errorf("seeds 7 and 8 both faulted %v", a)
	}
}

// waitPhase sleeps until the outage front f is (down) or is not (!down)
// in its down window with at least left of that window to go.
func waitPhase(t *testing.T, f *faultfront.Front, opts faultfront.Options, down bool, left time.Duration) {
	t.Helper()
	for {
		phase := time.Since(f.Started()) % opts.Period
		upEnd := opts.Period - opts.Down
		switch {
		case down && phase >= upEnd && opts.Period-phase >= left:
			return
		case !down && phase < upEnd && upEnd-phase >= left:
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestOutageWindows(t *testing.T) {
	b := newBackend(t, nil)
	opts := faultfront.Options{Fault: faultfront.Outage, Down: 300 * time.Millisecond, Period: 600 * time.Millisecond}
	f := faultfront.Start(t, b.URL, opts)
	kept := newClient(t, 5*time.Second, true)
	fresh := newClient(t, 5*time.Second, false)

	waitPhase(t, f, opts, false, 150*time.Millisecond)
	if resp, _, err := do(t, kept, http.MethodPost, f.URL+"/api/pages", "{}"); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("outside the window: %v", err)
	}

	waitPhase(t, f, opts, true, 150*time.Millisecond)
	if !f.DownAt(time.Now()) {
		t.Fatal("DownAt says up inside the down window")
	}
	// On the kept-alive connection: the front reads the request, then
	// resets. POST, because Go's client retries a GET on a new one.
	_, _, err := do(t, kept, http.MethodPost, f.URL+"/api/pages", "{}")
	t.Logf("kept-alive client error: %v", err)
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("kept-alive connection inside the window: %v, want connection reset", err)
	}
	// A new connection is reset on accept, before the request is read.
	_, _, err = do(t, fresh, http.MethodGet, f.URL+"/api/pages", "")
	t.Logf("new connection client error: %v", err)
	if !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, syscall.EPIPE) {
		t.Errorf("new connection inside the window: %v, want connection reset", err)
	}
	records := f.Records()
	if len(records) != 2 || records[1].Fault != faultfront.Outage || records[1].Forwarded {
		t.Errorf("records %+v, want the kept-alive request faulted and the new connection not read", records)
	}
	if f.Faulted() != 2 {
		t.Errorf("Faulted() = %d, want 2", f.Faulted())
	}

	waitPhase(t, f, opts, false, 150*time.Millisecond)
	if resp, _, err := do(t, fresh, http.MethodGet, f.URL+"/api/pages", ""); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("after the window: %v", err)
	}
	if n := len(b.got()); n != 2 {
		t.Errorf("backend saw %d requests, want the 2 outside the window", n)
	}
}

func TestLateWriteActsAfterTheClientGaveUp(t *testing.T) {
	b := newBackend(t, nil)
	const delay = 500 * time.Millisecond
	f := faultfront.Start(t, b.URL, faultfront.Options{Fault: faultfront.LateWrite, Rate: 1, Delay: delay})
	sent := time.Now()
	_, _, err := do(t, newClient(t, 150*time.Millisecond, true), http.MethodPost, f.URL+"/api/pages", `{"title":"late"}`)
	t.Logf("client error: %v", err)
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("client error %v, want a timeout", err)
	}
	if n := len(b.got()); n != 0 {
		t.Fatalf("backend saw %d requests while the front held it", n)
	}
	short, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := f.Settle(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Settle returned %v while a request was held", err)
	}
	if err := f.Settle(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := b.got()
	if len(got) != 1 || got[0].Body != `{"title":"late"}` {
		t.Fatalf("backend saw %+v after Settle, want the request", got)
	}
	if got[0].At.Sub(sent) < delay {
		t.Errorf("backend got it after %v, want at least %v", got[0].At.Sub(sent), delay)
	}
	want := []faultfront.Record{{Method: http.MethodPost, Path: "/api/pages", Fault: faultfront.LateWrite, Forwarded: true, Answered: http.StatusCreated}}
	if r := f.Records(); !slices.Equal(r, want) {
		t.Errorf("records %+v, want %+v", r, want)
	}
}

func TestLateWriteAnswersAPatientClient(t *testing.T) {
	b := newBackend(t, nil)
	f := faultfront.Start(t, b.URL, faultfront.Options{Fault: faultfront.LateWrite, Rate: 1, Delay: 100 * time.Millisecond})
	resp, body, err := do(t, newClient(t, 5*time.Second, true), http.MethodPost, f.URL+"/api/pages", "{}")
	if err != nil || resp.StatusCode != http.StatusCreated || body != `{"message":"done"}` {
		t.Errorf("got %v, %q, want the backend's answer", err, body)
	}
}

func TestCleanupWaitsForHeldRequests(t *testing.T) {
	b := newBackend(t, nil)
	t.Run("front", func(t *testing.T) {
		f := faultfront.Start(t, b.URL, faultfront.Options{Fault: faultfront.LateWrite, Rate: 1, Delay: 300 * time.Millisecond})
		if _, _, err := do(t, newClient(t, 50*time.Millisecond, true), http.MethodPost, f.URL+"/api/pages", "{}"); err == nil {
			t.Fatal("the client did not time out")
		}
	})
	if n := len(b.got()); n != 1 {
		t.Errorf("after the front's cleanup the backend saw %d requests, want the held one", n)
	}
}
