package auth

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/probe"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerReads: spec 5.1. The nine read endpoints (every GET but
// settings) answer with the API token alone. The reads are prepared with
// the rest of group g; a key a single-resource read needs is found first
// (the list reads it takes are those of the list specs, sent once).
func registerReads(t *framework.Fixture, g *framework.Group) {
	Describe("5.1 Read endpoints need only the API token", func() {
		for _, ep := range spec.Endpoints() {
			if ep.Method() != http.MethodGet || ep.NeedsAuth() {
				continue
			}
			framework.Prepare(g, "AUTH-READ-TOKEN-ONLY", func(ctx context.Context) framework.Got {
				path, reason := probe.DiscoverPath(ctx, t, ep)
				if reason != "" {
					return framework.GotNothing("%s", reason)
				}
				r := probe.ReadRequest(t, ep, path)
				r.Credentials = client.APIToken
				return framework.GotExchange(t.Client.Do(ctx, r))
			}, func(_ SpecContext, got framework.Got) {
				Expect(got.Exchange()).To(match.HaveHTTPStatus(tokens.Expect(tokens.Request{}).Codes...))
			}, framework.Case(string(ep)), ep)
		}
	})
}

// unknownAnswer is what a request to an unknown endpoint brought, and for
// one whose body describes a run-marked draft, a read of that draft's key
// after it.
type unknownAnswer struct {
	ex, after *client.Exchange
}

// registerUnknownEndpoints: spec 7. A request to a path no endpoint has
// answers 401 (with a valid API token, so no token error can come first).
// A known path with a method section 4's table does not list for it is
// refused with 401, 400, 404 or 405 and a JSON body, and changes nothing:
// the spec's "endpoint" names both a path and a table row, so both
// readings are accepted (the rule's Reading), and which one the target
// follows is recorded. The methods sent cannot change anything on a server
// that refuses them, and the requests carry no authentication token, so
// they are probes. A body is a run-marked draft, which the group's guard
// removes should a broken server take it for a create.
func registerUnknownEndpoints(t *framework.Fixture, g *framework.Group, pg *probeGroup, which methods) {
	Describe("7 Unknown endpoints", func() {
		for _, c := range []struct{ name, marker, method, path string }{
			{"PATCH /api/pages", "patch-pages", http.MethodPatch, "/api/pages"},
			{"PUT /api/pages, no key", "put-pages", http.MethodPut, "/api/pages"},
			{"DELETE /api/pages, no key", "delete-pages", http.MethodDelete, "/api/pages"},
			{"POST /api/pages/{key}", "post-pages-key", http.MethodPost, client.KeyPath("pages", t.Marker("no-such-page"))},
			{"PUT /api/tags", "put-tags", http.MethodPut, "/api/tags"},
			{"GET /api/images", "get-images", http.MethodGet, "/api/images"},
		} {
			if !which(c.method) {
				continue
			}
			framework.Prepare(g, "AUTH-UNKNOWN-ENDPOINT-401", func(ctx context.Context) unknownAnswer {
				r, slug := probe.UnknownEndpoint(t, c.method, c.path, c.marker)
				if slug == "" {
					return unknownAnswer{ex: t.Client.Do(ctx, r)}
				}
				pg.pages.Watch(ctx, slug)
				ex := t.Client.Do(ctx, r)
				return unknownAnswer{ex: ex, after: pg.pages.Read(ctx, slug)}
			}, func(ctx SpecContext, v unknownAnswer) {
				Expect(v.ex).To(match.HaveHTTPStatus(unlistedMethodAnswers...))
				t.Observe("AUTH-UNKNOWN-ENDPOINT-401: %s, a method the endpoint table does not list for a known path, "+
					"is answered HTTP %d", c.name, v.ex.Status)
				Expect(v.ex).To(match.Holds("a JSON object body", func(ex *client.Exchange) []string {
					if !ex.IsJSON() || !ex.JSON().IsObject() {
						return []string{"the body is not a JSON object"}
					}
					return nil
				}))
				if after := v.after; after != nil && after.StatusErr() == nil && after.Status == http.StatusOK {
					// No effect: the draft the body describes was not made.
					_, slug := probe.UnknownEndpoint(t, c.method, c.path, c.marker)
					Expect(after).NotTo(match.HaveJSON("data.key", Equal(slug)),
						"%s (among this spec's requests) made page %s from its body", c.name, slug)
				}
			}, framework.Case(c.name))
		}

		for _, path := range []string{"/api/nonexistent", "/api/" + t.Marker("endpoint")} {
			if !which(http.MethodGet) {
				break
			}
			framework.Prepare(g, "AUTH-UNKNOWN-ENDPOINT-401", func(ctx context.Context) framework.Got {
				r, _ := probe.UnknownEndpoint(t, http.MethodGet, path, "")
				return framework.GotExchange(t.Client.Do(ctx, r))
			}, func(ctx SpecContext, got framework.Got) {
				Expect(got.Exchange()).To(match.HaveHTTPStatus(http.StatusUnauthorized))
			}, framework.Case("GET "+path))
		}
	})
}

// unlistedMethodAnswers are the statuses of a known path's method that the
// endpoint table does not list: 401 (an unknown endpoint, section 7), 400
// (an invalid page key, or no token where the spec does not place it, as
// for PATCH), 404 (no such resource) or 405 (HTTP's own answer).
var unlistedMethodAnswers = []int{http.StatusUnauthorized, http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed}
