package reference

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestNewToken(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{64}$`)
	a, b := NewToken(), NewToken()
	if !re.MatchString(a) || !re.MatchString(b) {
		t.Fatalf("tokens %q %q are not 64 lowercase hex characters", a, b)
	}
	if a == b {
		t.Fatal("two tokens are equal")
	}
}

func TestNewOptions(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		ok   bool
	}{
		{"valid", Options{Token: "t", AuthToken: "a"}, true},
		{"no token", Options{AuthToken: "a"}, false},
		{"no auth token", Options{Token: "t"}, false},
		{"known mutant", Options{Token: "t", AuthToken: "a", Mutants: []Mutant{ListNoMeta}}, true},
		{"unknown mutant", Options{Token: "t", AuthToken: "a", Mutants: []Mutant{"no-such-mutant"}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := New(c.opts)
			if (err == nil) != c.ok || (s != nil) != c.ok {
				t.Fatalf("New: server %v, error %v; want ok=%v", s != nil, err, c.ok)
			}
		})
	}
}

func TestFreshStatePerServer(t *testing.T) {
	a := newServer(t)
	expectCode(t, sendJSON(t, a, "DELETE", "/api/pages/alpha-post", nil), 200)
	expectCode(t, get(t, a, "/api/pages/alpha-post"), 404)
	expectCode(t, get(t, newServer(t), "/api/pages/alpha-post"), 200)
}

// Every answer, success or error, carries the JSON content type, CORS and
// the no-cache headers, and a JSON body with a message; early errors have
// only message, handler errors have status "1".
func TestEveryAnswer(t *testing.T) {
	s := newServer(t)
	cases := []struct {
		name string
		q    req
		code int
		body map[string]any // exact body, when set
		kind string         // "success", "early" or "handler"
	}{
		{"success", req{path: "/api/pages"}, 200, nil, "success"},
		{"created", req{method: "POST", path: "/api/pages", json: map[string]any{"title": "H"}, auth: true}, 201, nil, "success"},
		{"outside api", req{path: "/apix"}, 404, map[string]any{"message": "Not found."}, "early"},
		{"traversal", req{path: "/api/files/a..b"}, 400, map[string]any{"status": "1", "message": "Invalid page key."}, "handler"},
		{"missing token", req{path: "/api/pages", noToken: true}, 400, map[string]any{"message": "Missing API token."}, "early"},
		{"missing token, other params", req{path: "/api/pages?published=true", noToken: true}, 400, map[string]any{"message": "Missing API token."}, "early"},
		{"missing token, unknown endpoint", req{path: "/api/nope", noToken: true}, 400, nil, "early"},
		{"empty token", req{path: "/api/pages", token: " "}, 401, nil, "early"},
		{"invalid token", req{path: "/api/pages", token: "wrong"}, 401, map[string]any{"message": "Invalid API token."}, "early"},
		{"invalid token beats not found", req{path: "/api/pages/nope", token: "wrong"}, 401, nil, "early"},
		{"unknown endpoint", req{path: "/api/nope"}, 401, map[string]any{"message": "Access denied or invalid endpoint."}, "early"},
		{"api root", req{path: "/api"}, 401, nil, "early"},
		{"api slash", req{path: "/api/"}, 401, nil, "early"},
		{"endpoint case", req{path: "/api/Pages"}, 401, nil, "early"},
		{"PATCH", req{method: "PATCH", path: "/api/pages"}, 401, nil, "early"},
		{"OPTIONS", req{method: "OPTIONS", path: "/api/pages"}, 401, nil, "early"},
		{"PUT list", req{method: "PUT", path: "/api/pages", auth: true}, 401, nil, "early"},
		{"DELETE list", req{method: "DELETE", path: "/api/pages", auth: true}, 401, nil, "early"},
		{"POST key", req{method: "POST", path: "/api/pages/alpha-post", auth: true}, 401, nil, "early"},
		{"images with key", req{method: "POST", path: "/api/images/x", auth: true}, 401, nil, "early"},
		{"files without key", req{path: "/api/files"}, 401, nil, "early"},
		{"create without auth", req{method: "POST", path: "/api/pages", json: map[string]any{"title": "x"}}, 401, nil, "early"},
		{"create with wrong auth", req{method: "POST", path: "/api/pages", authValue: "wrong"}, 401, nil, "early"},
		{"create with editor auth", req{method: "POST", path: "/api/pages", authValue: editorAuth}, 401, nil, "early"},
		{"edit without auth", req{method: "PUT", path: "/api/pages/alpha-post"}, 401, nil, "early"},
		{"delete without auth", req{method: "DELETE", path: "/api/pages/alpha-post"}, 401, nil, "early"},
		{"settings without auth", req{path: "/api/settings"}, 401, nil, "early"},
		{"settings edit without auth", req{method: "PUT", path: "/api/settings"}, 401, nil, "early"},
		{"image without auth", req{method: "POST", path: "/api/images", file: &filePart{"image", "a.png", []byte("x")}}, 401, nil, "early"},
		{"file without auth", req{method: "POST", path: "/api/files/alpha-post", file: &filePart{"file", "a.txt", []byte("x")}}, 401, nil, "early"},
		{"bad json", req{method: "POST", path: "/api/pages", raw: `{"token":`, contentType: "application/json"}, 400, map[string]any{"message": "Missing method inputs."}, "early"},
		{"json array", req{method: "POST", path: "/api/pages", raw: `[1,2]`, contentType: "application/json"}, 400, nil, "early"},
		{"token as number", req{method: "POST", path: "/api/pages", raw: `{"token":5}`, contentType: "application/json"}, 400, nil, "early"},
		{"token as array", req{method: "POST", path: "/api/pages", raw: `{"token":["a"]}`, contentType: "application/json"}, 400, nil, "early"},
		{"query token ignored on POST", req{method: "POST", path: "/api/pages?token=" + testToken, raw: `{"title":"x"}`, contentType: "application/json"}, 400, nil, "early"},
		{"page not found", req{path: "/api/pages/nope"}, 404, map[string]any{"status": "1", "message": "Page not found."}, "handler"},
		{"tag not found", req{path: "/api/tags/nope"}, 404, nil, "handler"},
		{"category not found", req{path: "/api/categories/nope"}, 404, nil, "handler"},
		{"user not found", req{path: "/api/users/nope"}, 404, nil, "handler"},
		{"edit not found", req{method: "PUT", path: "/api/pages/nope", auth: true}, 404, nil, "handler"},
		{"delete not found", req{method: "DELETE", path: "/api/pages/nope", auth: true}, 404, nil, "handler"},
		{"invalid type", req{method: "POST", path: "/api/pages", json: map[string]any{"type": "bogus"}, auth: true}, 400, nil, "handler"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := call(t, s, c.q)
			expectCode(t, r, c.code)
			for k, v := range map[string]string{
				"Content-Type":                "application/json",
				"Access-Control-Allow-Origin": "*",
				"Cache-Control":               "no-store, no-cache, must-revalidate",
				"Pragma":                      "no-cache",
				"Expires":                     "Thu, 19 Nov 1981 08:52:00 GMT",
			} {
				if got := r.header.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
			m := r.obj()
			if _, ok := m["message"].(string); !ok {
				t.Errorf("no message string: %q", r.body)
			}
			if c.body != nil && !reflect.DeepEqual(m, c.body) {
				t.Errorf("body %s, want %v", r.body, c.body)
			}
			_, hasStatus := m["status"]
			switch c.kind {
			case "early":
				if hasStatus || len(m) != 1 {
					t.Errorf("early error body %s, want only message", r.body)
				}
			case "handler":
				if m["status"] != "1" {
					t.Errorf("handler error body %s, want status \"1\"", r.body)
				}
			case "success":
				if m["status"] != "0" {
					t.Errorf("success body %s, want status \"0\"", r.body)
				}
			}
		})
	}
	// None of the refused writes changed anything.
	expectCode(t, get(t, s, "/api/pages/alpha-post"), 200)
	if n := len(call(t, s, req{path: "/api/pages", query: map[string][]string{"numberOfItems": {"-1"}}}).list()); n != 19 {
		t.Errorf("%d published pages after refused writes, want 19 (the 18 seeded and the one created)", n)
	}
}

// Token placement: query for GET and DELETE (DELETE also a JSON body),
// JSON or form body for POST and PUT.
func TestTokenPlacement(t *testing.T) {
	s := newServer(t)
	expectCode(t, call(t, s, req{method: "DELETE", path: "/api/pages/beta-post", auth: true}), 200)
	expectCode(t, call(t, s, req{method: "DELETE", path: "/api/pages/gamma-post", auth: true, tokensInBody: true}), 200)
	expectCode(t, get(t, s, "/api/pages/gamma-post"), 404)
	expectCode(t, sendForm(t, s, "POST", "/api/pages", "title", "Form Page"), 201)
	expectCode(t, sendForm(t, s, "PUT", "/api/pages/form-page", "description", "d"), 200)
	expectCode(t, sendJSON(t, s, "PUT", "/api/pages/form-page", map[string]any{"description": "e"}), 200)
	expectCode(t, call(t, s, req{path: "/api/settings", auth: true}), 200)
	// A raw JSON body is read whatever its content type.
	raw := `{"token":"` + testToken + `","authentication":"` + testAuth + `","title":"Plain"}`
	expectCode(t, call(t, s, req{method: "POST", path: "/api/pages", raw: raw, contentType: "text/plain", noToken: true}), 201)
}

func TestBodyLimit(t *testing.T) {
	s := newServer(t)
	big := `{"token":"` + testToken + `","title":"` + strings.Repeat("a", maxBody) + `"}`
	r := call(t, s, req{method: "POST", path: "/api/pages", raw: big, contentType: "application/json", noToken: true})
	expectCode(t, r, 400)
}

func TestHeadRequest(t *testing.T) {
	s := newServer(t)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("HEAD", "/api/pages?token="+testToken, nil))
	if w.Code != 401 || w.Body.Len() != 0 || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("HEAD: %d %q %v", w.Code, w.Body.String(), w.Header())
	}
}

// The server never panics or answers 5xx on odd input.
func TestOddInputNeverCrashes(t *testing.T) {
	s := newServer(t)
	odd := []req{
		{method: "POST", path: "/api/pages", json: map[string]any{"title": []any{"a"}, "tags": []any{"x"}}, auth: true},
		{method: "POST", path: "/api/pages", json: map[string]any{"title": map[string]any{"a": 1}}, auth: true},
		{method: "POST", path: "/api/pages", json: map[string]any{"title": 5, "position": "x", "noindex": []any{}}, auth: true},
		{method: "POST", path: "/api/pages", json: map[string]any{"title": nil, "date": "yesterday"}, auth: true},
		{method: "PUT", path: "/api/pages/alpha-post", json: map[string]any{"category": []any{}}, auth: true},
		{method: "PUT", path: "/api/settings", json: map[string]any{"customFields": map[string]any{"a": 1}}, auth: true},
		{method: "PUT", path: "/api/settings", json: map[string]any{"title": []any{1}}, auth: true},
		{method: "POST", path: "/api/pages", form: map[string][]string{"tags[]": {"x"}, "title": {"arr"}}, auth: true},
		{path: "/api/pages", query: map[string][]string{"numberOfItems": {"99999999999999999999999"}, "pageNumber": {"9223372036854775807"}}},
		{path: "/api/pages", query: map[string][]string{"numberOfItems": {"1e300"}, "pageNumber": {"NaN"}}},
		{path: "/api/pages", query: map[string][]string{"numberOfItems": {"1"}, "pageNumber": {"4611686018427387904"}}},
		{path: "/api/pages", query: map[string][]string{"token[]": {"x"}}, noToken: true},
		{path: "/api/pages/%00"},
		{path: "/api/files/%2e%2e"},
		{method: "POST", path: "/api/images", raw: "--x\r\n", contentType: "multipart/form-data; boundary=x"},
		{method: "POST", path: "/api/images", raw: "", contentType: "multipart/form-data"},
		{method: "GET", path: "/api/pages", raw: "{not json", contentType: "application/json"},
	}
	for i, q := range odd {
		r := call(t, s, q)
		if r.code >= 500 || r.obj() == nil {
			t.Errorf("case %d (%s %s): %d %s", i, q.method, q.path, r.code, r.body)
		}
	}
}

// In memory, requests side by side lose nothing. (The file mode loses data
// so on purpose, like the host: fragile_test.go.)
func TestConcurrentRequests(t *testing.T) {
	if *inFiles {
		t.Skip("the file mode loses data under overlapping writes by design (see TestOverlappingWritesLoseData)")
	}
	s := newServer(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				if r := sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Concurrent", "tags": "c"}); r.code != 201 {
					t.Errorf("create: %d", r.code)
				}
				if r := get(t, s, "/api/pages", "numberOfItems", "-1"); r.code != 200 {
					t.Errorf("list: %d", r.code)
				}
			}
		}()
	}
	wg.Wait()
	if n := len(get(t, s, "/api/pages", "numberOfItems", "-1").list()); n != 18+80 {
		t.Fatalf("%d pages, want %d", n, 18+80)
	}
}

func TestEncoder(t *testing.T) {
	v := obj{{"a", "x/y é 😀 \"q\" <b>\n\x01"}, {"b", dict{{"k", 1}, {"j", true}}}, {"c", []any{nil, 1.5, int64(2)}}}
	plain := (&encoder{}).encode(v)
	if want := `{"a":"x/y é 😀 \"q\" <b>\n\u0001","b":{"k":1,"j":true},"c":[null,1.5,2]}`; string(plain) != want {
		t.Errorf("plain:\n%s\nwant\n%s", plain, want)
	}
	esc := (&encoder{escSlashes: true, reverse: true, extra: true}).encode(v)
	if want := `{"extraField":"benign","c":[null,1.5,2],"b":{"j":true,"k":1},"a":"x\/y \u00e9 \ud83d\ude00 \"q\" <b>\n\u0001"}`; string(esc) != want {
		t.Errorf("escaped:\n%s\nwant\n%s", esc, want)
	}
	var a, b any
	if json.Unmarshal(plain, &a) != nil || json.Unmarshal(esc, &b) != nil {
		t.Fatal("encoder output is not JSON")
	}
	am, bm := a.(map[string]any), b.(map[string]any)
	delete(bm, "extraField")
	if !reflect.DeepEqual(am, bm) {
		t.Errorf("escaped output decodes differently: %v vs %v", am, bm)
	}
}

// The text functions: Markdown rendering and slug derivation.
func TestTextFunctions(t *testing.T) {
	funcs := map[string]func(string) string{
		"renderMarkdown": renderMarkdown,
		"cleanURL":       func(s string) string { return cleanURL(s, false) },
		"slugSource":     func(s string) string { return slugSource(s, "") },
		"stripTags":      stripTags,
	}
	for _, c := range []struct{ f, in, want string }{
		{"renderMarkdown", "Alpha **content**", "<p>Alpha <strong>content</strong></p>"},
		{"renderMarkdown", "# Title\n\nText *em*", "<h1>Title</h1>\n<p>Text <em>em</em></p>"},
		{"renderMarkdown", "- a\n- b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"},
		{"renderMarkdown", "<div>raw</div>", "<div>raw</div>"},
		{"renderMarkdown", "x <b>y</b> [l](http://u)", `<p>x <b>y</b> <a href="http://u">l</a></p>`},
		{"renderMarkdown", "`code` and __strong__", "<p><code>code</code> and <strong>strong</strong></p>"},
		{"renderMarkdown", "", ""},
		{"renderMarkdown", "###### six\n####### seven", "<h6>six</h6>\n<p>####### seven</p>"},
		{"cleanURL", "Alpha Post", "alpha-post"},
		{"cleanURL", "Tom &amp; Jerry &lt;b&gt;bold&lt;/b&gt; &quot;q&quot;", "tom-amp-jerry-lt-b-gt-bold-lt-b-gt-quot-q-quot"},
		{"cleanURL", "Café Ñandú über", "café-ñandú-über"},
		{"cleanURL", "  --x--  ", "x"},
		{"cleanURL", "!!!", ""},
		// Only ASCII punctuation separates: other characters are kept.
		{"cleanURL", "Rock’n’Roll — Live", "rock’n’roll-—-live"},
		{"cleanURL", "a_b|c+d/e", "a-b-c-d-e"},
		{"cleanURL", "tab\there", "tab\there"},
		{"cleanURL", "two\nlines", "twolines"},
		{"slugSource", strings.Repeat("abcde ", 12), strings.Repeat("abcde ", 9) + "abcde"},
		{"slugSource", "line\nbreak", "linebreak"},
		{"stripTags", "a <b>bold</b> x < y <i", "a bold x < y "},
	} {
		if got := funcs[c.f](c.in); got != c.want {
			t.Errorf("%s(%q) = %q, want %q", c.f, c.in, got, c.want)
		}
	}
	if got := removeSpecialCharacters("My Photo (1).png", "-"); got != "My-Photo-1-png" {
		t.Errorf("removeSpecialCharacters = %q", got)
	}
	if got := removeSpecialCharacters("(a)", "-"); got != "-a-" {
		t.Errorf("removeSpecialCharacters trims: %q", got)
	}
}

// The clock option decides the default date of a new page.
func TestClock(t *testing.T) {
	s := newServer(t)
	r := sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Clock"})
	if got := r.data()["date"]; got != fixedNow.Format(time.DateTime) {
		t.Fatalf("date %v, want %v", got, fixedNow.Format(time.DateTime))
	}
}
