package faultfront

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// nginx503 is nginx's own 503 page, byte for byte, so the suite's
// classifier of front answers knows it as nginx's.
const nginx503 = "<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n" +
	"<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"

// recordKey keys the index of a request's Record in its context, for
// the proxy's hooks.
type recordKey struct{}

// ServeHTTP decides the request's fault, records it, and acts.
func (f *Front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	i, fault, ok := f.admit(r)
	if !ok {
		resetClient(w) // stopping: never answer 200 from an empty handler
		return
	}
	defer f.running.Done()
	r = r.WithContext(context.WithValue(r.Context(), recordKey{}, i))
	switch fault {
	case "":
		f.proxy.ServeHTTP(w, r)
	case LoseAnswer:
		f.proxy.ServeHTTP(discard{http.Header{}}, r)
		if c := hijack(w); c != nil {
			_ = c.Close() // a FIN: the client reads EOF where the answer should be
		}
	case ResetBeforeSend, Outage:
		resetClient(w)
	case Front503:
		h := w.Header()
		h.Set("Server", "nginx")
		h.Set("Content-Type", "text/html")
		h.Set("Content-Length", strconv.Itoa(len(nginx503)))
		h.Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, nginx503)
	case LateWrite:
		f.lateWrite(w, r)
	}
}

// admit records r with the fault it gets and counts its handler as
// running; ok is false once the front is stopping.
func (f *Front) admit(r *http.Request) (i int, fault Fault, ok bool) {
	now := time.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return 0, "", false
	}
	f.running.Add(1)
	fault = f.chooseLocked(r, now)
	if fault == LateWrite {
		f.holdLocked()
	}
	f.records = append(f.records, Record{Method: r.Method, Path: r.URL.EscapedPath(), Fault: fault})
	return len(f.records) - 1, fault, true
}

// chooseLocked tells which fault r gets, "" for none.
func (f *Front) chooseLocked(r *http.Request, now time.Time) Fault {
	o := f.opts
	switch {
	case o.Fault == "":
		return ""
	case o.Fault == Outage:
		if f.DownAt(now) {
			return Outage
		}
		return ""
	case !o.eligible(r):
		return ""
	}
	n := f.eligible
	f.eligible++
	if n < o.Skip || !drawn(o.Seed, n, o.Rate) || (o.Limit > 0 && f.drawn >= o.Limit) {
		return ""
	}
	f.drawn++
	return o.Fault
}

// drawn tells whether the n-th eligible request is faulted. Each index
// gets its own generator, so the choice depends on the seed and the
// index alone, not on how many draws came before.
func drawn(seed int64, n int, rate float64) bool {
	return rand.New(rand.NewPCG(uint64(seed), uint64(n))).Float64() < rate
}

func (o Options) eligible(r *http.Request) bool {
	if o.WritesOnly {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return false
		}
	}
	if len(o.Methods) > 0 && !slices.Contains(o.Methods, r.Method) {
		return false
	}
	if o.Carrying != "" && !carries(r, o.Carrying) {
		return false
	}
	if len(o.Paths) == 0 {
		return true
	}
	for _, p := range o.Paths {
		if strings.HasPrefix(r.URL.Path, p) {
			return true
		}
	}
	return false
}

// carries reports whether r's query or body holds s; the body is read
// and put back for the proxy.
func carries(r *http.Request, s string) bool {
	if strings.Contains(r.URL.RawQuery, s) {
		return true
	}
	if r.Body == nil {
		return false
	}
	body, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	return err == nil && bytes.Contains(body, []byte(s))
}

// lateWrite holds r for Delay after reading its body, then forwards it
// with a context the client's leaving does not cancel.
func (f *Front) lateWrite(w http.ResponseWriter, r *http.Request) {
	defer f.release()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		// The client left mid-body: there is no whole request to act on.
		panic(http.ErrAbortHandler)
	}
	time.Sleep(f.opts.Delay)
	// WithCancel gives the context a Done channel: ReverseProxy would
	// otherwise watch the client's connection and cancel on its close.
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	defer cancel()
	out := r.WithContext(ctx)
	out.Body = io.NopCloser(bytes.NewReader(body))
	if r.Context().Err() != nil {
		// The client gave up: read the backend's whole answer, so that
		// Settle returns only after the backend is done.
		f.proxy.ServeHTTP(discard{http.Header{}}, out)
		return
	}
	f.proxy.ServeHTTP(w, out)
}

// rewrite points the outbound request at target and keeps everything
// else as the client sent it: Rewrite mode would drop the forwarding
// headers and unparsable query parts, and aim Host at the backend.
func (f *Front) rewrite(pr *httputil.ProxyRequest, target *url.URL) {
	pr.SetURL(target)
	pr.Out.Host = pr.In.Host
	q := pr.In.URL.RawQuery
	if target.RawQuery != "" && q != "" {
		q = target.RawQuery + "&" + q
	} else if target.RawQuery != "" {
		q = target.RawQuery
	}
	pr.Out.URL.RawQuery = q
	for _, h := range []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto"} {
		if v, ok := pr.In.Header[h]; ok {
			pr.Out.Header[h] = v
		}
	}
	f.update(pr.In.Context(), func(r *Record) { r.Forwarded = true })
}

// answered records the backend's status.
func (f *Front) answered(resp *http.Response) error {
	f.update(resp.Request.Context(), func(r *Record) { r.Answered = resp.StatusCode })
	return nil
}

// update changes the Record of the request whose context ctx is.
func (f *Front) update(ctx context.Context, change func(*Record)) {
	i, ok := ctx.Value(recordKey{}).(int)
	if !ok {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	change(&f.records[i])
}

// hijack takes the client's connection from the server; where it cannot
// (not HTTP/1), it aborts the handler, which drops the connection.
func hijack(w http.ResponseWriter) net.Conn {
	c, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	return c
}

func resetClient(w http.ResponseWriter) {
	reset(hijack(w))
}

// reset closes c with a TCP RST rather than a FIN: the client reads
// "connection reset by peer".
func reset(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = c.Close()
}

// outageListener resets every connection accepted while the front is
// down, before a byte is read.
type outageListener struct {
	net.Listener
	f *Front
}

func (l *outageListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil || !l.f.DownAt(time.Now()) {
			return c, err
		}
		// Counted first: the client may see the reset, and ask
		// Faulted, before this goroutine runs on.
		l.f.mu.Lock()
		l.f.resets++
		l.f.mu.Unlock()
		reset(c)
	}
}

// discard is where the front reads an answer the client must not get.
type discard struct{ h http.Header }

func (d discard) Header() http.Header       { return d.h }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}
func (discard) Flush()                      {}
