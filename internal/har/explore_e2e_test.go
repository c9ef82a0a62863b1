package har_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// The log of an exploration (`conformance explore --har-report`, writes
// and settings, against a server with two explore mutants, one of which
// echoes the API token in an answer) validates against HAR 1.2, holds
// every request of the exploration once, says which entries are a
// finding's smallest case, and holds neither token in any form.
func TestExploreLog(t *testing.T) {
	t.Parallel()
	srv := testkit.Reference(t, reference.ExploreMissingTagEchoesToken, reference.ExploreTagAmpersandCrash)
	dir := t.TempDir()
	res := selftest.Run(t.Context(), selftest.Cmd{Dir: dir, Timeout: 2 * time.Minute,
		Args: []string{"explore", "--allow-settings-write", "--seed", "1", "--har-report", "explore.har", "--json-report", "explore.json"},
		Env:  []string{"CONFORMANCE_BASE_URL=" + srv.URL, "CONFORMANCE_TOKEN=" + srv.Token, "CONFORMANCE_AUTH_TOKEN=" + srv.AuthToken}})
	if res.Err != nil || res.Exit != 1 {
		t.Fatalf("exit %d (%v), want 1 (findings)\n%s\n%s", res.Exit, res.Err, selftest.Tail(res.Stdout, 20), selftest.Tail(res.Stderr, 20))
	}
	path := filepath.Join(dir, "explore.har")
	mustValidate(t, path)
	run, err := report.ReadJSONFile(filepath.Join(dir, "explore.json"))
	if err != nil {
		t.Fatal(err)
	}
	h := readLog(t, path)
	checkNumbers(t, h, run.Meta.Requests)
	if !strings.HasPrefix(h.Log.Comment, "conformance explore ") || !strings.Contains(h.Log.Comment, "seed 1") {
		t.Errorf("the log's comment %q does not say it is an exploration and its seed", h.Log.Comment)
	}
	findings := map[string]bool{}
	for _, e := range h.Log.Entries {
		if rule, ok := strings.CutPrefix(e.Comment, "explore finding "); ok {
			findings[strings.Fields(rule)[0]] = true
		}
	}
	for _, rule := range []string{"AUTH-NO-TOKEN-IN-ANSWER:", "GEN-NO-CRASH:"} {
		if !findings[rule] {
			t.Errorf("no entry is marked as the smallest case of a %s finding (marked: %v)", strings.TrimSuffix(rule, ":"), findings)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for name, secret := range map[string]string{"API token": srv.Token, "auth token": srv.AuthToken} {
		for form, v := range map[string]string{"whole": secret, "query-escaped": url.QueryEscape(secret), "its start": secret[:20], "its end": secret[len(secret)-20:]} {
			if strings.Contains(text, v) {
				t.Errorf("the log holds the %s (%s)", name, form)
			}
		}
	}
	if !strings.Contains(text, client.TokenPlaceholder) || !strings.Contains(text, client.AuthTokenPlaceholder) {
		t.Error("the log shows neither placeholder: the scan above proves nothing")
	}
}
