package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Do sends r and returns the recorded exchange; it never returns nil.
// Transport failures are in Exchange.Err (a *TransportError when the
// request left the client). With Config.ReadCache, a read may be answered
// from the run's cache instead (Exchange.Replayed; see readCache).
func (c *Client) Do(ctx context.Context, r Request) *Exchange {
	p := c.prepare(ctx, r)
	c.exec(ctx, p)
	c.settle(ctx, p)
	return p.ex
}

// pending is a request between being built and being recorded.
type pending struct {
	r   Request
	b   *built // nil when the request could not be built
	ex  *Exchange
	err error // why it will not be sent
	// key is the request's read-cache key: "" unless the cache is on and
	// the request is a GET without a body.
	key string
	// ticket, when began, is the request's place in the read cache's
	// bookkeeping, closed by exec once the answer stands.
	ticket readTicket
	began  bool
	// claimed: this read is the one on its way for its key (unclaimed by
	// exec once the answer stands).
	claimed bool
}

// prepare builds r and its exchange, and decides whether it may be sent
// at all (the read-only guard).
func (c *Client) prepare(ctx context.Context, r Request) *pending {
	p := &pending{r: r, ex: &Exchange{Method: r.Method, Started: time.Now(), red: c.redactor}}
	if p.ex.Method == "" {
		p.ex.Method = http.MethodGet
	}
	p.b, p.err = c.build(ctx, r)
	if p.err == nil && c.cfg.ReadOnly && p.ex.Method != http.MethodGet && (!r.Probe || c.carriesAuth(r, p.b)) {
		// A probe is harmless only because it lacks valid credentials:
		// one carrying the real authentication token is a write.
		p.err = ErrReadOnly
	}
	if p.b != nil {
		p.ex.URL = c.redactor.String(p.b.req.URL.String())
		p.ex.RequestHeader = redactHeader(c.redactor, p.b.req.Header)
		p.ex.RequestBody = excerpt(c.redactor.Bytes(p.b.body), requestExcerpt)
		p.ex.curl = c.curl(p.b, r)
		p.ex.PlacementProbe = p.b.placementProbe
		p.ex.APIToken, p.ex.AuthToken = c.tokenUse(r, p.b)
		if c.cfg.ReadCache {
			p.key = cacheKey(p.b)
			if r.streams() {
				// A streamed answer is kept as what its fold made of it,
				// only for reads naming the same fold (one naming none is
				// neither answered nor kept: a GET, it empties nothing).
				if r.Stream.Name == "" {
					p.key = ""
				} else if p.key != "" {
					p.key = "stream " + r.Stream.Name + "\n" + p.key
				}
			}
		}
	}
	return p
}

// exec sends a prepared request, or answers it from the read cache, and
// fills in its exchange (which a cache hit replaces: p.ex).
func (c *Client) exec(ctx context.Context, p *pending) {
	p.ex.Started = time.Now()
	err := p.err
	if err == nil && !c.cfg.Deadline.IsZero() && !time.Now().Before(c.cfg.Deadline) {
		err = ErrRunDeadline
	}
	if err != nil {
		p.ex.Err = err
		p.ex.Duration = time.Since(p.ex.Started)
		return
	}
	// An interrupted run gets its interruption, never an old answer. A
	// guard's read on a held wire waits for no claim: the read that claimed
	// may itself be waiting for that wire.
	for p.key != "" && !p.r.Fresh && !onHeldWire(ctx) && ctx.Err() == nil {
		e, wait := c.cache.lookupOrClaim(p.key)
		if e != nil {
			replay(p, e)
			return
		}
		if wait == nil {
			p.claimed = true
			break
		}
		select { // an identical read is on its way: its answer may do
		case <-wait:
		case <-ctx.Done():
		}
	}
	if !c.cfg.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, c.cfg.Deadline)
		defer cancel()
	}
	// HEAD and OPTIONS are safe methods (RFC 9110, 9.2.1) and are never
	// cached: they leave the cache alone (the CORS preflight of the run's
	// start would otherwise empty it before the first spec); so does a GET
	// with a body (a placement probe), safe too, which the wire lets go
	// beside other reads: a whole-site listing need not be read again
	// because a probe went out meanwhile.
	if c.cfg.ReadCache && (p.key != "" || !safeUncached(p.ex.Method)) {
		p.ticket, p.began = c.cache.begin(p.key), true
	}
	var st *Stream
	if p.r.streams() {
		st = p.r.Stream
	}
	c.send(ctx, p.b.req, p.b.body, p.r.safeToRepeat(), st, p.ex)
	p.ex.Duration = time.Since(p.ex.Started)
	// The answer stands: keep it (a replay recorded before it takes its
	// number when it is recorded) and let identical reads have it. Done
	// here, not when it is recorded, since a batch records in order and a
	// read waiting for another batch's claim must not wait for that.
	if p.began {
		c.cache.end(p.ticket, p.ex)
	}
	if p.claimed {
		c.cache.unclaim(p.key)
	}
}

