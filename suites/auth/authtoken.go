package auth

import (
	"context"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerAuthToken: spec 5.2 and 5.5. Write endpoints and GET
// /api/settings answer 401 without a valid authentication token, and a
// refused write changes nothing.
func registerAuthToken(t *framework.Fixture) {
	Describe("5.2, 5.5 The authentication token on write endpoints", func() {
		for _, ep := range spec.Endpoints() {
			if !ep.Writes() {
				continue
			}
			none := t.NewProbe(ep, "no-auth-"+epName(ep))
			t.It("AUTH-WRITE-NEEDS-AUTH", func(ctx SpecContext) {
				r := none.Request()
				r.Credentials = client.APIToken
				Expect(none.Send(ctx, r)).To(framework.HaveHTTPStatus(refusals(none)...))
			}, append([]any{framework.Case(caseName(none))}, none.Decorators()...)...)

			wrong := t.NewProbe(ep, "bad-auth-"+epName(ep))
			t.It("AUTH-WRITE-INVALID-AUTH", func(ctx SpecContext) {
				r := wrong.Request()
				r.Credentials, r.AuthValue = client.BothTokens, wrongValue(t.Client.AuthToken())
				Expect(wrong.Send(ctx, r)).To(framework.HaveHTTPStatus(refusals(wrong)...))
			}, append([]any{framework.Case(caseName(wrong))}, wrong.Decorators()...)...)
		}

		// The probes above name a page that does not exist, so 404 is
		// accepted there; on a page the run created the authentication
		// token is the only thing wrong, and only 401 will do. These send
		// an edit and a delete that a broken server might carry out, on a
		// run-created page, so they run only when the run may write.
		for _, ep := range []spec.Endpoint{spec.EditPage, spec.DeletePage} {
			for _, c := range []struct {
				rule string
				auth *string // nil: no authentication token
			}{{"AUTH-WRITE-NEEDS-AUTH", nil}, {"AUTH-WRITE-INVALID-AUTH", wrongValue(t.Client.AuthToken())}} {
				t.It(c.rule, func(ctx SpecContext) {
					key := createPage(ctx, t, "target of a write without a valid authentication token")
					r := client.Request{Method: ep.Method(), Path: client.KeyPath("pages", key), Credentials: client.APIToken}
					if c.auth != nil {
						r.Credentials, r.AuthValue = client.BothTokens, c.auth
					}
					if ep == spec.EditPage {
						r.JSON = map[string]any{"description": "conformance: must be refused"}
					}
					Expect(t.Client.Do(ctx, r)).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
				}, framework.Case(string(ep)+", a page the run created"), ep, framework.Writes)
			}
		}
	})

	Describe("4.9, 5.2 GET /api/settings needs the authentication token", Label(spec.GetSettings.Label()), func() {
		t.It("AUTH-SETTINGS-READ-NEEDS-AUTH", func(ctx SpecContext) {
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.APIToken})
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
		}, framework.Case("no authentication"))
		t.It("AUTH-SETTINGS-READ-NEEDS-AUTH", func(ctx SpecContext) {
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/settings",
				Credentials: client.BothTokens, AuthValue: wrongValue(t.Client.AuthToken())})
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
		}, framework.Case("invalid authentication"))
	})

	Describe("5.5 A refused write changes nothing", func() {
		create := t.NewProbe(spec.CreatePage, "no-effect")
		t.It("AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx SpecContext) {
			r := create.Request()
			r.Credentials = client.APIToken
			refused := create.Send(ctx, r) // removes the page if it was made after all
			key := create.Slug
			if k := refused.Get("data.key").String(); refused.Status/100 == 2 && k != "" {
				key = k
			}
			// The page exists when reading its key succeeds with it; how a
			// missing page is answered is PAGE-GET-404's rule.
			after := t.ReadAuth(ctx, client.KeyPath("pages", key), nil)
			if after.Err == nil && after.Status == http.StatusOK {
				Expect(after).NotTo(framework.HaveJSON("data.key", Equal(key)),
					"the create sent without the authentication token (among this spec's requests) made page %s anyway", key)
			}
		}, framework.Case(string(spec.CreatePage)), spec.CreatePage)

		t.It("AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx SpecContext) {
			key := createPage(ctx, t, "before the refused edit")
			before := t.ReadAuth(ctx, client.KeyPath("pages", key), nil)
			Expect(before).To(framework.HaveHTTPStatus(http.StatusOK))
			// description and content only: a title change could move the
			// page to a key without the run marker.
			refused := t.Client.Do(ctx, client.Request{Method: http.MethodPut, Path: client.KeyPath("pages", key),
				JSON: map[string]any{"description": "changed by a refused edit", "content": "changed by a refused edit"}})
			after := t.ReadAuth(ctx, client.KeyPath("pages", key), nil)
			Expect(after).To(framework.HaveHTTPStatus(http.StatusOK))
			Expect(after).To(framework.HaveJSON("data", Equal(before.Get("data").Value())),
				"the page changed after an edit sent without the authentication token (the edit, #%d, and the read before it are among this spec's requests)", refused.Seq)
		}, framework.Case(string(spec.EditPage)), spec.EditPage)

		t.It("AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx SpecContext) {
			key := createPage(ctx, t, "target of a refused delete")
			refused := t.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: client.KeyPath("pages", key)})
			after := t.ReadAuth(ctx, client.KeyPath("pages", key), nil)
			gone := fmt.Sprintf("the page is gone after a delete sent without the authentication token (#%d, among this spec's requests)", refused.Seq)
			Expect(after).To(framework.HaveHTTPStatus(http.StatusOK), gone)
			Expect(after).To(framework.HaveJSON("data.key", Equal(key)), gone)
		}, framework.Case(string(spec.DeletePage)), spec.DeletePage)

		t.It("AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx SpecContext) {
			g := t.GuardSettings(ctx, "a settings PUT without the authentication token (must be refused)")
			field := ""
			for _, f := range []string{"slogan", "description", "title"} {
				if _, ok := g.Original()[f].(string); ok {
					field = f
					break
				}
			}
			if field == "" {
				framework.NotChecked("the settings have none of slogan, description, title as a string to try to change")
			}
			// A real change is attempted, so that a server carrying the
			// refused request out shows it; the guard undoes such a change.
			refused := g.Send(ctx, client.Request{Method: http.MethodPut, Path: "/api/settings",
				JSON: map[string]any{field: "conformance " + t.RunID}})
			nowEx, now, problem := t.ReadSettings(ctx)
			Expect(problem).To(BeEmpty(), framework.Evidence(nowEx, "GET /api/settings gives the settings after the refused PUT"))
			Expect(framework.SettingsDiff(g.Original(), now)).To(BeEmpty(), framework.Evidence(nowEx,
				"the settings changed after a PUT sent without the authentication token (#%d, among this spec's requests)", refused.Seq))
		}, framework.Case(string(spec.EditSettings)), spec.EditSettings, framework.SettingsWrites)
	})
}

// createPage makes a run-marked draft for a spec that needs a real page.
func createPage(ctx context.Context, t *framework.Fixture, description string) string {
	ex, key := t.CreatePage(ctx, map[string]any{"description": description})
	if key == "" {
		framework.NotChecked("could not create a page to work on: HTTP %d %s", ex.Status, ex.BodyExcerpt())
	}
	return key
}
