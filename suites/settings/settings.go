// Package settings checks spec sections 2.6, 4.9 and 4.10: reading the site
// settings and changing them.
//
// The read stands with the run's other reads. The specs that change the
// settings stand in one Ordered container, one after another (a setting
// is global: no two changes may overlap), and share one
// settingsguard.Guard: it reads the whole settings map before the
// first change; each spec changes one harmless field, or sends a change the
// target must refuse, and judges what it sees; after the last spec (also
// when one fails or the run is interrupted) the guard puts back every field
// that differs and verifies the whole map with one GET. A restore that
// fails is recorded as a teardown problem (and in the run summary), so a
// broken target is never left changed silently. customFields is only ever
// sent back with the field names the site already has (see
// customfields.go): a new name would stay with every page for good.
package settings

import (
	"net/http"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/settingsguard"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Register adds the settings specs for target t.
func Register(t *framework.Fixture) {
	Describe("4.9 GET /api/settings", Label(spec.GetSettings.Label()), framework.PhaseReads, func() {
		t.It("SETTINGS-GET-SHAPE", func(ctx SpecContext) {
			if !t.Client.HasAuth() {
				verdicts.NotChecked("GET /api/settings needs the authentication token, and none was given (--auth-token)")
			}
			ex := t.ReadAuth(ctx, "/api/settings", nil)
			Expect(ex).To(match.BeSuccess(http.StatusOK))
			Expect(ex).To(match.MatchSchema("settings-response.json"))
			if ex.Get("data.customFields").Exists() {
				Expect(ex).To(match.HaveJSON("data.customFields", holdJSON()), "customFields must be JSON text (spec 2.6)")
			}
		})
	})

	Describe("4.10 PUT /api/settings", Label(spec.EditSettings.Label()), framework.PhaseSettingsWrites, Serial, Ordered, ContinueOnFailure, func() {
		w := &writes{t: t, g: settingsguard.InOrder(t, "the settings specs")}
		t.It("SETTINGS-EDIT-OK", w.editOK)
		t.It("SETTINGS-EDIT-PARTIAL", w.editOthers, framework.Case("every other field 2.6 names, slogan omitted"))
		// locale alone after the language (which rewrites it on the
		// host), and slogan alone after that: a server that sets locale
		// from the language on every update would change it then.
		t.It("SETTINGS-EDIT-PARTIAL", w.editLocale, framework.Case("locale alone, after the language"))
		t.It("SETTINGS-EDIT-PARTIAL", w.editPartial, framework.Case("slogan alone"))
		t.It("SETTINGS-CUSTOMFIELDS-400", w.customFieldsInvalid)
		t.It("SETTINGS-GET-SHAPE", w.customFieldsRoundTrip,
			framework.Case("the site's customFields, one label changed, reads back as JSON text"), spec.GetSettings, framework.SettingsWrites)
		// Spec 1: form-encoded values are sanitised exactly once. Checked
		// here on the settings (pages: suites/pages/writes), with slogan.
		t.It("GEN-FORM-SANITISED-ONCE", w.formSanitisedOnce,
			framework.Case("PUT /api/settings"), spec.EditSettings, framework.SettingsWrites)
	})
}

// writes is what the specs of the settings-writes container share: the
// container's guard, and the updates that SETTINGS-EDIT-OK,
// SETTINGS-EDIT-PARTIAL and SETTINGS-GET-SHAPE judge (each PUT sent once:
// the first spec that needs it sends it, later ones judge its answers). The specs run one after another in
// the container's order, in one goroutine.
type writes struct {
	t      *framework.Fixture
	g      *settingsguard.Guard
	slogan *sloganChange // nil until made
	others *othersChange // nil until made (partial.go)
}

// sloganChange is a form-encoded PUT changing slogan alone (spec 1:
// bodies may be form-encoded), and the read that follows it. Its value
// holds an ampersand: GEN-FORM-SANITISED-ONCE judges the same read back.
type sloganChange struct {
	before  map[string]any // the settings just before it
	value   string
	put     *client.Exchange
	read    *client.Exchange
	after   map[string]any
	problem string // the settings could not be read after it
	// formRefused is the form-encoded PUT when the site refused it: put
	// is then the same change sent as JSON.
	formRefused *client.Exchange
}

// changeSlogan makes the slogan change, once: the first spec that needs it
// sends it and reads the settings back, a later one judges the same
// answers (shown among its evidence).
func (w *writes) changeSlogan(ctx SpecContext) *sloganChange {
	if w.slogan != nil {
		w.t.Judged(w.slogan.put, w.slogan.read)
		return w.slogan
	}
	w.g.Begin(ctx)
	needField(w.g, "slogan")
	_, before, problem := w.g.Current(ctx)
	if problem != "" {
		verdicts.NotChecked("the settings could not be read before changing slogan (%s)", problem)
	}
	c := &sloganChange{before: before, value: "Conformance " + w.t.Marker("slogan") + " Salt & Pepper"}
	c.put = w.g.PutForm(ctx, url.Values{"slogan": {c.value}})
	if c.put.Err == nil && c.put.Status >= 400 && c.put.Status < 500 {
		// Refused form-encoded (GEN-FORM-BODY judges that): slogan alone
		// goes again as JSON, so that an update of one field is still
		// shown to leave every other as it was.
		c.formRefused = c.put
		c.put = w.g.Put(ctx, map[string]any{"slogan": c.value})
	}
	if c.put.Err == nil && c.put.Status == http.StatusOK {
		c.read, c.after, c.problem = w.g.Read(ctx)
	}
	w.slogan = c
	return c
}

// readBack expects a value sent form-encoded: as sent, or HTML-encoded
// once, never twice (spec 1; the spec does not say settings are stored
// encoded). GEN-FORM-SANITISED-ONCE's: SETTINGS-EDIT-PARTIAL asks only that
// the value shows (match.DecodeTo).
func readBack(sent string) types.GomegaMatcher { return Or(Equal(sent), match.BeEncodedOnce(sent)) }

// editOK: SETTINGS-EDIT-OK, on the answer of the first update: the one of
// every other named field (partial.go), or, when the site refused those
// values (the spec does not say which it takes), the slogan change.
func (w *writes) editOK(ctx SpecContext) {
	put := w.changeOthers(ctx).put
	if put.Err == nil && put.Status == http.StatusBadRequest {
		put = w.changeSlogan(ctx).put
	}
	Expect(put).To(match.BeSuccess(http.StatusOK))
	Expect(put).To(match.MatchSchema("settings-edit-response.json"))
}

// editPartial: SETTINGS-EDIT-PARTIAL. slogan alone is changed; every other
// field, named in 2.6 or not, must read back as just before, except the
// fields that change between reads with no update between (2.6: the set of
// fields is the host's; one may be a read counter or time), which the
// guard finds and which are only recorded.
func (w *writes) editPartial(ctx SpecContext) {
	c := w.changeSlogan(ctx)
	Expect(c.put).To(match.HaveHTTPStatus(http.StatusOK), "a PUT changing only slogan")
	ex, after := c.read, c.after
	Expect(c.problem).To(BeEmpty(), match.Evidence(ex, "GET /api/settings after the change gives the settings"))
	// That the change shows, however many times the value was encoded:
	// how many times is GEN-FORM-SANITISED-ONCE's (4.10 does not say).
	w.t.ExpectReadBack(coverage.CellID("update", "slogan", coverage.Edit), ex, "data.slogan", match.DecodeTo(c.value),
		"the slogan sent must show in the next GET (as sent or HTML-encoded)")
	check := w.t.NewCheck()
	w.expectKept(ctx, check, ex, c.before, after, "slogan")
	if v := w.g.Volatile(); len(v) > 0 {
		w.t.Observe("settings fields %s change between two reads with no update between: SETTINGS-EDIT-PARTIAL does not compare them",
			strings.Join(v, ", "))
	}
	if len(c.before)-1-len(w.g.Volatile()) < 1 {
		verdicts.NotChecked("the settings have no field besides slogan that keeps its value between reads: nothing could show a change")
	}
	check.Expect("a PUT changes only the fields present: every other field (those that change between reads aside) must keep its value")
}

// customFieldsInvalid: SETTINGS-CUSTOMFIELDS-400. Sent as a request the
// target must refuse: the guard restores the settings like any other
// change (and says so) if it took it after all.
func (w *writes) customFieldsInvalid(ctx SpecContext) {
	w.g.Begin(ctx)
	requireCustomFields(w.g)
	beforeEx, before, problem := w.g.Current(ctx)
	if problem != "" {
		verdicts.NotChecked("the settings could not be read before the update (%s)", problem)
	}
	w.t.Judged(beforeEx)
	put := w.g.Send(ctx, client.Request{Method: http.MethodPut, Path: "/api/settings",
		JSON: map[string]any{"customFields": "{not json"}, Credentials: client.BothTokens})
	Expect(put).To(match.BeHandlerError(http.StatusBadRequest), "customFields that is not valid JSON is refused with 400 (spec 2.6, 4.10)")
	ex, after, problem := w.g.Read(ctx)
	Expect(problem).To(BeEmpty(), match.Evidence(ex, "GET /api/settings after the refused update gives the settings"))
	Expect(after["customFields"]).To(Equal(before["customFields"]), match.Evidence(ex,
		"a refused update changes nothing: customFields, the field it tried to change, keeps its value"))
}

// formSanitisedOnce: GEN-FORM-SANITISED-ONCE on a form-encoded PUT of
// slogan.
func (w *writes) formSanitisedOnce(ctx SpecContext) {
	c := w.changeSlogan(ctx)
	if c.formRefused != nil || c.put.Err != nil || c.put.Status != http.StatusOK {
		put := c.put
		if c.formRefused != nil {
			put = c.formRefused
		}
		verdicts.NotChecked("the form-encoded PUT /api/settings was not accepted (%s), so nothing could be read back", match.Outcome(put))
	}
	Expect(c.read).To(match.HaveJSON("data.slogan", readBack(c.value)),
		"slogan sent form-encoded reads back as sent or HTML-encoded once, never twice (spec 1: sanitised exactly once)")
}

// needField stops a spec that changes a named field the target does not
// have (SETTINGS-GET-SHAPE fails such a target: 2.6 names the field).
func needField(g *settingsguard.Guard, name string) {
	if _, ok := g.Original()[name]; !ok {
		verdicts.NotChecked("the target's settings have no %s field to change (see SETTINGS-GET-SHAPE)", name)
	}
}
