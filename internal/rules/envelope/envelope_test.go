package envelope

import (
	"net/http"
	"testing"

	rt "github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// TestStatus: a code among those allowed passes; another fails, with the
// answer's outcome.
func TestStatus(t *testing.T) {
	ex := rt.Get(t, rt.HandlerError(http.StatusNotFound))
	if j := Status(ex, http.StatusNotFound, http.StatusBadRequest); !j.Holds() {
		t.Errorf("404 of 404 or 400: %q", j.Problem)
	}
	if j := Status(ex, http.StatusOK); j.Holds() || j.Problem != `HTTP 404 "no"` {
		t.Errorf("404 of 200: %+v", j)
	}
	if got := Codes(404, 400); got != "HTTP 404 or 400" {
		t.Errorf("Codes = %q", got)
	}
}

// TestErrorBodies: each body shape of section 7, conforming and not
// (ENV-HANDLER-ERROR-SHAPE, ENV-EARLY-ERROR-SHAPE).
func TestErrorBodies(t *testing.T) {
	for _, c := range []struct {
		name                   string
		body                   string
		handler, early, either bool
	}{
		{"handler error", `{"status":"1","message":"no"}`, true, false, true},
		{"early error", `{"message":"no"}`, false, true, true},
		{"status 0", `{"status":"0","message":"no"}`, false, false, false},
		{"status a number", `{"status":1,"message":"no"}`, false, false, false},
		{"no message", `{"status":"1"}`, false, false, false},
		{"message a number", `{"message":3}`, false, false, false},
		{"not JSON", `<html>no</html>`, false, false, false},
	} {
		ex := rt.Get(t, rt.Reply{Status: http.StatusNotFound, Body: c.body})
		if got := HandlerError(ex).Holds(); got != c.handler {
			t.Errorf("%s: HandlerError holds %t, want %t", c.name, got, c.handler)
		}
		if got := EarlyError(ex).Holds(); got != c.early {
			t.Errorf("%s: EarlyError holds %t, want %t", c.name, got, c.early)
		}
		if got := EitherError(ex).Holds(); got != c.either {
			t.Errorf("%s: EitherError holds %t, want %t", c.name, got, c.either)
		}
	}
}
