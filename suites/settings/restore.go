package settings

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"reflect"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// guard holds the settings as they were before a spec changed them, and
// puts them back when the spec ends, however it ends.
type guard struct {
	t        *framework.Fixture
	what     string         // what the spec changes, for the run summary
	original map[string]any // the whole settings map before the change
	sent     bool           // a PUT was sent: restore and record
}

// protect reads the whole settings map and registers its restore with
// DeferCleanup before the spec sends any change: the restore then runs
// when the spec passes, fails, times out or the run is interrupted.
func protect(ctx context.Context, t *framework.Fixture, what string) *guard {
	_, original, problem := readSettings(ctx, t)
	if problem != "" {
		framework.NotChecked("the settings could not be read before changing them, so they could not be restored (%s)", problem)
	}
	g := &guard{t: t, what: what, original: original}
	DeferCleanup(func(ctx SpecContext) {
		cctx, cancel := framework.CleanupContext(ctx)
		defer cancel()
		g.restore(cctx)
	})
	return g
}

// put sends a settings change.
func (g *guard) put(ctx context.Context, fields map[string]any) *client.Exchange {
	g.sent = true
	return g.t.Write(ctx, http.MethodPut, "/api/settings", fields)
}

func (g *guard) restore(ctx context.Context) {
	if !g.sent {
		return
	}
	if problem := restoreSettings(ctx, g.t, g.original); problem != "" {
		g.t.Ledger.AddProblem(g.t.Client.Redactor().String("settings (" + g.what + ") not restored: " + problem))
		g.t.Ledger.SettingsChanged(g.what + "; the restore FAILED (see the problems)")
		return
	}
	g.t.Ledger.SettingsChanged(g.what + "; every field restored and verified")
}

// restoreSettings puts back every field of original that differs on the
// target, then verifies the whole map with a GET. It returns "" when the
// settings are exactly as before, or what is still wrong. A first PUT sends
// the values as read; for fields that still differ, a second sends them
// HTML-unescaped and objects or arrays as JSON text (see secondTry).
func restoreSettings(ctx context.Context, t *framework.Fixture, original map[string]any) string {
	var failed []string
	for attempt := 0; attempt < 2; attempt++ {
		_, current, problem := readSettings(ctx, t)
		if problem != "" {
			return "reading them back: " + problem
		}
		body := map[string]any{}
		for k, v := range original {
			if cur, ok := current[k]; ok && equal(cur, v) {
				continue
			}
			if attempt > 0 {
				v = secondTry(v)
			}
			body[k] = v
		}
		if len(body) == 0 {
			break
		}
		if ex := t.Write(ctx, http.MethodPut, "/api/settings", body); ex.Err != nil || ex.Status != http.StatusOK {
			failed = append(failed, fmt.Sprintf("PUT %s answered %s", strings.Join(sortedKeys(body), ", "), outcome(ex)))
		}
	}
	_, current, problem := readSettings(ctx, t)
	if problem != "" {
		return "reading them back: " + problem
	}
	d := diff(original, current)
	if len(d) == 0 {
		return ""
	}
	if len(failed) > 0 {
		d = append(d, failed...)
	}
	return strings.Join(d, "; ")
}

// secondTry is how a value that did not read back as sent is sent again:
// a string HTML-unescaped, for servers that return stored text encoded but
// encode what they are sent (spec 1: input is sanitised once); an object or
// array as JSON text, for servers that return stored JSON text (such as
// customFields) decoded but take only text.
func secondTry(v any) any {
	switch x := v.(type) {
	case string:
		return unescape(x)
	case map[string]any, []any:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(x) == nil {
			return strings.TrimSpace(b.String())
		}
	}
	return v
}

// readSettings reads the whole settings map (both tokens). Numbers are kept
// as written (json.Number) so that comparing maps is exact.
func readSettings(ctx context.Context, t *framework.Fixture) (*client.Exchange, map[string]any, string) {
	ex := t.ReadAuth(ctx, "/api/settings", nil)
	if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsObject() {
		return ex, nil, "GET /api/settings: " + outcome(ex)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(ex.Get("data").Raw)))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return ex, nil, "GET /api/settings: data: " + err.Error()
	}
	return ex, m, ""
}

// diff lists the fields whose values differ between before and after,
// except the named ones, one line each, sorted.
func diff(before, after map[string]any, except ...string) []string {
	skip := map[string]bool{}
	for _, e := range except {
		skip[e] = true
	}
	var out []string
	for _, k := range sortedKeys(union(before, after)) {
		if skip[k] {
			continue
		}
		b, inBefore := before[k]
		a, inAfter := after[k]
		switch {
		case !inAfter:
			out = append(out, fmt.Sprintf("%s: was %s, now missing", k, show(b)))
		case !inBefore:
			out = append(out, fmt.Sprintf("%s: not there before, now %s", k, show(a)))
		case !equal(a, b):
			out = append(out, fmt.Sprintf("%s: was %s, now %s", k, show(b), show(a)))
		}
	}
	return out
}

func union(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func equal(a, b any) bool { return reflect.DeepEqual(a, b) }

// show renders a value for a message, shortened.
func show(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // settings hold HTML-encoded text: show it as is
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSpace(b.String())
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func unescape(s string) string { return html.UnescapeString(s) }

func describe(r gjson.Result) string {
	if !r.Exists() {
		return "(missing)"
	}
	return r.Raw
}

// outcome summarises an exchange in a few words.
func outcome(ex *client.Exchange) string {
	if ex.Err != nil {
		return "request failed: " + ex.Err.Error()
	}
	body := ex.BodyExcerpt()
	if len(body) > 200 {
		body = body[:200] + "…"
	}
	return strings.TrimSpace(fmt.Sprintf("HTTP %d %s", ex.Status, body))
}
