package selftest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// serverWork is how long the watched server takes to answer: a real host
// takes milliseconds, and requests only overlap at the server while one of
// them is being answered.
const serverWork = 3 * time.Millisecond

// watchedReference serves a fresh reference server that takes serverWork
// per request, watched at the server.
func watchedReference(t *testing.T) (testkit.Server, *testkit.WireWatch) {
	watch := testkit.NewWireWatch()
	ref := testkit.ReferenceWith(t, reference.Options{}, func(h http.Handler) http.Handler {
		return watch.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(serverWork)
			h.ServeHTTP(w, r)
		}))
	})
	return ref, watch
}

// TestNoRequestOverlapsAWrite: in a full write run, whatever sends them
// (specs, prepares side by side, shared fixtures, background uploads, the
// settings guard, cleanups, the sweep, the tripwire), no request of the run
// reaches the server while a write is being answered, at the default flags
// and at --concurrency 8 with settings writes; reads still go side by side.
// With --parallel-writes the same watch sees writes overlap: it would see
// the rule broken.
func TestNoRequestOverlapsAWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("full runs")
	}
	for _, c := range []struct {
		name    string
		args    []string
		overlap bool
	}{
		{"default flags", nil, false},
		{"concurrency 8, settings writes", []string{"--concurrency", "8", "--allow-settings-write"}, false},
		{"parallel writes", []string{"--parallel-writes", "--allow-settings-write"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ref, watch := watchedReference(t)
			dir := t.TempDir()
			res := selftest.Run(t.Context(), selftest.Cmd{Dir: dir, Timeout: runTimeout,
				Args: append([]string{"--base-url", ref.URL, "--no-color", "--json-report", filepath.Join(dir, "run.json")}, c.args...),
				Env:  []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken}})
			seen := watch.Seen()
			t.Logf("%d requests, %d writes, peak %d in flight, %d overlaps", seen.Requests, seen.Writes, seen.Peak, len(seen.Overlaps))
			if c.overlap {
				if len(seen.Overlaps) == 0 {
					t.Errorf("with --parallel-writes no write overlapped another request: the watch proves nothing")
				}
				return
			}
			if res.Exit != 0 {
				t.Fatalf("exit %d:\n%s", res.Exit, selftest.Tail(res.Stdout, 20))
			}
			if seen.Writes < 50 || seen.Peak < 2 {
				t.Errorf("%d writes, peak %d in flight: want a full write run whose reads go side by side", seen.Writes, seen.Peak)
			}
			if len(seen.Overlaps) > 0 {
				t.Errorf("%d requests overlapped a write, e.g.:\n  %s", len(seen.Overlaps), strings.Join(seen.Overlaps[:min(5, len(seen.Overlaps))], "\n  "))
			}
		})
	}
}

// TestCleanupOverlapsNothing: `conformance cleanup` deletes the pages
// earlier runs left, one at a time with nothing beside them, and the
// site's own pages stay.
func TestCleanupOverlapsNothing(t *testing.T) {
	ref, watch := watchedReference(t)
	before := ref.Storage()
	seedLeftovers(t, ref, 12)
	res := selftest.Run(t.Context(), selftest.Cmd{Timeout: runTimeout, Args: []string{"cleanup", "--base-url", ref.URL},
		Env: []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken}})
	if res.Exit != 0 || !strings.Contains(res.Stdout, "12 page(s) deleted, 0 failed.") {
		t.Fatalf("cleanup exit %d:\n%s", res.Exit, res.Stdout)
	}
	if seen := watch.Seen(); len(seen.Overlaps) > 0 {
		t.Errorf("%d requests of the cleanup overlapped a delete, e.g. %s", len(seen.Overlaps), seen.Overlaps[0])
	}
	if diff := before.Diff(ref.Storage()); len(diff) > 0 {
		t.Errorf("after cleanup the site differs from before the leftovers were made:\n%s", strings.Join(diff, "\n"))
	}
}

// TestCleanupTripwire: while cleanup deletes the leftovers, another writer
// deletes one of the site's own pages: cleanup notices, says so in one
// sentence and exits 3.
func TestCleanupTripwire(t *testing.T) {
	fw := &foreignWriter{deleteOnWrite: 16, victim: "alpha-post"} // 12 seeded below, then 4 of cleanup's deletes
	ref := testkit.ReferenceWith(t, reference.Options{}, func(h http.Handler) http.Handler { return fw.wrap(h) })
	fw.token, fw.auth = ref.Token, ref.AuthToken
	seedLeftovers(t, ref, 12)
	res := selftest.Run(t.Context(), selftest.Cmd{Timeout: runTimeout, Args: []string{"cleanup", "--base-url", ref.URL},
		Env: []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken}})
	if res.Exit != 3 || !strings.Contains(res.Stdout, "The site lost data during cleanup: these pages are no longer listed: alpha-post") {
		t.Fatalf("cleanup exit %d, want 3 and a sentence naming alpha-post:\n%s", res.Exit, res.Stdout)
	}
}

// seedLeftovers makes n pages an earlier run left (run-marked drafts).
func seedLeftovers(t *testing.T, ref testkit.Server, n int) {
	t.Helper()
	for i := range n {
		q := url.Values{"token": {ref.Token}, "authentication": {ref.AuthToken}, "type": {"draft"},
			"title": {fmt.Sprintf("left %d", i)}, "slug": {fmt.Sprintf("conformance-20261101t1200-abcdef-left-%d", i)}}
		resp, err := http.PostForm(ref.URL+"/api/pages", q)
		if err != nil || resp.StatusCode != http.StatusCreated {
			t.Fatalf("seeding a leftover page: %v %v", err, resp)
		}
		resp.Body.Close()
	}
}
