package auth

import (
	"context"
	"net/http"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Spec 4 (last paragraph) and 5.3, 5.4. The tokens go in the query string
// for GET and DELETE, in the JSON or form body for POST and PUT, and
// DELETE also takes them in a JSON body; the authentication token's
// parameter is named authentication.
//
// Every request whose tokens these rules judge is a placement probe (its
// Placement set): it keeps the spec's placement when the run sends tokens
// in headers (--credentials header), and the run lists it. Pages made as
// the run makes them (a fallback, below) are not probes.

// noAuthToken is why a spec that needs the authentication token is not
// checked in a run without one.
const noAuthToken = "no --auth-token given"

// registerPlacedReads: the placement rules on reads, in group g.
func registerPlacedReads(t *framework.Fixture, g *framework.Group) {
	settings := func(ctx context.Context, r client.Request) framework.Got {
		if !t.Client.HasAuth() {
			return framework.GotNothing(noAuthToken)
		}
		return framework.GotExchange(t.Client.Do(ctx, r))
	}
	Describe("5.3 Tokens in the query string", func() {
		framework.Prepare(g, "AUTH-TOKEN-IN-QUERY", func(ctx context.Context) framework.Got {
			return framework.GotExchange(t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/pages", Placement: client.InQuery}))
		}, expectOK, framework.Case("GET /api/pages"), spec.ListPages)
		framework.Prepare(g, "AUTH-TOKEN-IN-QUERY", func(ctx context.Context) framework.Got {
			return settings(ctx, client.Request{Method: http.MethodGet, Path: "/api/settings",
				Credentials: client.BothTokens, Placement: client.InQuery})
		}, expectOK, framework.Case("GET /api/settings, both tokens"), spec.GetSettings)
	})
	Describe("5.4 The authentication parameter", func() {
		framework.Prepare(g, "AUTH-PARAM-NAME", func(ctx context.Context) framework.Got {
			return settings(ctx, client.Request{Method: http.MethodGet, Path: "/api/settings",
				Credentials: client.BothTokens, Placement: client.SpecPlacement})
		}, func(_ SpecContext, got framework.Got) {
			Expect(got.Exchange()).To(match.HaveHTTPStatus(tokens.Expect(tokens.Request{NeedsAuth: true, Settings: true}).Codes...))
		}, framework.Case("GET /api/settings, query string"), spec.GetSettings)
	})
}

// expectOK judges a read with the tokens placed as the spec says: 200.
func expectOK(ctx SpecContext, got framework.Got) {
	Expect(got.Exchange()).To(match.HaveHTTPStatus(http.StatusOK))
}

// placedWrites is a page created and then edited with the tokens in a
// body (JSON or form), as POST and PUT take them, then deleted with them
// where DELETE takes them (the query string, a JSON body): each request is
// the check of another rule or case.
type placedWrites struct {
	created *client.Exchange
	// key is the page edited and deleted: the one created, or, when that
	// create made none, one made as the run makes its pages, so that the
	// edit and the delete are judged on their own (notChecked when even
	// that failed).
	key             string
	notChecked      string
	edited, deleted *client.Exchange
}

// target is the page v edited and deleted, or the running spec is not
// checked when there is none.
func (v *placedWrites) target() string {
	if v == nil {
		verdicts.NotChecked("interrupted before the page was written")
	}
	if v.notChecked != "" {
		verdicts.NotChecked("%s", v.notChecked)
	}
	return v.key
}

// workOn sets v.key to key, or to a page made as the run makes them when
// key is "" (the create with placed tokens made none).
func (v *placedWrites) workOn(ctx context.Context, t *framework.Fixture, key string) bool {
	if key == "" {
		var ex *client.Exchange
		ex, key = t.CreatePage(ctx, map[string]any{"description": "edited and deleted with the tokens placed as the spec says"})
		if key == "" {
			v.notChecked = "could not create a page to work on: " + match.Outcome(ex)
			return false
		}
	}
	v.key = key
	return true
}

// deleteWith deletes v.key with the tokens placed as p says. A page the
// delete removed needs no cleanup: one that stays all the same is found
// by the final sweep, which lists the run's pages.
func (v *placedWrites) deleteWith(ctx context.Context, t *framework.Fixture, p client.Placement, body map[string]any) {
	v.deleted = t.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: pagelist.PagePath(v.key),
		Credentials: client.BothTokens, Placement: p, JSON: body})
	if v.deleted.Err == nil && v.deleted.Status == http.StatusOK {
		t.Ledger.RemovePage(v.key)
	}
}

