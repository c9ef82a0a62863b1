package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Do sends r and returns the recorded exchange; it never returns nil.
// Transport failures are in Exchange.Err (a *TransportError when the
// request left the client).
func (c *Client) Do(ctx context.Context, r Request) *Exchange {
	ex := &Exchange{Method: r.Method, Started: time.Now(), red: c.redactor}
	if ex.Method == "" {
		ex.Method = http.MethodGet
	}
	req, reqBody, bodyTokens, err := c.build(ctx, r)
	if err == nil && c.cfg.ReadOnly && ex.Method != http.MethodGet && (!r.Probe || c.carriesAuth(r)) {
		// A probe is harmless only because it lacks valid credentials:
		// one carrying the real authentication token is a write.
		err = ErrReadOnly
	}
	if req != nil {
		ex.URL = c.redactor.String(req.URL.String())
		ex.RequestHeader = redactHeader(c.redactor, req.Header)
		ex.RequestBody = excerpt(c.redactor.Bytes(reqBody), requestExcerpt)
		ex.curl = c.curl(req, r, reqBody, bodyTokens)
	}
	if err == nil && !c.cfg.Deadline.IsZero() && !time.Now().Before(c.cfg.Deadline) {
		err = ErrRunDeadline
	}
	if err == nil {
		if !c.cfg.Deadline.IsZero() {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, c.cfg.Deadline)
			defer cancel()
		}
		c.send(ctx, req, reqBody, ex)
	} else {
		ex.Err = err
	}
	ex.Duration = time.Since(ex.Started)
	c.record(ctx, ex)
	return ex
}

func (c *Client) send(ctx context.Context, req *http.Request, body []byte, ex *Exchange) {
	for attempt := 0; ; attempt++ {
		if err := c.waitTurn(ctx); err != nil {
			if attempt == 0 {
				ex.Err = err
			}
			// On a retry the last answer (the 429/503) stands.
			return
		}
		ex.Sent = true
		note := ""
		attemptCtx, cancel := context.WithTimeout(context.WithValue(ctx, redirectNoteKey{}, &note), c.cfg.RequestTimeout)
		areq := req.Clone(attemptCtx)
		areq.Body = io.NopCloser(bytes.NewReader(body))
		resp, err := c.http.Do(areq)
		if err != nil {
			ex.Err = c.transportError(ctx, attemptCtx, err, phaseHeaders)
			cancel()
			return
		}
		ex.Redirect = note
		if resp.Request != nil && resp.Request.URL.String() != req.URL.String() {
			ex.FinalURL = c.redactor.String(resp.Request.URL.String())
		}
		if rerr := c.readResponse(resp, ex); rerr != nil {
			ex.Err = c.transportError(ctx, attemptCtx, rerr, phaseBody)
		}
		resp.Body.Close()
		cancel()
		if ex.Err != nil {
			return
		}
		wait, retry := c.retryAfter(ctx, ex, attempt)
		if !retry {
			return
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return // interrupted: the 429/503 answer stands
		case <-timer.C:
		}
		ex.Retries = append(ex.Retries, fmt.Sprintf("%d %s (Retry-After %q), retried after %s",
			ex.Status, http.StatusText(ex.Status), ex.Header.Get("Retry-After"), wait))
	}
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
func (c *Client) retryAfter(ctx context.Context, ex *Exchange, attempt int) (time.Duration, bool) {
	if ex.Method != http.MethodGet || attempt >= c.cfg.Retries {
		return 0, false
	}
	if ex.Status != http.StatusTooManyRequests && ex.Status != http.StatusServiceUnavailable {
		return 0, false
	}
	wait := time.Second
	if s := strings.TrimSpace(ex.Header.Get("Retry-After")); s != "" {
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

// readResponse reads at most MaxBody bytes of the body. The rest is never
// read: closing the body then closes the connection, so a 50 MB answer costs
// about MaxBody of memory and no more time than MaxBody takes to arrive.
func (c *Client) readResponse(resp *http.Response, ex *Exchange) error {
	ex.Status = resp.StatusCode
	ex.Header = redactHeader(c.redactor, resp.Header)
	body, truncated, err := readBounded(resp.Body, c.cfg.MaxBody, resp.ContentLength)
	ex.Truncated = truncated
	ex.setBody(body)
	if truncated {
		// A cut body is no JSON document: nothing but its excerpt is of
		// use, so the MaxBody buffer is not kept until the spec ends.
		ex.mu.Lock()
		ex.body = append([]byte(nil), body[:min(len(body), responseExcerpt+redactSlack)]...)
		ex.mu.Unlock()
	}
	return err
}

// readBounded reads r up to limit bytes; truncated says there was more.
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