// settle records an executed request (batches record in submission
// order, which may come after the answer is kept: see exec).
func (c *Client) settle(ctx context.Context, p *pending) {
	c.record(ctx, p.ex)
}

// try is what one sending of a request brought back.
type try struct {
	streamed  *streamed // a streamed read (Request.Stream)
	keys      []string  // the items' keys, for the write guard
	status    int
	header    http.Header // redacted
	body      []byte      // what is kept of the body
	size      int         // body bytes read
	truncated bool        // longer than MaxBody
	err       error
	finalURL  string // redacted; set when same-host redirects were followed
	redirect  string // why a redirect was not followed
}

// bodyCut reports a try whose status and headers arrived but whose
// connection closed or was reset before the whole body did.
func (t *try) bodyCut() bool { return errors.Is(t.err, ErrBodyCut) }

// send sends the request until an answer stands: a read answered 429/503
// is sent again (Config.Retries), and a request safe to repeat is sent once
// more after a cut connection (nothing, or not the whole body, arrived:
// a proxy or a server closing early; one failure of the path is no
// verdict on the target). What stands is recorded on ex.
func (c *Client) send(ctx context.Context, req *http.Request, body []byte, safeToRepeat bool, st *Stream, ex *Exchange) {
	var kept *try
	for busy := 0; ; {
		tu, err := c.takeTurn(ctx, req.Method)
		if err != nil {
			if kept == nil {
				ex.Err = c.notSentError(ctx, err)
				return
			}
			break // the last answer stands
		}
		ex.Sent = true
		if ex.OnWire.IsZero() {
			ex.OnWire = time.Now()
		}
		t := c.sendOnce(sendContext(ctx, req.Method), req, body, st, tu.guarded)
		c.endTurn(tu, req, t)
		ex.OffWire = time.Now()
		// A try that got no status does not replace one that got a status.
		if kept == nil || t.status != 0 || kept.status == 0 {
			kept = t
		}
		if t.err != nil {
			if c.repeatAfterCut(ctx, safeToRepeat, t, ex) {
				continue
			}
			break
		}
		if !c.retryBusy(ctx, t, busy, ex) {
			break // on an interrupted wait the 429/503 answer stands
		}
		busy++
	}
	keepTry(ex, kept)
}

// sendOnce sends the request once, within --request-timeout, and reads
// its answer: as a stream when st is set (keeping the items' keys for the
// write guard when keys is set).
func (c *Client) sendOnce(ctx context.Context, req *http.Request, body []byte, st *Stream, keys bool) *try {
	note := ""
	var attemptCtx context.Context
	var cancel context.CancelFunc
	var idle *time.Timer
	if st == nil {
		attemptCtx, cancel = context.WithTimeout(context.WithValue(ctx, redirectNoteKey{}, &note), c.cfg.RequestTimeout)
	} else {
		// A streamed answer of a big site takes as long as it is large:
		// it is cut only when it stops coming for --request-timeout (the
		// transport bounds the wait for its headers the same way).
		attemptCtx, cancel = context.WithCancel(context.WithValue(ctx, redirectNoteKey{}, &note))
		idle = time.AfterFunc(c.cfg.RequestTimeout, cancel)
		defer idle.Stop()
	}
	defer cancel()
	areq := req.Clone(attemptCtx)
	areq.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := c.http.Do(areq)
	if err != nil {
		return &try{err: c.transportError(ctx, attemptCtx, err, phaseHeaders)}
	}
	defer resp.Body.Close()
	t := &try{status: resp.StatusCode, header: redactHeader(c.redactor, resp.Header), redirect: note}
	if resp.Request != nil && resp.Request.URL.String() != req.URL.String() {
		t.finalURL = c.redactor.String(resp.Request.URL.String())
	}
	var rerr error
	if st != nil {
		c.readStream(t, &idleReader{r: resp.Body, idle: idle, d: c.cfg.RequestTimeout}, resp.ContentLength, st, keys)
		if t.streamed.err != nil {
			t.err = c.transportError(ctx, attemptCtx, t.streamed.err, phaseStream)
		}
		return t
	}
	if resp.ContentLength > c.cfg.MaxBody {
		// Announced longer than the read bound: only the excerpt of the
		// cut body is kept (below), so only that much is held while the
		// rest, up to the bound, is read and dropped.
		t.body, t.size, t.truncated, rerr = readAnnouncedTooLong(resp.Body, c.cfg.MaxBody, responseExcerpt+redactSlack)
	} else {
		t.body, t.truncated, rerr = readBounded(resp.Body, c.cfg.MaxBody, resp.ContentLength)
		t.size = len(t.body)
	}
	if t.truncated {
		// A body cut at the read bound is no JSON document: nothing but
		// its excerpt is of use, so the MaxBody buffer is not kept until
		// the spec ends.
		t.body = append([]byte(nil), t.body[:min(len(t.body), responseExcerpt+redactSlack)]...)
	}
	if rerr != nil {
		t.err = c.transportError(ctx, attemptCtx, rerr, phaseBody)
	}
	return t
}

