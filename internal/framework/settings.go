package framework

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
)

// SettingsGuard holds the settings as they were before a spec sent a
// request that may change them, and puts them back when the spec ends,
// however it ends. Every spec that touches PUT /api/settings goes through
// one, whether it means to change a setting or sends a request the target
// must refuse.
type SettingsGuard struct {
	t        *Fixture
	what     string         // what the spec sends, for the run summary
	original map[string]any // the whole settings map before
	// volatile are the fields that changed between two reads with no
	// update between (2.6 names some fields; the others are the host's, and
	// may be a read counter or time): neither restored nor compared.
	volatile []string
	changes  bool // a change was meant (Put)
	sent     bool // a request that may change them was sent
}

// GuardSettings reads the whole settings map (twice: fields that change
// between the two reads are volatile) and registers its restore with
// DeferCleanup before the spec sends anything: the restore then runs when
// the spec passes, fails, times out or the run is interrupted. Settings
// that cannot be read could not be restored, so the spec is then not
// checked. what says what the spec sends, for the run summary.
func (t *Fixture) GuardSettings(ctx context.Context, what string) *SettingsGuard {
	g, reason := t.TryGuardSettings(ctx, what)
	if reason != "" {
		notChecked(reason, 2)
	}
	return g
}

// TryGuardSettings is GuardSettings for a prepare or Share function
// (Prepare), which may not skip a spec: when the settings cannot be read
// it returns no guard and why, for judge to say. The restore runs when the
// spec that judges ctx ends (after the group's last spec, for a Share
// function).
func (t *Fixture) TryGuardSettings(ctx context.Context, what string) (*SettingsGuard, string) {
	_, first, problem := t.ReadSettings(ctx)
	var original map[string]any
	if problem == "" {
		_, original, problem = t.readSettings(ctx, Fresh())
	}
	if problem != "" {
		return nil, "the settings could not be read before changing them, so they could not be restored (" + problem + ")"
	}
	g := &SettingsGuard{t: t, what: what, original: original, volatile: changedFields(first, original)}
	t.deferCleanup(ctx, func(ctx context.Context) {
		cctx, cancel := CleanupContext(ctx)
		defer cancel()
		g.restore(cctx)
	})
	return g, ""
}

// Original is the settings map as it was before the spec (not to be
// changed).
func (g *SettingsGuard) Original() map[string]any { return g.original }

// Volatile lists the fields that changed between two reads with no update
// between, sorted.
func (g *SettingsGuard) Volatile() []string { return g.volatile }

// Put sends a settings change with both tokens.
func (g *SettingsGuard) Put(ctx context.Context, fields map[string]any) *client.Exchange {
	g.changes, g.sent = true, true
	return g.t.Write(ctx, http.MethodPut, "/api/settings", fields)
}

// PutForm sends a settings change as a form-encoded body (spec 1), with
// both tokens.
func (g *SettingsGuard) PutForm(ctx context.Context, form url.Values) *client.Exchange {
	g.changes, g.sent = true, true
	return g.t.Client.Do(ctx, client.Request{Method: http.MethodPut, Path: "/api/settings", Form: form, Credentials: client.BothTokens})
}

// Changed lists the fields of now (a settings map read after the spec's
// request) that differ from the original, one line each, except the named
// fields and the volatile ones. A field that differs is read twice more,
// volatilePause apart, and counted volatile (and left out) when it changes
// between those reads: a field a server updates by itself with one-second
// resolution may not change between two quick reads.
func (g *SettingsGuard) Changed(ctx context.Context, now map[string]any, except ...string) []string {
	ignore := slices.Concat(except, g.volatile)
	if late := g.t.settleVolatile(ctx, changedFields(g.original, now, ignore...)); len(late) > 0 {
		g.volatile = slices.Sorted(slices.Values(slices.Concat(g.volatile, late)))
		ignore = append(ignore, late...)
	}
	return SettingsDiff(g.original, now, ignore...)
}

// Send sends a request that should not change the settings (one the target
// must refuse); should it change them after all, they are restored too.
func (g *SettingsGuard) Send(ctx context.Context, r client.Request) *client.Exchange {
	g.sent = true
	return g.t.Client.Do(ctx, r)
}

