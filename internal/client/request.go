package client

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/conformance-suite/conformance/internal/redact"
)

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

// CredentialsPlacement is where a client puts the tokens by default
// (Config.CredentialsPlacement; the CLI's --credentials).
type CredentialsPlacement int

const (
	// CredentialsInParams (the default) puts them where the spec says:
	// parameters in the query string for GET and DELETE, in the body for
	// POST and PUT.
	CredentialsInParams CredentialsPlacement = iota
	// CredentialsInHeader sends "Authorization: Bearer <API token>" and,
	// when the request needs it, "X-Auth-Token: <auth token>", and no token
	// in the URL or body (newer servers); only placement probes (a Request
	// whose Placement is set) still send parameters.
	CredentialsInHeader
)

// The headers that carry the tokens with CredentialsInHeader.
const (
	AuthorizationHeader = "Authorization" // "Bearer <API token>"
	AuthTokenHeader     = "X-Auth-Token"  // the authentication token
)

// ParseCredentialsPlacement reads a --credentials value: "params" or
// "header".
func ParseCredentialsPlacement(s string) (CredentialsPlacement, error) {
	switch s {
	case "params":
		return CredentialsInParams, nil
	case "header":
		return CredentialsInHeader, nil
	}
	return 0, fmt.Errorf("--credentials %q: want params or header", s)
}

// String is the --credentials value of p.
func (p CredentialsPlacement) String() string {
	if p == CredentialsInHeader {
		return "header"
	}
	return "params"
}

// Placement says where one request's tokens go.
type Placement int

const (
	// ConfiguredPlacement (the default) puts the tokens where the client is
	// configured to (Config.CredentialsPlacement): the spec's places with
	// CredentialsInParams, the headers with CredentialsInHeader.
	ConfiguredPlacement Placement = iota
	// SpecPlacement puts the tokens where the spec says, whatever the
	// configuration: query for GET and DELETE, body for POST and PUT. It
	// marks a placement probe (a check of the spec's placement itself).
	SpecPlacement
	// InQuery forces the query string (a placement probe).
	InQuery
	// InBody forces the body, JSON unless the request has a form or
	// multipart body (a placement probe).
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

	// At most one body kind. With none, POST and PUT send a JSON object
	// (holding the tokens when they go in the body).
	JSON           map[string]any
	Form           url.Values
	Files          []File // multipart: Form fields (if any) become text parts
	Raw            []byte // sent as is with RawContentType
	RawContentType string

	Credentials Credentials
	// Placement, when set, makes the request a placement probe: its tokens
	// go where it says even in header mode (counted: PlacementProbes).
	Placement Placement
	// TokenValue and AuthValue, when non-nil, replace the configured tokens
	// (e.g. a wrong token); they are redacted like the real ones.
	TokenValue *string
	AuthValue  *string

	Header http.Header
	// Probe marks a write-method request that cannot change the target even
	// if the server wrongly accepts it (no authentication, a key that does
	// not exist); such requests are allowed in read-only runs unless they
	// carry the real authentication token anywhere (parameter, body, any
	// header).
	Probe bool
	// SafeToRepeat marks a request that may be sent twice: one that cannot
	// have had an effect, or whose effect a second sending does not change.
	// Such a request whose connection is cut (closed or reset before the
	// whole answer arrived) is sent once more (Exchange.TransportRetry).
	// GET, HEAD and OPTIONS are always safe to repeat; other methods never
	// are unless marked, since a cut write may have happened.
	SafeToRepeat bool
	// Fresh makes a read go to the target even when the run's read cache
	// (Config.ReadCache) holds its answer: a read that must see the
	// target's state now, e.g. a second read that checks an answer is
	// stable. (Reads after a write are always fresh: any write empties the
	// cache.) Its answer replaces the cached one.
	Fresh bool
	// Stream, on a GET, reads the answer as it arrives: the array it names
	// goes item by item to a fold (see Stream), the rest is kept.
	Stream *Stream
}

// streams reports whether r is read as a stream.
func (r Request) streams() bool {
	return r.Stream != nil && (r.Method == "" || r.Method == http.MethodGet)
}

