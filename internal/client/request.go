package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
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
	// SafeToRepeat marks a request that may be sent twice: one that cannot
	// have had an effect, or whose effect a second sending does not change.
	// Such a request whose connection is cut (closed or reset before the
	// whole answer arrived) is sent once more (Exchange.TransportRetry).
	// GET, HEAD and OPTIONS are always safe to repeat; other methods never
	// are unless marked, since a cut write may have happened.
	SafeToRepeat bool
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
