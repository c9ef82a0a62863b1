package auth

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/probe"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerAPIToken: spec 5.6 on each of the 16 endpoints whose method
// which picks. A request without the API token answers 400 with a message,
// one with a wrong API token 401. The probes are prepared with the rest of
// group g, side by side; pg (nil for reads) guards what a write probe a
// broken target accepts makes.
func registerAPIToken(t *framework.Fixture, g *framework.Group, pg *probeGroup, which methods) {
	Describe("5.6 The API token, on every endpoint", func() {
		// One rule's probes after the other's: these two rules' probes of
		// one endpoint are not on their way at once, nor are two huge
		// answers a broken server may give on one endpoint read at once.
		for _, ep := range spec.Endpoints() {
			if !which(ep.Method()) {
				continue
			}
			missing := probe.New(t, ep, "missing-token-"+probe.EndpointName(ep))
			framework.Prepare(g, "AUTH-MISSING-TOKEN-400", func(ctx context.Context) framework.Got {
				r, _ := missing.WithoutAPIToken()
				return pg.got(ctx, missing, r)
			}, func(ctx SpecContext, got framework.Got) {
				ex := got.Exchange()
				_, onlyToken := missing.WithoutAPIToken()
				sentAuth := tokens.Valid
				if !onlyToken {
					sentAuth = tokens.Missing
				}
				want := tokens.Expect(tokens.Request{API: tokens.Missing, Auth: sentAuth, NeedsAuth: ep.NeedsAuth()})
				if len(want.Codes) > 1 {
					// Read-only run on a write endpoint: the request lacks
					// both tokens, and 5.5's 401 describes it as well as
					// 5.6's 400 (see the rule's Reading). Neither allows
					// anything else; a 401 says nothing of 5.6.
					Expect(ex).To(match.HaveHTTPStatus(want.Codes...))
					if ex.Status == http.StatusUnauthorized {
						verdicts.NotChecked("the request lacked the authentication token too (a read-only run sends it with no " +
							"write), and it answered 401, which 5.5 gives a write without it: the missing API token's 400 was not reached")
					}
				}
				Expect(ex).To(match.HaveHTTPStatus(want.Codes[0]))
				expectTokenMessage(t, ex)
			}, append([]any{framework.Case(string(ep))}, missing.Decorators()...)...)
		}
		for _, ep := range spec.Endpoints() {
			if !which(ep.Method()) {
				continue
			}
			invalid := probe.New(t, ep, "invalid-token-"+probe.EndpointName(ep))
			framework.Prepare(g, "AUTH-INVALID-TOKEN-401", func(ctx context.Context) framework.Got {
				return pg.got(ctx, invalid, invalid.WithWrongAPIToken())
			}, func(ctx SpecContext, got framework.Got) {
				Expect(got.Exchange()).To(match.HaveHTTPStatus(tokens.Expect(tokens.Request{API: tokens.Wrong}).Codes...))
			}, append([]any{framework.Case(string(ep))}, invalid.Decorators()...)...)
		}
	})
}
