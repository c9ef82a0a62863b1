package protocol

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/rules/every"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestCrossCuttingChecks feeds the checks of every response
// (every.Checks, judged by crosscutting.Watcher) responses that break them in known ways and checks what
// each rule counted and how it groups the violations.
func TestCrossCuttingChecks(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		switch r.URL.Path {
		case "/api/pages": // conforming
			h.Set("Content-Type", "application/json; charset=utf-8")
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Cache-Control", "no-store")
			_, _ = w.Write([]byte(`{"status":"0","message":"ok","data":[]}`))
		case "/api/tags": // early error: no status, no CORS
			h.Set("Content-Type", "application/json")
			h.Set("Pragma", "no-cache")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"Invalid API token."}`))
		case "/api/html": // a PHP crash: empty HTML body
			h.Set("Content-Type", "text/html; charset=UTF-8")
			w.WriteHeader(http.StatusInternalServerError)
		default: // /api/pages/{key}: status disagrees, message null
			h.Set("Content-Type", "application/json")
			h.Set("Access-Control-Allow-Origin", "https://elsewhere.example")
			h.Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"status":"0","message":null}`))
		}
	}))
	defer srv.Close()
	c, p := judgedClient(t, srv.URL)
	ctx := context.Background()
	for _, path := range []string{"/api/pages", "/api/tags", "/api/tags", "/api/html", "/api/pages/a", "/api/pages/b", "/elsewhere"} {
		c.Do(ctx, client.Request{Path: path})
	}
	// Six responses under /api/ are judged; /elsewhere is outside the API.
	want := map[string]struct{ checked, violations int }{
		"GEN-CONTENT-TYPE-JSON": {6, 1},
		"GEN-BODY-JSON":         {6, 1},
		"GEN-CORS-ANY-ORIGIN":   {6, 5},
		"GEN-NO-CACHE":          {6, 1},
		"ENV-STATUS-AGREES":     {3, 2}, // only JSON objects with a status field
		"ENV-MESSAGE-STRING":    {5, 2}, // only JSON objects
	}
	for _, c := range crosscutting.ExchangeChecks(every.Checks()...) {
		got := p.Tally(c.Rule)
		if w := want[c.Rule]; got.Checked != w.checked || got.Violations != w.violations {
			t.Errorf("%s: checked %d, violations %d; want %d, %d\n%s", c.Rule, got.Checked, got.Violations, w.checked, w.violations, got.Summary())
		}
	}

	cors := p.Tally("GEN-CORS-ANY-ORIGIN")
	if len(cors.Problems) != 2 {
		t.Fatalf("CORS: %d problem groups, want 2 (missing header, wrong origin):\n%s", len(cors.Problems), cors.Summary())
	}
	missing := cors.Problems[0]
	if missing.Count != 3 || len(missing.Requests) != 2 || missing.Requests[0].Request != "GET /api/tags -> 401" || missing.Requests[0].Count != 2 {
		t.Errorf("CORS missing-header group: %+v", missing)
	}
	if !strings.Contains(missing.Exchange, "/api/tags") || !strings.Contains(missing.Exchange, "Invalid API token.") {
		t.Errorf("the group's evidence is not the first exchange: %s", missing.Exchange)
	}
	if r := cors.Problems[1].Requests; len(r) != 1 || r[0].Request != "GET /api/pages/{key} -> 404" || r[0].Count != 2 {
		t.Errorf("keys are not grouped by endpoint: %+v", r)
	}
	s := cors.Summary()
	for _, part := range []string{"5 of 6 responses break this rule", "2 x GET /api/tags -> 401", "2 x GET /api/pages/{key} -> 404", "Access-Control-Allow-Origin is \"https://elsewhere.example\""} {
		if !strings.Contains(s, part) {
			t.Errorf("summary lacks %q:\n%s", part, s)
		}
	}
	if strings.Contains(s, "test-token-0123456789abcdef") {
		t.Errorf("summary shows the token:\n%s", s)
	}
}

