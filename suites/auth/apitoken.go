package auth

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerAPIToken: spec 5.6 on each of the 16 endpoints. A request without
// the API token answers 400, one with a wrong API token 401.
func registerAPIToken(t *framework.Fixture) {
	Describe("5.6 The API token, on every endpoint", func() {
		for _, ep := range spec.Endpoints() {
			missing := t.NewProbe(ep, "missing-token-"+epName(ep))
			t.It("AUTH-MISSING-TOKEN-400", func(ctx SpecContext) {
				r := missing.Request()
				strict := true
				switch {
				case !ep.NeedsAuth():
					r.Credentials = client.NoTokens
				case onlyTokenMissingAllowed(t, ep):
					// The valid authentication token goes along, so the API
					// token is the only thing missing.
					r.Credentials, r.TokenValue = client.BothTokens, noValue()
				default:
					// Read-only run: no write request may carry the
					// authentication token, so this one carries neither
					// token, and both 5.5 (401) and 5.6 (400) describe it.
					r.Credentials, strict = client.NoTokens, false
				}
				ex := missing.Send(ctx, r)
				if !strict {
					Expect(ex).To(framework.HaveHTTPStatus(http.StatusBadRequest, http.StatusUnauthorized))
					if ex.Status == http.StatusUnauthorized {
						return // the 401 reading (see the rule's Reading)
					}
				}
				Expect(ex).To(framework.HaveHTTPStatus(http.StatusBadRequest))
				expectTokenMessage(ex)
			}, append([]any{framework.Case(string(ep))}, missing.Decorators()...)...)

			invalid := t.NewProbe(ep, "invalid-token-"+epName(ep))
			t.It("AUTH-INVALID-TOKEN-401", func(ctx SpecContext) {
				r := invalid.Request()
				r.Credentials, r.TokenValue = client.APIToken, wrongValue(t.Client.Token())
				if onlyTokenMissingAllowed(t, ep) {
					// With a valid authentication token the API token is
					// the only thing wrong.
					r.Credentials = client.BothTokens
				}
				ex := invalid.Send(ctx, r)
				Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
			}, append([]any{framework.Case(string(ep))}, invalid.Decorators()...)...)
		}
	})
}

// onlyTokenMissingAllowed reports whether a request to ep may carry the
// valid authentication token beside a missing or wrong API token: ep needs
// it, the run has it, and the request is a read or the run may write.
func onlyTokenMissingAllowed(t *framework.Fixture, ep spec.Endpoint) bool {
	return ep.NeedsAuth() && t.Client.HasAuth() && (ep.Method() == http.MethodGet || t.CanWrite())
}

// epName is a marker-safe name of an endpoint: "put-pages-key".
func epName(ep spec.Endpoint) string {
	p := strings.NewReplacer("/api/", "", "/", "-", "{", "", "}", "").Replace(ep.Path())
	return strings.ToLower(ep.Method()) + "-" + p
}
