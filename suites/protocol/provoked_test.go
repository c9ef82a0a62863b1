package protocol

import (
	"errors"
	"net/http"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// fixtureAt is a fixture whose client addresses base; nothing is sent.
func fixtureAt(t *testing.T, base string) *framework.Fixture {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: base, Token: "T1234567890abcdef", AuthToken: "A1234567890abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	return framework.New(c, framework.Options{RunID: "20260101t0000-abcdef"})
}

// TestProvokedClassifies checks which answers the error-body rules
// collect, and as what: token errors on the endpoints of the table,
// unknown paths, and 404s of run-marked keys sent with every token valid.
func TestProvokedClassifies(t *testing.T) {
	const base = "https://example.org/site"
	fx := fixtureAt(t, base)
	marked := fx.Marker("no-such-page")
	valid, missing, wrong := client.TokenValid, client.TokenMissing, client.TokenWrong
	cases := []struct {
		name      string
		method    string
		path      string
		status    int
		api, auth client.TokenUse
		want      *ask // nil: not collected
	}{
		{"a read without the API token", "GET", "/api/pages", 400, missing, missing, &ask{spec.ListPages, missingToken}},
		{"a write with a wrong API token", "PUT", "/api/settings", 401, wrong, valid, &ask{spec.EditSettings, wrongToken}},
		{"a success", "GET", "/api/pages", 200, valid, missing, nil},
		{"a browser's preflight", "OPTIONS", "/api/pages", 400, missing, missing, nil},
		{"a path no endpoint has", "GET", "/api/nonexistent", 401, valid, missing, &ask{"", unknownPath}},
		{"a method the table does not list", "PATCH", "/api/pages", 405, valid, missing, nil},
		{"a missing run page", "GET", "/api/pages/" + marked, 404, valid, missing, &ask{spec.GetPage, missingKey}},
		{"a missing page of someone else", "GET", "/api/pages/about", 404, valid, missing, nil},
		{"a delete of a missing run page", "DELETE", "/api/pages/" + marked, 404, valid, valid, &ask{spec.DeletePage, missingKey}},
		{"a delete without the authentication token", "DELETE", "/api/pages/" + marked, 404, valid, missing, nil},
		{"the files of a missing run page", "GET", "/api/files/" + marked, 404, valid, missing, nil},
		{"outside the API", "GET", "/nonexistent", 404, missing, missing, nil},
	}
	for _, c := range cases {
		p := newProvoked(fx)
		p.observe(&client.Exchange{Method: c.method, URL: base + c.path + "?x=1", Status: c.status, APIToken: c.api, AuthToken: c.auth})
		got := p.of(ask{spec.ListPages, missingToken}, ask{spec.EditSettings, wrongToken}, ask{kind: unknownPath},
			ask{spec.GetPage, missingKey}, ask{spec.DeletePage, missingKey})
		switch {
		case c.want == nil && len(got) > 0:
			t.Errorf("%s: collected as %+v, want not collected", c.name, got[0].ask)
		case c.want != nil && (len(got) != 1 || got[0].ask != *c.want):
			t.Errorf("%s: collected as %+v, want %+v", c.name, got, *c.want)
		}
	}
	p := newProvoked(fx)
	p.observe(&client.Exchange{Method: "GET", URL: base + "/api/pages", Err: errors.New("connection refused"), APIToken: missing})
	if p.seen(ask{spec.ListPages, missingToken}) {
		t.Error("a request that got no answer was collected")
	}
}

// TestNotJudged checks which collected answers are the error their rule
// judges: a 401 may be 5.5's when the authentication token was missing
// too, and a cut body cannot be judged.
func TestNotJudged(t *testing.T) {
	ex := func(status int, auth client.TokenUse) *client.Exchange {
		return &client.Exchange{Method: "PUT", URL: "https://example.org/api/settings", Status: status, AuthToken: auth}
	}
	cut := ex(400, client.TokenValid)
	cut.BodyCut = true
	cases := []struct {
		name  string
		a     answer
		judge bool
	}{
		{"no API token, 400", answer{ask{spec.EditSettings, missingToken}, ex(400, client.TokenMissing)}, true},
		{"no tokens at all, 401", answer{ask{spec.EditSettings, missingToken}, ex(401, client.TokenMissing)}, false},
		{"no API token beside a valid authentication token, 401", answer{ask{spec.EditSettings, missingToken}, ex(401, client.TokenValid)}, true},
		{"no API token on a read, 401", answer{ask{spec.ListPages, missingToken}, ex(401, client.TokenMissing)}, true},
		{"a wrong API token, 401", answer{ask{spec.EditSettings, wrongToken}, ex(401, client.TokenMissing)}, true},
		{"a wrong API token, 403", answer{ask{spec.EditSettings, wrongToken}, ex(403, client.TokenValid)}, false},
		{"a wrong API token, 200", answer{ask{spec.EditSettings, wrongToken}, ex(200, client.TokenValid)}, false},
		{"an unknown path, 404", answer{ask{kind: unknownPath}, ex(404, client.TokenMissing)}, true},
		{"an unknown path, 500", answer{ask{kind: unknownPath}, ex(500, client.TokenMissing)}, false},
		{"a missing key, 404", answer{ask{spec.GetPage, missingKey}, ex(http.StatusNotFound, client.TokenMissing)}, true},
		{"a cut body", answer{ask{spec.EditSettings, missingToken}, cut}, false},
	}
	for _, c := range cases {
		if why := c.a.notJudged(); (why == "") != c.judge {
			t.Errorf("%s: judged %v (%q), want %v", c.name, why == "", why, c.judge)
		}
	}
}
