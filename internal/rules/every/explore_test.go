package every

import (
	"net/http"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	rt "github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// TestNoCrash: GEN-NO-CRASH, a 5xx fails but for a delete's 500.
func TestNoCrash(t *testing.T) {
	for _, c := range []struct {
		method string
		status int
		ok     bool
	}{
		{http.MethodGet, 200, true},
		{http.MethodGet, 404, true},
		{http.MethodGet, 500, false},
		{http.MethodPost, 502, false},
		{http.MethodDelete, 500, true},
		{http.MethodDelete, 503, false},
	} {
		ex := rt.Send(t, rt.Reply{Status: c.status, Body: `{"message":"x"}`}, client.Request{Method: c.method})
		if j := NoCrash(ex); j.Holds() != c.ok {
			t.Errorf("%s answered %d: holds %t, want %t", c.method, c.status, j.Holds(), c.ok)
		}
	}
}

// TestNoTokenEcho: AUTH-NO-TOKEN-IN-ANSWER, a token in the body or a
// header fails; a short one is not looked for.
func TestNoTokenEcho(t *testing.T) {
	const token = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
	for _, c := range []struct {
		name string
		r    rt.Reply
		ok   bool
	}{
		{"none", rt.OK(`{}`), true},
		{"in the body", rt.Reply{Status: 404, Body: `{"status":"1","message":"no tag for ` + token + `"}`}, false},
		{"in a header", rt.Reply{Status: 200, Body: `{}`, Header: map[string]string{"X-Debug": "t=" + token}}, false},
	} {
		if j := NoTokenEcho(rt.Get(t, c.r), token); j.Holds() != c.ok {
			t.Errorf("%s: holds %t, want %t", c.name, j.Holds(), c.ok)
		}
	}
	if j := NoTokenEcho(rt.Get(t, rt.OK(`{"x":"short"}`)), "short"); !j.Skip {
		t.Errorf("a short token was looked for: %+v", j)
	}
}
