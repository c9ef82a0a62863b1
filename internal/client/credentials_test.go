package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// headerClient is a client in header mode (--credentials header).
func headerClient(t *testing.T, base string, change func(*Config)) *Client {
	t.Helper()
	return newClient(t, base, func(cfg *Config) {
		cfg.CredentialsPlacement = CredentialsInHeader
		if change != nil {
			change(cfg)
		}
	})
}

// assertNoParamTokens fails if a request as the server saw it carries a
// token in its URL or body.
func assertNoParamTokens(t *testing.T, what string, s seen) {
	t.Helper()
	for _, name := range []string{"token", "authentication"} {
		if s.Query.Has(name) {
			t.Errorf("%s: %s in the query string", what, name)
		}
		if _, ok := s.Fields[name]; ok {
			t.Errorf("%s: %s in the body", what, name)
		}
	}
	for _, tok := range []string{testToken, testAuth} {
		if strings.Contains(s.RequestURI, tok) || strings.Contains(string(s.Body), tok) {
			t.Errorf("%s: a token in the URL or body: %s %s", what, s.RequestURI, s.Body)
		}
	}
}

// TestHeaderCredentials checks that in header mode every request carries
// its tokens in Authorization and X-Auth-Token and nowhere else.
func TestHeaderCredentials(t *testing.T) {
	file := []File{{Field: "file", Name: "a.txt", MIMEType: "text/plain", Content: []byte("hi")}}
	cases := []struct {
		name          string
		req           Request
		bearer, xAuth string // "" = header absent
	}{
		{"GET reads", Request{Path: "/api/pages"}, testToken, ""},
		{"GET settings", Request{Path: "/api/settings", Credentials: BothTokens}, testToken, testAuth},
		{"DELETE", Request{Method: http.MethodDelete, Path: "/api/pages/x", Credentials: BothTokens}, testToken, testAuth},
		{"POST JSON", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, JSON: map[string]any{"title": "T"}}, testToken, testAuth},
		{"POST without fields", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens}, testToken, testAuth},
		{"PUT form", Request{Method: http.MethodPut, Path: "/api/pages/x", Credentials: BothTokens, Form: url.Values{"title": {"T"}}}, testToken, testAuth},
		{"POST multipart", Request{Method: http.MethodPost, Path: "/api/files/x", Credentials: BothTokens, Files: file}, testToken, testAuth},
		{"a wrong API token", Request{Path: "/api/pages", TokenValue: ptr("wrong-token-value")}, "wrong-token-value", ""},
		{"no auth token", Request{Method: http.MethodPut, Path: "/api/settings", Credentials: BothTokens, AuthValue: ptr("")}, testToken, ""},
		{"no tokens", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: NoTokens}, "", ""},
	}
	rec := newRecorder(t, nil)
	c := headerClient(t, rec.URL, nil)
	for _, tc := range cases {
		ex := c.Do(context.Background(), tc.req)
		if ex.Err != nil {
			t.Fatalf("%s: %v", tc.name, ex.Err)
		}
		s := rec.last(t)
		want := ""
		if tc.bearer != "" {
			want = "Bearer " + tc.bearer
		}
		if got := s.Header.Get("Authorization"); got != want {
			t.Errorf("%s: Authorization %q, want %q", tc.name, got, want)
		}
		if got := s.Header.Get("X-Auth-Token"); got != tc.xAuth {
			t.Errorf("%s: X-Auth-Token %q, want %q", tc.name, got, tc.xAuth)
		}
		assertNoParamTokens(t, tc.name, s)
		if ex.PlacementProbe {
			t.Errorf("%s: counted as a placement probe", tc.name)
		}
	}
	if p := c.PlacementProbes(); len(p) != 0 {
		t.Errorf("placement probes %v, want none", p)
	}
}

