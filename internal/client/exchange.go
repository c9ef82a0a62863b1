package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
	"unsafe"

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
//
// The response body is kept in two forms. The full body (bounded by
// Config.MaxBody) is retained while the scope that made the exchange runs:
// Body, IsJSON, JSON and Get read it. When that scope ends (the next
// Client.SetScope), a body over 4 KiB is released to keep memory flat
// (unless a holder pinned it: an exchange made by a prepare function or a
// shared fixture stays whole until its group is done, see Unpin):
// from then on BodyReleased is true, Body returns nil, JSON and Get read
// as missing, and only the redacted BodyExcerpt, BodySize and the IsJSON
// verdict remain. Smaller bodies are never released: later cross-checks
// read them.
type Exchange struct {
	Seq    int
	Scope  string // what was running (a spec's text)
	Method string
	URL    string

	RequestHeader http.Header
	RequestBody   string // excerpt

	// PlacementProbe: the client sends the tokens in headers, but this
	// request carried them as the spec's parameters because it asked to
	// (Request.Placement).
	PlacementProbe bool
	// APIToken and AuthToken say what the request carried of each token:
	// the configured value (TokenValid, the zero value), none, or a wrong
	// one; for checks of the answers to requests without valid
	// credentials.
	APIToken, AuthToken TokenUse
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
	// BodyCut says the status line and headers arrived but the connection
	// closed or was reset before the whole body did (a server that answers
	// a refused write and hangs up, behind a proxy). Status and Header are
	// the server's and the body is the part that arrived; Err says why
	// (errors.Is(Err, ErrBodyCut)). The status can be judged (StatusErr is
	// nil); the body cannot: IsJSON is false and rules about the body are
	// not checked.
	BodyCut bool
	Err     error
	Retries []string // one line per retry of a read answered 429/503
	// TransportRetry, when set, says the request was sent a second time
	// because its first try got a cut connection (Request.SafeToRepeat):
	// the cause of that failure, redacted. What is recorded is the second
	// try's answer, or the first's if only the first got a status.
	TransportRetry string
	// Replayed says the run's read cache answered this read
	// (Config.ReadCache): nothing was sent, and Seq is the number of the
	// exchange whose answer this is. Every other field is that answer,
	// with this request's scope and start.
	Replayed bool
	Started  time.Time
	Duration time.Duration
	// OnWire and OffWire are when the request first had its turn on the
	// wire and when its last try let the wire go (zero when never sent):
	// Started comes before any wait for the wire, so only these tell
	// which reads went out before a write and which after. A replay has
	// the original's: its answer is what the site showed then.
	OnWire, OffWire time.Time
	// Streamed is set when the answer was read as a stream
	// (Request.Stream): its items went to a fold (Folded) and were not
	// kept. Body and JSON are then the envelope with that array empty
	// (the skeleton), BodySize the whole answer's size, BodyExcerpt its
	// start as received, and IsJSON the whole answer's verdict.
	Streamed *Streamed

	// mu guards the lazily computed and released fields below: an exchange
	// may be read from a spec's goroutines while the client releases it.
	mu       sync.Mutex
	body     []byte // the full (bounded) body; nil once released
	released bool   // the full body was dropped; excerpt holds its start
	excerpt  string // redacted start of a released body
	bodySize int
	curl     string
	valid    *bool // cached json.Valid of the body
	parsed   *gjson.Result
	red      *redact.Redactor
	replayOf *Exchange // the exchange a replay repeats
	// pins counts the holders (Held) that keep the body whole whatever
	// scope ends (see Unpin).
	pins int
	// head is the start of a streamed answer as received; folded what its
	// fold kept.
	head       []byte
	folded     any
	foldedSize int64
}

// Folded is what the fold of a streamed read kept (Stream, Fold.Value):
// nil unless the whole answer was one JSON document in UTF-8 within the
// bounds. A replay from the read cache gives the first read's value.
// WireSpan is when the request was on the wire (OnWire to OffWire), or,
// for an exchange that has none (never sent, or made by hand), from its
// start to its end.
func (e *Exchange) WireSpan() (from, to time.Time) {
	if e.OnWire.IsZero() || e.OffWire.IsZero() {
		return e.Started, e.Started.Add(e.Duration)
	}
	return e.OnWire, e.OffWire
}

