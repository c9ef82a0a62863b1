// Package auth checks spec section 5 (authentication) and the 400/401 rows
// of section 7 on every endpoint: the API token, the authentication token,
// where both go, and unknown endpoints.
//
// Production safety: a request that lacks valid credentials should be
// refused, but on a broken server it might be carried out. Every such
// request either cannot change anything even if accepted (a page key or
// upload target that does not exist, carrying the run marker: sent with
// Probe, so read-only runs send it too), or could create something (a page,
// an image, a settings change) and is then decorated framework.Writes or
// framework.SettingsWrites, so read-only runs skip it, and whatever it made
// is found and removed.
package auth

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
)

// Register adds the auth specs for target t, in three containers, one per
// phase of the run (framework.PhaseReads and so on). The specs of each are
// one group (framework.Prepare): their requests go out side by side when
// the container's first spec runs, and each spec judges its own.
func Register(t *framework.Fixture) {
	Describe("5.1, 5.3, 5.4 Reads with valid tokens", framework.PhaseReads, func() {
		g := t.NewGroup(framework.PhaseReads)
		registerReads(t, g)
		registerPlacedReads(t, g)
	})
	// The probes are split by method: those that read take the wire's
	// spare room (a GET changes nothing, whatever the target makes of it,
	// and a refusal does not depend on what the site holds): they go
	// beside the settings writes' reads (framework.PhaseSpareReads), not
	// in the reads phase, whose reads fill every round; the others go in
	// the probes phase, where each is alone on the wire.
	Describe("5, 7 Reads without valid credentials", framework.PhaseSpareReads, func() {
		g := t.NewGroup(framework.PhaseSpareReads).InSpareRoom()
		registerUnknownEndpoints(t, g, nil, reading)
		registerAPIToken(t, g, nil, reading)
		registerSettingsReadNeedsAuth(t, g)
	})
	Describe("5, 7 Requests without valid credentials", framework.PhaseProbes, func() {
		g := t.NewGroup(framework.PhaseProbes)
		pg := newProbeGroup(t, g)
		// Prepares start in the order registered: those that wait on a
		// fixture of the group (the settings guard, a create and a read
		// after it) come first, so the quick probes fill in around them.
		registerNoEffectProbes(t, g, pg)
		registerUnknownEndpoints(t, g, pg, writing)
		registerAPIToken(t, g, pg, writing)
		registerAuthToken(t, g, pg)
	})
	Describe("4, 5 Writes to pages the run creates", framework.PhaseWrites, func() {
		g := t.NewGroup(framework.PhaseWrites)
		// Five pages carry these specs (three refused writes, two placed
		// ones), each written by the first prepare that asks for it while
		// the others wait: the first spec of each page is registered among
		// the first few, so that the five are written side by side.
		noAuth := registerRefusedOnPages(t, g)
		registerPlacedWrites(t, g)
		registerNoEffectOnPage(t, g, noAuth)
	})
}

// methods picks the probes of one container by their method: reading (GET)
// or writing (any other).
type methods func(method string) bool

func reading(method string) bool { return method == http.MethodGet }
func writing(method string) bool { return method != http.MethodGet }

// expectTokenMessage checks AUTH-MISSING-TOKEN-400's message: a
// non-empty string. Its words are not in the spec ("Missing API token.",
// "Clé manquante." and "Access denied." all pass), so they are recorded as
// an observation, never judged.
func expectTokenMessage(t *framework.Fixture, ex *client.Exchange) {
	Expect(ex).To(match.HoldsFields("the 400 answer has a message (the spec fixes no wording)", func(ex *client.Exchange) []match.FieldProblem {
		if j := tokens.MissingTokenMessage(ex); !j.Holds() {
			return []match.FieldProblem{{Field: "message", Problem: j.Problem}}
		}
		return nil
	}))
	t.Observe("AUTH-MISSING-TOKEN-400: a request without the API token is answered with the message %q", ex.Get("message").String())
}

// expectSuccessStatus expects a 2xx answer: the request's tokens were read
// and accepted (which 2xx is the endpoint's own rule).
func expectSuccessStatus(ex *client.Exchange) {
	Expect(ex).To(match.HaveHTTPStatus(200, 201))
}
