package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTokenPlacement checks where each kind of request carries the two
// tokens (spec 4 and 5.3: query for GET and DELETE, body for POST and PUT,
// form and multipart bodies as fields) and the overrides specs use.
func TestTokenPlacement(t *testing.T) {
	const (
		inQuery = "query"
		inBody  = "body"
		absent  = "absent"
	)
	type want struct {
		token, auth   string // where: inQuery, inBody, absent
		tokenValue    string // expected value when present ("" = the configured one)
		authValue     string
		contentType   string // media type of the request body ("" = no body)
		bodyFields    map[string]string
		files         map[string]string
		queryExtra    url.Values
		rawBody       string
		noTokenInBody bool
	}
	cases := []struct {
		name string
		req  Request
		want want
	}{
		{"GET reads: API token in the query", Request{Method: http.MethodGet, Path: "/api/pages"},
			want{token: inQuery, auth: absent}},
		{"GET settings: both tokens in the query", Request{Method: http.MethodGet, Path: "/api/settings", Credentials: BothTokens},
			want{token: inQuery, auth: inQuery}},
		{"GET keeps other query parameters", Request{Method: http.MethodGet, Path: "/api/pages", Query: url.Values{"numberOfItems": {"2"}}},
			want{token: inQuery, auth: absent, queryExtra: url.Values{"numberOfItems": {"2"}}}},
		{"DELETE: both tokens in the query", Request{Method: http.MethodDelete, Path: "/api/pages/x", Credentials: BothTokens},
			want{token: inQuery, auth: inQuery}},
		{"POST without fields: a JSON body with both tokens", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens},
			want{token: inBody, auth: inBody, contentType: "application/json"}},
		{"PUT JSON: fields and tokens in one JSON body", Request{Method: http.MethodPut, Path: "/api/pages/x", Credentials: BothTokens, JSON: map[string]any{"title": "T"}},
			want{token: inBody, auth: inBody, contentType: "application/json", bodyFields: map[string]string{"title": "T"}}},
		{"POST form: tokens are form fields", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, Form: url.Values{"title": {"Salt & Pepper"}}},
			want{token: inBody, auth: inBody, contentType: "application/x-www-form-urlencoded", bodyFields: map[string]string{"title": "Salt & Pepper"}}},
		{"POST multipart: tokens are text parts", Request{Method: http.MethodPost, Path: "/api/files/x", Credentials: BothTokens,
			Form: url.Values{"uuid": {"u1"}}, Files: []File{{Field: "file", Name: "a.txt", MIMEType: "text/plain", Content: []byte("hi")}}},
			want{token: inBody, auth: inBody, contentType: "multipart/form-data", bodyFields: map[string]string{"uuid": "u1"}, files: map[string]string{"file": "a.txt"}}},
		{"InQuery forces a POST's tokens into the query", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, Placement: InQuery, JSON: map[string]any{"title": "T"}},
			want{token: inQuery, auth: inQuery, contentType: "application/json", bodyFields: map[string]string{"title": "T"}, noTokenInBody: true}},
		{"InQuery with multipart: tokens in the query only", Request{Method: http.MethodPost, Path: "/api/images", Credentials: BothTokens, Placement: InQuery,
			Files: []File{{Field: "image", Name: "i.png", Content: []byte("png")}}},
			want{token: inQuery, auth: inQuery, contentType: "multipart/form-data", files: map[string]string{"image": "i.png"}, noTokenInBody: true}},
		{"InBody forces a GET's token into a JSON body", Request{Method: http.MethodGet, Path: "/api/pages", Placement: InBody},
			want{token: inBody, auth: absent, contentType: "application/json"}},
		{"InBody DELETE: tokens in a JSON body (spec 4.5)", Request{Method: http.MethodDelete, Path: "/api/pages/x", Credentials: BothTokens, Placement: InBody},
			want{token: inBody, auth: inBody, contentType: "application/json"}},
		{"NoTokens GET: none anywhere", Request{Method: http.MethodGet, Path: "/api/pages", Credentials: NoTokens},
			want{token: absent, auth: absent}},
		{"NoTokens POST: a JSON body without tokens", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: NoTokens, JSON: map[string]any{"title": "T"}},
			want{token: absent, auth: absent, contentType: "application/json", bodyFields: map[string]string{"title": "T"}}},
		{"TokenValue replaces the API token", Request{Method: http.MethodGet, Path: "/api/pages", TokenValue: ptr("wrong-token-value")},
			want{token: inQuery, auth: absent, tokenValue: "wrong-token-value"}},
		{"TokenValue empty drops the API token", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, TokenValue: ptr("")},
			want{token: absent, auth: inBody, contentType: "application/json"}},
		{"AuthValue replaces the authentication token", Request{Method: http.MethodPut, Path: "/api/settings", Credentials: BothTokens, AuthValue: ptr("not-an-admin-token")},
			want{token: inBody, auth: inBody, authValue: "not-an-admin-token", contentType: "application/json"}},
		{"AuthValue empty drops the authentication token", Request{Method: http.MethodDelete, Path: "/api/pages/x", Credentials: BothTokens, AuthValue: ptr("")},
			want{token: inQuery, auth: absent}},
		{"APIToken ignores AuthValue", Request{Method: http.MethodGet, Path: "/api/pages", AuthValue: ptr("ignored-auth")},
			want{token: inQuery, auth: absent}},
		{"Raw body is sent as given, without tokens", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, Raw: []byte(`[1,2]`), RawContentType: "text/plain"},
			want{token: absent, auth: absent, contentType: "text/plain", rawBody: `[1,2]`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, nil)
			c := newClient(t, rec.URL, nil)
			ex := c.Do(context.Background(), tc.req)
			if ex.Err != nil {
				t.Fatalf("request failed: %v", ex.Err)
			}
			got := rec.last(t)
			if got.Method != tc.req.Method {
				t.Errorf("method %s, want %s", got.Method, tc.req.Method)
			}
			check := func(name, where, wantValue string) {
				t.Helper()
				q, inQ := got.Query[name]
				b, inB := got.Fields[name]
				switch where {
				case inQuery:
					if !inQ || q[0] != wantValue {
						t.Errorf("%s in the query = %q, want %q (query %v)", name, q, wantValue, got.Query)
					}
					if inB {
						t.Errorf("%s also in the body", name)
					}
				case inBody:
					if !inB || b != wantValue {
						t.Errorf("%s in the body = %q, want %q (fields %v)", name, b, wantValue, got.Fields)
					}
					if inQ {
						t.Errorf("%s also in the query", name)
					}
				case absent:
					if inQ || inB {
						t.Errorf("%s sent (query %v, fields %v), want none", name, got.Query, got.Fields)
					}
				}
			}
			tv, av := testToken, testAuth
			if tc.want.tokenValue != "" {
				tv = tc.want.tokenValue
			}
			if tc.want.authValue != "" {
				av = tc.want.authValue
			}
			check("token", tc.want.token, tv)
			check("authentication", tc.want.auth, av)
			if !strings.HasPrefix(got.ContentType, tc.want.contentType) || (tc.want.contentType == "" && got.ContentType != "") {
				t.Errorf("Content-Type %q, want %q", got.ContentType, tc.want.contentType)
			}
			for k, v := range tc.want.bodyFields {
				if got.Fields[k] != v {
					t.Errorf("body field %s = %q, want %q", k, got.Fields[k], v)
				}
			}
			for k, v := range tc.want.files {
				if got.Files[k] != v {
					t.Errorf("file part %s = %q, want %q", k, got.Files[k], v)
				}
			}
			for k, v := range tc.want.queryExtra {
				if got.Query.Get(k) != v[0] {
					t.Errorf("query %s = %q, want %q", k, got.Query.Get(k), v[0])
				}
			}
			if tc.want.rawBody != "" && string(got.Body) != tc.want.rawBody {
				t.Errorf("raw body %q, want %q", got.Body, tc.want.rawBody)
			}
			if tc.want.contentType == "" && len(got.Body) > 0 {
				t.Errorf("unexpected body %q", got.Body)
			}
			// What is recorded and printed never shows a token, wherever it went.
			assertNoSecrets(t, "the exchange", ex.String())
			assertNoSecrets(t, "the curl line", ex.Curl())
			if tc.want.token != absent && tc.want.tokenValue == "" && !strings.Contains(ex.String(), TokenPlaceholder) {
				t.Errorf("the exchange does not show where the token went:\n%s", ex)
			}
		})
	}
}

