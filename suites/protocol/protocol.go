// Package protocol checks what holds on every endpoint: the header and body
// rules of every response (Content-Type, JSON body, CORS, no-cache, the
// status and message fields: crosscutting.go, judged on every exchange of
// the run), the response envelope of successes, handler errors and early
// errors (spec sections 1 and 7) and the URL shape (sections 1 and 9.1).
// The envelope specs also send the responses the cross-cutting checks need
// to see: successes, 404s and early errors of each kind.
package protocol

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Register adds the protocol specs for target t.
func Register(t *framework.Fixture) {
	registerEveryResponse(t)
	registerSuccessShape(t)
	registerErrorShapes(t)
	registerURLShape(t)
}

// registerSuccessShape: ENV-SUCCESS-SHAPE on a success of each read
// endpoint, and of the page writes when the run may write.
func registerSuccessShape(t *framework.Fixture) {
	Describe("1 Response envelope of a success", func() {
		for _, ep := range spec.Endpoints() {
			if ep.Method() != http.MethodGet {
				continue
			}
			t.It("ENV-SUCCESS-SHAPE", func(ctx SpecContext) {
				r := client.Request{Method: http.MethodGet, Path: t.Discover(ctx, ep)}
				if ep.NeedsAuth() {
					if !t.Client.HasAuth() {
						framework.NotChecked("no --auth-token given")
					}
					r.Credentials = client.BothTokens
				}
				expectSuccessEnvelope(t.Client.Do(ctx, r))
			}, framework.Case(string(ep)), ep)
		}
		t.It("ENV-SUCCESS-SHAPE", func(ctx SpecContext) {
			created, key := t.CreatePage(ctx, map[string]any{"description": "envelope of a create"})
			expectSuccessEnvelope(created)
			if key == "" {
				framework.NotChecked("the create answered HTTP %d without data.key; no page to edit and delete", created.Status)
			}
			expectSuccessEnvelope(t.Write(ctx, http.MethodPut, client.KeyPath("pages", key), map[string]any{"description": "envelope of an edit"}))
			deleted := t.Write(ctx, http.MethodDelete, client.KeyPath("pages", key), nil)
			if deleted.Err != nil || deleted.Status < 200 || deleted.Status >= 300 {
				framework.NotChecked("the delete did not succeed (HTTP %d); PAGE-DELETE-OK judges that", deleted.Status)
			}
			// No data: a delete's success omits it (spec 1, 4.5).
			Expect(deleted).To(framework.MatchSchema("envelope-success.json"))
		}, framework.Case("POST, PUT and DELETE /api/pages"), spec.CreatePage, spec.EditPage, spec.DeletePage, framework.Writes)
	})
}

// expectSuccessEnvelope checks a successful response against the success
// envelope, with data present (every endpoint it is used on returns data).
// A response that is not a success says nothing about this rule: the
// endpoint's own rules judge its status code.
func expectSuccessEnvelope(ex *client.Exchange) {
	if ex.Err != nil || ex.Status < 200 || ex.Status >= 300 {
		framework.NotChecked("the request did not succeed (HTTP %d), so there is no success envelope to check; "+
			"the endpoint's own rules judge that", ex.Status)
	}
	Expect(ex).To(framework.MatchSchema("envelope-success.json"))
	Expect(ex).To(framework.HaveJSON("data"), "the success has a data field")
}

