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
	"reflect"
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
	forms    []string // every encoded form of every secret, longest first
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
	for _, f := range forms {
		args = append(args, f, pairs[f])
	}
	return &Redactor{replacer: strings.NewReplacer(args...), forms: forms}
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

// String returns s with every secret replaced. Most text holds none:
// looking for each form first is several times faster than the replacer's
// walk, which only text with a secret then takes.
func (r *Redactor) String(s string) string {
	if r == nil || !r.Finds(s) {
		return s
	}
	return r.replacer.Replace(s)
}

// Finds reports whether s holds a secret, in any of the encodings that
// String replaces.
func (r *Redactor) Finds(s string) bool {
	if r == nil {
		return false
	}
	for _, f := range r.forms {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// Bytes returns b with every secret replaced, in a new slice.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	s := string(b)
	if !r.Finds(s) {
		return []byte(s)
	}
	return []byte(r.replacer.Replace(s))
}

// Fields replaces every secret, in place, in the strings reachable from v,
// a non-nil pointer to data without cycles: through pointers, exported
// struct fields, slices, arrays and map values. A report model redacted so
// is clean in every format it is rendered to, whatever that format escapes:
// a redactor reading the rendered bytes misses a token whose "_" Markdown
// escaped, or whose "+" html/template wrote as "&#43;".
func (r *Redactor) Fields(v any) {
	if r != nil {
		r.walk(reflect.ValueOf(v))
	}
}

func (r *Redactor) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			r.walk(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				r.walk(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			r.walk(v.Index(i))
		}
	case reflect.Map:
		// Map values are not addressable: redact a copy and store it back.
		for it := v.MapRange(); it.Next(); {
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(it.Value())
			r.walk(val)
			v.SetMapIndex(it.Key(), val)
		}
	case reflect.String:
		if v.CanSet() {
			v.SetString(r.String(v.String()))
		}
	}
}

// Writer wraps w so that everything written through it is redacted. It
// holds back only a tail that could be the start of a secret, so that a
// secret split across two writes is still caught while everything else
// (partial lines, progress dots) streams at once; Flush writes the rest.
func (r *Redactor) Writer(w io.Writer) *Writer { return &Writer{r: r, w: w} }

// Writer is a redacting io.Writer.
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
	n := rw.r.safeEnd(data)
	if n == 0 {
		return len(p), nil
	}
	out := rw.r.Bytes(data[:n])
	rest := append([]byte(nil), data[n:]...)
	rw.buf.Reset()
	rw.buf.Write(rest)
	if _, err := rw.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// safeEnd returns how much of data can be redacted and written now: all of
// it but the tail from the start of any secret form that runs past the end
// (it may continue in the next write) or across the cut. Cutting inside a
// form would print its first half unredacted.
func (r *Redactor) safeEnd(data []byte) int {
	if r == nil {
		return len(data)
	}
	cut := len(data)
	for moved := true; moved; {
		moved = false
		for _, f := range r.forms {
			for start := max(0, cut-len(f)+1); start < cut; start++ {
				end := min(len(data), start+len(f))
				if string(data[start:end]) == f[:end-start] {
					cut, moved = start, true
					break
				}
			}
		}
	}
	return cut
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
