// Package har writes a run's exchanges as an HTTP Archive (HAR 1.2,
// http://www.softwareishard.com/blog/har-12-spec/), the format browsers'
// developer tools import: a server author opens the requests and answers
// of a run in the tools they already use.
//
// A HAR is evidence like every other output: it never holds a token (the
// client records URLs and headers redacted, bodies are redacted here, and
// the whole log once more before it is encoded), and it never passes a
// part for the whole. What the log cannot show as it was sent or received
// is said in HAR's comment fields and in custom fields, which HAR allows
// when their names start with "_" (see Entry, Content and PostData):
// a body cut at the read limit, cut by the connection, or kept only in
// part; a request that was never sent; a read the run's cache answered.
//
// Build and Write take any list of exchanges (a whole run's, or the few a
// finding rests on) and use what the exchanges still hold of their bodies.
// A Recorder, attached to a client before its first request, keeps more
// of each large body than the client does after a spec ends, within
// bounds (Limits).
package har

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"slices"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/redact"
)

// HAR is the document: one log.
type HAR struct {
	Log Log `json:"log"`
}

// Log is HAR's log object.
type Log struct {
	Version string  `json:"version"`
	Creator Creator `json:"creator"`
	// Pages is always present, and empty: a run loads no page, and
	// browsers' importers read the list without checking it is there.
	// Each entry names the spec that made it in _scope instead.
	Pages   []Page  `json:"pages"`
	Comment string  `json:"comment,omitempty"`
	Entries []Entry `json:"entries"` // last: Encode streams them
}

// Creator names the program that wrote the log.
type Creator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Page is HAR's page object (unused, see Log.Pages).
type Page struct {
	StartedDateTime string      `json:"startedDateTime"`
	ID              string      `json:"id"`
	Title           string      `json:"title"`
	PageTimings     PageTimings `json:"pageTimings"`
}

// PageTimings is HAR's pageTimings object.
type PageTimings struct {
	OnContentLoad float64 `json:"onContentLoad"`
	OnLoad        float64 `json:"onLoad"`
}

// Entry is one exchange.
type Entry struct {
	StartedDateTime string   `json:"startedDateTime"`
	Time            float64  `json:"time"` // ms: the sum of Timings
	Request         Request  `json:"request"`
	Response        Response `json:"response"`
	Cache           struct{} `json:"cache"`
	Timings         Timings  `json:"timings"`
	Comment         string   `json:"comment,omitempty"`

	// Seq is the exchange's number in the run (#N in the reports); a
	// replay has the number of the exchange whose answer it repeats.
	Seq int `json:"_seq"`
	// Scope is what was running: the text of the spec that made the
	// request.
	Scope string `json:"_scope,omitempty"`
	// Replayed: the run's read cache answered this read and nothing was
	// sent; FromCache is then "memory", the value by which Chrome's
	// importer shows it "(memory cache)".
	Replayed  bool   `json:"_replayed,omitempty"`
	FromCache string `json:"_fromCache,omitempty"`
	// Unsent: the request never left the client (Response._error says
	// why): refused by the read-only guard, after the run's time limit,
	// or a body that could not be built.
	Unsent bool `json:"_unsent,omitempty"`
	// Retries lists the times a read answered 429 or 503 was sent again;
	// TransportRetry why it was sent a second time after a cut connection.
	Retries        []string `json:"_retries,omitempty"`
	TransportRetry string   `json:"_transportRetry,omitempty"`
	// ResourceType "fetch" files the requests under Fetch/XHR in Chrome.
	ResourceType string `json:"_resourceType"`
}