// safeToRepeat reports whether r may be sent a second time after a cut
// connection.
func (r Request) safeToRepeat() bool {
	switch r.Method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	return r.SafeToRepeat
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

// built is a request ready to send, with what the record needs.
type built struct {
	req  *http.Request
	body []byte
	// bodyTokens are the tokens that went into the body (curl -F).
	bodyTokens [][2]string
	// placementProbe: in header mode, the tokens went where the spec says
	// because the request asked for it (Request.Placement).
	placementProbe bool
}

// Where one request's tokens go, once Placement and the configuration are
// taken together.
type tokenPlace int

const (
	tokensInQuery tokenPlace = iota
	tokensInBody
	tokensInHeader
)

// place decides where r's tokens go.
func (c *Client) place(r Request) tokenPlace {
	switch r.Placement {
	case InQuery:
		return tokensInQuery
	case InBody:
		return tokensInBody
	case ConfiguredPlacement:
		if c.cfg.CredentialsPlacement == CredentialsInHeader {
			return tokensInHeader
		}
	}
	if r.Method == http.MethodGet || r.Method == http.MethodDelete || r.Method == http.MethodHead {
		return tokensInQuery
	}
	return tokensInBody
}

// build makes the HTTP request of r.
func (c *Client) build(ctx context.Context, r Request) (*built, error) {
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
	place := c.place(r)
	b := &built{placementProbe: c.cfg.CredentialsPlacement == CredentialsInHeader && place != tokensInHeader && len(tokens) > 0}
	var headerTokens [][2]string
	switch place {
	case tokensInQuery:
		for _, t := range tokens {
			query.Set(t[0], t[1])
		}
		tokens = nil
	case tokensInHeader:
		headerTokens, tokens = tokens, nil
	}
	u.RawQuery = encodeQuery(query)

	body, contentType, bodyTokens, err := encodeBody(r, tokens)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, c.base.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.URL = &u
	req.Host = ""
	for k, vs := range r.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	for _, t := range headerTokens {
		// A header the caller set itself (a probe of the header's form)
		// is kept.
		name, value := AuthorizationHeader, "Bearer "+t[1]
		if t[0] == "authentication" {
			name, value = AuthTokenHeader, t[1]
		}
		if req.Header.Get(name) == "" {
			req.Header.Set(name, value)
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
	b.req, b.body, b.bodyTokens = req, body, bodyTokens
	return b, nil
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

// carriesAuth reports whether a request would send the configured
// authentication token: as r asks for it, or anywhere in what was built
// (query, body, any header, X-Auth-Token included), however it got there.
func (c *Client) carriesAuth(r Request, b *built) bool {
	if c.cfg.AuthToken == "" {
		return false
	}
	for _, t := range c.tokens(r) {
		if t[0] == "authentication" && t[1] == c.cfg.AuthToken {
			return true
		}
	}
	return carries(c.authOnly, b)
}

// carries reports whether what was built holds the secret f finds, in
// the query, the body or any header.
func carries(f *redact.Redactor, b *built) bool {
	if f.Finds(b.req.URL.String()) || f.Finds(string(b.body)) {
		return true
	}
	for _, vs := range b.req.Header {
		for _, v := range vs {
			if f.Finds(v) {
				return true
			}
		}
	}
	return false
}

// TokenUse says what a request carried of one of the configured tokens
// (Exchange.APIToken, Exchange.AuthToken).
type TokenUse int

const (
	// TokenValid: the configured value, somewhere in the request (the
	// zero value).
	TokenValid TokenUse = iota
	// TokenMissing: no value at all.
	TokenMissing
	// TokenWrong: another value (Request.TokenValue, AuthValue), and the
	// configured one nowhere.
	TokenWrong
)

// tokenUse says what the built request b of r carries of each token.
// A value a caller wrote into a header or body by hand counts only when
// it is the configured one.
func (c *Client) tokenUse(r Request, b *built) (api, auth TokenUse) {
	api, auth = TokenMissing, TokenMissing
	for _, t := range c.tokens(r) {
		switch {
		case t[1] == "":
		case t[0] == "token":
			api = TokenWrong
		default:
			auth = TokenWrong
		}
	}
	if carries(c.apiOnly, b) {
		api = TokenValid
	}
	if carries(c.authOnly, b) {
		auth = TokenValid
	}
	return api, auth
}

// tokens lists the tokens r carries, as parameter name and value.
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
