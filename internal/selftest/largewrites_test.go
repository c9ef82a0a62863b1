package selftest_test

import (
	"context"
	"path/filepath"
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
	filter := ""
	for i, id := range rules {
		if i > 0 {
			filter += " || "
		}
		filter += "rule:" + id
	}
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