// Request is HAR's request object.
type Request struct {
	Method      string      `json:"method"`
	URL         string      `json:"url"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []Cookie    `json:"cookies"`
	Headers     []NameValue `json:"headers"`
	QueryString []NameValue `json:"queryString"`
	PostData    *PostData   `json:"postData,omitempty"`
	HeadersSize int         `json:"headersSize"`
	BodySize    int         `json:"bodySize"`
	Comment     string      `json:"comment,omitempty"`
}

// Response is HAR's response object. A request that got no answer has
// status 0 and the reason in Error, as browsers export failed requests.
type Response struct {
	Status      int         `json:"status"`
	StatusText  string      `json:"statusText"`
	HTTPVersion string      `json:"httpVersion"`
	Cookies     []Cookie    `json:"cookies"`
	Headers     []NameValue `json:"headers"`
	Content     Content     `json:"content"`
	RedirectURL string      `json:"redirectURL"`
	HeadersSize int         `json:"headersSize"`
	BodySize    int         `json:"bodySize"`
	Comment     string      `json:"comment,omitempty"`
	Error       string      `json:"_error,omitempty"`
	// FinalURL is set when same-host redirects were followed: the URL
	// that gave this answer.
	FinalURL string `json:"_finalURL,omitempty"`
}

// NameValue is a header or a query parameter.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Cookie is HAR's cookie object.
type Cookie struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Path     string `json:"path,omitempty"`
	Domain   string `json:"domain,omitempty"`
	Expires  string `json:"expires,omitempty"`
	HTTPOnly bool   `json:"httpOnly,omitempty"`
	Secure   bool   `json:"secure,omitempty"`
}

// PostData is the request body. Text is always set (importers show it);
// Params too for a form body, as Chrome writes both.
type PostData struct {
	MimeType string      `json:"mimeType"`
	Text     string      `json:"text"`
	Params   []NameValue `json:"params,omitempty"`
	Comment  string      `json:"comment,omitempty"`
	// Truncated: Text is the start of the body only (Comment says how
	// much there was).
	Truncated bool `json:"_truncated,omitempty"`
}

// Content is the response body.
type Content struct {
	Size     int    `json:"size"` // bytes received
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Encoding string `json:"encoding,omitempty"` // "base64" for a body that is not UTF-8
	Comment  string `json:"comment,omitempty"`
	// Truncated: Text is not the whole body (Comment says why: the read
	// limit, a cut connection, or the HAR's own bounds).
	Truncated bool `json:"_truncated,omitempty"`
}

// Timings is HAR's timings object. The client measures each exchange as
// a whole, so all of it is given as Wait.
type Timings struct {
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
}

// Options says who writes the log and what it is.
type Options struct {
	Creator Creator
	// Comment is the log's comment, e.g. which run of which target.
	Comment string
	// BodyLimit bounds the text of each body in the log of Build and
	// Write (0: DefaultBodyLimit); a Recorder's logs use its Limits.
	BodyLimit int
}

// Build makes the log of exs, with what each still holds of its body:
// the whole of it (up to o.BodyLimit) during the spec that made it and
// for small bodies, the client's 4 KiB excerpt once released. red is the
// client's redactor (client.Client.Redactor): it redacts the bodies, and
// then every string of the log.
func Build(exs []*client.Exchange, red *redact.Redactor, o Options) *HAR {
	return collect(o, entries(exs, red, o.BodyLimit, nil))
}

func collect(o Options, es iter.Seq[Entry]) *HAR {
	h := &HAR{Log: head(o)}
	h.Log.Entries = slices.AppendSeq(h.Log.Entries, es)
	return h
}

// Write writes the log of exs (see Build) to w, one entry at a time: the
// log is never whole in memory.
func Write(w io.Writer, exs []*client.Exchange, red *redact.Redactor, o Options) error {
	return encode(w, head(o), entries(exs, red, o.BodyLimit, nil))
}

// Encode writes h to w as indented JSON.
func (h *HAR) Encode(w io.Writer) error {
	return encode(w, h.Log, slices.Values(h.Log.Entries))
}

// logComment says, once for every entry, what the log's numbers and
// texts are.
const logComment = "Tokens are replaced by " + client.TokenPlaceholder + " and " + client.AuthTokenPlaceholder +
	". Timings: the client measures each exchange as a whole (retries and their waits included), given as wait. " +
	"httpVersion is not recorded. A body that is not whole says so in its comment and _truncated. " +
	"_seq is the exchange's number (#N in the other reports), _scope the spec that made it."

// head is the log without its entries.
func head(o Options) Log {
	comment := logComment
	if o.Comment != "" {
		comment = o.Comment + "\n" + logComment
	}
	return Log{Version: "1.2", Creator: o.Creator, Pages: []Page{}, Comment: comment, Entries: []Entry{}}
}

// entries makes the entry of each exchange, redacted, in the order they
// started; kept, when not nil, gives what a Recorder kept of the body of
// exchange number seq.
func entries(exs []*client.Exchange, red *redact.Redactor, limit int, kept func(seq int) *keptBody) iter.Seq[Entry] {
	if limit <= 0 {
		limit = DefaultBodyLimit
	}
	order := slices.Clone(exs)
	// HAR prefers entries by start; a stable sort keeps the record's order
	// (the numbers) among requests that started together.
	slices.SortStableFunc(order, func(a, b *client.Exchange) int { return a.Started.Compare(b.Started) })
	return func(yield func(Entry) bool) {
		for _, ex := range order {
			var k *keptBody
			if kept != nil {
				k = kept(ex.Seq)
			}
			e := entry(ex, red, limit, k)
			// The client's fields are redacted already and so are the
			// bodies: this pass is for whatever reached the entry
			// another way.
			red.Fields(&e)
			if !yield(e) {
				return
			}
		}
	}
}

// encode writes the log l with the entries es (l.Entries is not read) as
// indented JSON, encoding one entry at a time.
func encode(w io.Writer, l Log, es iter.Seq[Entry]) error {
	l.Entries = []Entry{}
	var top bytes.Buffer
	if err := encodeJSON(&top, HAR{Log: l}, ""); err != nil {
		return err
	}
	// The entries are the log's last member: write up to its "[", the
	// entries, then the rest.
	const empty = `"entries": []`
	i := bytes.LastIndex(top.Bytes(), []byte(empty))
	if i < 0 {
		return errors.New("har: the log's entries are not where expected")
	}
	bw := bufio.NewWriter(w)
	bw.Write(top.Bytes()[:i+len(empty)-1])
	n := 0
	for e := range es {
		if n > 0 {
			bw.WriteByte(',')
		}
		n++
		bw.WriteString("\n      ")
		if err := encodeJSON(bw, e, "      "); err != nil {
			return err
		}
	}
	if n > 0 {
		bw.WriteString("\n    ")
	}
	bw.Write(top.Bytes()[i+len(empty)-1:])
	bw.WriteByte('\n')
	return bw.Flush()
}

// encodeJSON writes v indented by two spaces after prefix, with no
// trailing newline; <, > and & stay as they are (a body shows as sent).
func encodeJSON(w io.Writer, v any, prefix string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return err
}
