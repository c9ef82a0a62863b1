package explore

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// topLevelPage is the key of a page of the reference without a parent,
// read through h.
func topLevelPage(h http.Handler, token string) string {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/pages?numberOfItems=-1&token="+token, nil))
	for _, p := range gjson.GetBytes(rec.Body.Bytes(), "data").Array() {
		if k := p.Get("key").String(); k != "" && !strings.Contains(k, "/") {
			return k
		}
	}
	return ""
}

// withoutAuth reports whether a request carries no valid authentication
// token (anywhere the client may put it).
func withoutAuth(r *http.Request, body []byte, auth string) bool {
	return !strings.Contains(string(body)+r.URL.RawQuery+r.Header.Get("X-Auth-Token"), auth)
}

// TestRefusedCreateTakenUnderAParent: a server that takes a create
// without a valid authentication token and puts the page under the
// parent the body named (201, the key parent/slug) breaks
// AUTH-REFUSED-WRITE-NO-EFFECT: the page is read where the answer put
// it, not at the slug alone, and it is removed.
func TestRefusedCreateTakenUnderAParent(t *testing.T) {
	t.Parallel()
	opts := reference.Options{Token: reference.NewToken(), AuthToken: reference.NewToken()}
	wrap := func(h http.Handler) http.Handler {
		var once sync.Once
		var parent string
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			fields, _ := bodyFields(body)
			if r.Method != http.MethodPost || r.URL.Path != "/api/pages" || !fields.Has("parent") || !withoutAuth(r, body, opts.AuthToken) {
				h.ServeHTTP(w, r)
				return
			}
			once.Do(func() { parent = topLevelPage(h, opts.Token) })
			taken, _ := json.Marshal(map[string]string{"token": opts.Token, "authentication": opts.AuthToken,
				"title": fields.Get("title"), "slug": fields.Get("slug"), "type": "draft", "parent": parent})
			req := httptest.NewRequest(http.MethodPost, "/api/pages", bytes.NewReader(taken))
			req.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(w, req)
		})
	}
	srv := testkit.ReferenceWith(t, opts, wrap)
	res, out := exploreLeavingNoTrace(t, srv, Config{Seed: 7, Requests: 1500, Kinds: []gen.Kind{gen.KindRefused}})
	if !slices.ContainsFunc(res.Records, func(r Record) bool { return r.Finding.Rule == "AUTH-REFUSED-WRITE-NO-EFFECT" }) {
		var rules []string
		for _, r := range res.Records {
			rules = append(rules, r.Finding.Signature())
		}
		t.Errorf("findings %v, want AUTH-REFUSED-WRITE-NO-EFFECT\n%s", rules, out)
	}
}

// TestRemoveIfThereKeepsOthersPages: a server that answers a read of a
// key no page has with another page (a lenient lookup) loses no page to
// the exploration: only a page the run made is deleted.
func TestRemoveIfThereKeepsOthersPages(t *testing.T) {
	t.Parallel()
	opts := reference.Options{Token: reference.NewToken(), AuthToken: reference.NewToken()}
	wrap := func(h http.Handler) http.Handler {
		var once sync.Once
		var other string
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/api/pages/") {
				h.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code == http.StatusNotFound {
				once.Do(func() { other = topLevelPage(h, opts.Token) })
				r2 := r.Clone(r.Context())
				r2.URL.Path = "/api/pages/" + other
				r2.URL.RawPath = ""
				rec = httptest.NewRecorder()
				h.ServeHTTP(rec, r2)
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
		})
	}
	srv := testkit.ReferenceWith(t, opts, wrap)
	exploreLeavingNoTrace(t, srv, Config{Seed: 7, Requests: 300, Kinds: []gen.Kind{gen.KindRefused}})
}

// TestWrongTokenIsNeverTheRunsOwn: a case that sends a wrong token sends
// one that differs from the run's, whatever the run's are (a fixed
// "wrong" value could be a site's real token, and its writes then go
// through).
func TestWrongTokenIsNeverTheRunsOwn(t *testing.T) {
	t.Parallel()
	const tok = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, opts := range []reference.Options{{Token: tok, AuthToken: reference.NewToken()}, {Token: reference.NewToken(), AuthToken: tok}} {
		srv := testkit.ReferenceWith(t, opts, nil)
		res, _ := exploreLeavingNoTrace(t, srv, Config{Seed: 7, Requests: 400, Kinds: []gen.Kind{gen.KindToken, gen.KindRefused}})
		for _, r := range res.Records {
			t.Errorf("%s: expected %s, got %s", r.Finding.Signature(), r.Finding.Expected, r.Finding.Got)
		}
	}
}
