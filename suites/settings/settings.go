// Package settings checks spec sections 2.6, 4.9 and 4.10: reading the site
// settings and changing them.
//
// Every spec that changes a setting goes through framework.SettingsGuard:
// it reads the whole settings map and registers its restore before anything
// is sent; the spec changes one harmless field and judges; the restore puts
// back every field that differs and verifies the whole map with a GET. A
// restore that fails is recorded as a teardown problem (and in the run
// summary), so a broken target is never left changed silently.
package settings

import (
	"encoding/json"
	"html"
	"net/http"
	"reflect"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Register adds the settings specs for target t.
func Register(t *framework.Fixture) {
	Describe("4.9 GET /api/settings", Label(spec.GetSettings.Label()), func() {
		t.It("SETTINGS-GET-SHAPE", func(ctx SpecContext) {
			if !t.Client.HasAuth() {
				framework.NotChecked("GET /api/settings needs the authentication token, and none was given (--auth-token)")
			}
			ex := t.ReadAuth(ctx, "/api/settings", nil)
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("settings-response.json"))
			if ex.Get("data.customFields").Exists() {
				Expect(ex).To(framework.HaveJSON("data.customFields", holdJSON()), "customFields must be JSON text (spec 2.6)")
			}
		})

		// The target's own customFields may hold no string at all ("{}"),
		// and then reading it cannot tell JSON text from HTML-escaped text.
		// This case sets a value with strings in it (a custom field named
		// by the run marker) and reads it back.
		t.It("SETTINGS-GET-SHAPE", func(ctx SpecContext) {
			g := t.GuardSettings(ctx, "customFields set to a value with a field of the run's own")
			requireCustomFields(g)
			value := customFieldsProbe(g.Original()["customFields"], t.Marker("field"))
			put := g.Put(ctx, map[string]any{"customFields": value})
			if put.Err != nil || put.Status != http.StatusOK {
				framework.NotChecked("PUT of a valid customFields value was not accepted (HTTP %d), so it could not be read back (see SETTINGS-EDIT-OK)", put.Status)
			}
			ex := t.ReadAuth(ctx, "/api/settings", nil)
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("settings-response.json"))
			Expect(ex).To(framework.HaveJSON("data.customFields", holdJSON()),
				"customFields was set to %s; it must read back as JSON text (spec 2.6)", value)
			cf := ex.Get("data.customFields")
			var sent, got any
			_ = json.Unmarshal([]byte(value), &sent)
			if json.Unmarshal([]byte(cf.String()), &got) == nil && !reflect.DeepEqual(sent, got) {
				t.Observe("customFields set to %s read back as other JSON: %s", value, cf.String())
			}
		}, framework.Case("customFields set by the run reads back as JSON text"), framework.SettingsWrites, Serial)
	})

	Describe("4.10 PUT /api/settings", Label(spec.EditSettings.Label()), Serial, func() {
		t.It("SETTINGS-EDIT-OK", func(ctx SpecContext) {
			g := t.GuardSettings(ctx, "slogan changed")
			needField(g, "slogan")
			ex := g.Put(ctx, map[string]any{"slogan": t.Marker("slogan")})
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("settings-edit-response.json"))
		})

		t.It("SETTINGS-EDIT-PARTIAL", func(ctx SpecContext) {
			g := t.GuardSettings(ctx, "slogan changed")
			needField(g, "slogan")
			value := t.Marker("slogan")
			put := g.Put(ctx, map[string]any{"slogan": value})
			Expect(put).To(framework.HaveHTTPStatus(http.StatusOK), "a PUT changing only slogan")
			ex, after, problem := t.ReadSettings(ctx)
			Expect(problem).To(BeEmpty(), framework.Evidence(ex, "GET /api/settings after the change gives the settings"))
			Expect(ex).To(framework.HaveJSON("data.slogan", Equal(value)), "the slogan sent must show in the next GET")
			Expect(framework.SettingsDiff(g.Original(), after, "slogan")).To(BeEmpty(), framework.Evidence(ex,
				"a PUT changes only the fields present: every other field must keep its value"))
		})

		t.It("SETTINGS-CUSTOMFIELDS-400", func(ctx SpecContext) {
			g := t.GuardSettings(ctx, "customFields sent as invalid JSON")
			requireCustomFields(g)
			put := g.Put(ctx, map[string]any{"customFields": "{not json"})
			Expect(put).To(framework.BeHandlerError(http.StatusBadRequest), "customFields that is not valid JSON is refused with 400 (spec 2.6, 4.10)")
			ex, after, problem := t.ReadSettings(ctx)
			Expect(problem).To(BeEmpty(), framework.Evidence(ex, "GET /api/settings after the refused update gives the settings"))
			Expect(framework.SettingsDiff(g.Original(), after)).To(BeEmpty(), framework.Evidence(ex, "a refused update changes nothing"))
		})
	})
}

// holdJSON expects a customFields value that holds JSON text: a string
// that parses as JSON, or JSON other than null (an object the server
// decoded, whose type SETTINGS-GET-SHAPE's schema judges).
func holdJSON() types.GomegaMatcher {
	return gcustom.MakeMatcher(func(v any) (bool, error) {
		switch s := v.(type) {
		case nil:
			return false, nil
		case string:
			return json.Valid([]byte(s)), nil
		}
		return true, nil
	}).WithMessage("hold JSON text")
}

// needField stops a spec that changes a named field the target does not
// have (the set of fields depends on the host version, spec 2.6).
func needField(g *framework.SettingsGuard, name string) {
	if _, ok := g.Original()[name]; !ok {
		framework.NotChecked("the target's settings have no %s field to change", name)
	}
}

// customFieldsProbe returns current customFields (an object, JSON text or
// HTML-escaped JSON text; anything else counts as empty) with one more
// field, a text field named name.
func customFieldsProbe(current any, name string) string {
	fields := map[string]any{}
	switch v := current.(type) {
	case map[string]any:
		fields = v
	case string:
		if json.Unmarshal([]byte(v), &fields) != nil {
			fields = map[string]any{}
			if json.Unmarshal([]byte(html.UnescapeString(v)), &fields) != nil {
				fields = map[string]any{}
			}
		}
	}
	probe := map[string]any{}
	for k, v := range fields {
		probe[k] = v
	}
	probe[name] = map[string]any{"type": "string", "label": "Conformance suite probe"}
	b, _ := json.Marshal(probe)
	return string(b)
}

// requireCustomFields stops a spec that would send customFields to a target
// whose settings have none: on such a host the field appears when first set
// (the previous release does this), and no API call can remove it again, so
// the settings could not be restored exactly.
func requireCustomFields(g *framework.SettingsGuard) {
	if _, had := g.Original()["customFields"]; !had {
		framework.NotChecked("the target's settings have no customFields field; setting one could not be undone through the API")
	}
}
