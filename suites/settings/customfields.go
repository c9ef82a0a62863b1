package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"

	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/settingsguard"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// Custom fields are forever: on the host system, a customFields setting
// naming a field the site did not have adds that field to the stored record
// of every page, and nothing ever removes it (the API does not show it). So
// the run never sends a customFields value naming a field the site does not
// already have: the round trip below sends back the site's own definition,
// with the label of one field changed, and the guard restores it.

// noFieldReason is why the round trip is not checked on a site without
// custom fields.
const noFieldReason = "the only way to check it would leave a field on every page: a customFields value " +
	"that holds a string names a custom field, and the host adds every field it is ever given to the stored " +
	"record of every page, for good"

// customFieldsRoundTrip: SETTINGS-GET-SHAPE's second case. The target's
// own customFields may hold no string ("{}"), and then reading it cannot
// tell JSON text from HTML-escaped text; a value the run sets, with strings
// in it, read back, can. The value is the site's customFields as the guard
// first read them (Original), before any spec of the container changed
// anything, with one label changed: it goes in the update of every other
// field (partial.go), whose read back this case judges. When the site
// refuses that update with 400, another field's value may be the cause: the
// value is then sent alone, and that read back judged.
func (w *writes) customFieldsRoundTrip(ctx SpecContext) {
	w.g.Begin(ctx)
	requireCustomFields(w.g)
	c := w.changeOthers(ctx)
	if _, sent := c.sent["customFields"]; !sent {
		verdicts.NotChecked("%s", c.why)
	}
	value := c.sent["customFields"].(string)
	put, ex := c.put, c.read
	what := fmt.Sprintf("the update of %v", slices.Sorted(maps.Keys(c.sent)))
	if put.Err == nil && put.Status == http.StatusBadRequest {
		// Refused, perhaps for another field's value (which values a
		// field takes is not shown, 2.6): customFields goes again alone.
		put, ex = w.g.Put(ctx, map[string]any{"customFields": value}), nil
		what = "a PUT of customFields alone, after " + what + " was refused (" + match.Outcome(c.put) + "),"
		if put.Err == nil && put.Status == http.StatusOK {
			ex, _, _ = w.g.Read(ctx)
		}
	}
	if put.Err != nil || put.Status != http.StatusOK {
		verdicts.NotChecked("%s, holding the site's own customFields (one label changed), was not accepted (%s), so it could not be "+
			"read back (see SETTINGS-EDIT-OK)", what, match.Outcome(put))
	}
	Expect(ex).To(match.BeSuccess(http.StatusOK))
	Expect(ex).To(match.MatchSchema("settings-response.json"))
	w.t.ExpectReadBack(coverage.CellID("update", "customFields", coverage.Edit), ex, "data.customFields", holdJSON(),
		"customFields was set to %s; it must read back as JSON text (spec 2.6), or JSON text HTML-encoded once (spec 1.4)", value)
	cf := ex.Get("data.customFields")
	var sent any
	_ = json.Unmarshal([]byte(value), &sent)
	if got, ok := jsonText(cf.String()); ok && !reflect.DeepEqual(sent, got) {
		w.t.Observe("customFields set to %s read back as other JSON: %s", value, cf.String())
	}
}

// holdJSON expects a customFields value that holds JSON text: a string
// that parses as JSON, or does once HTML-decoded (the host's core
// sanitises every settings value once, spec 1.4, customFields included), or
// JSON other than null (an object the server decoded, whose type
// SETTINGS-GET-SHAPE's schema judges).
func holdJSON() types.GomegaMatcher {
	return gcustom.MakeMatcher(func(v any) (bool, error) {
		switch s := v.(type) {
		case nil:
			return false, nil
		case string:
			_, ok := jsonText(s)
			return ok, nil
		}
		return true, nil
	}).WithMessage("hold JSON text (as sent, or HTML-encoded once)")
}

// jsonText decodes s as JSON text, or as JSON text HTML-encoded once.
func jsonText(s string) (any, bool) {
	var v any
	for _, text := range []string{s, html.UnescapeString(s)} {
		if json.Unmarshal([]byte(text), &v) == nil {
			return v, true
		}
	}
	return nil, false
}

// customFieldDefs decodes a customFields value as read (JSON text,
// HTML-escaped JSON text, or an object a server decoded) into the site's
// custom field definitions, by field name; ok is false when it is no JSON
// object.
func customFieldDefs(current any) (defs map[string]any, ok bool) {
	switch v := current.(type) {
	case map[string]any:
		return v, true
	case string:
		for _, text := range []string{v, html.UnescapeString(v)} {
			dec := json.NewDecoder(strings.NewReader(text))
			dec.UseNumber()
			if dec.Decode(&defs) == nil && defs != nil {
				return defs, true
			}
		}
	}
	return nil, false
}

// customFieldsProbe returns the site's definitions defs as JSON text with
// one change that names no new field: the label of the first field (by
// name) whose definition is an object set to label. When no definition is
// an object, the definitions go back unchanged. Either way the value names
// exactly the fields the site has.
func customFieldsProbe(defs map[string]any, label string) string {
	probe := maps.Clone(defs)
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		if def, ok := defs[name].(map[string]any); ok {
			def = maps.Clone(def)
			def["label"] = label
			probe[name] = def
			break
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // sent as the site would write it
	_ = enc.Encode(probe)    // decoded JSON values always encode
	return strings.TrimSpace(b.String())
}

// showJSON renders a decoded settings value for a reason or message.
func showJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "(unprintable)"
	}
	return string(b)
}

// requireCustomFields stops a spec that would send customFields to a target
// whose settings have none: on such a host the field appears when first set
// (the previous release does this), and no API call can remove it again, so
// the settings could not be restored exactly.
func requireCustomFields(g *settingsguard.Guard) {
	if _, had := g.Original()["customFields"]; !had {
		verdicts.NotChecked("the target's settings have no customFields field; setting one could not be undone through the API")
	}
}
