package auth

import (
	"context"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerReads: spec 5.1. The nine read endpoints (every GET but
// settings) answer with the API token alone.
func registerReads(t *framework.Fixture) {
	Describe("5.1 Read endpoints need only the API token", func() {
		// The lists need no discovered key: their reads go out together.
		lists := newBatch(t)
		for _, ep := range spec.Endpoints() {
			if ep.Method() != http.MethodGet || ep.NeedsAuth() {
				continue
			}
			read := func(path string) client.Request {
				return client.Request{Method: http.MethodGet, Path: path, Credentials: client.APIToken}
			}
			send := func(ctx SpecContext) *client.Exchange { return t.Client.Do(ctx, read(t.Discover(ctx, ep))) }
			if !strings.Contains(ep.Path(), "{") {
				i := lists.add(func() client.Request { return read(ep.Path()) })
				send = func(ctx SpecContext) *client.Exchange { return lists.exchange(ctx, i) }
			}
			t.It("AUTH-READ-TOKEN-ONLY", func(ctx SpecContext) {
				Expect(send(ctx)).To(framework.HaveHTTPStatus(http.StatusOK))
			}, framework.Case(string(ep)), ep)
		}
	})
}

// registerUnknownEndpoints: spec 7. A request to a path no endpoint has
// answers 401 (with a valid API token, so no token error can come first).
// A known path with a method section 4's table does not list for it is
// refused with 401, 400, 404 or 405 and a JSON body, and changes nothing:
// the spec's "endpoint" names both a path and a table row, so both
// readings are accepted (the rule's Reading), and which one the target
// follows is recorded. The methods sent cannot change anything on a server
// that refuses them, and the requests carry no authentication token, so
// they are probes.
func registerUnknownEndpoints(t *framework.Fixture) {
	Describe("7 Unknown endpoints", func() {
		// Every request goes out together, then together the reads of the
		// drafts their bodies describe (before the guards of the first
		// spec remove any such page, so each spec sees what its request
		// made).
		sends, reads := newBatch(t), newBatch(t)
		var slugs []string
		sends.before = func(ctx context.Context) {
			for _, slug := range slugs {
				t.GuardCreate(ctx, slug) // a broken server may take the body for a create
			}
		}
		sends.then = reads
		for _, path := range []string{"/api/nonexistent", "/api/" + t.Marker("endpoint")} {
			i := sends.add(func() client.Request { r, _ := t.UnknownEndpointRequest(http.MethodGet, path, ""); return r })
			t.It("AUTH-UNKNOWN-ENDPOINT-401", func(ctx SpecContext) {
				Expect(sends.exchange(ctx, i)).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
			}, framework.Case("GET "+path))
		}

		for _, c := range []struct{ name, marker, method, path string }{
			{"PATCH /api/pages", "patch-pages", http.MethodPatch, "/api/pages"},
			{"PUT /api/pages, no key", "put-pages", http.MethodPut, "/api/pages"},
			{"DELETE /api/pages, no key", "delete-pages", http.MethodDelete, "/api/pages"},
			{"POST /api/pages/{key}", "post-pages-key", http.MethodPost, client.KeyPath("pages", t.Marker("no-such-page"))},
			{"PUT /api/tags", "put-tags", http.MethodPut, "/api/tags"},
			{"GET /api/images", "get-images", http.MethodGet, "/api/images"},
		} {
			i := sends.add(func() client.Request { r, _ := t.UnknownEndpointRequest(c.method, c.path, c.marker); return r })
			_, slug := t.UnknownEndpointRequest(c.method, c.path, c.marker)
			read := -1
			if slug != "" {
				slugs = append(slugs, slug)
				read = reads.add(func() client.Request {
					return client.Request{Method: http.MethodGet, Path: client.KeyPath("pages", slug), Credentials: client.APIToken, Fresh: true}
				})
			}
			t.It("AUTH-UNKNOWN-ENDPOINT-401", func(ctx SpecContext) {
				ex := sends.exchange(ctx, i)
				Expect(ex).To(framework.HaveHTTPStatus(unlistedMethodAnswers...))
				t.Observe("AUTH-UNKNOWN-ENDPOINT-401: %s, a method the endpoint table does not list for a known path, "+
					"is answered HTTP %d", c.name, ex.Status)
				Expect(ex).To(framework.Hold("a JSON object body", func(ex *client.Exchange) []string {
					if !ex.IsJSON() || !ex.JSON().IsObject() {
						return []string{"the body is not a JSON object"}
					}
					return nil
				}))
				if read >= 0 {
					// No effect: the draft the body describes was not made.
					after := reads.exchange(ctx, read)
					if after.StatusErr() == nil && after.Status == http.StatusOK {
						Expect(after).NotTo(framework.HaveJSON("data.key", Equal(slug)),
							"%s (among this spec's requests) made page %s from its body", c.name, slug)
					}
				}
			}, framework.Case(c.name))
		}
	})
}

// unlistedMethodAnswers are the statuses of a known path's method that the
// endpoint table does not list: 401 (an unknown endpoint, section 7), 400
// (an invalid page key, or no token where the spec does not place it, as
// for PATCH), 404 (no such resource) or 405 (HTTP's own answer).
var unlistedMethodAnswers = []int{http.StatusUnauthorized, http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed}
