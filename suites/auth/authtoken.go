package auth

import (
	"context"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/probe"
	"github.com/conformance-suite/conformance/internal/framework/settingsguard"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerAuthToken: spec 5.2 and 5.5 with probes. Write endpoints and GET
// /api/settings answer 401 without a valid authentication token, and a
// refused create or settings update changes nothing. The writes on a page
// the run created are registerRefusedOnPages'.
func registerAuthToken(t *framework.Fixture, g *framework.Group, pg *probeGroup) {
	Describe("5.2, 5.5 The authentication token on write endpoints", func() {
		for _, ep := range spec.Endpoints() {
			if !ep.Writes() {
				continue
			}
			if t.CanWrite() && probe.New(t, ep, "").NamesMissingPage() {
				// A run that writes checks these endpoints on a page it
				// created (registerRefusedOnPages), where only 401 will do;
				// the same write to a page that does not exist may be
				// answered 404 and tell nothing more.
				continue
			}
			none := probe.New(t, ep, "no-auth-"+probe.EndpointName(ep))
			prepareNone := func(ctx context.Context) framework.Got {
				r := none.Request()
				r.Credentials = client.APIToken
				return pg.got(ctx, none, r)
			}
			if ep == spec.CreatePage {
				none, prepareNone = pg.noAuthCreate, pg.gotNoAuthCreate
			}
			framework.Prepare(g, "AUTH-WRITE-NEEDS-AUTH", prepareNone, func(ctx SpecContext, got framework.Got) {
				expectRefused(none, tokens.Missing, got.Exchange())
			}, append([]any{framework.Case(caseName(none))}, none.Decorators()...)...)

			wrong := probe.New(t, ep, "bad-auth-"+probe.EndpointName(ep))
			framework.Prepare(g, "AUTH-WRITE-INVALID-AUTH", func(ctx context.Context) framework.Got {
				r := wrong.Request()
				r.Credentials, r.AuthValue = client.BothTokens, probe.WrongToken(t.Client.AuthToken())
				return pg.got(ctx, wrong, r)
			}, func(ctx SpecContext, got framework.Got) {
				expectRefused(wrong, tokens.Wrong, got.Exchange())
			}, append([]any{framework.Case(caseName(wrong))}, wrong.Decorators()...)...)
		}
	})

}

// registerSettingsReadNeedsAuth: spec 4.9, 5.2, GET /api/settings without
// a valid authentication token answers 401.
func registerSettingsReadNeedsAuth(t *framework.Fixture, g *framework.Group) {
	Describe("4.9, 5.2 GET /api/settings needs the authentication token", Label(spec.GetSettings.Label()), func() {
		for _, c := range []struct {
			name string
			sent tokens.Token
			r    client.Request
		}{
			{"no authentication", tokens.Missing, client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.APIToken}},
			{"invalid authentication", tokens.Wrong, client.Request{Method: http.MethodGet, Path: "/api/settings",
				Credentials: client.BothTokens, AuthValue: probe.WrongToken(t.Client.AuthToken())}},
		} {
			g.OnRequest("AUTH-SETTINGS-READ-NEEDS-AUTH", c.r, func(ex *client.Exchange) {
				want := tokens.Expect(tokens.Request{API: tokens.Valid, Auth: c.sent, NeedsAuth: true, Settings: true})
				Expect(ex).To(match.HaveHTTPStatus(want.Codes...))
			}, framework.Case(c.name))
		}
	})
}

// expectRefused judges probe p's answer without a valid authentication
// token: 401. A probe naming a page that does not exist may be answered
// 404 instead (no page has the key), and that answer says nothing about
// the authentication check, so the spec is not checked then (see the
// rules' Reading): when the run may write, the specs on a run-created
// page check the 401.
func expectRefused(p probe.Probe, sent tokens.Token, ex *client.Exchange) {
	Expect(ex).To(match.HaveHTTPStatus(refusals(p, sent)...))
	if ex.Status == http.StatusNotFound {
		verdicts.NotChecked("%s answered 404: no page has the key, which a server may check before the authentication "+
			"token (4.4, 4.5, 7), so this request shows nothing about 5.5's 401", p.Endpoint)
	}
}

