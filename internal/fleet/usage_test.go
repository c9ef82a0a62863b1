package fleet_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/fleet/summary"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestFleetUsageErrors: a wrong targets file or flag is exit 2 before any
// site is checked, with every problem named.
func TestFleetUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeTargets(t, dir, []fleetSite{{name: "a", url: "http://127.0.0.1:1", token: "tok-0123456789"}})
	badArgs := filepath.Join(dir, "bad-args.yaml")
	_ = os.WriteFile(badArgs, []byte("sites:\n  - {name: a, base-url: 'http://127.0.0.1:1', token-file: a.token, args: [--token, leaked, --no-such-flag]}\n"), 0o600)
	forged := filepath.Join(dir, "forged.yaml")
	_ = os.WriteFile(forged, []byte("sites:\n  - {name: a, base-url: 'http://127.0.0.1:1', token-file: a.token, args: [--json-report, x.json]}\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"fleet"}, "--targets FILE (or CONFORMANCE_TARGETS) is required"},
		{[]string{"fleet", "--targets", filepath.Join(dir, "none.yaml")}, "no such file"},
		{[]string{"fleet", "--targets", good, "--shard", "2/2"}, "0 <= I < N"},
		{[]string{"fleet", "--targets", good, "--shards", "3"}, "JOB_COMPLETION_INDEX"},
		{[]string{"fleet", "--targets", good, "--sites-at-once", "0"}, "--sites-at-once 0"},
		{[]string{"fleet", "--targets", good, "--site-reports", "pdf"}, `--site-reports "pdf"`},
		{[]string{"fleet", "--targets", good, "--label-filter", "area:("}, "--label-filter"},
		{[]string{"fleet", "--targets", good, "--token", "x"}, "unknown flag: --token"},
		{[]string{"fleet", "--targets", badArgs}, "unknown flag: --no-such-flag"},
		{[]string{"fleet", "--targets", forged}, "--json-report is the fleet's to set"},
		{[]string{"merge"}, "requires at least 1 arg"},
		{[]string{"merge", good}, "not a fleet summary"},
	} {
		// No index from the environment (a CI could itself run in an Indexed Job).
		res := selftest.Run(t.Context(), selftest.Cmd{Args: c.args, Dir: dir, Timeout: time.Minute, Env: []string{"JOB_COMPLETION_INDEX="}})
		if res.Exit != 2 || !strings.Contains(res.Stderr, c.want) {
			t.Errorf("conformance %s: exit %d, want 2 and %q on stderr:\n%s%s", strings.Join(c.args, " "), res.Exit, c.want, res.Stdout, res.Stderr)
		}
		if strings.Contains(res.Stdout+res.Stderr, "leaked") {
			t.Errorf("conformance %s printed a site's args' token", strings.Join(c.args, " "))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "conformance-reports")); err == nil {
		t.Error("a fleet with a usage error made its report folder")
	}
}

// TestSitesGetNothingOfTheFleetsEnvironment: a variable of a single run's
// flags in the fleet's environment (here one that would add a report)
// does not reach the sites' runs: they get their configuration from the
// fleet alone.
func TestSitesGetNothingOfTheFleetsEnvironment(t *testing.T) {
	t.Parallel()
	ref := testkit.Reference(t)
	dir := t.TempDir()
	targets := writeTargets(t, dir, []fleetSite{{name: "only", url: ref.URL, token: ref.Token}})
	conformance(t, dir, 0, []string{"CONFORMANCE_MARKDOWN_REPORT=leak.md", "CONFORMANCE_READ_CACHE=false", "CONFORMANCE_TOKEN=not-this-one"},
		"fleet", "--targets", targets, "--report-dir", "r")
	if _, err := os.Stat(filepath.Join(dir, "leak.md")); err == nil {
		t.Error("a site's run took CONFORMANCE_MARKDOWN_REPORT from the fleet's environment")
	}
	_, sites := readSummary(t, filepath.Join(dir, "r", summary.JSONFile))
	if sites["only"].Outcome != summary.Passed {
		t.Errorf("the site: %+v", sites["only"])
	}
}