// TestPlacementProbes checks that in header mode a request that asks for
// a placement keeps it (and sends no credential header), and that the
// client counts and lists exactly those requests.
func TestPlacementProbes(t *testing.T) {
	rec := newRecorder(t, nil)
	c := headerClient(t, rec.URL, nil)
	ctx := context.Background()
	probes := []struct {
		req           Request
		inQuery       bool // else in the body
		requestPrefix string
	}{
		{Request{Path: "/api/pages", Placement: SpecPlacement}, true, "GET "},
		{Request{Method: http.MethodDelete, Path: "/api/pages/x", Credentials: BothTokens, Placement: SpecPlacement}, true, "DELETE "},
		{Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, Placement: SpecPlacement, JSON: map[string]any{"title": "T"}}, false, "POST "},
		{Request{Method: http.MethodPut, Path: "/api/pages/x", Credentials: BothTokens, Placement: SpecPlacement, Form: url.Values{"title": {"T"}}}, false, "PUT "},
		{Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, Placement: InQuery}, true, "POST "},
		{Request{Method: http.MethodDelete, Path: "/api/pages/x", Credentials: BothTokens, Placement: InBody}, false, "DELETE "},
	}
	for i, p := range probes {
		ex := c.Do(ctx, p.req)
		s := rec.last(t)
		if !ex.PlacementProbe {
			t.Errorf("probe %d: not marked as a placement probe", i)
		}
		if s.Header.Get("Authorization") != "" || s.Header.Get("X-Auth-Token") != "" {
			t.Errorf("probe %d: credential headers sent: %v", i, s.Header)
		}
		wantAuth := p.req.Credentials == BothTokens
		if p.inQuery {
			if s.Query.Get("token") != testToken || (s.Query.Get("authentication") == testAuth) != wantAuth {
				t.Errorf("probe %d: query %v, want the tokens there", i, s.Query)
			}
		} else if s.Fields["token"] != testToken || (s.Fields["authentication"] == testAuth) != wantAuth {
			t.Errorf("probe %d: body fields %v, want the tokens there", i, s.Fields)
		}
	}
	// Ordinary requests in between are no probes; a probe carrying no
	// token is none either.
	c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens})
	c.Do(ctx, Request{Path: "/api/pages", Credentials: NoTokens, Placement: SpecPlacement})
	list := c.PlacementProbes()
	if len(list) != len(probes) {
		t.Fatalf("%d placement probes counted, want %d: %v", len(list), len(probes), list)
	}
	for i, line := range list {
		if !strings.HasPrefix(line, probes[i].requestPrefix) {
			t.Errorf("probe %d listed as %q", i, line)
		}
		assertNoSecrets(t, "placement probe list", line)
	}
	// In params mode nothing is an exception, so nothing is counted.
	params := newClient(t, rec.URL, nil)
	params.Do(ctx, Request{Path: "/api/pages", Placement: SpecPlacement})
	params.Do(ctx, Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, Placement: InQuery})
	if p := params.PlacementProbes(); len(p) != 0 {
		t.Errorf("params mode counts %v as placement probes", p)
	}
}

