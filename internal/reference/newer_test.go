package reference

import (
	"net/http"
	"strings"
	"testing"
)

// withHeader adds a request header.
func withHeader(q req, name, value string) req {
	h := http.Header{}
	for k, vs := range q.header {
		h[k] = vs
	}
	h.Set(name, value)
	q.header = h
	return q
}

// BenignNewerRelease: tokens in headers (the parameters as a fallback), and
// a CORS preflight answered before any credential check.
func TestNewerRelease(t *testing.T) {
	bearer := "Bearer " + testToken
	runSwitchCases(t, []switchCase{
		{BenignNewerRelease, "tokens in headers alone: reads, settings, writes",
			[]req{withHeader(req{path: "/api/pages", noToken: true}, "Authorization", bearer),
				withHeader(withHeader(req{path: "/api/settings", noToken: true}, "Authorization", bearer), "X-Auth-Token", testAuth),
				withHeader(withHeader(req{method: "POST", path: "/api/pages", noToken: true, json: map[string]any{"title": "Via Headers"}},
					"Authorization", "bearer "+testToken), "X-Auth-Token", testAuth)},
			func(rs []result) bool { return rs[0].code == 200 && rs[1].code == 200 && rs[2].code == 201 }},
		{BenignNewerRelease, "the parameters still work; a header wins over a parameter",
			[]req{g("/api/pages"), withAuth(g("/api/settings")),
				withHeader(req{path: "/api/pages", token: "wrong"}, "Authorization", bearer),
				withHeader(withAuth(g("/api/settings")), "X-Auth-Token", "wrong")},
			func(rs []result) bool {
				return rs[0].code == 200 && rs[1].code == 200 && rs[2].code == 200 && rs[3].code == 401
			}},
		{BenignNewerRelease, "a wrong or missing header token is refused as a wrong or missing parameter",
			[]req{withHeader(req{path: "/api/pages", noToken: true}, "Authorization", "Bearer wrong"),
				withHeader(req{path: "/api/pages", noToken: true}, "Authorization", "Basic "+testToken),
				withHeader(req{method: "DELETE", path: "/api/pages/beta-post"}, "X-Auth-Token", "wrong")},
			func(rs []result) bool { return rs[0].code == 401 && rs[1].code == 400 && rs[2].code == 401 }},
		{BenignNewerRelease, "OPTIONS: 204, CORS headers, no body, before any credential check, on any path",
			[]req{withOrigin(req{method: "OPTIONS", path: "/api/pages", noToken: true}, "https://a.example"),
				{method: "OPTIONS", path: "/api/settings", noToken: true}, {method: "OPTIONS", path: "/api/nope", token: "wrong"}},
			func(rs []result) bool {
				for _, r := range rs {
					h := r.header
					if r.code != 204 || len(r.body) != 0 || h.Get("Access-Control-Allow-Origin") != "*" || h.Get("Content-Type") != "" ||
						!strings.Contains(h.Get("Access-Control-Allow-Methods"), "PUT") ||
						!strings.Contains(h.Get("Access-Control-Allow-Headers"), "Authorization") {
						return false
					}
				}
				return true
			}},
	})
	// Without the variant the headers carry nothing and OPTIONS is an
	// unknown endpoint.
	plain := newServer(t)
	if r := call(t, plain, withHeader(req{path: "/api/pages", noToken: true}, "Authorization", bearer)); r.code != 400 {
		t.Errorf("the reference read a bearer token: %d", r.code)
	}
	if r := call(t, plain, req{method: "OPTIONS", path: "/api/pages"}); r.code != 401 {
		t.Errorf("the reference answered OPTIONS %d", r.code)
	}
}

// Options.AllowedOrigins: an allowed Origin is echoed with Vary: Origin,
// any other gets no Access-Control-Allow-Origin; preflights too.
func TestAllowedOrigins(t *testing.T) {
	s, err := New(Options{Token: testToken, AuthToken: testAuth, Mutants: []Mutant{BenignNewerRelease},
		AllowedOrigins: []string{"https://a.example", "https://b.example"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q      req
		code   int
		origin string
	}{
		{withOrigin(g("/api/pages"), "https://a.example"), 200, "https://a.example"},
		{withOrigin(g("/api/pages/nope"), "https://b.example"), 404, "https://b.example"},
		{withOrigin(g("/api/pages"), "https://evil.example"), 200, ""},
		{g("/api/pages"), 200, ""},
		{withOrigin(req{method: "OPTIONS", path: "/api/pages", noToken: true}, "https://a.example"), 204, "https://a.example"},
		{withOrigin(req{method: "OPTIONS", path: "/api/pages", noToken: true}, "https://evil.example"), 204, ""},
	} {
		r := call(t, s, c.q)
		if r.code != c.code || r.header.Get("Access-Control-Allow-Origin") != c.origin ||
			!strings.Contains(strings.Join(r.header.Values("Vary"), ","), "Origin") || len(r.header.Values("Access-Control-Allow-Origin")) > 1 {
			t.Errorf("%s %s from %q: %d, headers %v; want %d and origin %q", c.q.method, c.q.path, c.q.origin, r.code, r.header, c.code, c.origin)
		}
	}
}