// TestKeyPath checks that keys are escaped segment by segment: the '/' of
// hierarchical keys stays, and the traversal characters that FILES-TRAVERSAL
// probes ("..", NUL) reach the server unchanged.
func TestKeyPath(t *testing.T) {
	cases := []struct {
		endpoint, key string
		path          string // KeyPath's result
		requestURI    string // what the server's request line holds (before '?')
		decoded       string // the server's decoded path
	}{
		{"pages", "alpha-post", "/api/pages/alpha-post", "/api/pages/alpha-post", "/api/pages/alpha-post"},
		{"pages", "parent/child", "/api/pages/parent/child", "/api/pages/parent/child", "/api/pages/parent/child"},
		{"pages", "café ñandú", "/api/pages/caf%C3%A9%20%C3%B1and%C3%BA", "/api/pages/caf%C3%A9%20%C3%B1and%C3%BA", "/api/pages/café ñandú"},
		{"pages", "a?b#c%d", "/api/pages/a%3Fb%23c%25d", "/api/pages/a%3Fb%23c%25d", "/api/pages/a?b#c%d"},
		{"files", "..", "/api/files/..", "/api/files/..", "/api/files/.."},
		{"files", "../etc", "/api/files/../etc", "/api/files/../etc", "/api/files/../etc"},
		{"files", "a..b", "/api/files/a..b", "/api/files/a..b", "/api/files/a..b"},
		{"files", "a\x00b", "/api/files/a%00b", "/api/files/a%00b", "/api/files/a\x00b"},
	}
	rec := newRecorder(t, nil)
	c := newClient(t, rec.URL, nil)
	for _, tc := range cases {
		if got := KeyPath(tc.endpoint, tc.key); got != tc.path {
			t.Errorf("KeyPath(%q, %q) = %q, want %q", tc.endpoint, tc.key, got, tc.path)
		}
		ex := c.Do(context.Background(), Request{Method: http.MethodGet, Path: KeyPath(tc.endpoint, tc.key)})
		if ex.Err != nil {
			t.Fatalf("%q: %v", tc.key, ex.Err)
		}
		got := rec.last(t)
		uri, _, _ := strings.Cut(got.RequestURI, "?")
		if uri != tc.requestURI {
			t.Errorf("key %q: the server got %q, want %q", tc.key, uri, tc.requestURI)
		}
		if got.Path != tc.decoded {
			t.Errorf("key %q: decoded path %q, want %q", tc.key, got.Path, tc.decoded)
		}
		if !strings.Contains(ex.URL, tc.path+"?") {
			t.Errorf("key %q: recorded URL %q does not hold %q", tc.key, ex.URL, tc.path)
		}
	}
}

