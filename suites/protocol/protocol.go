// Package protocol checks what holds on every endpoint: the header and body
// rules of every response (Content-Type, JSON body, CORS, no-cache, the
// status and message fields: crosscutting.go, judged on every exchange of
// the run), the response envelope of successes, handler errors and early
// errors (spec sections 1 and 7) and the URL shape (sections 1 and 9.1).
// The envelope specs also send the responses the cross-cutting checks need
// to see: successes, 404s and early errors of each kind.
package protocol

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
		// The reads go out together when the first of these specs runs.
		reads := t.NewGroup()
		for _, ep := range spec.Endpoints() {
			if ep.Method() != http.MethodGet {
				continue
			}
			framework.Prepare(reads, "ENV-SUCCESS-SHAPE", func(ctx context.Context) framework.Got {
				path, reason := t.DiscoverPath(ctx, ep)
				if reason != "" {
					return framework.GotNothing("%s", reason)
				}
				r := client.Request{Method: http.MethodGet, Path: path}
				if ep.NeedsAuth() {
					if !t.Client.HasAuth() {
						return framework.GotNothing("no --auth-token given")
					}
					r.Credentials = client.BothTokens
				}
				return framework.GotExchange(t.Client.Do(ctx, r))
			}, func(_ SpecContext, got framework.Got) {
				expectSuccessEnvelope(got.Exchange())
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
			if deleted.StatusErr() != nil || deleted.Status < 200 || deleted.Status >= 300 {
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
	if ex.StatusErr() != nil || ex.Status < 200 || ex.Status >= 300 {
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
		// The token errors on each of the 16 endpoints: a request without
		// the API token (400) and one with a wrong one (401), sent as the
		// auth rules send them.
		for _, ep := range spec.Endpoints() {
			missing := t.NewProbe(ep, "early-missing-"+framework.EndpointName(ep))
			invalid := t.NewProbe(ep, "early-invalid-"+framework.EndpointName(ep))
			t.It("ENV-EARLY-ERROR-SHAPE", func(ctx SpecContext) {
				r, onlyToken := missing.WithoutAPIToken()
				var seen []string
				// Without the authentication token as well (read-only runs,
				// on write endpoints), a 401 is 5.5's, whose body the spec
				// does not shape: only the 400 is the early error then.
				judged := judgeEarlyError(missing.Send(ctx, r), "missing API token", onlyToken, &seen)
				judged = judgeEarlyError(invalid.Send(ctx, invalid.WithWrongAPIToken()), "invalid API token", true, &seen) || judged
				if !judged {
					framework.NotChecked("neither request was answered with its early error (%s); the status codes are "+
						"the auth rules' to judge", strings.Join(seen, "; "))
				}
			}, append([]any{framework.Case(string(ep))}, missing.Decorators()...)...)
		}
		t.It("ENV-EARLY-ERROR-SHAPE", func(ctx SpecContext) {
			r, _ := t.UnknownEndpointRequest(http.MethodGet, "/api/nonexistent", "")
			expectErrorBody(t.Client.Do(ctx, r), "error-early.json", 400, 499)
		}, framework.Case("unknown endpoint"))
	})
}

// judgeEarlyError checks the body of ex, the answer to a request with a
// token error (what), against the early-error shape when ex has the
// status of an early error: 400 or 401, or only 400 when a 401 may be
// another rule's answer (!any401). Any other answer is not this rule's
// (its status is the auth rules'): it is noted in seen, and judged is
// false.
func judgeEarlyError(ex *client.Exchange, what string, any401 bool, seen *[]string) (judged bool) {
	early := ex.StatusErr() == nil && (ex.Status == http.StatusBadRequest || (any401 && ex.Status == http.StatusUnauthorized))
	if !early || ex.BodyCut {
		*seen = append(*seen, what+": "+framework.Outcome(ex))
		return false
	}
	Expect(ex).To(framework.MatchSchema("error-early.json"), "the answer to a request with a %s is an early error", what)
	return true
}

// expectErrorBody checks an error response's body against schema when its
// HTTP status is the error expected (lo to hi): any other answer is not the
// error this rule is about (its status code is the endpoint's or the auth
// rules'), and the spec reports not checked.
func expectErrorBody(ex *client.Exchange, schema string, lo, hi int) {
	if ex.StatusErr() != nil || ex.Status < lo || ex.Status > hi {
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
