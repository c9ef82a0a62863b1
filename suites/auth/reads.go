package auth

import (
	"net/http"

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
		for _, ep := range spec.Endpoints() {
			if ep.Method() != http.MethodGet || ep.NeedsAuth() {
				continue
			}
			t.It("AUTH-READ-TOKEN-ONLY", func(ctx SpecContext) {
				ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: t.Discover(ctx, ep), Credentials: client.APIToken})
				Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			}, framework.Case(string(ep)), ep)
		}
	})
}

// registerUnknownEndpoints: spec 7. An unknown endpoint, or a known path
// with a method the spec does not give it, answers 401 (with a valid API
// token, so no token error can come first). The methods sent cannot change
// anything on a server that refuses them, and the requests carry no
// authentication token, so they are probes.
func registerUnknownEndpoints(t *framework.Fixture) {
	Describe("7 Unknown endpoints", func() {
		cases := []struct{ method, path string }{
			{http.MethodGet, "/api/nonexistent"},
			{http.MethodGet, "/api/" + t.Marker("endpoint")},
			{http.MethodPatch, "/api/pages"},
			{http.MethodDelete, "/api/pages"},
			{http.MethodPut, "/api/tags"},
			{http.MethodPost, client.KeyPath("pages", t.Marker("no-such-page"))},
		}
		for _, c := range cases {
			t.It("AUTH-UNKNOWN-ENDPOINT-401", func(ctx SpecContext) {
				ex := t.Client.Do(ctx, t.UnknownEndpointRequest(c.method, c.path))
				if c.method == http.MethodPatch {
					// The spec does not say where a PATCH carries the token,
					// so a server that reads none may answer as for a missing
					// token (see the rule's Reading).
					Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized, http.StatusBadRequest))
					return
				}
				Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
			}, framework.Case(c.method+" "+c.path))
		}
	})
}
