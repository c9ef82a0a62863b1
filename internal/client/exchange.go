package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/redact"
)

// Excerpt sizes: enough to diagnose, small enough to keep a report readable.
const (
	requestExcerpt  = 2048
	responseExcerpt = 4096
)

// Exchange is one request and its response (or transport error), as
// recorded. Everything exported is already redacted.
type Exchange struct {
	Seq    int
	Scope  string // what was running (a spec's text)
	Method string
	URL    string

	RequestHeader   http.Header
	RequestBody     string // excerpt
	RequestBodySize int

	Status    int
	Header    http.Header
	Truncated bool // the body was longer than the read bound
	Err       error
	Retries   []string
	Started   time.Time
	Duration  time.Duration

	body     []byte // full (bounded) body while the spec that made it runs
	excerpt  string
	bodySize int
	curl     string
	parsed   *gjson.Result
	red      *redact.Redactor
}

// Body returns the response body (bounded). After the spec that made the
// exchange ends, only an excerpt remains, to keep memory flat.
func (e *Exchange) Body() []byte {
	if e.body == nil {
		return []byte(e.excerpt)
	}
	return e.body
}

// BodySize is the number of body bytes read.
func (e *Exchange) BodySize() int {
	if e.body != nil {
		return len(e.body)
	}
	return e.bodySize
}

// IsJSON reports whether the body is one valid JSON document.
func (e *Exchange) IsJSON() bool {
	b := e.Body()
	return !e.Truncated && len(strings.TrimSpace(string(b))) > 0 && json.Valid(b)
}

// JSON parses the body with gjson (cached).
func (e *Exchange) JSON() gjson.Result {
	if e.parsed == nil {
		r := gjson.ParseBytes(e.Body())
		e.parsed = &r
	}
	return *e.parsed
}

// Get reads one gjson path of the body.
func (e *Exchange) Get(path string) gjson.Result { return e.JSON().Get(path) }

// MediaType is the response Content-Type without parameters, lowercased.
func (e *Exchange) MediaType() string {
	ct := e.Header.Get("Content-Type")
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}

// Curl returns a shell command that reproduces the request, with the tokens
// as ${CONFORMANCE_TOKEN} and ${CONFORMANCE_AUTH_TOKEN}.
func (e *Exchange) Curl() string { return e.curl }

// RequestLine is "METHOD URL".
func (e *Exchange) RequestLine() string { return e.Method + " " + e.URL }

// BodyExcerpt is the start of the response body, redacted and made printable.
func (e *Exchange) BodyExcerpt() string {
	if e.body == nil {
		return e.excerpt
	}
	return e.red.String(printable(e.body, responseExcerpt))
}

// String renders the exchange for a failure message or a report.
func (e *Exchange) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "request:  %s\n", e.RequestLine())
	if ct := e.RequestHeader.Get("Content-Type"); ct != "" {
		fmt.Fprintf(&b, "          Content-Type: %s\n", ct)
	}
	if e.RequestBody != "" {
		fmt.Fprintf(&b, "          body: %s\n", indentTail(e.RequestBody))
	}
	if e.Err != nil {
		fmt.Fprintf(&b, "error:    %v\n", e.Err)
	} else {
		fmt.Fprintf(&b, "response: %d %s (%s)\n", e.Status, http.StatusText(e.Status), e.Duration.Round(time.Millisecond))
		for _, k := range sortedKeys(e.Header) {
			fmt.Fprintf(&b, "          %s: %s\n", k, strings.Join(e.Header[k], ", "))
		}
		body := e.BodyExcerpt()
		if e.Truncated {
			body += " …[truncated at the read limit]"
		} else if e.BodySize() > len(body) {
			body += fmt.Sprintf(" …[%d bytes in all]", e.BodySize())
		}
		fmt.Fprintf(&b, "          body: %s\n", indentTail(body))
	}
	for _, r := range e.Retries {
		fmt.Fprintf(&b, "retried:  after %s\n", r)
	}
	if e.curl != "" {
		fmt.Fprintf(&b, "reproduce: %s\n", e.curl)
	}
	return b.String()
}

// compact drops the full body of an exchange once nothing needs it.
func (e *Exchange) compact() {
	if e.body == nil {
		return
	}
	e.excerpt = e.red.String(printable(e.body, responseExcerpt))
	e.bodySize = len(e.body)
	// Keep small bodies whole: they are what later cross-checks read.
	if len(e.body) > responseExcerpt {
		e.body = nil
	}
}

func printable(b []byte, limit int) string {
	if len(b) > limit {
		b = b[:limit]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
	}
	if !utf8.Valid(b) {
		return fmt.Sprintf("%q", b)
	}
	return string(b)
}

func excerpt(b []byte, limit int) string {
	if len(b) == 0 {
		return ""
	}
	s := printable(b, limit)
	if len(b) > limit {
		s += fmt.Sprintf(" …[%d bytes in all]", len(b))
	}
	return s
}

func indentTail(s string) string { return strings.ReplaceAll(s, "\n", "\n          ") }

func sortedKeys(h http.Header) []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