// refusedCreate is what AUTH-REFUSED-WRITE-NO-EFFECT's create case
// judges: the create without the authentication token, and a read of the
// key it would have made.
type refusedCreate struct {
	refused, after *client.Exchange
	key            string
}

// refusedSettings is what AUTH-REFUSED-WRITE-NO-EFFECT's settings case
// judges: the setting the refused update tried to change, its value
// before, and the settings read after.
type refusedSettings struct {
	notChecked   string
	field        string
	was          any
	refused, now *client.Exchange
	nowValue     any
	problem      string // why the settings after could not be read
}

// registerNoEffectProbes: spec 5.5, a refused create or settings update
// changes nothing. Each spec looks only at what its write tried to
// change. The refused writes to a page are registerRefusedOnPages'.
func registerNoEffectProbes(t *framework.Fixture, g *framework.Group, pg *probeGroup) {
	Describe("5.5 A refused write changes nothing", func() {
		framework.Prepare(g, "AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx context.Context) refusedSettings {
			return refuseSettingsChange(ctx, t, pg)
		}, func(ctx SpecContext, v refusedSettings) {
			if v.notChecked != "" {
				verdicts.NotChecked("%s", v.notChecked)
			}
			Expect(v.problem).To(BeEmpty(), match.Evidence(v.now, "GET /api/settings gives the settings after the refused PUT"))
			Expect(v.nowValue).To(Equal(v.was), match.Evidence(v.now,
				"setting %s changed after a PUT sent without the authentication token tried to change it (#%d, among this spec's requests)",
				v.field, v.refused.Seq))
		}, framework.Case(string(spec.EditSettings)), spec.EditSettings, framework.SettingsWrites)

		framework.Prepare(g, "AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx context.Context) refusedCreate {
			c := pg.createNoAuth(ctx)
			if c.ex == nil {
				return refusedCreate{}
			}
			// The page exists when reading its key succeeds with it; how a
			// missing page is answered is PAGE-GET-404's rule.
			v := refusedCreate{refused: c.ex, after: c.read, key: pg.noAuthCreate.Slug}
			if k := c.ex.Get("data.key").String(); c.ex.Status/100 == 2 && k != "" && k != v.key {
				v.key, v.after = k, pg.pages.Read(ctx, k)
			}
			return v
		}, func(ctx SpecContext, v refusedCreate) {
			if v.refused == nil {
				verdicts.NotChecked("interrupted before the create was sent")
			}
			t.Judged(v.refused, v.after)
			if v.after.StatusErr() != nil {
				verdicts.NotChecked("reading back %s failed: %s", v.key, match.Outcome(v.after))
			}
			// Judged on any answer: a 404 (or any answer without the page)
			// passes, the page itself fails.
			t.Exercised(coverage.WriteCell(coverage.WriteRefused401, coverage.ViewSingle))
			Expect(v.after).NotTo(match.HaveJSON("data.key", Equal(v.key)),
				"the create sent without the authentication token (%s) made page %s anyway", v.refused.RequestLine(), v.key)
		}, framework.Case(string(spec.CreatePage)), spec.CreatePage)
	})
}

// refuseSettingsChange sends a settings update without the authentication
// token that tries to change one text setting, under the group's settings
// guard (which undoes a change), and reads the settings after it.
func refuseSettingsChange(ctx context.Context, t *framework.Fixture, pg *probeGroup) refusedSettings {
	s := pg.settings(ctx)
	if s.guard == nil {
		return refusedSettings{notChecked: s.missing()}
	}
	original := s.guard.Original()
	field := ""
	for _, f := range []string{"slogan", "description", "title"} {
		if _, ok := original[f].(string); ok {
			field = f
			break
		}
	}
	if field == "" {
		return refusedSettings{notChecked: "the settings have none of slogan, description, title as a string to try to change"}
	}
	// A real change is attempted, so that a server carrying the refused
	// request out shows it; the guard undoes such a change.
	v := refusedSettings{field: field, was: original[field]}
	v.refused = s.guard.Send(ctx, client.Request{Method: http.MethodPut, Path: "/api/settings",
		JSON: map[string]any{field: fmt.Sprintf("conformance %s", t.RunID)}})
	var now map[string]any
	v.now, now, v.problem = settingsguard.Read(ctx, t)
	v.nowValue = now[field]
	return v
}
