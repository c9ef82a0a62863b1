// Package client is the one HTTP client every spec uses. It knows where the
// spec puts the two tokens, builds JSON, form and multipart bodies, bounds
// every read, records every exchange (redacted) for failure messages and
// reports, and renders a curl line that reproduces a request.
package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/time/rate"

	"github.com/conformance-suite/conformance/internal/redact"
)

// Placeholders shown instead of the two tokens in every output; they are
// the environment variables the CLI reads, so curl lines run as printed.
const (
	TokenPlaceholder     = "${CONFORMANCE_TOKEN}"
	AuthTokenPlaceholder = "${CONFORMANCE_AUTH_TOKEN}"
)

// Origin is sent on every request that does not set its own: a made-up
// site, since the spec allows cross-origin access from any origin.
const Origin = "https://conformance-client.example"

// Config configures a Client.
type Config struct {
	BaseURL        string
	Token          string // API token ("token")
	AuthToken      string // authentication token ("authentication"); empty in read-only runs
	RequestTimeout time.Duration
	// MaxBody bounds how much of a response body is read; the rest is
	// never read (the connection is closed) and the exchange is marked
	// truncated.
	MaxBody int64
	CACert  string // PEM file added to the system roots
	// Insecure skips TLS verification (self-signed test sites).
	Insecure bool
	// ReadOnly refuses every request that could change the target: any
	// method but GET, unless the request is marked Probe. Refused requests
	// are recorded (Err is ErrReadOnly) and nothing is sent.
	ReadOnly bool
	// RPS limits requests per second; 0 means unlimited.
	RPS float64
	// Retries is how often a GET answered 429 or 503 is retried (after
	// Retry-After, or 1s without one). Other methods are never retried.
	Retries int
	// MaxRetryWait caps how long one Retry-After is honoured (default 5s).
	MaxRetryWait time.Duration
	// Deadline, when set, is the end of the whole run (--timeout): a request
	// still waiting then is cut, and none is sent after it, so the run's
	// time limit holds whatever the target does.
	Deadline time.Time
}

// Client sends requests to one target.
type Client struct {
	cfg      Config
	base     *url.URL
	http     *http.Client
	redactor *redact.Redactor
	limiter  *rate.Limiter

	mu        sync.Mutex
	seq       int
	exchanges []*Exchange
	observers []func(*Exchange)
	scope     string
	compacted int // exchanges[:compacted] hold excerpts only
}

// Defaults of Config (and of the CLI's flags).
const (
	// DefaultMaxBody bounds one response body: far above any sane API
	// answer, far below what would hurt memory.
	DefaultMaxBody = 4 << 20
	// DefaultRequestTimeout bounds one request.
	DefaultRequestTimeout = 10 * time.Second
)

// ErrReadOnly is returned for a request that would write in a read-only run.
var ErrReadOnly = errors.New("refused: the run is read-only and this request could change the target")

// ErrRunDeadline is returned for a request not sent because the run's time
// limit (Config.Deadline) had passed.
var ErrRunDeadline = errors.New("not sent: the run's time limit (--timeout) was reached")

// New validates cfg and builds a client.
func New(cfg Config) (*Client, error) {
	base, err := ParseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.MaxRetryWait <= 0 {
		cfg.MaxRetryWait = 5 * time.Second
	}
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: cfg.Insecure} //nolint:gosec // opt-in flag
	if cfg.CACert != "" {
		pem, err := os.ReadFile(cfg.CACert)
		if err != nil {
			return nil, fmt.Errorf("reading --ca-cert: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--ca-cert %s holds no PEM certificate", cfg.CACert)
		}
		tlsConfig.RootCAs = pool
	}
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: cfg.RequestTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:       tlsConfig,
		TLSHandshakeTimeout:   cfg.RequestTimeout,
		ResponseHeaderTimeout: cfg.RequestTimeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
	}
	secrets := []redact.Secret{{Value: cfg.Token, Placeholder: TokenPlaceholder}, {Value: cfg.AuthToken, Placeholder: AuthTokenPlaceholder}}
	if pw, ok := base.User.Password(); ok {
		// A password in --base-url (basic auth in front of a staging site)
		// is a secret like the tokens.
		secrets = append(secrets, redact.Secret{Value: pw, Placeholder: "xxxxx"})
	}
	c := &Client{cfg: cfg, base: base, redactor: redact.New(secrets...)}
	c.http = &http.Client{Transport: transport, CheckRedirect: c.checkRedirect}
	if cfg.RPS > 0 {
		c.limiter = rate.NewLimiter(rate.Limit(cfg.RPS), 1)
	}
	return c, nil
}

