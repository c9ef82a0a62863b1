// Package client is the suite's one way to talk to the target: it sends a
// request where the spec (or a deliberate probe) puts it, and records what
// came back, redacted, as an Exchange.
//
// The work is split by job, one file each: request.go builds requests and
// places the tokens (the spec's parameters, or headers with
// CredentialsInHeader); body.go encodes JSON, form and multipart bodies;
// send.go sends them (rate limit, retries, time limits, bounded reads);
// errors.go names why a request got no answer; cache.go answers a read
// repeated before any write from the run's read cache; batch.go sends
// independent requests side by side (DoAll); record.go keeps the exchange
// log (sequence numbers, scopes, observers); exchange.go is the recorded
// exchange and how it is rendered; curl.go renders the curl line that
// reproduces a request. A Client is safe for concurrent use.
package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
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
	// MaxStream bounds a streamed answer (Request.Stream) in all; each of
	// its items is bounded by MaxBody. Default DefaultMaxStream.
	MaxStream int64
	CACert    string // PEM file added to the system roots
	// Insecure skips TLS verification (self-signed test sites).
	Insecure bool
	// CredentialsPlacement is where requests carry the tokens unless they
	// ask for a placement (Request.Placement): the spec's parameters
	// (default) or the Authorization and X-Auth-Token headers.
	CredentialsPlacement CredentialsPlacement
	// ReadOnly refuses every request that could change the target: any
	// method but GET, unless the request is marked Probe and carries the
	// real authentication token nowhere (parameter, body or header).
	// Refused requests are recorded (Err is ErrReadOnly) and nothing is
	// sent.
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
	// ReadCache answers a read repeated within the run from the first
	// answer, until anything but a read is sent (see readCache;
	// Request.Fresh opts out). Replayed answers are recorded
	// (Exchange.Replayed) but are no requests: Seq does not count them.
	ReadCache bool
	// ReadCacheBytes bounds the bodies the read cache keeps (default
	// DefaultReadCacheBytes).
	ReadCacheBytes int64
	// MaxInFlight bounds the requests of the whole client on their way at
	// once, whoever sends them (a batch, prepared fixtures running side by
	// side): --concurrency. 0 or less: no bound. Whatever the bound, a
	// write is alone on the wire (see wire).
	MaxInFlight int
	// ParallelWrites lets writes go out beside other requests
	// (--parallel-writes): only for servers whose storage is
	// transactional. On a host that keeps its content in flat files, a
	// request beside a write sees an empty site and a write beside another
	// request can save it empty.
	ParallelWrites bool
}

// Client sends requests to one target.
type Client struct {
	cfg      Config
	base     *url.URL
	http     *http.Client
	redactor *redact.Redactor
	// authOnly finds the authentication token alone (the read-only guard);
	// apiOnly the API token alone (Exchange.APIToken).
	authOnly *redact.Redactor
	apiOnly  *redact.Redactor
	limiter  *rate.Limiter // safe for concurrent use
	log      exchangeLog
	cache    readCache
	wire     *wire // which requests may be on their way together
	guard    WriteGuard
}

// Defaults of Config (and of the CLI's flags).
const (
	// DefaultMaxBody bounds one response body: far above any sane API
	// answer, far below what would hurt memory.
	DefaultMaxBody = 4 << 20
	// DefaultRequestTimeout bounds one request.
	DefaultRequestTimeout = 10 * time.Second
	// DefaultConcurrency is how many requests a run has in flight at
	// once (--concurrency).
	DefaultConcurrency = 8
)

// ErrReadOnly is returned for a request that would write in a read-only run.
var ErrReadOnly = errors.New("refused: the run is read-only and this request could change the target")

// ErrWritesStopped is (wrapped in) the error of a write not sent because
// the run's WriteGuard stopped every further write: the site was seen
// losing data.
var ErrWritesStopped = errors.New("not sent: writes were stopped")

// ErrNeedWireAlone is what a WriteGuard's BeforeWrite returns, given no
// read (the write shares the wire: --parallel-writes), when it must read
// with nothing else of the run on its way: the client then waits until it
// holds the wire alone and asks again.
var ErrNeedWireAlone = errors.New("the write guard needs the wire to itself")

// ErrCheckAhead is what a WriteGuard's BeforeWrite returns when a check
// of its is due that need not hold the wire alone: the write gives the
// wire back, the guard's Ahead sends its check as a lead (with the reads
// waiting, before the writes waiting), and the write waits for the wire
// again and asks once more. A guard returns it at most once per check.
var ErrCheckAhead = errors.New("the write guard checks ahead of the write")

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
	if cfg.MaxStream <= 0 {
		cfg.MaxStream = DefaultMaxStream
	}
	if cfg.ReadCacheBytes <= 0 {
		cfg.ReadCacheBytes = DefaultReadCacheBytes
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
		MaxIdleConnsPerHost:   max(4, cfg.MaxInFlight),
		IdleConnTimeout:       30 * time.Second,
	}
	secrets := []redact.Secret{{Value: cfg.Token, Placeholder: TokenPlaceholder}, {Value: cfg.AuthToken, Placeholder: AuthTokenPlaceholder}}
	if pw, ok := base.User.Password(); ok {
		// A password in --base-url (basic auth in front of a staging site)
		// is a secret like the tokens.
		secrets = append(secrets, redact.Secret{Value: pw, Placeholder: "xxxxx"})
	}
	c := &Client{cfg: cfg, base: base, redactor: redact.New(secrets...),
		authOnly: redact.New(redact.Secret{Value: cfg.AuthToken, Placeholder: AuthTokenPlaceholder}),
		apiOnly:  redact.New(redact.Secret{Value: cfg.Token, Placeholder: TokenPlaceholder})}
	c.cache.limit = cfg.ReadCacheBytes
	c.http = &http.Client{Transport: transport, CheckRedirect: c.checkRedirect}
	c.wire = newWire(cfg.MaxInFlight, cfg.ParallelWrites)
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

// CredentialsPlacement is where requests carry the tokens by default.
func (c *Client) CredentialsPlacement() CredentialsPlacement { return c.cfg.CredentialsPlacement }

// ReadOnly reports whether the client refuses writes.
func (c *Client) ReadOnly() bool { return c.cfg.ReadOnly }

// Token returns the API token, for specs that must send it in unusual ways.
// Anything built from it goes through the client, which redacts it.
func (c *Client) Token() string { return c.cfg.Token }

// AuthToken returns the authentication token (see Token).
func (c *Client) AuthToken() string { return c.cfg.AuthToken }
