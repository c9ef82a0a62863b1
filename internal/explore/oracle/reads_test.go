package oracle

import (
	"net/http"
	"testing"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// TestSingle: a read by key answers the resource named, or 404 with a
// handler error when none has the key; a key with ".." or a NUL byte is
// 400 for the files list (4.11), and elsewhere, like a very long key,
// may be 404 or 400 (7's "invalid page key"), the one seen recorded.
func TestSingle(t *testing.T) {
	tag := `{"key":"salt","name":"Salt","description":"","template":"","list":[],"pages":[]}`
	for _, c := range []struct {
		name            string
		endpoint, class string
		key             string
		r               reply
		open            bool
		want            []string
	}{
		{name: "a page", endpoint: "pages", class: "existing", key: "about", r: ok(jsonText(t, rulestest.Page("about", "static", nil)))},
		{name: "a child page", endpoint: "pages", class: "existing", key: "a/b", r: ok(jsonText(t, rulestest.Page("a/b", "published", nil)))},
		{name: "a tag", endpoint: "tags", class: "existing", key: "salt", r: ok(tag)},
		{name: "a user", endpoint: "users", class: "existing", key: "admin", r: ok(`{"username":"admin"}`)},
		{name: "a page's files", endpoint: "files", class: "existing", key: "about", r: ok(`[]`)},
		{name: "a missing page", endpoint: "pages", class: "missing", key: "nope", r: handlerError(404)},
		{name: "a missing child", endpoint: "pages", class: "child", key: "about/nope", r: handlerError(404)},
		{name: "a missing category", endpoint: "categories", class: "missing", key: "nope", r: handlerError(404)},
		{name: "the files of a missing page, none", endpoint: "files", class: "missing", key: "nope", r: ok(`[]`)},
		{name: "the files of a missing page, 404", endpoint: "files", class: "missing", key: "nope", r: handlerError(404)},
		{name: "files with .. refused", endpoint: "files", class: "traversal", key: "a..b", r: handlerError(400)},
		{name: "files with an early 400", endpoint: "files", class: "encoded", key: "a%2e%2eb", r: earlyError(400)},
		{name: "a page key with .., 404", endpoint: "pages", class: "traversal", key: "a..b", r: handlerError(404), open: true},
		{name: "a page key with .., 400", endpoint: "pages", class: "traversal", key: "a..b", r: handlerError(400), open: true},
		{name: "a tag key with NUL, 400", endpoint: "tags", class: "traversal", key: "x%00y", r: earlyError(400), open: true},
		{name: "a very long user, 404", endpoint: "users", class: "long", key: "aaaa", r: handlerError(404), open: true},
		{name: "a very long page key, 400", endpoint: "pages", class: "long", key: "aaaa", r: handlerError(400), open: true},

		{name: "another page", endpoint: "pages", class: "existing", key: "about", r: ok(jsonText(t, rulestest.Page("home", "static", nil))), want: []string{"PAGE-GET-OK"}},
		{name: "a page refused", endpoint: "pages", class: "existing", key: "about", r: handlerError(404), want: []string{"PAGE-GET-OK"}},
		{name: "a child page refused", endpoint: "pages", class: "existing", key: "a/b", r: handlerError(404), want: []string{"PAGE-GET-HIERARCHICAL"}},
		{name: "a page without its title", endpoint: "pages", class: "existing", key: "about", r: ok(jsonText(t, rulestest.Page("about", "static", map[string]any{"title": nil}))),
			want: []string{"PAGE-OBJECT-SHAPE"}},
		{name: "another tag", endpoint: "tags", class: "existing", key: "pepper", r: ok(tag), want: []string{"TAG-GET-SHAPE"}},
		{name: "a tag whose pages its list does not name", endpoint: "tags", class: "existing", key: "salt",
			r:    ok(`{"key":"salt","name":"Salt","list":[],"pages":[` + jsonText(t, rulestest.Page("about", "static", map[string]any{"tags": map[string]any{"salt": "Salt"}})) + `]}`),
			want: []string{"TAG-PAGES-MATCH-LIST"}},
		{name: "a category whose page is in another", endpoint: "categories", class: "existing", key: "news",
			r:    ok(`{"key":"news","name":"News","list":["about"],"pages":[` + jsonText(t, rulestest.Page("about", "static", map[string]any{"category": "other"})) + `]}`),
			want: []string{"CAT-LIST-CONSISTENT"}},
		{name: "another user", endpoint: "users", class: "existing", key: "editor", r: ok(`{"username":"admin"}`), want: []string{"USER-GET-SHAPE"}},
		{name: "files not a list", endpoint: "files", class: "existing", key: "about", r: ok(`{}`), want: []string{"FILES-LIST-SHAPE"}},
		{name: "a missing page found", endpoint: "pages", class: "missing", key: "nope", r: ok(jsonText(t, rulestest.Page("nope", "draft", nil))), want: []string{"PAGE-GET-404"}},
		{name: "a missing page, 400", endpoint: "pages", class: "missing", key: "nope", r: handlerError(400), want: []string{"PAGE-GET-404"}},
		{name: "a missing tag, early error", endpoint: "tags", class: "missing", key: "nope", r: earlyError(404), want: []string{"TAG-GET-404"}},
		{name: "a missing user, 200", endpoint: "users", class: "missing", key: "nope", r: ok(`{}`), want: []string{"USER-GET-404"}},
		{name: "the files of a missing page, not a list", endpoint: "files", class: "missing", key: "nope", r: ok(`{}`), want: []string{"FILES-LIST-SHAPE"}},
		{name: "files with .. served", endpoint: "files", class: "traversal", key: "a..b", r: ok(`[]`), want: []string{"FILES-TRAVERSAL-400"}},
		// The body too, as the normal run judges it (either error body).
		{name: "files with .. refused, status 0", endpoint: "files", class: "traversal", key: "a..b", r: reply{status: 400, body: `{"status":"0","message":"no"}`},
			want: []string{"FILES-TRAVERSAL-400"}},
		{name: "files with a%2e%2eb, 404", endpoint: "files", class: "encoded", key: "a%2e%2eb", r: handlerError(404), want: []string{"FILES-TRAVERSAL-400"}},
		{name: "a page key with .., 200", endpoint: "pages", class: "traversal", key: "a..b", r: ok(jsonText(t, rulestest.Page("a..b", "draft", nil))), want: []string{"PAGE-GET-404"}},
		{name: "a very long key, 401", endpoint: "categories", class: "long", key: "aaaa", r: earlyError(401), want: []string{"CAT-GET-404"}},
	} {
		ex := send(t, "", c.r)
		j := NewJudge()
		j.Single(c.endpoint, c.class, c.key, ex)
		wantRules(t, c.name, j, c.want...)
		if len(j.Checked) == 0 {
			t.Errorf("%s: nothing was checked", c.name)
		}
		if c.open != (len(j.Observed) > 0) {
			t.Errorf("%s: observations %q, want some: %t", c.name, j.Observed, c.open)
		}
	}
}

// TestTokens: a missing API token is 400 with an early error, a wrong
// one 401; a write or a settings read without a valid authentication
// token is 401 (404 allowed first for a page no one has); with both
// tokens valid the request goes through; a token where the spec does not
// put it, or an empty one, gets any answer the spec allows, recorded.
func TestTokens(t *testing.T) {
	get, put, del := http.MethodGet, http.MethodPut, http.MethodDelete
	for _, c := range []struct {
		name             string
		method, endpoint string
		missing          bool // the key names no page
		api, auth        gen.Token
		r                reply
		open             bool
		want             []string
	}{
		{name: "a read with the API token", method: get, endpoint: "pages", r: ok(`[]`)},
		{name: "a read of no page with the API token", method: get, endpoint: "pages", missing: true, r: handlerError(404)},
		{name: "no API token", method: get, endpoint: "pages", api: gen.TokenMissing, r: earlyError(400)},
		{name: "no API token on an unauthenticated write, 401", method: put, endpoint: "pages", missing: true, api: gen.TokenMissing, auth: gen.TokenMissing, r: earlyError(401)},
		{name: "an empty API token, 400", method: get, endpoint: "pages", api: gen.TokenEmpty, r: earlyError(400), open: true},
		{name: "an empty API token, 401", method: get, endpoint: "settings", api: gen.TokenEmpty, r: earlyError(401), open: true},
		{name: "a wrong API token", method: get, endpoint: "pages", api: gen.TokenWrong, r: earlyError(401)},
		{name: "the API token in a GET's body", method: get, endpoint: "pages", api: gen.TokenElsewhere, r: earlyError(400), open: true},
		{name: "the API token in a PUT's query", method: put, endpoint: "pages", missing: true, api: gen.TokenElsewhere, r: handlerError(404), open: true},
		{name: "settings with both", method: get, endpoint: "settings", r: ok(`{"title":"x"}`)},
		{name: "settings without authentication", method: get, endpoint: "settings", auth: gen.TokenMissing, r: earlyError(401)},
		{name: "settings with a wrong authentication", method: get, endpoint: "settings", auth: gen.TokenWrong, r: handlerError(401)},
		{name: "an edit of no page with both", method: put, endpoint: "pages", missing: true, r: handlerError(404)},
		{name: "a delete of no page with both", method: del, endpoint: "pages", missing: true, r: handlerError(404)},
		{name: "an edit without authentication, 401", method: put, endpoint: "pages", missing: true, auth: gen.TokenMissing, r: earlyError(401)},
		{name: "a delete with a wrong authentication, 404 first", method: del, endpoint: "pages", missing: true, auth: gen.TokenWrong, r: handlerError(404)},

		{name: "no API token, 401 on a read", method: get, endpoint: "pages", api: gen.TokenMissing, r: earlyError(401), want: []string{"AUTH-MISSING-TOKEN-400"}},
		{name: "no API token, a handler's 400", method: get, endpoint: "pages", api: gen.TokenMissing, r: handlerError(400), want: []string{"ENV-EARLY-ERROR-SHAPE"}},
		{name: "no API token, served", method: get, endpoint: "pages", api: gen.TokenMissing, r: ok(`[]`), want: []string{"AUTH-MISSING-TOKEN-400"}},
		// The message too, as the normal run judges it: a non-empty string.
		{name: "no API token, an empty message", method: get, endpoint: "pages", api: gen.TokenMissing, r: reply{status: 400, body: `{"message":""}`},
			want: []string{"AUTH-MISSING-TOKEN-400"}},
		{name: "an empty API token, served", method: get, endpoint: "pages", api: gen.TokenEmpty, r: ok(`[]`), want: []string{"AUTH-MISSING-TOKEN-400"}},
		{name: "a wrong API token, 400", method: get, endpoint: "pages", api: gen.TokenWrong, r: earlyError(400), want: []string{"AUTH-INVALID-TOKEN-401"}},
		{name: "a wrong API token, a handler's 401", method: get, endpoint: "pages", api: gen.TokenWrong, r: handlerError(401), want: []string{"ENV-EARLY-ERROR-SHAPE"}},
		{name: "a read refused", method: get, endpoint: "pages", r: earlyError(401), want: []string{"AUTH-READ-TOKEN-ONLY"}},
		{name: "a read of no page with the API token, 200", method: get, endpoint: "pages", missing: true, r: ok(jsonText(t, rulestest.Page("nope", "draft", nil))), want: []string{"PAGE-GET-404"}},
		{name: "settings refused with both", method: get, endpoint: "settings", r: earlyError(401), want: []string{"AUTH-PARAM-NAME"}},
		{name: "settings without authentication, served", method: get, endpoint: "settings", auth: gen.TokenMissing, r: ok(`{}`), want: []string{"AUTH-SETTINGS-READ-NEEDS-AUTH"}},
		{name: "an edit of no page with both, 401", method: put, endpoint: "pages", missing: true, r: earlyError(401), want: []string{"PAGE-EDIT-404"}},
		{name: "a delete of no page with both, 200", method: del, endpoint: "pages", missing: true, r: ok(`{}`), want: []string{"PAGE-DELETE-404"}},
		{name: "a delete of no page with both, an early 404", method: del, endpoint: "pages", missing: true, r: earlyError(404), want: []string{"PAGE-DELETE-404"}},
		{name: "an edit without authentication, 200", method: put, endpoint: "pages", missing: true, auth: gen.TokenMissing, r: ok(`{}`), want: []string{"AUTH-WRITE-NEEDS-AUTH"}},
		{name: "an edit with a wrong authentication, 400", method: put, endpoint: "pages", missing: true, auth: gen.TokenWrong, r: handlerError(400), want: []string{"AUTH-WRITE-INVALID-AUTH"}},
	} {
		cs := gen.Case{Kind: gen.KindToken, Method: c.method, Endpoint: c.endpoint, APIToken: c.api, AuthToken: c.auth}
		if c.missing {
			cs.Key, cs.KeyClass = gen.Marker+"missing", "missing"
		}
		ex := send(t, c.method, c.r)
		j := NewJudge()
		j.Tokens(cs, ex)
		wantRules(t, c.name, j, c.want...)
		if c.open != (len(j.Observed) > 0) {
			t.Errorf("%s: observations %q, want some: %t", c.name, j.Observed, c.open)
		}
		if !c.open && len(j.Checked) == 0 {
			t.Errorf("%s: nothing was checked", c.name)
		}
	}
}
