package protocol

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// TestCrossCuttingChecks feeds the checks of every response
// (crosscutting.go, judged by framework.CrossCutting) responses that break them in known ways and checks what
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
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "test-token-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	p := framework.NewCrossCutting(srv.URL)
	p.Add(everyResponseChecks()...)
	c.OnExchange(p.Observe)
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
	for _, c := range everyResponseChecks() {
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
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "test-token-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	p := framework.NewCrossCutting(srv.URL)
	p.Add(everyResponseChecks()...)
	c.OnExchange(p.Observe)
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
