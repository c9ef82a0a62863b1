package explore

import (
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestFinishReportsUnreadableSettings: settings that can no longer be
// read at the end of an exploration could not be restored, and the
// problems left on the target say so (finish once read them itself and
// skipped the restore without a word when that read failed).
func TestFinishReportsUnreadableSettings(t *testing.T) {
	t.Parallel()
	// The settings read fine until the exploration's first list case
	// (the session reads the users, then the settings, before any case).
	var users, broken atomic.Bool
	srv := testkit.ReferenceWith(t, reference.Options{}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path == "/api/users":
				users.Store(true)
			case r.URL.Path == "/api/pages" && users.Load():
				broken.Store(true)
			case r.URL.Path == "/api/settings" && broken.Load():
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Access-Control-Allow-Origin", "*")
				w.Header().Set("Cache-Control", "no-store")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"status":"1","message":"Down for maintenance."}`))
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	res, out := exploreRef(t, srv, Config{Seed: 3, Requests: 20, Kinds: []gen.Kind{gen.KindList}})
	if !broken.Load() {
		t.Fatalf("no list case was sent\n%s", out)
	}
	if !slices.ContainsFunc(res.Report.Cleanup.Problems, func(p string) bool {
		return strings.Contains(strings.ToLower(p), "settings not restored") && strings.Contains(p, "503")
	}) {
		t.Errorf("problems %v, want the settings not restored (503)\n%s", res.Report.Cleanup.Problems, out)
	}
}