func (e *Exchange) Folded() any { return locked(e, func() any { return e.folded }) }

// setStreamed records what a streamed read brought.
func (e *Exchange) setStreamed(st *streamed) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.body, e.bodySize, e.parsed = st.skeleton, st.size, nil
	if !st.valid {
		e.body = nil
		if st.info.Items == 0 {
			// Never streamed: the body is what came (a page of HTML).
			e.body = st.raw
		}
	}
	e.head, e.folded, e.foldedSize = st.raw, st.value, st.weight
	v := st.valid
	e.valid = &v
	if st.info.Items > 0 || st.valid {
		e.Streamed = st.info
	}
}

func (e *Exchange) pin() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pins++
}

func (e *Exchange) unpin() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pins--
}

// locked returns get() read under e's lock.
func locked[T any](e *Exchange, get func() T) T {
	e.mu.Lock()
	defer e.mu.Unlock()
	return get()
}

// setBody records the kept part b of a body of size bytes.
func (e *Exchange) setBody(b []byte, size int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.body, e.bodySize, e.valid, e.parsed = b, size, nil, nil
}

// Body returns the response body as received, for checks: never print it
// (BodyExcerpt is the redacted form), and never write into it: the read
// cache and its replays share it. Of a body cut at MaxBody (Truncated)
// only the start is kept. Once the body is released (BodyReleased) Body
// returns nil: a check on an exchange of an earlier scope never silently
// reads an excerpt, let alone a redacted one, as if it were the body.
func (e *Exchange) Body() []byte { return locked(e, func() []byte { return e.body }) }

// BodyReleased reports whether the full body was dropped at the end of the
// scope that made the exchange (see Exchange); only BodyExcerpt, BodySize
// and IsJSON still speak of it.
func (e *Exchange) BodyReleased() bool { return locked(e, func() bool { return e.released }) }

// BodySize is the number of body bytes read.
func (e *Exchange) BodySize() int { return locked(e, func() int { return e.bodySize }) }

// IsJSON reports whether the body is one complete, valid JSON document in
// UTF-8.
// encoding/json bounds nesting depth, so a nesting bomb is simply invalid.
func (e *Exchange) IsJSON() bool { return locked(e, func() bool { return e.isJSONLocked() }) }

func (e *Exchange) isJSONLocked() bool {
	if e.valid == nil {
		b := e.body
		// JSON text is UTF-8 (RFC 8259, 8.1); json.Valid alone lets
		// invalid bytes inside strings through. (A released body always
		// has its verdict cached: release computes it first.)
		v := !e.Truncated && !e.BodyCut && len(bytes.TrimSpace(b)) > 0 && utf8.Valid(b) && json.Valid(b)
		e.valid = &v
	}
	return *e.valid
}

// JSON parses the body with gjson (cached). A body that is not one valid
// JSON document (truncated, HTML, a nesting bomb) or was released gives
// the empty result, so every path reads as missing instead of as whatever
// a lenient parser makes of garbage.
func (e *Exchange) JSON() gjson.Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.parsed == nil {
		var r gjson.Result
		if e.isJSONLocked() && !e.released && len(e.body) > 0 {
			// The body as a string without a copy: it is never written
			// once read (Body), and a copy would double what a big
			// answer holds in memory.
			r = gjson.Parse(unsafe.String(unsafe.SliceData(e.body), len(e.body)))
		}
		e.parsed = &r
	}
	return *e.parsed
}

// StatusErr is the error that keeps the status from being judged: Err,
// except for a cut body (BodyCut), whose status and headers arrived whole.
// Rules about the status or headers read StatusErr; rules about the body
// read Err (and say "not checked" when BodyCut).
func (e *Exchange) StatusErr() error {
	if e.BodyCut {
		return nil
	}
	return e.Err
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
func (e *Exchange) Curl() string { return locked(e, func() string { return e.curl }) }

// RequestLine is "METHOD URL".
func (e *Exchange) RequestLine() string { return e.Method + " " + e.URL }

// BodyExcerpt is the start of the response body, redacted and made
// printable: what failure messages and reports show, before and after the
// body is released.
func (e *Exchange) BodyExcerpt() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.released {
		return e.excerpt
	}
	if e.head != nil {
		return redactedExcerpt(e.red, e.head, responseExcerpt)
	}
	return redactedExcerpt(e.red, e.body, responseExcerpt)
}