// writeWithJSONTokens: a create and an edit with the tokens in a JSON
// body, under the names token and authentication, then a delete with them
// in the query string.
func writeWithJSONTokens(ctx context.Context, t *framework.Fixture) *placedWrites {
	v := &placedWrites{}
	var key string
	v.created, key = t.CreatePage(ctx, map[string]any{"description": "created with the tokens in a JSON body"},
		framework.Placed(client.SpecPlacement))
	if !v.workOn(ctx, t, key) {
		return v
	}
	v.edited = t.Write(ctx, http.MethodPut, pagelist.PagePath(v.key), map[string]any{"description": "edited with the tokens in a JSON body"},
		framework.Placed(client.SpecPlacement))
	v.deleteWith(ctx, t, client.InQuery, nil)
	return v
}

// writeWithFormTokens: a create and an edit with the tokens in a
// form-encoded body, then a delete with them in a JSON body. The create
// answers with the key it made only if it succeeded, so its slug is
// guarded.
func writeWithFormTokens(ctx context.Context, t *framework.Fixture, guard *framework.CreateGuard) *placedWrites {
	v := &placedWrites{}
	slug := t.Marker("form-tokens")
	guard.Watch(ctx, slug)
	v.created = t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: pagelist.PagesPath, Credentials: client.BothTokens,
		Placement: client.SpecPlacement, Form: t.PageForm(ctx, url.Values{"slug": {slug}})})
	key := t.Adopt(ctx, v.created)
	if key == slug {
		guard.Settle(ctx, slug)
	}
	if !v.workOn(ctx, t, key) {
		return v
	}
	v.edited = t.Client.Do(ctx, client.Request{Method: http.MethodPut, Path: pagelist.PagePath(v.key), Credentials: client.BothTokens,
		Placement: client.SpecPlacement, Form: url.Values{"description": {"edited with the tokens in a form body"}}})
	v.deleteWith(ctx, t, client.InBody, map[string]any{})
	return v
}

// registerPlacedWrites: the placement rules on writes, in group g. Two
// pages carry them: one written with the tokens in JSON bodies and deleted
// with them in the query string, one written with them in form bodies and
// deleted with them in a JSON body. Each page's first spec comes first,
// so that both are on their way at once.
func registerPlacedWrites(t *framework.Fixture, g *framework.Group) {
	jsonTokens := framework.Share(g, func(ctx context.Context) *placedWrites { return writeWithJSONTokens(ctx, t) })
	pages := g.GuardCreates()
	formTokens := framework.Share(g, func(ctx context.Context) *placedWrites { return writeWithFormTokens(ctx, t, pages) })

	bodies := []struct {
		name  string
		write func(context.Context) *placedWrites
	}{{"JSON body", jsonTokens}, {"form body", formTokens}}
	Describe("5.3, 5.4 Tokens in the request body", func() {
		for _, c := range bodies {
			framework.Prepare(g, "AUTH-TOKEN-IN-BODY", c.write, func(ctx SpecContext, v *placedWrites) {
				if v == nil {
					verdicts.NotChecked("interrupted before the page was created")
				}
				t.Judged(v.created)
				expectSuccessStatus(v.created)
			}, framework.Case("POST /api/pages, "+c.name), spec.CreatePage)
		}
		for _, c := range bodies {
			framework.Prepare(g, "AUTH-TOKEN-IN-BODY", c.write, func(ctx SpecContext, v *placedWrites) {
				v.target()
				t.Judged(v.edited)
				expectSuccessStatus(v.edited)
			}, framework.Case("PUT /api/pages/{key}, "+c.name), spec.EditPage)
		}
	})

	Describe("5.4 The authentication parameter, on writes", func() {
		framework.Prepare(g, "AUTH-PARAM-NAME", jsonTokens, func(ctx SpecContext, v *placedWrites) {
			// Writes read the parameter too: a create and an edit, each
			// authenticated by it alone.
			if v == nil {
				verdicts.NotChecked("interrupted before the page was created")
			}
			t.Judged(v.created)
			expectSuccessStatus(v.created)
			v.target()
			t.Judged(v.edited)
			expectSuccessStatus(v.edited)
		}, framework.Case("POST and PUT /api/pages, JSON body"), spec.CreatePage, spec.EditPage, framework.Writes)
	})

	Describe("5.3 Tokens in the query string, on DELETE", func() {
		framework.Prepare(g, "AUTH-TOKEN-IN-QUERY", jsonTokens, func(ctx SpecContext, v *placedWrites) {
			v.target()
			t.Judged(v.deleted)
			Expect(v.deleted).To(match.HaveHTTPStatus(http.StatusOK))
		}, framework.Case("DELETE /api/pages/{key}"), spec.DeletePage, framework.Writes)
	})

	Describe("4 DELETE with the tokens in a JSON body", func() {
		framework.Prepare(g, "AUTH-DELETE-JSON-BODY", formTokens, func(ctx SpecContext, v *placedWrites) {
			v.target()
			t.Judged(v.deleted)
			Expect(v.deleted).To(match.HaveHTTPStatus(http.StatusOK))
		})
	})
}
