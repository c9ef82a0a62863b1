// Package protocol checks what holds on every endpoint: the header and body
// rules of every response (Content-Type, JSON body, CORS, no-cache, the
// status and message fields: crosscutting.go, judged on every exchange of
// the run), the response envelope of successes, handler errors and early
// errors (spec sections 1 and 7; the error bodies on every such error the
// run provoked: provoked.go), the URL shape (sections 1 and 9.1) and the
// request bodies of section 1 on page writes (bodies.go). The envelope
// specs also send the responses the cross-cutting checks need to see:
// successes, 404s and early errors of each kind, when no other spec did.
package protocol

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/probe"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Register adds the protocol specs for target t.
func Register(t *framework.Fixture) {
	registerEveryResponse(t)
	registerShapes(t)
	errs := newProvoked(t)
	registerEarlyErrors(t, errs)
	registerHandlerErrors(t, errs)
	registerReads(t)
	registerWrites(t)
}

// registerReads: ENV-SUCCESS-SHAPE on a success of each read endpoint,
// and GEN-URL-SHAPE. Every read goes out when the first of these specs
// runs, side by side.
func registerReads(t *framework.Fixture) {
	Describe("1, 9.1 Envelope and URL of reads", framework.PhaseReads, func() {
		g := t.NewGroup(framework.PhaseReads)
		for _, ep := range spec.Endpoints() {
			if ep.Method() != http.MethodGet {
				continue
			}
			framework.Prepare(g, "ENV-SUCCESS-SHAPE", func(ctx context.Context) framework.Got {
				path, reason := probe.DiscoverPath(ctx, t, ep)
				if reason != "" {
					return framework.GotNothing("%s", reason)
				}
				r := probe.ReadRequest(t, ep, path)
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

		// GEN-URL-SHAPE: {base}/api/pages, with no version segment,
		// answers the API: 200 with the page list. The envelope's details
		// are other rules'.
		g.OnRead("GEN-URL-SHAPE", "/api/pages", nil, func(ex *client.Exchange) {
			Expect(ex).To(match.HaveHTTPStatus(http.StatusOK))
			Expect(ex).To(match.HaveJSON("data", match.BeJSONArray()), "GET {base}/api/pages answers with the page list")
		}, spec.ListPages)
	})
}

// expectSuccessEnvelope checks a successful response against the success
// envelope, with data present (every endpoint it is used on returns data).
// A response that is not a success says nothing about this rule: the
// endpoint's own rules judge its status code.
func expectSuccessEnvelope(ex *client.Exchange) {
	if ex.StatusErr() != nil || ex.Status < 200 || ex.Status >= 300 {
		verdicts.NotChecked("the request did not succeed (%s), so there is no success envelope to check; "+
			"the endpoint's own rules judge that", match.Outcome(ex))
	}
	Expect(ex).To(match.MatchSchema("envelope-success.json"))
	Expect(ex).To(match.HaveJSON("data"), "the success has a data field")
}