// TestHeaderCredentialsRedaction checks that neither credential header
// leaks into what the client records or prints: recorded request headers,
// the rendered exchange, curl lines (which carry the placeholders, so they
// run as printed), a careless server's echo, and error messages.
func TestHeaderCredentialsRedaction(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		// A careless server echoes the credentials it got.
		w.Header().Set("X-Echo", r.Header.Get("Authorization")+" "+r.Header.Get("X-Auth-Token"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"message":"`+r.Header.Get("Authorization")+` `+r.Header.Get("X-Auth-Token")+`"}`)
	})
	c := headerClient(t, rec.URL, nil)
	ctx := context.Background()
	exs := []*Exchange{
		c.Do(ctx, Request{Path: "/api/settings", Credentials: BothTokens}),
		c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, JSON: map[string]any{"title": "T"}}),
		c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/files/k", Credentials: BothTokens, Files: []File{{Field: "file", Name: "a.txt", Content: []byte("x")}}}),
	}
	for i, ex := range exs {
		if ex.Err != nil {
			t.Fatalf("exchange %d: %v", i, ex.Err)
		}
		curl := ex.Curl()
		for _, want := range []string{`-H "Authorization: Bearer ${CONFORMANCE_TOKEN}"`, `-H "X-Auth-Token: ${CONFORMANCE_AUTH_TOKEN}"`} {
			if !strings.Contains(curl, want) {
				t.Errorf("exchange %d: curl line lacks %s: %s", i, want, curl)
			}
		}
		if strings.Contains(curl, "token=") || strings.Contains(curl, `"token"`) {
			t.Errorf("exchange %d: curl line sends a token parameter: %s", i, curl)
		}
		rendered := ex.String()
		for _, want := range []string{"Authorization: Bearer " + TokenPlaceholder, "X-Auth-Token: " + AuthTokenPlaceholder} {
			if !strings.Contains(rendered, want) {
				t.Errorf("exchange %d: the rendered exchange lacks %q:\n%s", i, want, rendered)
			}
		}
		for where, s := range map[string]string{"curl": curl, "string": rendered, "body excerpt": ex.BodyExcerpt(),
			"request headers": ex.RequestHeader.Get("Authorization") + ex.RequestHeader.Get("X-Auth-Token"),
			"response header": ex.Header.Get("X-Echo"), "URL": ex.URL} {
			assertNoSecrets(t, where, s)
		}
	}
	c.SetScope("next")
	for _, ex := range exs {
		assertNoSecrets(t, "released exchange", ex.String()+ex.Curl())
	}
	// Error messages: a server that is gone.
	gone := newRecorder(t, nil)
	base := gone.URL
	gone.Close()
	ex := headerClient(t, base, nil).Do(ctx, Request{Path: "/api/settings", Credentials: BothTokens})
	if ex.Err == nil {
		t.Fatal("a request to a closed server succeeded")
	}
	assertNoSecrets(t, "transport error", ex.Err.Error()+ex.String())
}

// TestReadOnlyGuardCoversHeaders checks that a read-only run refuses a
// write-method probe carrying the real authentication token in a header,
// whether header mode put it there or the caller did.
func TestReadOnlyGuardCoversHeaders(t *testing.T) {
	rec := newRecorder(t, nil)
	ctx := context.Background()
	readOnly := func(cfg *Config) { cfg.ReadOnly = true }
	header := headerClient(t, rec.URL, readOnly)
	params := newClient(t, rec.URL, readOnly)
	cases := []struct {
		name string
		c    *Client
		req  Request
		sent bool
	}{
		{"header mode, probe with the API token only", header, Request{Method: http.MethodDelete, Path: "/api/pages/x", Probe: true}, true},
		{"header mode, probe with a wrong auth token", header, Request{Method: http.MethodDelete, Path: "/api/pages/x", Probe: true, Credentials: BothTokens, AuthValue: ptr("not-the-auth-token")}, true},
		{"header mode, probe with the real auth token in X-Auth-Token", header, Request{Method: http.MethodDelete, Path: "/api/pages/x", Probe: true, Credentials: BothTokens}, false},
		{"a probe whose caller set X-Auth-Token to the real token", params, Request{Method: http.MethodPost, Path: "/api/pages", Probe: true, Header: http.Header{"X-Auth-Token": {testAuth}}}, false},
		{"a probe whose caller put the real token in a Bearer header", params, Request{Method: http.MethodPost, Path: "/api/pages", Probe: true, Header: http.Header{"Authorization": {"Bearer " + testAuth}}}, false},
		{"a probe whose caller put the real token in the query", params, Request{Method: http.MethodPost, Path: "/api/pages", Probe: true, Query: url.Values{"authentication": {testAuth}}}, false},
		{"header mode, GET settings with both tokens", header, Request{Path: "/api/settings", Credentials: BothTokens}, true},
	}
	for _, tc := range cases {
		before := rec.count()
		ex := tc.c.Do(ctx, tc.req)
		if sent := rec.count() > before; sent != tc.sent {
			t.Errorf("%s: sent %v, want %v (err %v)", tc.name, sent, tc.sent, ex.Err)
		}
		if !tc.sent && !errors.Is(ex.Err, ErrReadOnly) {
			t.Errorf("%s: err %v, want ErrReadOnly", tc.name, ex.Err)
		}
	}
}

func TestParseCredentialsPlacement(t *testing.T) {
	for s, want := range map[string]CredentialsPlacement{"params": CredentialsInParams, "header": CredentialsInHeader} {
		got, err := ParseCredentialsPlacement(s)
		if err != nil || got != want || got.String() != s {
			t.Errorf("%q: %v, %v (String %q)", s, got, err, got.String())
		}
	}
	if _, err := ParseCredentialsPlacement("cookie"); err == nil {
		t.Error("an unknown placement was accepted")
	}
}

// TestTokenUse checks what an exchange says its request carried of each
// token, in both placements: the configured value wherever it went, none,
// or a wrong one; a configured value written in by hand counts as sent.
func TestTokenUse(t *testing.T) {
	bearer := http.Header{"Authorization": {"Bearer " + testToken}}
	cases := []struct {
		name      string
		req       Request
		api, auth TokenUse
	}{
		{"a read", Request{Path: "/api/pages"}, TokenValid, TokenMissing},
		{"both tokens", Request{Method: http.MethodPut, Path: "/api/pages/x", Credentials: BothTokens}, TokenValid, TokenValid},
		{"no tokens", Request{Path: "/api/pages", Credentials: NoTokens}, TokenMissing, TokenMissing},
		{"a wrong API token", Request{Path: "/api/pages", TokenValue: ptr("0000")}, TokenWrong, TokenMissing},
		{"no API token, the authentication token", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens,
			TokenValue: ptr("")}, TokenMissing, TokenValid},
		{"a wrong authentication token", Request{Method: http.MethodDelete, Path: "/api/pages/x", Credentials: BothTokens,
			AuthValue: ptr("ffff")}, TokenValid, TokenWrong},
		{"no tokens, the API token in a header by hand", Request{Path: "/api/pages", Credentials: NoTokens, Header: bearer},
			TokenValid, TokenMissing},
	}
	rec := newRecorder(t, nil)
	for _, mode := range []CredentialsPlacement{CredentialsInParams, CredentialsInHeader} {
		c := newClient(t, rec.URL, func(cfg *Config) { cfg.CredentialsPlacement = mode })
		for _, tc := range cases {
			ex := c.Do(context.Background(), tc.req)
			if ex.APIToken != tc.api || ex.AuthToken != tc.auth {
				t.Errorf("%s, %s: API token %d, authentication token %d; want %d, %d",
					mode, tc.name, ex.APIToken, ex.AuthToken, tc.api, tc.auth)
			}
		}
	}
}