// restore puts back what changed and records the outcome in the ledger: a
// meant change always, a request that should have changed nothing only
// when it did.
func (g *SettingsGuard) restore(ctx context.Context) {
	if !g.sent {
		return
	}
	if !g.changes {
		if _, now, problem := g.t.ReadSettings(ctx); problem == "" && len(changedFields(g.original, now, g.volatile...)) == 0 {
			return
		}
	}
	if problem := g.t.restoreSettings(ctx, g.original, g.volatile...); problem != "" {
		g.t.Ledger.AddProblem(g.t.Client.Redactor().String("settings (" + g.what + ") not restored: " + problem))
		g.t.Ledger.SettingsChanged(g.what + "; the restore FAILED (see the problems)")
		return
	}
	g.t.Ledger.SettingsChanged(g.what + "; every field restored and verified")
}

// restoreSettings puts back every field of original that differs on the
// target, volatile fields aside, then verifies the whole map with a GET. It
// returns "" when the settings are exactly as before, or what is still
// wrong. A first PUT sends the values as read; for fields that still
// differ, a second sends them HTML-unescaped and objects or arrays as JSON
// text (see secondTry). A field still different after both is put to the
// test of settleVolatile before it is reported.
func (t *Fixture) restoreSettings(ctx context.Context, original map[string]any, volatile ...string) string {
	var failed []string
	for attempt := 0; attempt < 2; attempt++ {
		_, current, problem := t.ReadSettings(ctx)
		if problem != "" {
			return "reading them back: " + problem
		}
		body := map[string]any{}
		for k, v := range original {
			if cur, ok := current[k]; (ok && reflect.DeepEqual(cur, v)) || slices.Contains(volatile, k) {
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
			failed = append(failed, fmt.Sprintf("PUT %s answered %s", strings.Join(slices.Sorted(maps.Keys(body)), ", "), Outcome(ex)))
		}
	}
	_, current, problem := t.ReadSettings(ctx)
	if problem != "" {
		return "reading them back: " + problem
	}
	volatile = slices.Concat(volatile, t.settleVolatile(ctx, changedFields(original, current, volatile...)))
	d := SettingsDiff(original, current, volatile...)
	if len(d) == 0 {
		return ""
	}
	return strings.Join(append(d, failed...), "; ")
}

// volatilePause separates the two reads of settleVolatile: longer than the
// one-second resolution of a time a server may keep in a setting.
const volatilePause = 1100 * time.Millisecond

// settleVolatile reads the settings twice, volatilePause apart, and returns
// those of fields that changed between the two reads (none when fields is
// empty: nothing is read then).
func (t *Fixture) settleVolatile(ctx context.Context, fields []string) []string {
	if len(fields) == 0 {
		return nil
	}
	_, first, problem := t.ReadSettings(ctx)
	if problem != "" {
		return nil
	}
	select {
	case <-ctx.Done():
		return nil
	case <-time.After(volatilePause):
	}
	_, second, problem := t.readSettings(ctx, Fresh())
	if problem != "" {
		return nil
	}
	changed := changedFields(first, second)
	return slices.DeleteFunc(slices.Clone(fields), func(f string) bool { return !slices.Contains(changed, f) })
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

// ReadSettings reads the whole settings map (both tokens). Numbers are kept
// as written (json.Number) so that comparing maps is exact. The string is
// what went wrong, "" when the map was read.
func (t *Fixture) ReadSettings(ctx context.Context) (*client.Exchange, map[string]any, string) {
	return t.readSettings(ctx)
}

// readSettings is ReadSettings with options: Fresh for the second of two
// reads that find the fields changing by themselves (the read cache would
// answer it with the first).
func (t *Fixture) readSettings(ctx context.Context, opts ...RequestOption) (*client.Exchange, map[string]any, string) {
	ex := t.ReadAuth(ctx, "/api/settings", nil, opts...)
	if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsObject() {
		return ex, nil, "GET /api/settings: " + Outcome(ex)
	}
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(ex.Get("data").Raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return ex, nil, "GET /api/settings: data: " + err.Error()
	}
	return ex, m, ""
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

// SettingsDiff lists the fields whose values differ between before and
// after, except the named ones, one line each, sorted.
func SettingsDiff(before, after map[string]any, except ...string) []string {
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