// ParseBaseURL checks a --base-url value: absolute http(s), no query. Its
// errors show the value with any password masked: they are printed before
// a client (and its redactor) exists.
func ParseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(raw), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("base URL %q must be an absolute http:// or https:// URL", maskPassword(raw))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("base URL %q must not carry a query or fragment", maskPassword(raw))
	}
	return u, nil
}

// maskPassword replaces the password of a URL's user information with
// "xxxxx", as url.URL.Redacted does, but works on text that does not parse.
func maskPassword(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	authority := raw[i+3:]
	if j := strings.IndexAny(authority, "/?#"); j >= 0 {
		authority = authority[:j]
	}
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return raw
	}
	user, _, hasPassword := strings.Cut(authority[:at], ":")
	if !hasPassword {
		return raw
	}
	return raw[:i+3] + user + ":xxxxx" + raw[i+3+at:]
}

// maxRedirects bounds same-host redirects; cross-host ones are never followed
// because the query string or body may carry the tokens.
const maxRedirects = 3

// redirectNoteKey carries a *string through a request's context, so that
// checkRedirect can say why it stopped following.
type redirectNoteKey struct{}

// checkRedirect follows at most maxRedirects redirects on the base URL's
// scheme and host. Otherwise it stops and the redirect response itself is
// recorded (http.ErrUseLastResponse), with a note saying why: a spec then
// sees the 3xx, and nothing is ever sent to another host.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	note := ""
	switch {
	case req.URL.Host != c.base.Host || req.URL.Scheme != c.base.Scheme:
		note = fmt.Sprintf("redirect to another host (%s://%s) not followed: the tokens are never sent anywhere but --base-url", req.URL.Scheme, req.URL.Host)
	case len(via) > maxRedirects:
		note = fmt.Sprintf("redirected more than %d times; not followed further", maxRedirects)
	default:
		return nil
	}
	if p, ok := req.Context().Value(redirectNoteKey{}).(*string); ok {
		*p = note
	}
	return http.ErrUseLastResponse
}

// Redactor returns the redactor that hides this client's tokens.
func (c *Client) Redactor() *redact.Redactor { return c.redactor }

// BaseURL returns the target's base URL.
func (c *Client) BaseURL() string { return c.base.Redacted() }

// HasAuth reports whether an authentication token was configured.
func (c *Client) HasAuth() bool { return c.cfg.AuthToken != "" }

// MaxBody is the bound on one response body, in bytes.
func (c *Client) MaxBody() int64 { return c.cfg.MaxBody }

// RetryLimit is how often a read answered 429/503 is retried.
func (c *Client) RetryLimit() int { return c.cfg.Retries }

// ReadOnly reports whether the client refuses writes.
func (c *Client) ReadOnly() bool { return c.cfg.ReadOnly }

// Token returns the API token, for specs that must send it in unusual ways.
// Anything built from it goes through the client, which redacts it.
func (c *Client) Token() string { return c.cfg.Token }

// AuthToken returns the authentication token (see Token).
func (c *Client) AuthToken() string { return c.cfg.AuthToken }

// OnExchange registers f to see every exchange as it is recorded (used by
// the cross-cutting protocol checks).
func (c *Client) OnExchange(f func(*Exchange)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.observers = append(c.observers, f)
}

// SetScope names what is running now (a spec's text); each exchange keeps
// it. Exchanges of earlier scopes keep only a body excerpt from then on, so
// memory stays flat over a long run whatever the target sends.
func (c *Client) SetScope(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scope = s
	for _, e := range c.exchanges[c.compacted:] {
		e.compact()
	}
	c.compacted = len(c.exchanges)
}

// Exchanges returns every exchange recorded so far.
func (c *Client) Exchanges() []*Exchange {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Exchange(nil), c.exchanges...)
}

// Since returns the exchanges recorded after sequence number seq.
func (c *Client) Since(seq int) []*Exchange {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*Exchange
	for _, e := range c.exchanges {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out
}

// Seq returns the sequence number of the last exchange.
func (c *Client) Seq() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// Retries returns how many times reads answered 429 or 503 were retried
// over the run: the retries listed on the exchanges recorded so far.
func (c *Client) Retries() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.exchanges {
		n += len(e.Retries)
	}
	return n
}

// Credentials says which tokens a request carries.
type Credentials int

