// Package redact removes secret values from everything the suite writes:
// console output, reports, curl lines, recorded exchanges.
//
// Secrets are replaced by shell variable references (${CONFORMANCE_TOKEN}),
// so a redacted curl line still runs when the variables are exported.
package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"net/url"
	"sort"
	"strings"
	"sync"
)

// Secret is one value to hide and the placeholder shown instead.
type Secret struct {
	Value       string
	Placeholder string
}

// Redactor replaces every known encoding of each secret. It is safe for
// concurrent use and cheap to call on strings without secrets.
type Redactor struct {
	replacer *strings.Replacer
	longest  int
}

// minSecretLen guards against redacting every "a" when a user passes a
// one-letter token: such short values are not worth hiding and would turn
// every output into placeholders.
const minSecretLen = 4

// New builds a redactor for the given secrets; empty and very short values
// are ignored.
func New(secrets ...Secret) *Redactor {
	pairs := map[string]string{}
	for _, s := range secrets {
		if len(s.Value) < minSecretLen {
			continue
		}
		for _, form := range encodings(s.Value) {
			pairs[form] = s.Placeholder
		}
	}
	// Longer forms first, so an encoded form is not half-replaced by a
	// shorter one that is its prefix.
	forms := make([]string, 0, len(pairs))
	for f := range pairs {
		forms = append(forms, f)
	}
	sort.Slice(forms, func(i, j int) bool {
		if len(forms[i]) != len(forms[j]) {
			return len(forms[i]) > len(forms[j])
		}
		return forms[i] < forms[j]
	})
	var args []string
	longest := 0
	for _, f := range forms {
		args = append(args, f, pairs[f])
		if len(f) > longest {
			longest = len(f)
		}
	}
	return &Redactor{replacer: strings.NewReplacer(args...), longest: longest}
}

// encodings lists the ways a value travels: as is, query- and path-escaped,
// JSON-escaped, HTML-escaped, base64.
func encodings(v string) []string {
	jsonForm, _ := json.Marshal(v) // escapes <, >, & as \u003c…
	var plainJSON bytes.Buffer
	enc := json.NewEncoder(&plainJSON)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	forms := []string{
		v,
		url.QueryEscape(v),
		url.PathEscape(v),
		strings.Trim(string(jsonForm), `"`),
		strings.Trim(strings.TrimSpace(plainJSON.String()), `"`),
		strings.ReplaceAll(strings.Trim(string(jsonForm), `"`), "/", `\/`),
		html.EscapeString(v),
		base64.StdEncoding.EncodeToString([]byte(v)),
		base64.URLEncoding.EncodeToString([]byte(v)),
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range forms {
		if f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// String returns s with every secret replaced.
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	return r.replacer.Replace(s)
}

// Bytes returns b with every secret replaced.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	return []byte(r.replacer.Replace(string(b)))
}

// Writer wraps w so that everything written through it is redacted. It
// buffers up to the last newline so that a secret split across two writes is
// still caught; Close (or Flush) writes the rest.
func (r *Redactor) Writer(w io.Writer) *Writer { return &Writer{r: r, w: w} }

// Writer is a line-buffered redacting io.Writer.
type Writer struct {
	mu  sync.Mutex
	r   *Redactor
	w   io.Writer
	buf bytes.Buffer
}

func (rw *Writer) Write(p []byte) (int, error) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	rw.buf.Write(p)
	data := rw.buf.Bytes()
	cut := bytes.LastIndexByte(data, '\n')
	// Without a newline, keep at most one secret's length back so long
	// unbroken output (a progress bar) still streams.
	if cut < 0 {
		keep := rw.r.longest
		if len(data) <= keep {
			return len(p), nil
		}
		cut = len(data) - keep - 1
	}
	out := rw.r.Bytes(data[:cut+1])
	rest := append([]byte(nil), data[cut+1:]...)
	rw.buf.Reset()
	rw.buf.Write(rest)
	if _, err := rw.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes any buffered tail.
func (rw *Writer) Flush() error {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.buf.Len() == 0 {
		return nil
	}
	_, err := rw.w.Write(rw.r.Bytes(rw.buf.Bytes()))
	rw.buf.Reset()
	return err
}
