package selftest_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
)

// TestLargeSiteReadOnly plays a site whose whole page listing
// (numberOfItems=-1) is larger than the read limit, as on a big production
// site: the page rules that compare with the full listing must still be
// checked, by walking the list, not reported "not checked".
func TestLargeSiteReadOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("a full area run")
	}
	tok := reference.NewToken()
	srv, err := reference.New(reference.Options{Token: tok, AuthToken: reference.NewToken()})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := t.TempDir()
	reportPath := filepath.Join(dir, "report.json")
	// 9000 bytes: the seeded listing of every type (about 11 KB) is cut,
	// the default first page (about 7.5 KB) is not.
	res := selftest.Run(context.Background(), selftest.Cmd{
		Args: []string{"--base-url", ts.URL, "--read-only", "--max-body", "9000", "--label-filter", "area:pages",
			"--no-color", "--json-report", reportPath},
		Env: []string{"CONFORMANCE_TOKEN=" + tok},
	})
	if res.Exit != 0 {
		t.Fatalf("exit %d\n%s", res.Exit, selftest.Tail(res.Stdout, 40))
	}
	f, err := os.Open(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, err := report.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]report.RuleResult{}
	for _, r := range run.Rules {
		status[r.ID] = r
	}
	for _, id := range []string{"PAGE-OBJECT-SHAPE", "PAGE-LIST-TYPE-FILTERS", "PAGE-LIST-DEFAULT-FILTER", "PAGE-SLUG-LAST-SEGMENT", "PAGE-GET-OK"} {
		if r := status[id]; r.Status != report.Passed {
			t.Errorf("%s: %s (%s), want passed by walking the list", id, r.Status, r.Reason)
		}
	}
}
