package selftest_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestLargeSiteWrites runs the page writes on a site whose listings and
// term views, read after the writes, are larger than the read limit: the
// views are read as streams, so the rules judged on them still pass, and
// none fails for an answer the run did not read whole (an answer over
// --max-body is not checked, never failed).
func TestLargeSiteWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("a CLI run")
	}
	tok, auth := reference.NewToken(), reference.NewToken()
	base := testkit.ReferenceWith(t, reference.Options{Token: tok, AuthToken: auth}, nil).URL
	dir := t.TempDir()
	reportPath := filepath.Join(dir, "report.json")
	// 9000 bytes: the seeded listing of every type (about 11 KB) is cut
	// when read whole.
	rules := []string{"PAGE-LIST-TYPE-FILTERS", "PAGE-DELETE-GONE", "TAG-LIST-COMPLETE", "CAT-LIST-COMPLETE",
		"TAG-LIST-CONSISTENT", "CAT-LIST-CONSISTENT"}
	filter := "rule:" + strings.Join(rules, " || rule:")
	res := selftest.Run(context.Background(), selftest.Cmd{
		Args: []string{"--base-url", base, "--max-body", "9000", "--label-filter", filter, "--no-color", "--json-report", reportPath},
		Env:  []string{"CONFORMANCE_TOKEN=" + tok, "CONFORMANCE_AUTH_TOKEN=" + auth},
	})
	run, err := report.ReadJSONFile(reportPath)
	if err != nil {
		t.Fatalf("exit %d, no report: %v\n%s", res.Exit, err, selftest.Tail(res.Stdout, 40))
	}
	status := map[string]report.RuleResult{}
	for _, r := range run.Rules {
		status[r.ID] = r
	}
	for _, id := range rules {
		if r := status[id]; r.Status != report.Passed {
			t.Errorf("%s: %s (%s), want passed with the views read as streams", id, r.Status, r.Reason)
		}
	}
	if res.Exit != 0 {
		t.Errorf("exit %d\n%s", res.Exit, selftest.Tail(res.Stdout, 40))
	}
}

// TestDeletedPageViewsFailing: after the run's delete, every listing and
// term view answers 500. The views' case of PAGE-DELETE-GONE then has
// nothing to judge: it is not checked, with the reason, where it passed
// before (a 500 read as "not listed", as "no longer named").
func TestDeletedPageViewsFailing(t *testing.T) {
	if testing.Short() {
		t.Skip("a CLI run")
	}
	tok, auth := reference.NewToken(), reference.NewToken()
	var deleted atomic.Bool
	base := testkit.ReferenceWith(t, reference.Options{Token: tok, AuthToken: auth}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p := r.URL.Path
			view := p == "/api/pages" || strings.HasPrefix(p, "/api/tags") || strings.HasPrefix(p, "/api/categories")
			if r.Method == http.MethodGet && view && deleted.Load() {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"status":"1","message":"failing"}`))
				return
			}
			if r.Method == http.MethodDelete && strings.HasPrefix(p, "/api/pages/") {
				deleted.Store(true)
			}
			h.ServeHTTP(w, r)
		})
	}).URL
	reportPath := filepath.Join(t.TempDir(), "report.json")
	res := selftest.Run(context.Background(), selftest.Cmd{
		Args: []string{"--base-url", base, "--label-filter", "rule:PAGE-DELETE-GONE", "--no-color", "--json-report", reportPath},
		Env:  []string{"CONFORMANCE_TOKEN=" + tok, "CONFORMANCE_AUTH_TOKEN=" + auth},
	})
	run, err := report.ReadJSONFile(reportPath)
	if err != nil {
		t.Fatalf("exit %d, no report: %v\n%s", res.Exit, err, selftest.Tail(res.Stdout, 40))
	}
	found := false
	for _, s := range run.Specs {
		if !strings.Contains(s.Name, "no listing, tag or category view names the deleted page") {
			continue
		}
		found = true
		if s.Status != report.NotChecked || !strings.Contains(s.Message, "HTTP 500") {
			t.Errorf("%s: %s (%s), want not checked: every view answered HTTP 500", s.Name, s.Status, s.Message)
		}
	}
	if !found {
		t.Errorf("no spec of the deleted page's views ran\n%s", selftest.Tail(res.Stdout, 40))
	}
}
