package preflight

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
)

// seenRequest is what a test server saw of one request.
type seenRequest struct {
	method, uri, body string
	authorization     string
	xAuthToken        string
}

// recorded serves h and records every request.
func recorded(t *testing.T, h http.Handler) (string, func() []seenRequest) {
	t.Helper()
	var mu sync.Mutex
	var seen []seenRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		mu.Lock()
		seen = append(seen, seenRequest{r.Method, r.RequestURI, string(body), r.Header.Get("Authorization"), r.Header.Get("X-Auth-Token")})
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []seenRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]seenRequest(nil), seen...)
	}
}

// bearerOnly reads the API token from Authorization: Bearer but the
// authentication token only from its parameter, like a half-upgraded host.
func bearerOnly(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		q.Set("token", tok)
		r.URL.RawQuery = q.Encode()
	}
	api(w, r)
}

func newerRelease(t *testing.T) http.Handler {
	t.Helper()
	srv, err := reference.New(reference.Options{Token: token, AuthToken: auth, Mutants: []reference.Mutant{reference.BenignNewerRelease}})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestHeaderCredentials checks the preflight's sentence on header
// credentials in both placements, the exit-3 problems of a header run, and
// that no preflight request of a header run carries a token in its URL or
// body.
func TestHeaderCredentials(t *testing.T) {
	cases := []struct {
		name     string
		handler  http.Handler
		inHeader bool
		auth     string
		problem  string // "" = usable
		sentence string
	}{
		{"params, a newer release", newerRelease(t), false, auth, "",
			"The target takes the tokens in headers (Authorization: Bearer and X-Auth-Token), so --credentials header would keep them out of URLs and access logs."},
		{"params, a newer release, read-only", newerRelease(t), false, "", "",
			"The target takes the API token in an Authorization: Bearer header, so --credentials header would keep it out of URLs and access logs (X-Auth-Token not tried: no --auth-token)."},
		{"header, a newer release, read-only", newerRelease(t), true, "", "",
			"The target takes the API token in an Authorization: Bearer header, where this run sends it (--credentials header; X-Auth-Token not tried: no --auth-token)."},
		{"params, the spec's placement only", http.HandlerFunc(api), false, auth, "",
			`The target does not take the API token from an Authorization: Bearer header (GET /api/pages with it alone answered 400 "Missing API token."), so the tokens go in the spec's parameters and --credentials header cannot be used.`},
		{"params, Bearer but no X-Auth-Token", http.HandlerFunc(bearerOnly), false, auth, "",
			`The target takes the API token in an Authorization: Bearer header but not the authentication token in X-Auth-Token (GET /api/settings with both headers answered 401 "Access denied or invalid endpoint."), so --credentials header cannot be used.`},
		{"header, a newer release", newerRelease(t), true, auth, "",
			"The target takes the tokens in headers (Authorization: Bearer and X-Auth-Token), where this run sends them (--credentials header)."},
		{"header, the spec's placement only", http.HandlerFunc(api), true, auth,
			`The target does not take the API token from an Authorization: Bearer header (GET /api/pages answered 400 "Missing API token."), so --credentials header cannot be used`, ""},
		{"header, Bearer but no X-Auth-Token", http.HandlerFunc(bearerOnly), true, auth,
			"The authentication token was refused in the X-Auth-Token header (GET /api/settings answered 401)", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, seen := recorded(t, tc.handler)
			placement := client.CredentialsInParams
			if tc.inHeader {
				placement = client.CredentialsInHeader
			}
			c, err := client.New(client.Config{BaseURL: base, Token: token, AuthToken: tc.auth, RequestTimeout: 5 * time.Second,
				CredentialsPlacement: placement})
			if err != nil {
				t.Fatal(err)
			}
			res := Check(context.Background(), c)
			switch {
			case tc.problem == "" && res.Problem != nil:
				t.Errorf("problem %q, want none", res.Problem.Sentence)
			case tc.problem != "" && (res.Problem == nil || !strings.HasPrefix(res.Problem.Sentence, tc.problem)):
				t.Errorf("problem %+v, want one starting %q", res.Problem, tc.problem)
			case res.Credentials != tc.sentence:
				t.Errorf("credentials sentence\n  %q, want\n  %q", res.Credentials, tc.sentence)
			}
			for _, r := range seen() {
				inParams := strings.Contains(r.uri+r.body, token) || strings.Contains(r.uri+r.body, auth)
				if tc.inHeader && inParams {
					t.Errorf("a header run's preflight sent a token in the URL or body: %s %s", r.method, r.uri)
				}
				// The detection requests of a params run carry the tokens
				// in the headers alone.
				if !tc.inHeader && r.authorization != "" && inParams {
					t.Errorf("a request with credential headers also sent a token in the URL or body: %s %s", r.method, r.uri)
				}
			}
		})
	}
}
