package har

import (
	"encoding/base64"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/redact"
)

// timeFormat is ISO 8601 with milliseconds, as browsers write it.
const timeFormat = "2006-01-02T15:04:05.000Z07:00"

// entry is the HAR entry of ex; k is what a Recorder kept of its body
// (nil: none).
func entry(ex *client.Exchange, red *redact.Redactor, limit int, k *keptBody) Entry {
	e := Entry{
		StartedDateTime: ex.Started.UTC().Format(timeFormat),
		Request:         request(ex),
		Response:        response(ex, red, limit, k),
		Seq:             ex.Seq,
		Scope:           ex.Scope,
		Retries:         slices.Clone(ex.Retries), // red.Fields rewrites strings in place
		TransportRetry:  ex.TransportRetry,
		ResourceType:    "fetch",
	}
	switch {
	case ex.Replayed:
		// Nothing was sent and no time spent on the wire.
		e.Replayed, e.FromCache = true, "memory"
		e.Comment = fmt.Sprintf("not sent: the run's read cache answered this read with the answer to #%d", ex.Seq)
	case !ex.Sent:
		e.Unsent = true
		e.Comment = "not sent: " + errText(ex.Err)
	default:
		ms := float64(ex.Duration.Microseconds()) / 1000
		e.Time, e.Timings.Wait = ms, ms
		if ex.Status == 0 {
			e.Comment = "no answer: " + errText(ex.Err)
		}
	}
	return e
}

func errText(err error) string {
	if err == nil {
		return "no reason recorded"
	}
	return err.Error()
}

func request(ex *client.Exchange) Request {
	r := Request{Method: ex.Method, URL: ex.URL, Cookies: cookies((&http.Request{Header: ex.RequestHeader}).Cookies()),
		Headers: headers(ex.RequestHeader), QueryString: query(ex.URL), HeadersSize: -1}
	if r.URL == "" {
		// HAR needs a URL; a request that could not be built has none.
		r.URL = "about:blank"
		r.Comment = "the request could not be built, so it has no URL"
	}
	if ex.RequestBody != "" {
		r.PostData, r.BodySize = postData(ex)
	}
	return r
}

// query lists the parameters of a (redacted) URL in their order, decoded.
func query(rawURL string) []NameValue {
	out := []NameValue{}
	_, q, _ := strings.Cut(rawURL, "?")
	for _, part := range strings.Split(q, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		out = append(out, NameValue{Name: unescape(k), Value: unescape(v)})
	}
	return out
}

// unescape decodes a query component; one a probe broke on purpose stays
// as sent.
func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

func headers(h http.Header) []NameValue {
	out := []NameValue{}
	for _, k := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[k] {
			out = append(out, NameValue{Name: k, Value: v})
		}
	}
	return out
}

func cookies(cs []*http.Cookie) []Cookie {
	out := []Cookie{}
	for _, c := range cs {
		hc := Cookie{Name: c.Name, Value: c.Value, Path: c.Path, Domain: c.Domain, HTTPOnly: c.HttpOnly, Secure: c.Secure}
		if !c.Expires.IsZero() {
			hc.Expires = c.Expires.UTC().Format(timeFormat)
		}
		out = append(out, hc)
	}
	return out
}

// postData is the request body as the client recorded it: redacted, and
// its first 2 KiB only when longer. bodySize is its size, or -1 when that
// is not known: a body cut or with tokens replaced (the placeholders are
// not as long as the tokens).
func postData(ex *client.Exchange) (_ *PostData, bodySize int) {
	start, size, cut := ex.RequestBodyCut()
	p := &PostData{MimeType: ex.RequestHeader.Get("Content-Type"), Text: start}
	body := start
	var notes []string
	if b, ok := unquote(start); ok {
		body = string(b)
		notes = append(notes, "the body is not UTF-8 text: the text is the Go-quoted form of its bytes")
	}
	bodySize = len(body)
	switch {
	case cut:
		p.Truncated, bodySize = true, -1
		notes = append(notes, fmt.Sprintf("only the start of a body of %d bytes (tokens replaced): the client keeps no more of a request body", size))
	case strings.Contains(body, client.TokenPlaceholder) || strings.Contains(body, client.AuthTokenPlaceholder):
		bodySize = -1
	}
	if mt, _, _ := mime.ParseMediaType(p.MimeType); mt == "application/x-www-form-urlencoded" && !cut {
		p.Params = query("?" + body)
	}
	p.Comment = strings.Join(notes, "; ")
	return p, bodySize
}

