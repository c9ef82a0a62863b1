package settings

import (
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

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/coverkit"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// Partial updates proven from both sides (4.10: only fields present
// change). The slogan change sends slogan alone: every other field is shown
// kept. A second update sends every other field 2.6 names that the site has
// and a run can change (theme aside: no endpoint names another theme the
// site has), slogan and locale omitted: each is read back with its new value, and
// slogan, theme and every field not sent are shown kept, but locale when
// the language changed: the host sets locale from a new language, over a
// locale sent with it (shared/observations/host-settings-writes.md), so a
// third update sends locale alone, after the language. customFields goes
// in the second only as the site's own definition with one label changed, on a site
// that has a custom field (customfields.go). The guard restores every field
// after the container's last spec, and verifies the restore.

// othersChange is the update of every other named field.
type othersChange struct {
	before map[string]any // the settings just before it
	sent   map[string]any
	// label is the label customFields changed, field the field whose
	// label it is ("" when customFields was not sent: why says why).
	label, field, why string
	put               *client.Exchange
	read              *client.Exchange
	after             map[string]any
	problem           string // the settings could not be read after it
}

// otherValues are the values the second update sends: for each field 2.6
// names that the site has, besides slogan, theme and locale (which follows
// the language on the host: see localeChange), a new value of the
// field's example kind (a run-marked text, or the first of a few usual
// values that differs from the site's). None of them holds a character
// HTML encoding would change, so each must read back as sent (as
// sameSetting compares: a path prefix a server writes its own way still
// reads as sent).
func (w *writes) otherValues(before map[string]any) map[string]any {
	values := map[string]any{
		"title":       "Conformance " + w.t.Marker("title"),
		"description": "Conformance " + w.t.Marker("description"),
		"language":    pickSetting(before, "language", "de", "fr"),
		"timezone":    pickSetting(before, "timezone", "Europe/Berlin", "America/New_York"),
		"homepage":    w.t.Marker("home"),
		"uriPage":     "/" + w.t.Marker("page") + "/",
		"uriBlog":     "/" + w.t.Marker("blog") + "/",
		"uriTag":      "/" + w.t.Marker("tag") + "/",
		"uriCategory": "/" + w.t.Marker("category") + "/",
	}
	for f := range values {
		if _, has := before[f]; !has {
			delete(values, f) // never add a field the site does not have
		}
	}
	if _, hasLanguage := before["language"]; !hasLanguage && has(before, "locale") {
		values["locale"] = pickSetting(before, "locale", "de,de_DE", "fr,fr_FR") // no language it could follow
	}
	return values
}

// pickSetting is the first of options that does not read as field's value
// in settings.
func pickSetting(settings map[string]any, field string, options ...string) string {
	for _, o := range options {
		if !sameSetting(field, o, settings[field], "", "") {
			return o
		}
	}
	return options[0]
}

// followers are the fields the host derives from others of the same
// update that sent sent, and that a server may so change without their
// being sent: locale, when language was sent with a new value (the host
// sets it from the language's file). before and after are the settings
// around the update.
func followers(sent map[string]any, before, after map[string]any) []string {
	if _, ok := sent["locale"]; ok {
		return nil
	}
	if _, ok := sent["language"]; ok && !reflect.DeepEqual(before["language"], after["language"]) {
		return []string{"locale"}
	}
	return nil
}

// changeOthers makes the update of every other named field, once: the
// first spec that needs it sends it, a later one judges the same answers.
func (w *writes) changeOthers(ctx SpecContext) *othersChange {
	if w.others != nil {
		w.t.Judged(w.others.put, w.others.read)
		return w.others
	}
	w.g.Begin(ctx)
	_, before, problem := w.g.Current(ctx)
	if problem != "" {
		verdicts.NotChecked("the settings could not be read before the update (%s)", problem)
	}
	c := &othersChange{before: before, sent: w.otherValues(before)}
	if _, had := w.g.Original()["customFields"]; !had {
		c.why = "the site's settings have no customFields field; setting one could not be undone through the API"
	} else if defs, ok := customFieldDefs(w.g.Original()["customFields"]); !ok || !hasObjectDef(defs) {
		c.why = fmt.Sprintf("the site has no custom field whose definition is an object (customFields %s), and %s",
			showJSON(w.g.Original()["customFields"]), noFieldReason)
	} else {
		c.label = "Conformance " + w.t.Marker("label")
		c.field = firstObjectDef(defs)
		c.sent["customFields"] = customFieldsProbe(defs, c.label)
	}
	c.put = w.g.Put(ctx, c.sent)
	if c.put.Err == nil && c.put.Status == http.StatusOK {
		c.read, c.after, c.problem = w.g.Read(ctx)
	}
	w.others = c
	return c
}

// editOthers: SETTINGS-EDIT-PARTIAL's case of the update of every other
// named field. Each value sent must read back, and every field not sent
// keep its value: one check, so that one value read back otherwise does not
// hide the rest.
func (w *writes) editOthers(ctx SpecContext) {
	c := w.changeOthers(ctx)
	if c.put.Err != nil || c.put.Status == http.StatusBadRequest {
		verdicts.NotChecked("the update of %v was refused (%s): the spec does not say which values of these fields a site "+
			"takes (2.6 gives only an example kind)", slices.Sorted(maps.Keys(c.sent)), match.Outcome(c.put))
	}
	Expect(c.put).To(match.HaveHTTPStatus(http.StatusOK), "a PUT of every other field 2.6 names")
	Expect(c.problem).To(BeEmpty(), match.Evidence(c.read, "GET /api/settings after the update gives the settings"))
	check := w.t.NewCheck()
	sent := slices.Sorted(maps.Keys(c.sent))
	for _, f := range sent {
		check.Exercised(coverage.CellID("update", f, coverage.Edit))
		got := c.read.Get("data." + f)
		switch {
		case !got.Exists():
			check.Problem(c.read, "%s, sent as %s, is missing from the next GET", f, showJSON(c.sent[f]))
		case !sameSetting(f, c.sent[f], got.Value(), c.field, c.label):
			check.Problem(c.read, "%s was sent as %s, reads back %s", f, showJSON(c.sent[f]), got.Raw)
		}
	}
	followed := followers(c.sent, c.before, c.after)
	w.expectKept(ctx, check, c.read, c.before, c.after, slices.Concat(sent, followed)...)
	for _, f := range followed {
		if !reflect.DeepEqual(c.before[f], c.after[f]) {
			w.t.Observe("SETTINGS-EDIT-PARTIAL: %s followed the language sent: was %s, now %s (the host sets it from the language)",
				f, showJSON(c.before[f]), showJSON(c.after[f]))
		}
	}
	check.Expect("a PUT changes only the fields present: each field sent reads back with its new value, and slogan, theme " +
		"and every field not sent keep their values (locale aside when the language changed: it may follow it)")
	if c.why != "" {
		w.t.Observe("SETTINGS-EDIT-PARTIAL: customFields was not part of the update of every other field: %s", c.why)
	}
}

// sameSetting reports whether got, read back, shows the value sent for
// field. 2.6 gives the named fields only an example kind, so a value a
// server may write its own way is compared by what it says: locale as a
// comma-separated list (spaces around the commas aside), a path prefix
// with its leading and trailing slashes aside, customFields by the label
// sent for field cfField; every other value exactly.
func sameSetting(field string, sent, got any, cfField, label string) bool {
	switch {
	case field == "customFields":
		ok, _ := holdLabel(cfField, label).Match(got)
		return ok
	case field == "locale":
		s, ok1 := sent.(string)
		g, ok2 := got.(string)
		return ok1 && ok2 && slices.Equal(localeList(s), localeList(g))
	case strings.HasPrefix(field, "uri"):
		s, ok1 := sent.(string)
		g, ok2 := got.(string)
		return ok1 && ok2 && strings.Trim(s, "/") == strings.Trim(g, "/")
	}
	return reflect.DeepEqual(sent, got)
}

// localeList splits a comma-separated locale list into its entries.
func localeList(s string) []string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// expectKept adds to check SETTINGS-EDIT-PARTIAL's other side of an update
// that sent the fields sent: every field before has and the update did not
// send must read the same after. The guard is asked first which fields
// changed (which also finds the fields that change by themselves, late);
// only then are the update.<field>.kept cells of the fields compared marked,
// so that a field found volatile is never counted as shown kept.
func (w *writes) expectKept(ctx SpecContext, check *coverkit.Check, ex *client.Exchange, before, after map[string]any, sent ...string) {
	changed := w.g.Changed(ctx, before, after, sent...)
	for _, f := range coverage.SettingsFields() {
		if has(before, f) && !slices.Contains(sent, f) && !slices.Contains(w.g.Volatile(), f) {
			check.Exercised(coverage.CellID("update", f, coverage.Kept))
		}
	}
	for _, d := range changed {
		check.Problem(ex, "%s", d)
	}
}

// holdLabelTemplate is holdLabel's message, parsed once (match.MessageTemplate).
var holdLabelTemplate = match.MessageTemplate("Expected customFields whose field {{.Data.Field}} has the label {{.Data.Label}} sent, got {{.FormattedActual}}")

// holdLabel expects a decoded customFields value (JSON text, HTML-escaped
// JSON text, or an object) whose definition of field carries label.
func holdLabel(field, label string) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(v any) (bool, error) {
		defs, ok := customFieldDefs(v)
		if !ok {
			return false, nil
		}
		def, _ := defs[field].(map[string]any)
		got, _ := def["label"].(string)
		return got == label || html.UnescapeString(got) == label, nil
	}).WithPrecompiledTemplate(holdLabelTemplate,
		map[string]any{"Field": fmt.Sprintf("%q", field), "Label": fmt.Sprintf("%q", label)})
}

func has(m map[string]any, k string) bool { _, ok := m[k]; return ok }

// hasObjectDef reports whether a definition of defs is an object (one whose
// label the probe can change).
func hasObjectDef(defs map[string]any) bool { return firstObjectDef(defs) != "" }

// firstObjectDef is the first field (by name) whose definition is an
// object: the one customFieldsProbe changes.
func firstObjectDef(defs map[string]any) string {
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		if _, ok := defs[name].(map[string]any); ok {
			return name
		}
	}
	return ""
}
