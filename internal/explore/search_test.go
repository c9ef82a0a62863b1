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

// onceBroken wraps the reference: the first request whose path starts
// with prefix is answered 500, every other one as the reference does.
func onceBroken(prefix string, broke *atomic.Bool) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasPrefix(r.URL.Path, prefix) || !broke.CompareAndSwap(false, true) {
				h.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Access-Control-Allow-Origin", "*")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"status":"1","message":"Internal error."}`))
		})
	}
}

// TestOneOffFailureIsFlaky: a 500 that a case shows once, and not when
// it is sent again, is no finding: the exploration records it as flaky.
// (rapid runs a failing case again before it shrinks it; that run is
// judged from the cache, and must not count as a second sending.)
func TestOneOffFailureIsFlaky(t *testing.T) {
	t.Parallel()
	var broke atomic.Bool
	srv := testkit.ReferenceWith(t, reference.Options{}, onceBroken("/api/users/", &broke))
	res, out := exploreRef(t, srv, Config{Seed: 3, Requests: 300, Kinds: []gen.Kind{gen.KindRead}})
	if !broke.Load() {
		t.Fatalf("no user was read:\n%s", out)
	}
	for _, r := range res.Records {
		t.Errorf("a one-off 500 reported as a finding: %s (%d sendings)", r.Finding.Signature(), r.Hits)
	}
	if !slices.ContainsFunc(res.Report.Observations, func(o string) bool { return strings.Contains(o, "once showed GEN-NO-CRASH") }) {
		t.Errorf("the one-off 500 is not recorded as flaky: %v", res.Report.Observations)
	}
}

// TestListModelNotFromTheFeatureUnderTest: a server whose
// numberOfItems=-1 is capped breaks PAGE-LIST-ALL and nothing else: the
// pages the list cases are judged against are not counted from that
// answer alone.
func TestListModelNotFromTheFeatureUnderTest(t *testing.T) {
	t.Parallel()
	srv := testkit.ReferenceWith(t, reference.Options{Mutants: []reference.Mutant{reference.AllCapped}}, nil)
	res, out := exploreRef(t, srv, Config{Seed: 1, Requests: 400, Kinds: []gen.Kind{gen.KindList}})
	found := false
	for _, r := range res.Records {
		found = found || r.Finding.Rule == "PAGE-LIST-ALL"
		if r.Finding.Rule != "PAGE-LIST-ALL" {
			t.Errorf("%s: expected %s, got %s (only PAGE-LIST-ALL is broken)", r.Finding.Signature(), r.Finding.Expected, r.Finding.Got)
		}
	}
	if !found {
		t.Errorf("the capped numberOfItems=-1 was not found (exit %d):\n%s", res.Exit, out)
	}
}
