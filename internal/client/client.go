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
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
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

// Config configures a Client.
type Config struct {
	BaseURL        string
	Token          string // API token ("token")
	AuthToken      string // authentication token ("authentication"); empty in read-only runs
	RequestTimeout time.Duration
	// MaxBody bounds how much of a response body is read; the rest is
	// discarded and the exchange marked truncated.
	MaxBody int64
	CACert  string // PEM file added to the system roots
	// Insecure skips TLS verification (self-signed test sites).
	Insecure bool
	// ReadOnly refuses every request that could change the target (any
	// non-GET request carrying the authentication token).
	ReadOnly bool
	// RPS limits requests per second; 0 means unlimited.
	RPS float64
	// Retries is how often an idempotent read answered 429 or 503 is retried.
	Retries int
	// MaxRetryWait caps how long one Retry-After is honoured.
	MaxRetryWait time.Duration
	// ExtraSecrets are further values to redact (e.g. a rejected token).
	ExtraSecrets []string
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

// DefaultMaxBody is the default bound on one response body: far above any
// sane API answer, far below what would hurt memory.
const DefaultMaxBody = 4 << 20

// ErrReadOnly is returned for a request that would write in a read-only run.
var ErrReadOnly = errors.New("refused: the run is read-only and this request could change the target")

// New validates cfg and builds a client.
func New(cfg Config) (*Client, error) {
	base, err := ParseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 10 * time.Second
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
	for _, s := range cfg.ExtraSecrets {
		secrets = append(secrets, redact.Secret{Value: s, Placeholder: "${REDACTED}"})
	}
	c := &Client{cfg: cfg, base: base, redactor: redact.New(secrets...)}
	c.http = &http.Client{Transport: transport, CheckRedirect: c.checkRedirect}
	if cfg.RPS > 0 {
		c.limiter = rate.NewLimiter(rate.Limit(cfg.RPS), 1)
	}
	return c, nil
}

// ParseBaseURL checks a --base-url value: absolute http(s), no query.
func ParseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(raw), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("base URL %q must be an absolute http:// or https:// URL", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("base URL %q must not carry a query or fragment", raw)
	}
	return u, nil
}

// maxRedirects bounds same-host redirects; cross-host ones are never followed
// because the query string may carry the tokens.
const maxRedirects = 3

func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if req.URL.Host != c.base.Host || req.URL.Scheme != c.base.Scheme {
		return fmt.Errorf("refused to follow a redirect to another host (%s://%s): the tokens would go there", req.URL.Scheme, req.URL.Host)
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	return nil
}

// Redactor returns the redactor that hides this client's tokens.
func (c *Client) Redactor() *redact.Redactor { return c.redactor }

// BaseURL returns the target's base URL.
func (c *Client) BaseURL() string { return c.base.String() }

// HasAuth reports whether an authentication token was configured.
func (c *Client) HasAuth() bool { return c.cfg.AuthToken != "" }

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
// Transport failures are in Exchange.Err.
func (c *Client) Do(ctx context.Context, r Request) *Exchange {
	ex := &Exchange{Method: r.Method, Started: time.Now(), red: c.redactor}
	req, reqBody, err := c.build(ctx, r)
	if err == nil && c.cfg.ReadOnly && r.Method != http.MethodGet && !r.Probe {
		err = ErrReadOnly
	}
	if req != nil {
		ex.URL = c.redactor.String(req.URL.String())
		ex.RequestHeader = redactHeader(c.redactor, req.Header)
		ex.RequestBody = excerpt(c.redactor.Bytes(reqBody), requestExcerpt)
		ex.RequestBodySize = len(reqBody)
		ex.curl = c.curl(req, r, reqBody)
	}
	if err == nil {
		c.send(ctx, req, reqBody, r, ex)
	} else {
		ex.Err = err
	}
	ex.Duration = time.Since(ex.Started)
	c.record(ex)
	return ex
}

func (c *Client) send(ctx context.Context, req *http.Request, body []byte, r Request, ex *Exchange) {
	for attempt := 0; ; attempt++ {
		if c.limiter != nil {
			if err := c.limiter.Wait(ctx); err != nil {
				ex.Err = err
				return
			}
		}
		attemptCtx, cancel := context.WithTimeout(ctx, c.cfg.RequestTimeout)
		areq := req.Clone(attemptCtx)
		areq.Body = io.NopCloser(bytes.NewReader(body))
		resp, err := c.http.Do(areq)
		if err != nil {
			cancel()
			ex.Err = describeTransportError(err, c.cfg.RequestTimeout)
			return
		}
		c.readResponse(resp, ex)
		resp.Body.Close()
		cancel()
		if ex.Err != nil {
			return
		}
		wait, retry := c.retryAfter(r, ex, attempt)
		if !retry {
			return
		}
		ex.Retries = append(ex.Retries, fmt.Sprintf("%d after %s", ex.Status, wait))
		select {
		case <-ctx.Done():
			ex.Err = ctx.Err()
			return
		case <-time.After(wait):
		}
	}
}

// retryAfter decides whether an idempotent read answered 429/503 is tried
// again. Writes are never retried: they might have happened.
func (c *Client) retryAfter(r Request, ex *Exchange, attempt int) (time.Duration, bool) {
	if r.Method != http.MethodGet || attempt >= c.cfg.Retries {
		return 0, false
	}
	if ex.Status != http.StatusTooManyRequests && ex.Status != http.StatusServiceUnavailable {
		return 0, false
	}
	wait := time.Second
	if s := ex.Header.Get("Retry-After"); s != "" {
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
	return wait, true
}

func (c *Client) readResponse(resp *http.Response, ex *Exchange) {
	ex.Status = resp.StatusCode
	ex.Header = redactHeader(c.redactor, resp.Header)
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxBody+1))
	if int64(len(body)) > c.cfg.MaxBody {
		body = body[:c.cfg.MaxBody]
		ex.Truncated = true
	}
	if err != nil && !ex.Truncated {
		ex.Err = describeTransportError(err, c.cfg.RequestTimeout)
	}
	ex.body = body
}

func describeTransportError(err error, timeout time.Duration) error {
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		return fmt.Errorf("no answer within the request timeout (%s): %w", timeout, err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("the run was cancelled: %w", err)
	}
	return err
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

func (c *Client) build(ctx context.Context, r Request) (*http.Request, []byte, error) {
	if r.Method == "" {
		r.Method = http.MethodGet
	}
	u := *c.base
	u.Path = c.base.Path + r.Path
	u.RawPath = c.base.EscapedPath() + r.Path
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
		for k, vs := range r.Form {
			for _, v := range vs {
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
				return nil, nil, err
			}
			_, _ = pw.Write(f.Content)
		}
		if err := mw.Close(); err != nil {
			return nil, nil, err
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
			return nil, nil, fmt.Errorf("encoding JSON body: %w", err)
		}
		contentType = "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.URL = &u
	for k, vs := range r.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if contentType != "" && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "conformance (Content Management API conformance suite)")
	return req, body, nil
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