// registerErrorShapes: ENV-HANDLER-ERROR-SHAPE on a 404 of each
// single-resource endpoint, ENV-EARLY-ERROR-SHAPE on each kind of early
// error.
func registerErrorShapes(t *framework.Fixture) {
	Describe("7 Body of a handler error", func() {
		for _, c := range []struct {
			ep       spec.Endpoint
			endpoint string
		}{{spec.GetPage, "pages"}, {spec.GetTag, "tags"}, {spec.GetCategory, "categories"}, {spec.GetUser, "users"}} {
			t.It("ENV-HANDLER-ERROR-SHAPE", func(ctx SpecContext) {
				ex := t.Read(ctx, client.KeyPath(c.endpoint, t.Marker("no-such-"+c.endpoint)), nil)
				expectErrorBody(ex, "error-handler.json", http.StatusNotFound, http.StatusNotFound)
			}, framework.Case(string(c.ep)+", missing key"), c.ep)
		}
		// Edit and delete of a missing key: harmless, but they carry the
		// authentication token, so only runs that may write send them.
		for _, ep := range []spec.Endpoint{spec.EditPage, spec.DeletePage} {
			t.It("ENV-HANDLER-ERROR-SHAPE", func(ctx SpecContext) {
				var body map[string]any
				if ep == spec.EditPage {
					body = map[string]any{"description": "conformance"}
				}
				ex := t.Write(ctx, ep.Method(), client.KeyPath("pages", t.Marker("no-such-page")), body)
				expectErrorBody(ex, "error-handler.json", http.StatusNotFound, http.StatusNotFound)
			}, framework.Case(string(ep)+", missing key"), ep, framework.Writes)
		}
	})

	Describe("7 Body of an early error", func() {
		t.It("ENV-EARLY-ERROR-SHAPE", func(ctx SpecContext) {
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/pages",
				Query: map[string][]string{"x": {"1"}}, Credentials: client.NoTokens})
			expectErrorBody(ex, "error-early.json", 400, 499)
		}, framework.Case("missing API token"), spec.ListPages)
		t.It("ENV-EARLY-ERROR-SHAPE", func(ctx SpecContext) {
			wrong := strings.Repeat("0", 64)
			if wrong == t.Client.Token() {
				wrong = strings.Repeat("f", 64)
			}
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/pages", TokenValue: &wrong})
			expectErrorBody(ex, "error-early.json", 400, 499)
		}, framework.Case("invalid API token"), spec.ListPages)
		t.It("ENV-EARLY-ERROR-SHAPE", func(ctx SpecContext) {
			expectErrorBody(t.Client.Do(ctx, t.UnknownEndpointRequest(http.MethodGet, "/api/nonexistent")), "error-early.json", 400, 499)
		}, framework.Case("unknown endpoint"))
		// A read method on a path the spec gives only a write method: the
		// request cannot also be read as a write without the
		// authentication token (whose 401 body the spec does not shape),
		// nor, as DELETE /api/pages could, as a delete of an empty key.
		t.It("ENV-EARLY-ERROR-SHAPE", func(ctx SpecContext) {
			expectErrorBody(t.Client.Do(ctx, t.UnknownEndpointRequest(http.MethodGet, "/api/images")), "error-early.json", 400, 499)
		}, framework.Case("known path, wrong method: GET /api/images"))
	})
}

// expectErrorBody checks an error response's body against schema when its
// HTTP status is the error expected (lo to hi): any other answer is not the
// error this rule is about (its status code is the endpoint's or the auth
// rules'), and the spec reports not checked.
func expectErrorBody(ex *client.Exchange, schema string, lo, hi int) {
	if ex.Err != nil || ex.Status < lo || ex.Status > hi {
		framework.NotChecked("the request was not answered with the expected error (HTTP %d), so there is no such error body to check; "+
			"the status code is judged by the endpoint's and the auth rules", ex.Status)
	}
	Expect(ex).To(framework.MatchSchema(schema))
}

// registerURLShape: GEN-URL-SHAPE. {base}/api/pages, with no version
// segment, answers the API.
func registerURLShape(t *framework.Fixture) {
	Describe("1, 9.1 URL shape", func() {
		t.It("GEN-URL-SHAPE", func(ctx SpecContext) {
			// Answering the API: 200 with the page list. The envelope's
			// details are other rules'.
			ex := t.Read(ctx, "/api/pages", nil)
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			Expect(ex).To(framework.HaveJSON("data", framework.BeJSONArray()), "GET {base}/api/pages answers with the page list")
		}, spec.ListPages)
	})
}
