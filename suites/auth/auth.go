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
	"strings"

	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// Register adds the auth specs for target t.
func Register(t *framework.Fixture) {
	registerAPIToken(t)
	registerAuthToken(t)
	registerReads(t)
	registerPlacement(t)
	registerUnknownEndpoints(t)
}

// wrongValue returns a well-formed token (64 hexadecimal characters, the
// spec's format) that differs from real, so only its value is wrong.
func wrongValue(real string) *string {
	v := strings.Repeat("0", 64)
	if v == real {
		v = strings.Repeat("f", 64)
	}
	return &v
}

// noValue leaves a token out of a request that otherwise carries it.
func noValue() *string {
	v := ""
	return &v
}

// expectTokenMessage checks AUTH-MISSING-TOKEN-400's message: a string
// that names the token, as "token" or "API" ("Missing API token.", "API
// key required", "Jeton API manquant"). Its exact words are not in the
// spec, so nothing more is asserted.
func expectTokenMessage(ex *client.Exchange) {
	Expect(ex).To(framework.HaveJSON("message", framework.BeJSONString()), "the 400 answer has a message string")
	Expect(ex).To(framework.HaveJSON("message", MatchRegexp(`(?i)token|api`)),
		"the 400 answer's message says that the API token is missing (it names \"token\" or \"API\")")
}

// expectSuccessStatus expects a 2xx answer: the request's tokens were read
// and accepted (which 2xx is the endpoint's own rule).
func expectSuccessStatus(ex *client.Exchange) {
	Expect(ex).To(framework.HaveHTTPStatus(200, 201))
}