// TestBaseURLWithPath checks a site installed under a sub-path.
func TestBaseURLWithPath(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newClient(t, rec.URL+"/blog/", nil)
	ex := c.Do(context.Background(), Request{Method: http.MethodGet, Path: KeyPath("pages", "a b/c")})
	if ex.Err != nil {
		t.Fatal(ex.Err)
	}
	if uri, _, _ := strings.Cut(rec.last(t).RequestURI, "?"); uri != "/blog/api/pages/a%20b/c" {
		t.Errorf("request line %q", uri)
	}
}

// TestReadOnlyRefusal checks that a read-only client sends nothing but GETs
// (and write-method probes that cannot change anything).
func TestReadOnlyRefusal(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.ReadOnly = true })
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodHead, http.MethodOptions} {
		ex := c.Do(context.Background(), Request{Method: m, Path: "/api/pages/x", Credentials: BothTokens})
		if !errors.Is(ex.Err, ErrReadOnly) {
			t.Errorf("%s: err %v, want ErrReadOnly", m, ex.Err)
		}
		if ex.Sent {
			t.Errorf("%s: marked as sent", m)
		}
		if ex.Curl() == "" || ex.URL == "" {
			t.Errorf("%s: a refused request should still be recorded with its URL and curl line", m)
		}
	}
	if n := rec.count(); n != 0 {
		t.Fatalf("the server received %d requests from a read-only client", n)
	}
	if ex := c.Do(context.Background(), Request{Method: http.MethodGet, Path: "/api/settings", Credentials: BothTokens}); ex.Err != nil || !ex.Sent {
		t.Errorf("GET refused in a read-only run: %v", ex.Err)
	}
	if ex := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/api/pages", Credentials: NoTokens, Probe: true}); ex.Err != nil {
		t.Errorf("probe refused in a read-only run: %v", ex.Err)
	}
	if n := rec.count(); n != 2 {
		t.Errorf("server received %d requests, want 2 (GET and probe)", n)
	}
	if got := len(c.Exchanges()); got != 8 {
		t.Errorf("%d exchanges recorded, want 8 (refusals are recorded too)", got)
	}
}

