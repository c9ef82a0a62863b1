package settingsguard

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
)

// This file restores and compares settings maps for Guard
// (settings.go): the restore itself, the test of fields that change by
// themselves, and reading and diffing the map.

// restoreSettings puts back every field of original that differs on the
// target, volatile fields aside, then verifies the whole map with a GET. It
// returns "" when the settings are exactly as before, or what is still
// wrong. current, when not nil, is the settings as the target holds them
// now (read since the last request that may have changed them), which
// spares the first read. A first PUT sends the values as read; for fields
// that still differ, a second sends them HTML-unescaped and objects or
// arrays as JSON text (see secondTry), and a third those that differ
// still, the same way: a field the server derives from another of the same
// update (the host sets locale from a new language) is right only once
// sent after it, alone. A field still different after the tries is put to
// the test of settleVolatile before it is reported.
func restoreSettings(ctx context.Context, t *framework.Fixture, original, current map[string]any, volatile ...string) string {
	return restore(ctx, t, original, current, false, volatile...)
}

// restore is restoreSettings; atRunEnd: the restore's writes are the
// run's last (the settings container's), and each read that verifies an
// update brings the listing of every page the run reads at its end along
// (Fixture.ReadWithRunPages), sparing that listing a round trip of its own.
func restore(ctx context.Context, t *framework.Fixture, original, current map[string]any, atRunEnd bool, volatile ...string) string {
	var failed []string
	for attempt := 0; ; attempt++ {
		if current == nil {
			var problem string
			if attempt > 0 && atRunEnd {
				current, problem = settingsOf(t.ReadWithRunPages(ctx, settingsRead))
			} else {
				_, current, problem = Read(ctx, t)
			}
			if problem != "" {
				return "reading them back: " + problem
			}
		}
		body := map[string]any{}
		for k, v := range original {
			if cur, ok := current[k]; (ok && reflect.DeepEqual(cur, v)) || slices.Contains(volatile, k) {
				continue
			}
			if attempt > 0 {
				v = secondTry(v)
			} else {
				v = firstTry(k, v)
			}
			body[k] = v
		}
		if len(body) == 0 || attempt == restoreTries {
			break // restored, or every try sent: current is the verifying read
		}
		ex := t.Write(ctx, http.MethodPut, "/api/settings", body)
		t.NoteWrite(ex) // a restore without an answer may land late too
		if ex.Err != nil || ex.Status != http.StatusOK {
			failed = append(failed, fmt.Sprintf("PUT %s answered %s", strings.Join(slices.Sorted(maps.Keys(body)), ", "), match.Outcome(ex)))
		}
		current = nil
	}
	volatile = slices.Concat(volatile, settleVolatile(ctx, t, changedFields(original, current, volatile...)))
	d := Diff(original, current, volatile...)
	if len(d) == 0 {
		return ""
	}
	return strings.Join(append(d, failed...), "; ")
}

// restoreTries bounds the PUTs of a restore.
const restoreTries = 3

// volatilePause separates the two reads of settleVolatile: longer than the
// one-second resolution of a time a server may keep in a setting.
const volatilePause = 1100 * time.Millisecond

// settleVolatile reads the settings twice, volatilePause apart, and returns
// those of fields that changed between the two reads (none when fields is
// empty: nothing is read then).
func settleVolatile(ctx context.Context, t *framework.Fixture, fields []string) []string {
	if len(fields) == 0 {
		return nil
	}
	_, first, problem := Read(ctx, t)
	if problem != "" {
		return nil
	}
	select {
	case <-ctx.Done():
		return nil
	case <-time.After(volatilePause):
	}
	_, second, problem := Read(ctx, t, framework.Fresh())
	if problem != "" {
		return nil
	}
	changed := changedFields(first, second)
	return slices.DeleteFunc(slices.Clone(fields), func(f string) bool { return !slices.Contains(changed, f) })
}

