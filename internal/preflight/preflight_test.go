package preflight

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
)

const (
	token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	auth  = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
)

// api answers like the API: pages with the right token, settings with
// the right authentication token.
func api(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	q := r.URL.Query()
	switch {
	case q.Get("token") == "":
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"message":"Missing API token."}`)
	case q.Get("token") != token:
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"message":"Invalid API token."}`)
	case r.URL.Path == "/api/settings" && q.Get("authentication") != auth:
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"message":"Access denied or invalid endpoint."}`)
	default:
		_, _ = io.WriteString(w, `{"status":"0","message":"ok","data":[]}`)
	}
}

func TestCheck(t *testing.T) {
	cases := []struct {
		name      string
		handler   http.HandlerFunc
		tok, auth string
		want      string // "" = usable
	}{
		{"usable with both tokens", api, token, auth, ""},
		{"usable read-only", api, token, "", ""},
		{"API token refused", api, "0000000000000000000000000000000000000000000000000000000000000000", auth, "The API token was refused"},
		{"authentication token refused", api, token, "1111111111111111111111111111111111111111111111111111111111111111", "The authentication token was refused"},
		{"token not read from the query", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"message":"Missing API token."}`)
		}, token, "", "does not read the token from the query string"},
		{"server failing", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, `{"message":"boom"}`)
		}, token, "", "answered 500 to GET /api/pages"},
		{"JSON 404: not the API's root", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"message":"Not found."}`)
		}, token, auth, "answered 404 \"Not found.\" instead of the page list"},
		{"HTML", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, "<html><body>Not found</body></html>")
		}, token, "", "HTML page instead of JSON"},
		{"settings rate-limited", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/settings" {
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			api(w, r)
		}, token, auth, "GET /api/settings answered 429 Too Many Requests (not retried: --retries 0)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			c, err := client.New(client.Config{BaseURL: srv.URL, Token: tc.tok, AuthToken: tc.auth, RequestTimeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			p := Check(context.Background(), c).Problem
			switch {
			case tc.want == "" && p != nil:
				t.Errorf("problem %q, want none", p.Sentence)
			case tc.want != "" && p == nil:
				t.Errorf("no problem, want %q", tc.want)
			case p != nil && !strings.Contains(p.Sentence, tc.want):
				t.Errorf("problem %q, want it to say %q", p.Sentence, tc.want)
			}
			if p != nil && (strings.Contains(p.Sentence, token[:12]) || strings.Contains(p.Sentence, auth[:12])) {
				t.Errorf("the sentence leaks a token: %s", p.Sentence)
			}
		})
	}
}

func TestBodyShapes(t *testing.T) {
	for _, tc := range []struct {
		body      string
		depth     int
		truncated bool
	}{
		{`{"a":[1,{"b":"[[["}]}`, 3, false},
		{strings.Repeat("[", 5000), 5000, true},
		{`{"status":"0","data":[{"key":"a`, 3, true},
		{`{"message":"x"}`, 1, false},
		{`<html>`, 0, false},
		{`"just a string`, 0, false},
	} {
		if d := nestingDepth([]byte(tc.body)); d != tc.depth {
			t.Errorf("nestingDepth(%.30q) = %d, want %d", tc.body, d, tc.depth)
		}
		if tr := looksTruncated([]byte(tc.body)); tr != tc.truncated {
			t.Errorf("looksTruncated(%.30q) = %v, want %v", tc.body, tr, tc.truncated)
		}
	}
}
