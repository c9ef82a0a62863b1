package preflight

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
)

// looseCORS answers a preflight 204 allowing any header ("*", which does
// not cover Authorization) and only the safelisted methods, and echoes the
// Origin of other requests without Vary.
func looseCORS(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
	if r.Method == http.MethodOptions {
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
		w.Header().Set("Access-Control-Allow-Headers", "*")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	api(w, r)
}

func referenceWith(t *testing.T, opts reference.Options) http.Handler {
	t.Helper()
	opts.Token, opts.AuthToken = token, auth
	srv, err := reference.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestCORS checks the CORS observations on the reference server, its newer
// release (allowing any origin, or a list of them) and a loose server.
func TestCORS(t *testing.T) {
	newer := []reference.Mutant{reference.BenignNewerRelease}
	asked := "a browser's preflight (OPTIONS /api/pages from https://browser-client.example, asking for PUT with authorization,content-type,x-auth-token) "
	cases := []struct {
		name    string
		handler http.Handler
		want    []string
	}{
		{"the spec's release: OPTIONS answered 400", referenceWith(t, reference.Options{}), []string{
			asked + `was answered 400 "Missing API token.", not a success: a browser cannot send anything that needs a preflight (a JSON write, a DELETE, tokens in headers); reads and form posts with the tokens in parameters need none.`,
			`the preflight's answer allows any origin (Access-Control-Allow-Origin "*").`,
		}},
		{"a newer release", referenceWith(t, reference.Options{Mutants: newer}), []string{
			asked + `was answered 204 No Content and allows that origin (Access-Control-Allow-Origin "*").`,
			`the preflight allows the methods "GET, POST, PUT, DELETE, OPTIONS": everything a client of the API sends.`,
			`the preflight allows the request headers "Authorization, X-Auth-Token, Content-Type": everything a client of the API sends.`,
			`the preflight's answer allows any origin (Access-Control-Allow-Origin "*").`,
		}},
		{"a newer release allowing another origin", referenceWith(t, reference.Options{Mutants: newer, AllowedOrigins: []string{client.Origin}}), []string{
			asked + `was answered 204 No Content without Access-Control-Allow-Origin: a browser cannot send anything that needs a preflight.`,
			`the preflight's answer carries no Access-Control-Allow-Origin for that origin: the target allows only some origins (the suite's own, https://conformance-client.example, is judged by GEN-CORS-ANY-ORIGIN).`,
		}},
		{"a newer release allowing the browser's origin", referenceWith(t, reference.Options{Mutants: newer, AllowedOrigins: []string{browserOrigin}}), []string{
			asked + `was answered 204 No Content and allows that origin (Access-Control-Allow-Origin "https://browser-client.example").`,
			`the preflight allows the methods "GET, POST, PUT, DELETE, OPTIONS": everything a client of the API sends.`,
			`the preflight allows the request headers "Authorization, X-Auth-Token, Content-Type": everything a client of the API sends.`,
			`the preflight's answer echoes that origin in Access-Control-Allow-Origin, with Vary: Origin.`,
		}},
		{"loose: safelisted methods, any header, echo without Vary", http.HandlerFunc(looseCORS), []string{
			asked + `was answered 204 No Content and allows that origin (Access-Control-Allow-Origin "https://browser-client.example").`,
			`the preflight allows the methods "GET, POST": a browser cannot send PUT, DELETE.`,
			`the preflight allows the request headers "*": a browser cannot send Authorization.`,
			`the preflight's answer echoes that origin in Access-Control-Allow-Origin without Vary: Origin: a shared cache may give one origin's answer to another.`,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			// Read-only: the preflight carries no credentials, so the
			// client's guard lets it through.
			c, err := client.New(client.Config{BaseURL: srv.URL, Token: token, AuthToken: auth, ReadOnly: true, RequestTimeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tc.want {
				want = append(want, CORSPrefix+w)
			}
			if got := CORS(context.Background(), c); !slices.Equal(got, want) {
				t.Errorf("observations:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		})
	}
}