// GomegaString is how Gomega renders the exchange (format.GomegaStringer):
// its request line. Gomega formats the actual value of every failing
// custom matcher whether the message shows it or not, and the raw struct
// would copy a body of up to Config.MaxBody, several times over, into a
// string nobody reads.
func (e *Exchange) GomegaString() string { return e.RequestLine() }

// String renders the exchange for a failure message or a report.
func (e *Exchange) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "request:  %s\n", e.RequestLine())
	for _, name := range []string{"Content-Type", AuthorizationHeader, AuthTokenHeader} {
		for _, v := range e.RequestHeader.Values(name) {
			fmt.Fprintf(&b, "          %s: %s\n", name, v)
		}
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
		} else if e.BodyCut {
			body += fmt.Sprintf(" …[cut: the connection closed after %d bytes]", size)
		} else if size > len(body) {
			body += fmt.Sprintf(" …[%d bytes in all]", size)
		}
		fmt.Fprintf(&b, "          body: %s\n", indentTail(body))
	}
	if e.Redirect != "" {
		fmt.Fprintf(&b, "note:     %s\n", e.Redirect)
	}
	if e.Replayed {
		fmt.Fprintf(&b, "replayed: not sent again; this is the answer to #%d, from the run's read cache\n", e.Seq)
	}
	if e.TransportRetry != "" {
		fmt.Fprintf(&b, "retried:  sent again once after its first try failed: %s\n", e.TransportRetry)
	}
	for _, r := range e.Retries {
		fmt.Fprintf(&b, "retried:  %s\n", r)
	}
	if c := e.Curl(); c != "" {
		fmt.Fprintf(&b, "reproduce: %s\n", c)
	}
	return b.String()
}

// release drops the full body of an exchange once its scope has ended,
// keeping its redacted excerpt, and cuts a long curl line. A pinned
// exchange is left whole: false then, and its release is up to a later
// scope (exchangeLog.SetScope tries again once it is unpinned).
func (e *Exchange) release() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pins > 0 {
		return false
	}
	e.folded = nil // taken by whoever read it; the read cache keeps its own
	if len(e.curl) > maxKeptCurl {
		e.curl = e.curl[:maxKeptCurl] + " …[cut: the request body was too long to keep]"
	}
	// Keep small bodies whole: they are what later cross-checks read.
	if e.released || len(e.body) <= responseExcerpt {
		return true
	}
	e.isJSONLocked() // IsJSON stays a fact about the body as received
	src := e.body
	if e.head != nil {
		src = e.head
	}
	e.excerpt = redactedExcerpt(e.red, src, responseExcerpt)
	e.body, e.released = nil, true
	e.parsed = nil // it shares the whole body
	return true
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
		s += sizeNoteStart + strconv.Itoa(len(b)) + sizeNoteEnd
	}
	return s
}

// The note excerpt adds after the start of a longer body: " …[N bytes in
// all]".
const (
	sizeNoteStart = " …["
	sizeNoteEnd   = " bytes in all]"
)

// RequestBodyCut reports whether RequestBody shows only the start of the
// request body (the first 2 KiB, then its size note), and then gives that
// start and the size of the whole body, redacted, in bytes. A body that is
// not UTF-8 is shown Go-quoted (strconv.Quote) either way.
func (e *Exchange) RequestBodyCut() (start string, size int, cut bool) {
	rest, ok := strings.CutSuffix(e.RequestBody, sizeNoteEnd)
	i := strings.LastIndex(rest, sizeNoteStart)
	if !ok || i < 0 {
		return e.RequestBody, 0, false
	}
	// A cut start is the excerpt's 2 KiB (less a split rune), or more
	// when quoted; a shorter body may end like the note itself.
	n, err := strconv.Atoi(rest[i+len(sizeNoteStart):])
	if err != nil || n <= requestExcerpt || i <= requestExcerpt-utf8.UTFMax {
		return e.RequestBody, 0, false
	}
	return rest[:i], n, true
}

func indentTail(s string) string { return strings.ReplaceAll(s, "\n", "\n          ") }
