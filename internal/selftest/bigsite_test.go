package selftest_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/fixtures"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// runOn runs the CLI against the reference server with opts and extra
// flags, and returns its JSON report; the run must pass.
func runOn(t *testing.T, opts reference.Options, extra ...string) *report.Run {
	t.Helper()
	ref := testkit.ReferenceWith(t, opts, nil)
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	args := append([]string{"--base-url", ref.URL, "--no-color", "--json-report", path}, extra...)
	res := selftest.Run(context.Background(), selftest.Cmd{Dir: dir, Timeout: runTimeout, Args: args,
		Env: []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken}})
	if res.Exit != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.Exit, selftest.Tail(res.Stdout, 40), selftest.Tail(res.Stderr, 10))
	}
	run, err := report.ReadJSONFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// ruleStatus indexes a report's rules by ID.
func ruleStatus(run *report.Run) map[string]report.RuleResult {
	out := map[string]report.RuleResult{}
	for _, r := range run.Rules {
		out[r.ID] = r
	}
	return out
}

// TestTaxonomyListOver4KiB is the regression test of a list answer shared
// by several specs whose body the client released after the first of them
// (bodies over 4 KiB are released when a scope ends): TAG-LIST-COMPLETE and
// CAT-LIST-COMPLETE then read "no list to compare with". A category whose
// description makes both lists over 5 KB must leave every taxonomy rule
// checked.
func TestTaxonomyListOver4KiB(t *testing.T) {
	if testing.Short() {
		t.Skip("a CLI run")
	}
	long := strings.Repeat("A long description that makes the list large. ", 110) // about 5 KB
	opts := reference.Options{Seed: func(s *fixtures.Seed) {
		s.Categories[0].Description = long
		s.Tags[0].Description = long
	}}
	run := runOn(t, opts, "--read-only", "--label-filter", "area:taxonomy")
	rules := ruleStatus(run)
	for _, id := range []string{"TAG-LIST-COMPLETE", "CAT-LIST-COMPLETE"} {
		if _, ok := rules[id]; !ok {
			t.Errorf("%s: not in the report, want passed with a list over 4 KiB", id)
		}
	}
	for id, r := range rules {
		if !strings.HasPrefix(id, "TAG-") && !strings.HasPrefix(id, "CAT-") {
			continue
		}
		if r.Status != report.Passed {
			t.Errorf("%s: %s (%s), want passed with a list over 4 KiB", id, r.Status, r.Reason)
		}
	}
}
