package auth

import (
	"net/http"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerPlacement: spec 4 (last paragraph) and 5.3, 5.4. The tokens go
// in the query string for GET and DELETE, in the JSON or form body for POST
// and PUT, and DELETE also takes them in a JSON body; the authentication
// token's parameter is named authentication.
//
// Every request whose tokens these rules judge is a placement probe (its
// Placement set): it keeps the spec's placement when the run sends tokens
// in headers (--credentials header), and the run lists it. The pages these
// specs create first and delete afterwards are not probes.
func registerPlacement(t *framework.Fixture) {
	Describe("5.3 Tokens in the query string", func() {
		t.It("AUTH-TOKEN-IN-QUERY", func(ctx SpecContext) {
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/pages", Placement: client.InQuery})
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		}, framework.Case("GET /api/pages"), spec.ListPages)
		t.It("AUTH-TOKEN-IN-QUERY", func(ctx SpecContext) {
			needAuth(t)
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/settings",
				Credentials: client.BothTokens, Placement: client.InQuery})
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		}, framework.Case("GET /api/settings, both tokens"), spec.GetSettings)
		t.It("AUTH-TOKEN-IN-QUERY", func(ctx SpecContext) {
			key := createPage(ctx, t, "deleted with the tokens in the query string")
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: client.KeyPath("pages", key),
				Credentials: client.BothTokens, Placement: client.InQuery})
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		}, framework.Case("DELETE /api/pages/{key}"), spec.DeletePage, framework.Writes)
	})

	Describe("5.3, 5.4 Tokens in the request body", func() {
		t.It("AUTH-TOKEN-IN-BODY", func(ctx SpecContext) {
			ex, _ := t.CreatePage(ctx, map[string]any{"description": "created with the tokens in a JSON body"},
				framework.Placed(client.SpecPlacement))
			expectSuccessStatus(ex)
		}, framework.Case("POST /api/pages, JSON body"), spec.CreatePage)
		t.It("AUTH-TOKEN-IN-BODY", func(ctx SpecContext) {
			slug := t.Marker("form-tokens")
			t.GuardCreate(ctx, slug)
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: "/api/pages", Credentials: client.BothTokens,
				Placement: client.SpecPlacement, Form: t.PageForm(url.Values{"slug": {slug}})})
			t.Adopt(ctx, ex)
			expectSuccessStatus(ex)
		}, framework.Case("POST /api/pages, form body"), spec.CreatePage)
		t.It("AUTH-TOKEN-IN-BODY", func(ctx SpecContext) {
			key := createPage(ctx, t, "before an edit with the tokens in a JSON body")
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodPut, Path: client.KeyPath("pages", key), Credentials: client.BothTokens,
				Placement: client.SpecPlacement, JSON: map[string]any{"description": "edited with the tokens in a JSON body"}})
			expectSuccessStatus(ex)
		}, framework.Case("PUT /api/pages/{key}, JSON body"), spec.EditPage)
		t.It("AUTH-TOKEN-IN-BODY", func(ctx SpecContext) {
			key := createPage(ctx, t, "before an edit with the tokens in a form body")
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodPut, Path: client.KeyPath("pages", key), Credentials: client.BothTokens,
				Placement: client.SpecPlacement, Form: url.Values{"description": {"edited with the tokens in a form body"}}})
			expectSuccessStatus(ex)
		}, framework.Case("PUT /api/pages/{key}, form body"), spec.EditPage)
	})

	Describe("4 DELETE with the tokens in a JSON body", func() {
		t.It("AUTH-DELETE-JSON-BODY", func(ctx SpecContext) {
			key := createPage(ctx, t, "deleted with the tokens in a JSON body")
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: client.KeyPath("pages", key),
				Credentials: client.BothTokens, Placement: client.InBody, JSON: map[string]any{}})
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		})
	})

	Describe("5.4 The authentication parameter", func() {
		t.It("AUTH-PARAM-NAME", func(ctx SpecContext) {
			needAuth(t)
			ex := t.ReadAuth(ctx, "/api/settings", nil, framework.Placed(client.SpecPlacement))
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		}, framework.Case("GET /api/settings, query string"), spec.GetSettings)
		t.It("AUTH-PARAM-NAME", func(ctx SpecContext) {
			// Writes read the parameter too: a create and an edit, each
			// authenticated by it alone.
			created, key := t.CreatePage(ctx, map[string]any{"description": "created, authenticated by the authentication parameter"},
				framework.Placed(client.SpecPlacement))
			expectSuccessStatus(created)
			edited := t.Write(ctx, http.MethodPut, client.KeyPath("pages", key), map[string]any{"description": "edited"},
				framework.Placed(client.SpecPlacement))
			expectSuccessStatus(edited)
		}, framework.Case("POST and PUT /api/pages, JSON body"), spec.CreatePage, spec.EditPage, framework.Writes)
	})
}

// needAuth stops a spec that needs the authentication token when the run
// has none.
func needAuth(t *framework.Fixture) {
	if !t.Client.HasAuth() {
		framework.NotChecked("no --auth-token given")
	}
}