const (
	// APIToken sends token only (read endpoints).
	APIToken Credentials = iota
	// BothTokens sends token and authentication (write endpoints, GET settings).
	BothTokens
	// NoTokens sends neither.
	NoTokens
)

// Placement says where tokens go.
type Placement int

const (
	// SpecPlacement puts tokens where the spec says: query for GET and
	// DELETE, body for POST and PUT.
	SpecPlacement Placement = iota
	// InQuery forces the query string.
	InQuery
	// InBody forces the body (JSON unless the request has a form or multipart body).
	InBody
)

// File is one part of a multipart upload.
type File struct {
	Field    string // part name, e.g. "file" or "image"
	Name     string // file name
	MIMEType string
	Content  []byte
}

// Request describes one call. Path is relative to the base URL and already
// escaped (use KeyPath for page keys).
type Request struct {
	Method string
	Path   string
	Query  url.Values

	// At most one body kind. With none, POST and PUT send JSON holding the tokens.
	JSON           map[string]any
	Form           url.Values
	Files          []File // multipart: Form fields (if any) become text parts
	Raw            []byte // sent as is with RawContentType
	RawContentType string

	Credentials Credentials
	Placement   Placement
	// TokenValue and AuthValue, when non-nil, replace the configured tokens
	// (e.g. a wrong token); they are redacted like the real ones.
	TokenValue *string
	AuthValue  *string

	Header http.Header
	// Probe marks a write-method request that cannot change the target even
	// if the server wrongly accepts it (no authentication, a key that does
	// not exist); such requests are allowed in read-only runs.
	Probe bool
}