// unquote returns the bytes of s when s is the Go-quoted form of bytes
// that are not UTF-8, as the client shows such a body (a valid JSON
// string stays text).
func unquote(s string) ([]byte, bool) {
	if len(s) < 2 || s[0] != '"' {
		return nil, false
	}
	u, err := strconv.Unquote(s)
	if err != nil || utf8.ValidString(u) {
		return nil, false
	}
	return []byte(u), true
}

func response(ex *client.Exchange, red *redact.Redactor, limit int, k *keptBody) Response {
	r := Response{Status: ex.Status, StatusText: http.StatusText(ex.Status), Cookies: cookies((&http.Response{Header: ex.Header}).Cookies()),
		Headers: headers(ex.Header), HeadersSize: -1, BodySize: -1, FinalURL: ex.FinalURL,
		Content: Content{MimeType: ex.Header.Get("Content-Type")}}
	if ex.Err != nil {
		r.Error = ex.Err.Error()
	}
	if ex.Status == 0 {
		return r
	}
	if ex.Status >= 300 && ex.Status < 400 {
		r.RedirectURL = ex.Header.Get("Location")
	}
	if ex.Redirect != "" {
		r.Comment = ex.Redirect
	}
	r.BodySize = ex.BodySize()
	r.Content = content(ex, red, limit, k)
	return r
}

// content is the response body: as much of it as the log may hold and
// the exchange (or the Recorder) still has, and a comment when that is
// not the whole body.
func content(ex *client.Exchange, red *redact.Redactor, limit int, k *keptBody) Content {
	size := ex.BodySize()
	c := Content{Size: size, MimeType: ex.Header.Get("Content-Type")}
	var text []byte
	var whole bool
	why := ""
	switch b := ex.Body(); {
	case ex.Streamed != nil:
		// Read as a stream (a big listing): only its start was kept.
		text = []byte(ex.BodyExcerpt())
		if u, ok := unquote(string(text)); ok {
			text = u
		}
		why = fmt.Sprintf("the body has %d bytes and was read as a stream, each item checked as it arrived: the client keeps only its start", size)
	case k != nil && k.text != nil:
		text, whole = k.text, k.whole && k.held == size
		why = fmt.Sprintf("the body has %d bytes and the log keeps at most %d of each", size, limit)
	case b != nil || !ex.BodyReleased():
		text, whole = clip(red, b, limit)
		whole = whole && len(b) == size
		why = fmt.Sprintf("the body has %d bytes and the log keeps at most %d of each", size, limit)
	default:
		// Released: the client's redacted excerpt, Go-quoted when the
		// body is not UTF-8.
		text = []byte(ex.BodyExcerpt())
		if u, ok := unquote(string(text)); ok {
			text = u
		}
		why = fmt.Sprintf("the body has %d bytes and the client keeps only the start of a large body once its spec has ended", size)
		if k != nil && k.overBudget {
			why += fmt.Sprintf(" (the log had kept %d bytes of bodies already, its bound for a run)", k.budget)
		}
	}
	shown := setText(&c, text)
	switch {
	case ex.Truncated:
		why = fmt.Sprintf("the body was longer than the read limit (--max-body, %d bytes): the rest was never read", size)
	case ex.Err != nil:
		why = fmt.Sprintf("the body is incomplete (%d bytes arrived): %v", size, ex.Err)
	case whole:
		return c
	}
	c.Truncated = true
	c.Comment = fmt.Sprintf("only the first %d bytes shown (tokens replaced): %s", shown, why)
	return c
}

// setText puts b in c as text, or in base64 when it is not UTF-8, and
// returns how many of its bytes it shows: a body cut at the log's bound
// may end inside a character, which is then left out rather than shown
// broken.
func setText(c *Content, b []byte) int {
	if len(b) == 0 {
		return 0
	}
	for trim := 0; trim < utf8.UTFMax && trim < len(b); trim++ {
		if utf8.Valid(b[:len(b)-trim]) {
			c.Text = string(b[:len(b)-trim])
			return len(c.Text)
		}
	}
	c.Text, c.Encoding = base64.StdEncoding.EncodeToString(b), "base64"
	return len(b)
}

// redactSlack is how far past the log's bound a body is redacted before
// it is cut, so a token straddling the cut is replaced whole, never
// half-shown (as the client does for its excerpts).
const redactSlack = 1024

// clip redacts the start of b and cuts it to limit bytes; whole says
// nothing was cut.
func clip(red *redact.Redactor, b []byte, limit int) (_ []byte, whole bool) {
	src := b[:min(len(b), limit+redactSlack)]
	out := red.Bytes(src)
	if len(out) > limit {
		return out[:limit], false
	}
	return out, len(src) == len(b)
}
