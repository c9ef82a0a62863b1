// Package settings checks spec sections 2.6, 4.9 and 4.10: reading the site
// settings and changing them.
//
// Every spec that changes a setting goes through framework.SettingsGuard:
// it reads the whole settings map and registers its restore before anything
// is sent; the spec changes one harmless field and judges; the restore puts
// back every field that differs and verifies the whole map with a GET. A
// restore that fails is recorded as a teardown problem (and in the run
// summary), so a broken target is never left changed silently. customFields
// is only ever sent back with the field names the site already has (see
// customfields.go): a new name would stay with every page for good.
package settings

import (
	"net/http"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
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

		t.It("SETTINGS-GET-SHAPE", func(ctx SpecContext) { checkCustomFieldsRoundTrip(ctx, t) },
			framework.Case("the site's customFields, one label changed, reads back as JSON text"), framework.SettingsWrites, Serial)
	})

	Describe("4.10 PUT /api/settings", Label(spec.EditSettings.Label()), Serial, func() {
		t.It("SETTINGS-EDIT-OK", func(ctx SpecContext) {
			g := t.GuardSettings(ctx, "slogan changed")
			needField(g, "slogan")
			ex := g.Put(ctx, map[string]any{"slogan": t.Marker("slogan")})
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("settings-edit-response.json"))
		})

		t.It("SETTINGS-EDIT-PARTIAL", func(ctx SpecContext) { checkEditPartial(ctx, t) })

		t.It("SETTINGS-CUSTOMFIELDS-400", func(ctx SpecContext) {
			g := t.GuardSettings(ctx, "customFields sent as invalid JSON")
			requireCustomFields(g)
			// Sent as a request the target must refuse: the guard restores
			// the settings (and says so) only if it took it after all.
			put := g.Send(ctx, client.Request{Method: http.MethodPut, Path: "/api/settings",
				JSON: map[string]any{"customFields": "{not json"}, Credentials: client.BothTokens})
			Expect(put).To(framework.BeHandlerError(http.StatusBadRequest), "customFields that is not valid JSON is refused with 400 (spec 2.6, 4.10)")
			ex, after, problem := t.ReadSettings(ctx)
			Expect(problem).To(BeEmpty(), framework.Evidence(ex, "GET /api/settings after the refused update gives the settings"))
			Expect(after["customFields"]).To(Equal(g.Original()["customFields"]), framework.Evidence(ex,
				"a refused update changes nothing: customFields, the field it tried to change, keeps its value"))
		})

		// Spec 1: form-encoded values are sanitised exactly once. Checked
		// here on the settings (pages: suites/pages/writes), with slogan.
		t.It("GEN-FORM-SANITISED-ONCE", func(ctx SpecContext) {
			g := t.GuardSettings(ctx, "slogan changed by a form-encoded PUT")
			needField(g, "slogan")
			sent := "Conformance " + t.Marker("form") + " Salt & Pepper"
			put := g.PutForm(ctx, url.Values{"slogan": {sent}})
			if put.Err != nil || put.Status != http.StatusOK {
				framework.NotChecked("the form-encoded PUT /api/settings was not accepted (%s), so nothing could be read back", framework.Outcome(put))
			}
			ex := t.ReadAuth(ctx, "/api/settings", nil)
			Expect(ex).To(framework.HaveJSON("data.slogan", Or(Equal(sent), framework.BeEncodedOnce(sent))),
				"slogan sent form-encoded reads back as sent or HTML-encoded once, never twice (spec 1: sanitised exactly once)")
		}, framework.Case("PUT /api/settings"), spec.EditSettings, framework.SettingsWrites)
	})
}

// checkEditPartial: SETTINGS-EDIT-PARTIAL. slogan alone is changed; every
// other field, named in 2.6 or not, must read back as before, except the
// fields that change between reads with no update between (2.6: the set of
// fields is the host's; one may be a read counter or time), which the
// guard finds and which are only recorded.
func checkEditPartial(ctx SpecContext, t *framework.Fixture) {
	g := t.GuardSettings(ctx, "slogan changed")
	needField(g, "slogan")
	value := t.Marker("slogan")
	put := g.Put(ctx, map[string]any{"slogan": value})
	Expect(put).To(framework.HaveHTTPStatus(http.StatusOK), "a PUT changing only slogan")
	ex, after, problem := t.ReadSettings(ctx)
	Expect(problem).To(BeEmpty(), framework.Evidence(ex, "GET /api/settings after the change gives the settings"))
	Expect(ex).To(framework.HaveJSON("data.slogan", Equal(value)), "the slogan sent must show in the next GET")
	changed := g.Changed(ctx, after, "slogan")
	if v := g.Volatile(); len(v) > 0 {
		t.Observe("settings fields %s change between two reads with no update between: SETTINGS-EDIT-PARTIAL does not compare them",
			strings.Join(v, ", "))
	}
	if len(g.Original())-1-len(g.Volatile()) < 1 {
		framework.NotChecked("the settings have no field besides slogan that keeps its value between reads: nothing could show a change")
	}
	Expect(changed).To(BeEmpty(), framework.Evidence(ex,
		"a PUT changes only the fields present: every other field (those that change between reads aside) must keep its value"))
}

// needField stops a spec that changes a named field the target does not
// have (SETTINGS-GET-SHAPE fails such a target: 2.6 names the field).
func needField(g *framework.SettingsGuard, name string) {
	if _, ok := g.Original()[name]; !ok {
		framework.NotChecked("the target's settings have no %s field to change (see SETTINGS-GET-SHAPE)", name)
	}
}