// KeyPath builds "/api/<endpoint>/<key>" escaping each key segment but
// keeping the '/' of hierarchical keys.
func KeyPath(endpoint, key string) string {
	segs := strings.Split(key, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return "/api/" + endpoint + "/" + strings.Join(segs, "/")
}

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
	c.record(ex)
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

// Transport error kinds, for sentences that name the cause.
const (
	KindRefused     = "refused"      // nothing listens on the port
	KindTimeout     = "timeout"      // no (complete) answer within --request-timeout
	KindRunDeadline = "run-deadline" // the run's --timeout cut the request
	KindCancelled   = "cancelled"    // the run was interrupted (Ctrl-C, suite timeout)
	KindTLS         = "tls"          // certificate not trusted, handshake failed
	KindDNS         = "dns"          // the host name does not resolve
	KindClosed      = "closed"       // the connection closed or reset before a complete answer
	KindProtocol    = "protocol"     // the answer is not HTTP
	KindOther       = "other"
)

// TransportError is a request that got no (complete) answer. Its message
// is redacted and never carries the request URL (url.Error would print the
// query string, tokens included).
type TransportError struct {
	Kind  string
	Cause string // one phrase, e.g. "no answer within the request timeout (10s)"; redacted
	Err   error  // the underlying error; its message is redacted in Error()
	msg   string
}

func (e *TransportError) Error() string { return e.msg }

// Unwrap gives errors.Is/As access to the underlying error.
func (e *TransportError) Unwrap() error { return e.Err }

// Cause returns the one-phrase cause of a request failure: the Cause of a
// TransportError, else the error's message.
func Cause(err error) string {
	var te *TransportError
	if errors.As(err, &te) {
		return te.Cause
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// FailureKind returns the Kind of a TransportError ("" for other errors).
func FailureKind(err error) string {
	var te *TransportError
	if errors.As(err, &te) {
		return te.Kind
	}
	return ""
}

type phase int

const (
	phaseLimit   phase = iota // before sending (rate limit, retry wait)
	phaseHeaders              // sending, waiting for the status line and headers
	phaseBody                 // reading the body
)

// transportError names why a request failed. runCtx is the caller's
// context bounded by the run's deadline; attemptCtx adds --request-timeout.
func (c *Client) transportError(runCtx, attemptCtx context.Context, err error, ph phase) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // Op and URL are in the exchange already; the URL holds tokens
	}
	te := &TransportError{Kind: KindOther, Err: err}
	var netErr net.Error
	var dnsErr *net.DNSError
	msg := err.Error()
	runDeadline := !c.cfg.Deadline.IsZero() && !time.Now().Before(c.cfg.Deadline)
	switch {
	case ph == phaseLimit && runCtx.Err() == nil:
		te.Kind, te.Cause = KindRunDeadline, "not sent: waiting for the --rps rate limit would pass the time limit"
	case ph == phaseLimit && runDeadline:
		te.Kind, te.Cause = KindRunDeadline, "not sent: the run's time limit (--timeout) was reached"
	case ph == phaseLimit && errors.Is(runCtx.Err(), context.DeadlineExceeded):
		te.Kind, te.Cause = KindRunDeadline, "not sent: the spec's or run's time limit was reached"
	case ph == phaseLimit:
		te.Kind, te.Cause = KindCancelled, "not sent: the run was interrupted"
	case runCtx.Err() != nil && runDeadline:
		te.Kind, te.Cause = KindRunDeadline, "the run's time limit (--timeout) was reached before the target answered"
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		te.Kind, te.Cause = KindRunDeadline, "the spec's or run's time limit was reached before the target answered"
	case runCtx.Err() != nil:
		te.Kind, te.Cause = KindCancelled, "the run was interrupted before the target answered"
	case attemptCtx != nil && attemptCtx.Err() != nil, errors.As(err, &netErr) && netErr.Timeout():
		te.Kind = KindTimeout
		if ph == phaseBody {
			te.Cause = fmt.Sprintf("the response body did not arrive in full within the request timeout (%s, --request-timeout)", c.cfg.RequestTimeout)
		} else {
			te.Cause = fmt.Sprintf("no answer within the request timeout (%s, --request-timeout)", c.cfg.RequestTimeout)
		}
	case errors.Is(err, syscall.ECONNREFUSED):
		te.Kind, te.Cause = KindRefused, "the connection was refused"
	case errors.As(err, &dnsErr):
		te.Kind, te.Cause = KindDNS, fmt.Sprintf("the host name %q does not resolve", dnsErr.Name)
	case strings.Contains(msg, "x509:") || strings.Contains(msg, "tls:") || strings.Contains(msg, "certificate"):
		te.Kind, te.Cause = KindTLS, "the TLS handshake failed: "+lastPart(msg)
	case strings.Contains(msg, "HTTP response to HTTPS client"):
		te.Kind, te.Cause = KindTLS, "the server answers plain HTTP, not HTTPS: use an http:// --base-url"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), strings.Contains(msg, "server closed"), strings.Contains(msg, "connection reset"):
		if ph == phaseBody {
			te.Kind, te.Cause = KindClosed, "the connection closed before the whole response body arrived"
		} else {
			te.Kind, te.Cause = KindClosed, "the connection closed without an answer"
		}
	case strings.Contains(msg, "malformed HTTP") || strings.Contains(msg, "malformed chunked") || strings.Contains(msg, "invalid"):
		te.Kind, te.Cause = KindProtocol, "the answer is not valid HTTP: "+lastPart(msg)
	case strings.Contains(msg, "transport connection broken"):
		// net/http's wording when the server sent bytes nobody asked for.
		te.Kind, te.Cause = KindProtocol, "the connection broke before a valid HTTP answer arrived"
	default:
		te.Cause = lastPart(msg)
	}
	// Cause is printed on its own too (preflight, verdicts): redact both.
	te.Cause = c.redactor.String(te.Cause)
	te.msg = te.Cause + " (" + c.redactor.String(msg) + ")"
	return te
}

// lastPart is the innermost part of a wrapped error message.
func lastPart(msg string) string {
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		return msg[i+2:]
	}
	return msg
}

func (c *Client) record(ex *Exchange) {
	c.mu.Lock()
	c.seq++
	ex.Seq = c.seq
	ex.Scope = c.scope
	c.exchanges = append(c.exchanges, ex)
	observers := append([]func(*Exchange){}, c.observers...)
	c.mu.Unlock()
	for _, f := range observers {
		f(ex)
	}
}