// settledChanges lists the names of the fields of now that differ from
// before, except the named fields and the volatile ones, sorted. Fields
// that differ are put to the test of settleVolatile: those that change by
// themselves are left out of changed and returned as late (volatile from
// now on).
func settledChanges(ctx context.Context, t *framework.Fixture, before, now map[string]any, volatile []string, except ...string) (changed, late []string) {
	ignore := slices.Concat(except, volatile)
	changed = changedFields(before, now, ignore...)
	late = settleVolatile(ctx, t, changed)
	changed = slices.DeleteFunc(changed, func(f string) bool { return slices.Contains(late, f) })
	return changed, late
}

// firstTry is how the first PUT of a restore sends the value v of field
// k: as read, but customFields that is JSON text only once HTML-unescaped
// unescaped. 2.6 has customFields be JSON text, and a server that reads it
// back encoded (as the host does, sanitising every value) refuses the
// encoded text with 400: sent so, it would cost a refused PUT and a read
// before the second try.
func firstTry(k string, v any) any {
	if s, ok := v.(string); ok && k == "customFields" && !json.Valid([]byte(s)) {
		if u := html.UnescapeString(s); json.Valid([]byte(u)) {
			return u
		}
	}
	return v
}

// secondTry is how a value that did not read back as sent is sent again:
// a string HTML-unescaped, for servers that return stored text encoded but
// encode what they are sent (spec 1: input is sanitised once); an object or
// array as JSON text, for servers that return stored JSON text (such as
// customFields) decoded but take only text.
func secondTry(v any) any {
	switch x := v.(type) {
	case string:
		return html.UnescapeString(x)
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

// Read reads the whole settings map (both tokens). Numbers are kept
// as written (json.Number) so that comparing maps is exact. The string is
// what went wrong, "" when the map was read. opts: Fresh for the second of
// two reads that find the fields changing by themselves (the read cache
// would answer it with the first).
func Read(ctx context.Context, t *framework.Fixture, opts ...framework.RequestOption) (*client.Exchange, map[string]any, string) {
	ex := t.ReadAuth(ctx, settingsRead.Path, nil, opts...)
	m, problem := settingsOf(ex)
	return ex, m, problem
}

// settingsRead is the request Read sends.
var settingsRead = client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.BothTokens}

// settingsOf decodes the settings map of a GET /api/settings exchange, or
// says what went wrong.
func settingsOf(ex *client.Exchange) (map[string]any, string) {
	if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsObject() {
		return nil, "GET /api/settings: " + match.Outcome(ex)
	}
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(ex.Get("data").Raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, "GET /api/settings: data: " + err.Error()
	}
	return m, ""
}

// changedFields lists the names of the fields whose values differ between
// before and after (or that only one of them has), except the named ones,
// sorted.
func changedFields(before, after map[string]any, except ...string) []string {
	keys := slices.Collect(maps.Keys(before))
	for k := range after {
		if _, ok := before[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return slices.DeleteFunc(keys, func(k string) bool {
		b, inBefore := before[k]
		a, inAfter := after[k]
		return slices.Contains(except, k) || (inBefore && inAfter && reflect.DeepEqual(a, b))
	})
}

// Diff lists the fields whose values differ between before and
// after, except the named ones, one line each, sorted.
func Diff(before, after map[string]any, except ...string) []string {
	var out []string
	for _, k := range changedFields(before, after, except...) {
		b, inBefore := before[k]
		a, inAfter := after[k]
		switch {
		case !inAfter:
			out = append(out, fmt.Sprintf("%s: was %s, now missing", k, showValue(b)))
		case !inBefore:
			out = append(out, fmt.Sprintf("%s: not there before, now %s", k, showValue(a)))
		case !reflect.DeepEqual(a, b):
			out = append(out, fmt.Sprintf("%s: was %s, now %s", k, showValue(b), showValue(a)))
		}
	}
	return out
}

// showValue renders a decoded JSON value for a message, shortened.
func showValue(v any) string {
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
