package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/redact"
)

// Excerpt sizes: enough to diagnose, small enough to keep a report readable.
const (
	requestExcerpt  = 2048
	responseExcerpt = 4096
	// redactSlack is how far past an excerpt's end the redactor looks, so a
	// token straddling the cut is replaced whole, never half-printed.
	redactSlack = 1024
	// maxKeptCurl bounds the curl line an old exchange keeps (a large JSON
	// body would otherwise stay in memory for the whole run).
	maxKeptCurl = 8 << 10
)

// Exchange is one request and its response (or transport error), as
// recorded. Every exported field is already redacted, and so are String,
// BodyExcerpt and Curl; Body, JSON and Get give the body as received, for
// checks, never for printing.
type Exchange struct {
	Seq    int
	Scope  string // what was running (a spec's text)
	Method string
	URL    string

	RequestHeader http.Header
	RequestBody   string // excerpt

	// Sent is false when the request never left the client (read-only
	// refusal, the run's time limit had passed, a body that could not be
	// built).
	Sent bool
	// FinalURL is set when same-host redirects were followed: the URL that
	// gave the recorded answer.
	FinalURL string
	// Redirect says why a redirect was not followed (another host, too many
	// hops); the recorded answer is then the redirect itself.
	Redirect string

	Status    int
	Header    http.Header
	Truncated bool // the body was longer than the read bound
	Err       error
	Retries   []string // one line per retry of a read answered 429/503
	Started   time.Time
	Duration  time.Duration

	// mu guards the lazily computed and compacted fields below: an exchange
	// may be read from a spec's goroutines while the client compacts it.
	mu       sync.Mutex
	body     []byte // full (bounded) body while the spec that made it runs
	excerpt  string
	bodySize int
	curl     string
	valid    *bool // cached json.Valid of the body
	parsed   *gjson.Result
	red      *redact.Redactor
}

func (e *Exchange) setBody(b []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.body, e.bodySize, e.valid, e.parsed = b, len(b), nil, nil
}

// Body returns the response body (bounded). Of a body cut at MaxBody
// (Truncated) only the start is kept; after the spec that made the exchange
// ends, a body longer than 4 KiB is replaced by its excerpt, to keep memory
// flat.
func (e *Exchange) Body() []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bodyLocked()
}

func (e *Exchange) bodyLocked() []byte {
	if e.body == nil {
		return []byte(e.excerpt)
	}
	return e.body
}

// BodySize is the number of body bytes read.
func (e *Exchange) BodySize() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bodySize
}

// IsJSON reports whether the body is one complete, valid JSON document in
// UTF-8.
// encoding/json bounds nesting depth, so a nesting bomb is simply invalid.
func (e *Exchange) IsJSON() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.isJSONLocked()
}

func (e *Exchange) isJSONLocked() bool {
	if e.valid == nil {
		b := e.bodyLocked()
		// JSON text is UTF-8 (RFC 8259, 8.1); json.Valid alone lets
		// invalid bytes inside strings through.
		v := !e.Truncated && e.body != nil && len(bytes.TrimSpace(b)) > 0 && utf8.Valid(b) && json.Valid(b)
		e.valid = &v
	}
	return *e.valid
}

// JSON parses the body with gjson (cached). A body that is not one valid
// JSON document (truncated, HTML, a nesting bomb, compacted away) gives
// the empty result, so every path reads as missing instead of as whatever
// a lenient parser makes of garbage.
func (e *Exchange) JSON() gjson.Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.parsed == nil {
		var r gjson.Result
		if e.isJSONLocked() {
			r = gjson.ParseBytes(e.body)
		}
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
func (e *Exchange) Curl() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.curl
}

// RequestLine is "METHOD URL".
func (e *Exchange) RequestLine() string { return e.Method + " " + e.URL }

// BodyExcerpt is the start of the response body, redacted and made printable.
func (e *Exchange) BodyExcerpt() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.body == nil {
		return e.excerpt
	}
	return redactedExcerpt(e.red, e.body, responseExcerpt)
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
	if e.FinalURL != "" {
		fmt.Fprintf(&b, "redirected to: %s\n", e.FinalURL)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, "error:    %v\n", e.Err)
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, "response: %d %s (%s)\n", e.Status, http.StatusText(e.Status), e.Duration.Round(time.Millisecond))
		for _, k := range slices.Sorted(maps.Keys(e.Header)) {
			fmt.Fprintf(&b, "          %s: %s\n", k, strings.Join(e.Header[k], ", "))
		}
		body := e.BodyExcerpt()
		size := e.BodySize()
		if e.Truncated {
			body += " …[truncated at the read limit, --max-body]"
		} else if size > len(body) {
			body += fmt.Sprintf(" …[%d bytes in all]", size)
		}
		fmt.Fprintf(&b, "          body: %s\n", indentTail(body))
	}
	if e.Redirect != "" {
		fmt.Fprintf(&b, "note:     %s\n", e.Redirect)
	}
	for _, r := range e.Retries {
		fmt.Fprintf(&b, "retried:  %s\n", r)
	}
	if c := e.Curl(); c != "" {
		fmt.Fprintf(&b, "reproduce: %s\n", c)
	}
	return b.String()
}

// compact drops the full body of an exchange once nothing needs it.
func (e *Exchange) compact() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.curl) > maxKeptCurl {
		e.curl = e.curl[:maxKeptCurl] + " …[cut: the request body was too long to keep]"
	}
	if e.body == nil {
		return
	}
	// Keep small bodies whole: they are what later cross-checks read.
	if len(e.body) > responseExcerpt {
		e.isJSONLocked() // IsJSON stays a fact about the body as received
		e.excerpt = redactedExcerpt(e.red, e.body, responseExcerpt)
		e.body = nil
		e.parsed = nil // gjson keeps a copy of the whole body
	}
}

// redactedExcerpt redacts the start of b, then cuts it to limit bytes on a
// rune boundary. Redacting before cutting matters: cutting first could leave
// the first half of a token in the output.
func redactedExcerpt(r *redact.Redactor, b []byte, limit int) string {
	if len(b) > limit+redactSlack {
		b = b[:limit+redactSlack]
	}
	return printable(r.Bytes(b), limit)
}

func printable(b []byte, limit int) string {
	if len(b) > limit {
		b = b[:limit]
		for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
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
