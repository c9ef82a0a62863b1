package explore

import (
	"net/http"
	"net/http/httptest"
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
	before := srv.Storage()
	_, out := exploreRef(t, srv, Config{Seed: 7, Requests: 300, Kinds: []gen.Kind{gen.KindRefused}})
	if d := before.Diff(srv.Storage()); len(d) > 0 {
		t.Errorf("the exploration changed the storage:\n%s\n%s", strings.Join(d, "\n"), out)
	}
}
