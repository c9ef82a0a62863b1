// Package faultfront is a fault-injecting reverse proxy that tests put
// between the suite's HTTP client and a backend, to reproduce a flaky
// network one fault at a time, the way real deployments were measured to
// fail. Everything it does not fault it passes through unchanged.
package faultfront

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
	"time"
)

// Fault is one way the network between client and backend fails.
type Fault string

// The faults, as seen on real deployments.
const (
	// LoseAnswer forwards the request and lets the backend answer fully
	// (so it acted on it), then closes the client's connection without a
	// response byte: the client reads EOF.
	LoseAnswer Fault = "lose-answer"
	// ResetBeforeSend resets the client's connection (TCP RST) before
	// forwarding anything: the backend never sees the request.
	ResetBeforeSend Fault = "reset-before-send"
	// Front503 answers in the backend's place with nginx's HTML 503 page
	// and Retry-After: 1: the backend never sees the request.
	Front503 Fault = "front-503"
	// Outage takes the whole front down for the last Down of every
	// Period: new connections are reset on accept, and requests on kept
	// connections are answered by resetting the connection.
	Outage Fault = "outage"
	// LateWrite reads the whole request, holds it for Delay (longer than
	// the client waits), then forwards it anyway, as a busy worker queue
	// does: the client times out, yet the backend acts.
	LateWrite Fault = "late-write"
)

// Options choose the fault and the requests it hits.
type Options struct {
	Fault Fault // "" passes every request through
	// Rate is the share of eligible requests faulted, 0..1 (ignored by
	// Outage), chosen deterministically from Seed and each eligible
	// request's index: the same Seed and request order fault the same
	// requests.
	Rate float64
	Seed int64
	// WritesOnly makes only requests whose method is not GET, HEAD or
	// OPTIONS eligible.
	WritesOnly bool
	// Skip is how many eligible requests are never faulted first (a run's
	// preflight).
	Skip int
	// Paths, when set, make only requests whose path starts with one of
	// them eligible (e.g. "/api/settings").
	Paths []string
	// Carrying, when set, makes only requests that carry it in their query
	// or body eligible (the authentication token: the writes that act,
	// not the probes a server must refuse).
	Carrying string
	// Methods, when set, makes only requests of these methods eligible.
	Methods []string
	// Limit, when above 0, is how many requests are faulted at most (the
	// first that are drawn).
	Limit int
	// Down and Period are Outage's windows, measured from Start: each
	// Period begins up and ends with Down of outage, so a run's first
	// requests pass. A down front is down for every request: Outage
	// ignores Rate, Skip, WritesOnly and Paths.
	Down, Period time.Duration
	// Delay is how long LateWrite holds a request.
	Delay time.Duration
}

// Record is one request the front read.
type Record struct {
	Method string
	Path   string // as escaped on the wire, without the query (tokens go there)
	Fault  Fault  // "" when the request passed
	// Forwarded tells whether the request was sent to the backend.
	Forwarded bool
	// Answered is the backend's status, 0 if it did not answer.
	Answered int
}

// Front is a running fault-injecting proxy on a loopback port.
type Front struct {
	URL string // base URL, http://127.0.0.1:port

	opts    Options
	started time.Time
	proxy   *httputil.ReverseProxy
	srv     *http.Server

	mu       sync.Mutex
	records  []Record
	eligible int // eligible requests seen so far, for Rate and Skip
	drawn    int // requests faulted by Rate so far, for Limit
	resets   int // connections reset on accept by Outage
	held     int // late writes not yet answered by the backend
	settled  chan struct{}
	stopped  bool
	running  sync.WaitGroup // handlers, waited for at stop
}

// Start serves a front to backendURL on 127.0.0.1 until tb ends; the
// cleanup waits for held (late-write) requests to reach the backend, so
// start the backend before the front.
func Start(tb testing.TB, backendURL string, opts Options) *Front {
	tb.Helper()
	if err := opts.check(); err != nil {
		tb.Fatalf("faultfront: %v", err)
	}
	target, err := url.Parse(backendURL)
	if err != nil || target.Scheme == "" || target.Host == "" {
		tb.Fatalf("faultfront: backend URL %q: want http://host:port", backendURL)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("faultfront: %v", err)
	}
	f := &Front{URL: "http://" + ln.Addr().String(), opts: opts, settled: make(chan struct{})}
	close(f.settled)
	transport := &http.Transport{
		// The client's Accept-Encoding goes as sent: a transport that
		// added gzip would also unzip the answer and change its headers.
		DisableCompression:  true,
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     30 * time.Second,
	}
	f.proxy = &httputil.ReverseProxy{
		Rewrite:        func(pr *httputil.ProxyRequest) { f.rewrite(pr, target) },
		Transport:      transport,
		ModifyResponse: f.answered,
		ErrorHandler:   func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) },
	}
	f.srv = &http.Server{
		Handler:           f,
		ReadHeaderTimeout: 10 * time.Second,
		// Writes to clients that gave up are expected here, not news.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	f.started = time.Now()
	go func() { _ = f.srv.Serve(&outageListener{Listener: ln, f: f}) }()
	tb.Cleanup(func() {
		f.stop()
		transport.CloseIdleConnections()
	})
	return f
}

func (o Options) check() error {
	if o.Rate < 0 || o.Rate > 1 {
		return fmt.Errorf("rate %v is not within 0..1", o.Rate)
	}
	if o.Skip < 0 {
		return fmt.Errorf("skip %d is negative", o.Skip)
	}
	switch o.Fault {
	case "", LoseAnswer, ResetBeforeSend, Front503:
	case Outage:
		if o.Period <= 0 || o.Down <= 0 || o.Down > o.Period {
			return fmt.Errorf("outage needs 0 < Down <= Period, got Down %v, Period %v", o.Down, o.Period)
		}
	case LateWrite:
		if o.Delay <= 0 {
			return fmt.Errorf("late-write needs a Delay")
		}
	default:
		return fmt.Errorf("unknown fault %q", o.Fault)
	}
	return nil
}

// stop closes the listener and every connection, then waits for the
// handlers, late writes included, to finish.
func (f *Front) stop() {
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
	_ = f.srv.Close()
	f.running.Wait()
}

// Records returns every request the front read, in arrival order.
// Connections Outage reset on accept carried no request it read, so
// they are not among them (Faulted counts them).
func (f *Front) Records() []Record {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Record(nil), f.records...)
}

// Faulted is how many requests got a fault, counting each connection
// Outage reset on accept as one (the client's attempt failed there).
func (f *Front) Faulted() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.resets
	for _, r := range f.records {
		if r.Fault != "" {
			n++
		}
	}
	return n
}

// Settle waits until every held (late-write) request has been forwarded
// and answered by the backend, or ctx ends.
func (f *Front) Settle(ctx context.Context) error {
	f.mu.Lock()
	settled := f.settled
	f.mu.Unlock()
	select {
	case <-settled:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Started is when the front started: Outage's windows count from it.
func (f *Front) Started() time.Time { return f.started }

// DownAt tells whether an Outage front is down at t.
func (f *Front) DownAt(t time.Time) bool {
	if f.opts.Fault != Outage {
		return false
	}
	return t.Sub(f.started)%f.opts.Period >= f.opts.Period-f.opts.Down
}

// holdLocked counts one more late write in flight; release one less.
func (f *Front) holdLocked() {
	if f.held == 0 {
		f.settled = make(chan struct{})
	}
	f.held++
}

func (f *Front) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.held--
	if f.held == 0 {
		close(f.settled)
	}
}