// sendContext is the context a request is sent with. A write, once on its
// way, is seen through to its answer or its --request-timeout, whether the
// run is interrupted or its time is up meanwhile: the server goes on with
// a write the client stops waiting for, and the next request (the
// cleanup's, say) would then overlap it.
func sendContext(ctx context.Context, method string) context.Context {
	if Alone(method) {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

// sleep waits d, or less if ctx ends first; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// safeUncached: methods the read cache neither keeps nor lets empty it
// (a GET it does not keep is one with a body: a placement probe).
func safeUncached(method string) bool {
	return method == http.MethodHead || method == http.MethodOptions || method == http.MethodGet
}

// waitTurn waits for the --rps limiter and checks that the request may
// still go out; its error means nothing was sent.
func (c *Client) waitTurn(ctx context.Context) error {
	if c.limiter != nil {
		if err := c.limiter.Wait(ctx); err != nil {
			return c.transportError(ctx, nil, fmt.Errorf("waiting for the --rps rate limit: %w", err), phaseLimit)
		}
	}
	if err := ctx.Err(); err != nil {
		return c.transportError(ctx, nil, err, phaseLimit)
	}
	return nil
}

// retryAfter decides whether an idempotent read answered 429/503 is tried
// again, and after how long. Writes are never retried: they might have
// happened. A wait that would pass the caller's deadline is not started: the
// 429/503 answer is kept instead of a timeout.
func (c *Client) retryAfter(ctx context.Context, method string, t *try, retried int) (time.Duration, bool) {
	if method != http.MethodGet || retried >= c.cfg.Retries {
		return 0, false
	}
	if t.status != http.StatusTooManyRequests && t.status != http.StatusServiceUnavailable {
		return 0, false
	}
	wait := time.Second
	if s := strings.TrimSpace(t.header.Get("Retry-After")); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n >= 0 {
			wait = time.Duration(n) * time.Second
		} else if t, err := http.ParseTime(s); err == nil {
			wait = time.Until(t)
		}
	}
	if wait > c.cfg.MaxRetryWait {
		wait = c.cfg.MaxRetryWait
	}
	if wait < 0 {
		wait = 0
	}
	if d, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(d) {
		return 0, false
	}
	return wait, true
}

// readAnnouncedTooLong reads a body whose Content-Length is over limit as
// readBounded would, but holds only its first keep bytes (all a cut body
// keeps) and drops the rest up to the limit as it reads: size is what
// readBounded would have read. A body that ends before its announced
// length is an error, as net/http makes it.
func readAnnouncedTooLong(r io.Reader, limit int64, keep int) (body []byte, size int, truncated bool, err error) {
	body = make([]byte, min(int64(keep), limit))
	n, err := io.ReadFull(r, body)
	if err != nil {
		return body[:n], n, false, cutShort(err)
	}
	m, err := io.CopyN(io.Discard, r, limit+1-int64(n))
	if int64(n)+m > limit {
		return body, int(limit), true, nil
	}
	return body, n + int(m), false, cutShort(err)
}

// cutShort is the error of a body that ended before its announced length.
func cutShort(err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readBounded reads r up to limit bytes; truncated says there was more.
// The rest is never read: closing the body then closes the connection, so a
// 50 MB answer costs about limit of memory and no more time than limit
// takes to arrive.
// The buffer starts at the announced length (capped by limit) and doubles
// up to limit, so at most about twice limit is ever allocated, whatever the
// server announces or sends.
func readBounded(r io.Reader, limit, announced int64) (body []byte, truncated bool, err error) {
	size := int64(4096)
	if announced >= 0 {
		size = announced + 1 // +1: see EOF without growing
	}
	buf := make([]byte, 0, min(size, limit+1))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return buf[:limit:limit], true, nil
			}
			grown := make([]byte, len(buf), min(2*int64(cap(buf))+512, limit+1))
			copy(grown, buf)
			buf = grown
		}
		n, rerr := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return buf[:limit:limit], true, nil
		}
		if rerr == io.EOF {
			return buf, false, nil
		}
		if rerr != nil {
			return buf, false, rerr
		}
	}
}
