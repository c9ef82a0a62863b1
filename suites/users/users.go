// Package users checks spec sections 2.4 and 4.8: public user profiles.
package users

import (
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/harness"
	"github.com/conformance-suite/conformance/internal/spec"
)

// Register adds the users specs for target t.
func Register(t *harness.Target) {
	Describe("4.8 GET /api/users", Label(spec.ListUsers.Label()), func() {
		t.It("USER-LIST-SHAPE", func(ctx SpecContext) {
			ex := t.Read(ctx, "/api/users", nil)
			Expect(ex).To(harness.BeSuccess(200))
			Expect(ex).To(harness.MatchSchema("user-list-response.json"))
		})
	})
	Describe("4.8 GET /api/users/{username}", Label(spec.GetUser.Label()), func() {
		t.It("USER-GET-404", func(ctx SpecContext) {
			ex := t.Read(ctx, client.KeyPath("users", t.Marker("no-such-user")), url.Values{})
			Expect(ex).To(harness.BeHandlerError(404))
		})
	})
}