// TestRedaction checks that neither token appears in anything the client
// records or prints: URL, request body, request and response headers,
// response body excerpts (also when a token straddles the excerpt's end
// and after release), curl lines and error messages.
func TestRedaction(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		// A careless server echoes what it got, everywhere it can.
		q := r.URL.Query()
		w.Header().Set("X-Echo", q.Get("token")+" "+q.Get("authentication"))
		w.Header().Set("Set-Cookie", "session="+q.Get("token"))
		w.Header().Set("Content-Type", "application/json")
		pad := strings.Repeat("x", responseExcerpt-20) // the token straddles the excerpt's end
		_, _ = w.Write([]byte(`{"message":"` + pad + q.Get("token") + `","a":"` + url.QueryEscape(q.Get("authentication")) + `"}`))
	})
	c := newClient(t, rec.URL, nil)
	ctx := context.Background()
	exs := []*Exchange{
		c.Do(ctx, Request{Method: http.MethodGet, Path: "/api/settings", Credentials: BothTokens,
			Header: http.Header{"X-Token": {testToken}, "Authorization": {"Bearer " + testAuth}}}),
		c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, JSON: map[string]any{"content": "x"}}),
		c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, Form: url.Values{"title": {"t"}}}),
		c.Do(ctx, Request{Method: http.MethodPost, Path: "/api/files/k", Credentials: BothTokens, Files: []File{{Field: "file", Name: "a.txt", Content: []byte(testToken)}}}),
	}
	for i, ex := range exs {
		if ex.Err != nil {
			t.Fatalf("exchange %d: %v", i, ex.Err)
		}
		for where, s := range map[string]string{"URL": ex.URL, "request body": ex.RequestBody, "curl": ex.Curl(),
			"string": ex.String(), "body excerpt": ex.BodyExcerpt(), "request header": strings.Join(ex.RequestHeader.Values("X-Token"), "") + ex.RequestHeader.Get("Authorization"),
			"response header": ex.Header.Get("X-Echo") + ex.Header.Get("Set-Cookie")} {
			assertNoSecrets(t, where, s)
		}
	}
	if !strings.Contains(exs[1].Curl(), `\"token\":\"${CONFORMANCE_TOKEN}\"`) {
		t.Errorf("the curl line should carry the placeholder so it runs as printed: %s", exs[1].Curl())
	}
	if !strings.Contains(exs[0].Curl(), "token=${CONFORMANCE_TOKEN}") || !strings.Contains(exs[0].Curl(), "authentication=${CONFORMANCE_AUTH_TOKEN}") {
		t.Errorf("curl line: %s", exs[0].Curl())
	}
	c.SetScope("next")
	for _, ex := range exs {
		assertNoSecrets(t, "released exchange", ex.String())
	}
	// A transport error quotes no URL (url.Error would print the query).
	closed := newRecorder(t, nil)
	base := closed.URL
	closed.Close()
	c2 := newClient(t, base, nil)
	ex := c2.Do(ctx, Request{Method: http.MethodGet, Path: "/api/settings", Credentials: BothTokens})
	if ex.Err == nil {
		t.Fatal("request to a closed server succeeded")
	}
	assertNoSecrets(t, "transport error", ex.Err.Error())
	assertNoSecrets(t, "failed exchange", ex.String())
	if FailureKind(ex.Err) != KindRefused {
		t.Errorf("kind %q, want %q (%v)", FailureKind(ex.Err), KindRefused, ex.Err)
	}
}