// build makes the HTTP request of r. It returns the request, its body and
// the tokens that went into the body (for the curl line).
func (c *Client) build(ctx context.Context, r Request) (*http.Request, []byte, [][2]string, error) {
	if r.Method == "" {
		r.Method = http.MethodGet
	}
	u := *c.base
	// Path is the decoded form and RawPath the escaped one: with only an
	// escaped Path, net/url would escape it again ("%00" sent as "%2500").
	if p, err := url.PathUnescape(r.Path); err == nil {
		u.Path = c.base.Path + p
		u.RawPath = c.base.EscapedPath() + r.Path
	} else {
		// A deliberately malformed escape ("%zz"): send the path as given.
		u.Opaque = "//" + c.base.Host + c.base.EscapedPath() + r.Path
	}
	query := url.Values{}
	for k, vs := range r.Query {
		query[k] = append([]string(nil), vs...)
	}
	tokens := c.tokens(r)
	placement := r.Placement
	if placement == SpecPlacement {
		placement = InBody
		if r.Method == http.MethodGet || r.Method == http.MethodDelete || r.Method == http.MethodHead {
			placement = InQuery
		}
	}
	if placement == InQuery {
		for _, t := range tokens {
			query.Set(t[0], t[1])
		}
		tokens = nil
	}
	u.RawQuery = encodeQuery(query)

	var body []byte
	contentType := ""
	switch {
	case len(r.Files) > 0:
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		for _, t := range tokens {
			_ = mw.WriteField(t[0], t[1])
		}
		for _, k := range slices.Sorted(maps.Keys(r.Form)) {
			for _, v := range r.Form[k] {
				_ = mw.WriteField(k, v)
			}
		}
		for _, f := range r.Files {
			h := make(textproto.MIMEHeader)
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.Field, f.Name))
			if f.MIMEType != "" {
				h.Set("Content-Type", f.MIMEType)
			}
			pw, err := mw.CreatePart(h)
			if err != nil {
				return nil, nil, nil, err
			}
			_, _ = pw.Write(f.Content)
		}
		if err := mw.Close(); err != nil {
			return nil, nil, nil, err
		}
		body, contentType = buf.Bytes(), mw.FormDataContentType()
	case r.Form != nil:
		form := url.Values{}
		for k, vs := range r.Form {
			form[k] = append([]string(nil), vs...)
		}
		for _, t := range tokens {
			form.Set(t[0], t[1])
		}
		body, contentType = []byte(form.Encode()), "application/x-www-form-urlencoded"
	case r.Raw != nil:
		body, contentType = r.Raw, r.RawContentType
		tokens = nil // a raw body is sent as given
	case r.JSON != nil || len(tokens) > 0 || r.Method == http.MethodPost || r.Method == http.MethodPut:
		obj := map[string]any{}
		for k, v := range r.JSON {
			obj[k] = v
		}
		for _, t := range tokens {
			obj[t[0]] = t[1]
		}
		var err error
		if body, err = json.Marshal(obj); err != nil {
			return nil, nil, nil, fmt.Errorf("encoding JSON body: %w", err)
		}
		contentType = "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, c.base.String(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, nil, err
	}
	req.URL = &u
	req.Host = ""
	for k, vs := range r.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if contentType != "" && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", contentType)
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	if req.Header.Get("Origin") == "" {
		// Ask as a cross-origin client would: a server may add
		// Access-Control-Allow-Origin only to requests that carry an
		// Origin, and the spec's CORS rule (5.9) is about such clients.
		req.Header.Set("Origin", Origin)
	}
	req.Header.Set("User-Agent", "conformance (Content Management API conformance suite)")
	return req, body, tokens, nil
}

// encodeQuery is url.Values.Encode with token first, so curl lines and
// failure messages read naturally.
func encodeQuery(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	first := url.Values{}
	rest := url.Values{}
	for k, v := range q {
		if k == "token" || k == "authentication" {
			first[k] = v
		} else {
			rest[k] = v
		}
	}
	parts := []string{}
	if s := first.Encode(); s != "" {
		parts = append(parts, s)
	}
	if s := rest.Encode(); s != "" {
		parts = append(parts, s)
	}
	return strings.Join(parts, "&")
}

// carriesAuth reports whether r would send the configured authentication token.
func (c *Client) carriesAuth(r Request) bool {
	if c.cfg.AuthToken == "" {
		return false
	}
	for _, t := range c.tokens(r) {
		if t[0] == "authentication" && t[1] == c.cfg.AuthToken {
			return true
		}
	}
	return false
}

func (c *Client) tokens(r Request) [][2]string {
	var out [][2]string
	if r.Credentials == NoTokens {
		return nil
	}
	tok := c.cfg.Token
	if r.TokenValue != nil {
		tok = *r.TokenValue
	}
	if r.TokenValue == nil || *r.TokenValue != "" {
		out = append(out, [2]string{"token", tok})
	}
	if r.Credentials == BothTokens {
		auth := c.cfg.AuthToken
		if r.AuthValue != nil {
			auth = *r.AuthValue
		}
		if auth != "" {
			out = append(out, [2]string{"authentication", auth})
		}
	}
	return out
}

func redactHeader(r *redact.Redactor, h http.Header) http.Header {
	out := http.Header{}
	for k, vs := range h {
		for _, v := range vs {
			out.Add(k, r.String(v))
		}
	}
	return out
}