// TestCrossCuttingReadings covers readings the spec allows: CORS that
// echoes the request's Origin, upload answers whose shape is not shown, and
// a CORS preflight answered 204 without a body (a newer release).
func TestCrossCuttingReadings(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.Set("Content-Type", "application/json")
		h.Set("Cache-Control", "no-store")
		if o := r.Header.Get("Origin"); o != "" {
			h.Set("Access-Control-Allow-Origin", o) // only when asked, as many CORS libraries do
		}
		_, _ = w.Write([]byte(`{"status":"0","image":"http://x/a.png"}`)) // an upload answer without message
	}))
	defer srv.Close()
	c, p := judgedClient(t, srv.URL)
	c.Do(context.Background(), client.Request{Method: http.MethodPost, Path: "/api/images"})
	c.Do(context.Background(), client.Request{Method: http.MethodPost, Path: "/api/files/some-page"})
	c.Do(context.Background(), client.Request{Method: http.MethodOptions, Path: "/api/pages", Credentials: client.NoTokens})
	if got := p.Tally("GEN-BODY-JSON"); got.Checked != 2 || got.Violations != 0 {
		t.Errorf("the OPTIONS answer was judged: %s", got.Summary())
	}
	if got := p.Tally("GEN-CORS-ANY-ORIGIN"); got.Checked != 2 || got.Violations != 0 {
		t.Errorf("CORS echoing the Origin: %s", got.Summary())
	}
	if got := p.Tally("ENV-MESSAGE-STRING"); got.Checked != 0 {
		t.Errorf("upload answers were judged for message: %s", got.Summary())
	}
}

// nginxOwn400 is nginx's built-in 400 page, as it answers a NUL byte in
// the path itself (shared observations, web-server fronts).
const nginxOwn400 = "<html>\r\n<head><title>400 Bad Request</title></head>\r\n<body>\r\n" +
	"<center><h1>400 Bad Request</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n"

// TestCrossCuttingFrontAndCutAnswers: an answer the web server in front of
// the API gave itself is judged by no rule and reported as an observation
// (once the API has answered JSON in the run; before that, or without it,
// the page is the site's own and judged); an answer whose body the
// connection cut is judged on its headers only.
func TestCrossCuttingFrontAndCutAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		switch {
		case strings.HasPrefix(r.URL.Path, "/api/files/"): // the front's own 400
			h.Set("Server", "nginx/1.22.1")
			h.Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(nginxOwn400))
		case r.URL.Path == "/api/refused": // a 401 whose body the connection cuts
			testkit.WriteCut(t, w, http.StatusUnauthorized, http.Header{"Content-Type": {"application/json"},
				"Access-Control-Allow-Origin": {"*"}, "Cache-Control": {"no-store"}},
				[]byte(`{"message":"Invalid authentication token."}`), len(`{"message":`))
		default: // conforming JSON
			h.Set("Content-Type", "application/json")
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Cache-Control", "no-store")
			_, _ = w.Write([]byte(`{"status":"0","message":"ok","data":[]}`))
		}
	}))
	defer srv.Close()
	run := func(paths ...string) *crosscutting.Watcher {
		c, p := judgedClient(t, srv.URL)
		for _, path := range paths {
			c.Do(context.Background(), client.Request{Path: path})
		}
		return p
	}

	// The front's page first, then the API's JSON: the page is the front's.
	p := run("/api/files/x%00y", "/api/pages", "/api/refused")
	for rule, want := range map[string]struct{ checked, violations int }{
		"GEN-CONTENT-TYPE-JSON": {2, 0}, // the JSON answer and the cut one's headers
		"GEN-CORS-ANY-ORIGIN":   {2, 0},
		"GEN-NO-CACHE":          {2, 0},
		"GEN-BODY-JSON":         {1, 0}, // a cut body cannot be judged
	} {
		if got := p.Tally(rule); got.Checked != want.checked || got.Violations != want.violations {
			t.Errorf("%s: checked %d, violations %d; want %d, %d\n%s", rule, got.Checked, got.Violations, want.checked, want.violations, got.Summary())
		}
	}
	obs := p.Observations()
	if len(obs) != 1 || !strings.Contains(obs[0], "GET /api/files/x%00y -> 400 was "+crosscutting.FrontPhrase+" (nginx's own HTML 400 page)") ||
		!strings.Contains(obs[0], "not checked for this request: GEN-CONTENT-TYPE-JSON, GEN-BODY-JSON, GEN-CORS-ANY-ORIGIN") {
		t.Errorf("observations: %q", obs)
	}
	if strings.Contains(strings.Join(obs, "\n"), "test-token") {
		t.Errorf("an observation shows the token: %q", obs)
	}

	// No JSON from the API in the whole run: the page is the site's, judged.
	p = run("/api/files/x%00y")
	if got := p.Tally("GEN-CORS-ANY-ORIGIN"); got.Checked != 1 || got.Violations != 1 {
		t.Errorf("without any JSON answer the HTML page went unjudged: %s", got.Summary())
	}
	if obs := p.Observations(); len(obs) != 0 {
		t.Errorf("without any JSON answer the page was taken for the front's: %q", obs)
	}
}

// judgedClient is a client of the server at url whose every exchange the
// checks of every response judge.
func judgedClient(t *testing.T, url string) (*client.Client, *crosscutting.Watcher) {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: url, Token: "test-token-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	p := crosscutting.New(url)
	p.Add(crosscutting.ExchangeChecks(every.Checks()...)...)
	c.OnExchange(p.Observe)
	return c, p
}