func TestReadOnlyRefusesProbesCarryingTheAuthToken(t *testing.T) {
	var got int
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got++ }))
	defer ts.Close()
	c, err := New(Config{BaseURL: ts.URL, Token: "api-token-0123", AuthToken: "auth-token-4567", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	wrong := "not-the-auth-token"
	cases := []struct {
		name string
		req  Request
		sent bool
	}{
		{"probe without auth", Request{Method: http.MethodDelete, Path: "/api/pages/x", Probe: true}, true},
		{"probe with a wrong auth", Request{Method: http.MethodDelete, Path: "/api/pages/x", Probe: true, Credentials: BothTokens, AuthValue: &wrong}, true},
		{"probe with the real auth", Request{Method: http.MethodDelete, Path: "/api/pages/x", Probe: true, Credentials: BothTokens}, false},
		{"write", Request{Method: http.MethodPost, Path: "/api/pages"}, false},
	}
	for _, tc := range cases {
		before := got
		ex := c.Do(context.Background(), tc.req)
		if sent := got > before; sent != tc.sent {
			t.Errorf("%s: sent=%v, want %v (err %v)", tc.name, sent, tc.sent, ex.Err)
		}
		if !tc.sent && !errors.Is(ex.Err, ErrReadOnly) {
			t.Errorf("%s: err = %v, want ErrReadOnly", tc.name, ex.Err)
		}
	}
}

func TestBaseURLPasswordIsRedacted(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer ts.Close()
	u := strings.Replace(ts.URL, "http://", "http://bob:s3cretPW@", 1)
	c, err := New(Config{BaseURL: u, Token: "api-token-0123"})
	if err != nil {
		t.Fatal(err)
	}
	ex := c.Do(context.Background(), Request{Method: http.MethodGet, Path: "/api/pages"})
	for _, s := range []string{c.BaseURL(), ex.URL, ex.String(), ex.Curl()} {
		if strings.Contains(s, "s3cretPW") {
			t.Errorf("password visible in %q", s)
		}
	}
}

// A --base-url that is refused is printed in the error before any client
// (and its redactor) exists: its password must be masked there too.
func TestBaseURLErrorsMaskThePassword(t *testing.T) {
	for _, raw := range []string{
		"ftp://bob:s3cretPW@example.org",
		"http://bob:s3cretPW@example.org/?x=1",
		"http://bob:s3cretPW@example.org:badport",
		"http://bob:s3cr@tPW@example.org/#frag",
	} {
		_, err := ParseBaseURL(raw)
		if err == nil {
			t.Fatalf("%s: accepted", raw)
		}
		if strings.Contains(err.Error(), "s3cr") || !strings.Contains(err.Error(), "bob:xxxxx@") {
			t.Errorf("%s: error %q shows the password or not the masked URL", raw, err)
		}
	}
	if got := maskPassword("http://bob@example.org/a:b@c"); got != "http://bob@example.org/a:b@c" {
		t.Errorf("no password: got %q, want the URL unchanged", got)
	}
}

// RequestBodyCut takes the request body's excerpt apart: a short body is
// whole, even one that ends like the size note; a long one is its first
// 2 KiB and the size of the whole, redacted.
func TestRequestBodyCut(t *testing.T) {
	rec := newRecorder(t, nil)
	c := newClient(t, rec.URL, nil)
	for _, tc := range []struct {
		name      string
		raw       string
		wantStart string
		wantSize  int
		wantCut   bool
	}{
		{"short", "hello", "hello", 0, false},
		{"short, ending like the note", "x …[9999 bytes in all]", "x …[9999 bytes in all]", 0, false},
		{"long", strings.Repeat("a", 3000), strings.Repeat("a", requestExcerpt), 3000, true},
		{"long, with a token", testAuth + strings.Repeat("a", 3000), AuthTokenPlaceholder + strings.Repeat("a", requestExcerpt-len(AuthTokenPlaceholder)),
			len(AuthTokenPlaceholder) + 3000, true},
		// printable drops up to 4 bytes looking for a rune boundary, then quotes.
		{"long, not UTF-8", strings.Repeat("\xff", 3000), fmt.Sprintf("%q", strings.Repeat("\xff", requestExcerpt-utf8.UTFMax)), 3000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex := c.Do(t.Context(), Request{Method: http.MethodPost, Path: "/api/pages", Raw: []byte(tc.raw), RawContentType: "text/plain"})
			start, size, cut := ex.RequestBodyCut()
			if start != tc.wantStart || size != tc.wantSize || cut != tc.wantCut {
				t.Errorf("RequestBodyCut() = %.40q…, %d, %v; want %.40q…, %d, %v", start, size, cut, tc.wantStart, tc.wantSize, tc.wantCut)
			}
		})
	}
}

// TestJSONBodyKeepsAmpersands: a JSON body carries & < > as they are, not
// as \u0026 and the like (the same JSON, and a curl line people can read).
func TestJSONBodyKeepsAmpersands(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {})
	cl := newClient(t, rec.URL, nil)
	ex := cl.Do(context.Background(), Request{Method: http.MethodPost, Path: "/api/pages", JSON: map[string]any{"title": "Salt & Pepper <b>"}})
	if !strings.Contains(ex.RequestBody, `"title":"Salt & Pepper <b>"`) || !strings.Contains(ex.Curl(), "Salt & Pepper <b>") {
		t.Errorf("request body %s, curl %s: want the title as sent", ex.RequestBody, ex.Curl())
	}
}
