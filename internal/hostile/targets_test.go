package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
)

// tokens are one scenario's fresh API and authentication tokens.
type tokens struct{ api, auth string }

func newTokens() tokens { return tokens{reference.NewToken(), reference.NewToken()} }

// referenceHandler is a fresh in-memory reference server for tok.
func referenceHandler(t *testing.T, tok tokens) http.Handler {
	t.Helper()
	h, err := reference.New(reference.Options{Token: tok.api, AuthToken: tok.auth})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// quietLog drops the http.Server's own complaints (aborted handlers,
// refused TLS handshakes): they are the point of these targets.
var quietLog = log.New(io.Discard, "", 0)

// serve starts h on a loopback port.
func serve(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	return start(t, h, (*httptest.Server).Start)
}

// serveTLS starts h with httptest's self-signed certificate.
func serveTLS(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	return start(t, h, (*httptest.Server).StartTLS)
}

// start serves h with quietLog, started by how, until t ends.
func start(t *testing.T, h http.Handler, how func(*httptest.Server)) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ErrorLog = quietLog
	how(srv)
	t.Cleanup(srv.Close)
	return srv
}

// tcpTarget accepts connections on a loopback port and hands each to
// handle, which must return once done is closed. For targets that do not
// speak proper HTTP.
func tcpTarget(t *testing.T, handle func(c net.Conn, done <-chan struct{})) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				handle(c, done)
			}()
		}
	}()
	t.Cleanup(func() {
		close(done)
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return "http://" + ln.Addr().String()
}

// readHead reads one request's head (up to the blank line).
func readHead(c net.Conn) bool {
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return false
		}
		if line == "\r\n" {
			return true
		}
	}
}

// trickle writes s one byte per interval until done.
func trickle(c net.Conn, s string, interval time.Duration, done <-chan struct{}) {
	for i := 0; i < len(s); i++ {
		if _, err := c.Write([]byte{s[i]}); err != nil {
			return
		}
		select {
		case <-done:
			return
		case <-time.After(interval):
		}
	}
	<-done
}

// forbidden is a server that must never be contacted (another host a
// redirect points to): any request fails the test.
func forbidden(t *testing.T) *httptest.Server {
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other host received %s %s: the tokens would have gone there", r.Method, r.URL.Path)
		w.WriteHeader(http.StatusTeapot)
	}))
}

// fixed answers every request with the same status, type and body.
func fixed(status int, contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// deactivatedPlugin is what a site answers under /api/ when the API plugin
// is not activated: its theme's HTML "Page not found".
const deactivatedPlugin = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Page not found - My Site</title></head>
<body><h1>Page not found</h1><p>Sorry, the page does not exist.</p></body></html>`

// huge streams a JSON-looking body of size bytes.
func huge(size int) http.HandlerFunc {
	item := []byte(`{"key":"filler","title":"Filler page"},`)
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(size))
		head := []byte(`{"status":"0","message":"List of pages","data":[`)
		if _, err := w.Write(head); err != nil {
			return
		}
		chunk := bytes.Repeat(item, 64<<10/len(item))
		for left := size - len(head); left > 0; {
			n := min(left, len(chunk))
			if _, err := w.Write(chunk[:n]); err != nil {
				return
			}
			left -= n
		}
	}
}

// nestingBomb is a body of a million '['.
var nestingBomb = strings.Repeat("[", 1_000_000)

// counted wraps h and counts the requests it answers, per method.
type counted struct {
	h     http.Handler
	mu    sync.Mutex
	total int
	by    map[string]int
}

func count(h http.Handler) *counted { return &counted{h: h, by: map[string]int{}} }

func (c *counted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.total++
	c.by[r.Method+" "+r.URL.Path]++
	c.mu.Unlock()
	c.h.ServeHTTP(w, r)
}

func (c *counted) n() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

func (c *counted) get(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.by[key]
}

// dying serves the reference until a few requests after the run created
// its first page, then dies: the listener closes (new connections are
// refused) and requests on connections still open are cut unanswered. It
// remembers the pages created and deleted, to check the run's cleanup
// report.
type dying struct {
	ref      http.Handler
	after    int // requests served after the first page was created
	listener net.Listener

	mu        sync.Mutex
	served    int
	createdAt int
	dead      bool
	created   []string
	deleted   map[string]bool
}

func (d *dying) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	dead := d.dead
	d.mu.Unlock()
	if dead {
		panic(http.ErrAbortHandler) // close the connection without an answer
	}
	rec := httptest.NewRecorder()
	d.ref.ServeHTTP(rec, r)
	d.mu.Lock()
	d.served++
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/api/pages" && rec.Code == http.StatusCreated:
		var body struct {
			Data struct {
				Key string `json:"key"`
			} `json:"data"`
		}
		if json.Unmarshal(rec.Body.Bytes(), &body) == nil && body.Data.Key != "" {
			d.created = append(d.created, body.Data.Key)
			if d.createdAt == 0 {
				d.createdAt = d.served
			}
		}
	case r.Method == http.MethodDelete && rec.Code == http.StatusOK && strings.HasPrefix(r.URL.Path, "/api/pages/"):
		d.deleted[strings.TrimPrefix(r.URL.Path, "/api/pages/")] = true
	}
	dies := d.createdAt > 0 && d.served >= d.createdAt+d.after
	if dies {
		d.dead = true
		_ = d.listener.Close()
	}
	d.mu.Unlock()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	if dies {
		w.Header().Set("Connection", "close")
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

// hanging serves the reference for its first n requests; after that it
// never answers (each request waits until the client gives up, or the test
// ends: stop).
type hanging struct {
	ref    http.Handler
	n      int64
	served atomic.Int64
	stop   chan struct{}
}

// serveHanging serves a hanging target; the handlers still waiting are
// released before the server closes.
func serveHanging(t *testing.T, ref http.Handler, n int64) *httptest.Server {
	h := &hanging{ref: ref, n: n, stop: make(chan struct{})}
	srv := serve(t, h)
	t.Cleanup(func() { close(h.stop) }) // runs before serve's srv.Close
	return srv
}

func (h *hanging) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.served.Add(1) > h.n {
		// The server notices a client hanging up only once the body is read.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-h.stop:
		}
		return
	}
	h.ref.ServeHTTP(w, r)
}

// faultOn serves the reference except for requests fault claims.
func faultOn(ref http.Handler, fault func(w http.ResponseWriter, r *http.Request) bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !fault(w, r) {
			ref.ServeHTTP(w, r)
		}
	}
}
