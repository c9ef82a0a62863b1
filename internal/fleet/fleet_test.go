package fleet_test

// End-to-end tests of `conformance fleet` and `conformance merge`: the
// test binary runs as the CLI (selftest.Main), and the fleet runs each
// site in a child process of the same binary, as the real command does.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/fleet/summary"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

func TestMain(m *testing.M) { selftest.Main(m) }

// fleetSite is a site of a test's targets file.
type fleetSite struct {
	name, url, token, auth, mode string
}

// writeTargets writes the targets file of the sites into dir, each
// site's tokens in files of their own, and returns its path.
func writeTargets(t testing.TB, dir string, sites []fleetSite) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# a test fleet\nsites:\n")
	for _, s := range sites {
		tokenFile := filepath.Join(dir, s.name+".token")
		if err := os.WriteFile(tokenFile, []byte(s.token+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "  - name: %s\n    base-url: %s\n    token-file: %s.token\n", s.name, s.url, s.name)
		if s.auth != "" {
			if err := os.WriteFile(filepath.Join(dir, s.name+".auth"), []byte(s.auth), 0o600); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "    auth-token-file: %s.auth\n", s.name)
		}
		if s.mode != "" {
			fmt.Fprintf(&b, "    mode: %s\n", s.mode)
		}
	}
	path := filepath.Join(dir, "sites.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// conformance runs the CLI in dir and fails the test if it did not run
// to its end or exited otherwise than want.
func conformance(t *testing.T, dir string, want int, env []string, args ...string) selftest.Result {
	t.Helper()
	res := selftest.Run(t.Context(), selftest.Cmd{Args: args, Dir: dir, Env: env, Timeout: 3 * time.Minute})
	if res.Err != nil || res.TimedOut || res.Exit != want {
		t.Fatalf("conformance %s: exit %d, want %d (timed out: %v, %v)\n--- stdout ---\n%s\n--- stderr ---\n%s",
			strings.Join(args, " "), res.Exit, want, res.TimedOut, res.Err, selftest.Tail(res.Stdout, 40), selftest.Tail(res.Stderr, 20))
	}
	return res
}

// readSummary reads a fleet.json: its head and its sites by name.
func readSummary(t *testing.T, path string) (*summary.Fleet, map[string]summary.Site) {
	t.Helper()
	sites := map[string]summary.Site{}
	head, err := summary.ReadFile(path, nil, func(s summary.Site) error { sites[s.Name] = s; return nil })
	if err != nil {
		t.Fatal(err)
	}
	return head, sites
}

// noSecrets fails the test if any file under dir, or out, holds a token.
func noSecrets(t *testing.T, dir, out string, sites []fleetSite) {
	t.Helper()
	check := func(where, text string) {
		for _, s := range sites {
			for _, secret := range []string{s.token, s.auth} {
				if secret != "" && strings.Contains(text, secret) {
					t.Errorf("%s shows %s's token", where, s.name)
				}
			}
		}
	}
	check("the console", out)
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".token") || strings.HasSuffix(path, ".auth") {
			return err
		}
		b, _ := os.ReadFile(path)
		check(path, string(b))
		return nil
	})
}

// TestFiveSites is the example: five sites, one unreachable, one
// failing a rule (a reference mutant), three passing, in one command; the
// same through two shards and merge gives the same summary.
func TestFiveSites(t *testing.T) {
	t.Parallel()
	var sites []fleetSite
	for _, name := range []string{"alpha", "bravo", "charlie"} {
		ref := testkit.Reference(t)
		sites = append(sites, fleetSite{name: name, url: ref.URL, token: ref.Token})
	}
	bad := testkit.Reference(t, reference.TagMissing200)
	sites = append(sites[:1], append([]fleetSite{{name: "mutant", url: bad.URL, token: bad.Token}}, sites[1:]...)...)
	sites = append(sites, fleetSite{name: "down", url: testkit.RefusedURL(t), token: reference.NewToken()})
	dir := t.TempDir()
	targets := writeTargets(t, dir, sites)

	res := conformance(t, dir, 3, nil, "fleet", "--targets", targets, "--report-dir", "one", "--sites-at-once", "3",
		"--site-reports", "json,html,junit", "--no-color")
	for _, want := range []string{"checking 5 site(s)", "FAIL", "TAG-GET-404", "1 site: mutant", "CANNOT BE CHECKED", "down",
		"FAIL: of 5 sites, 3 passed, 1 broke rules, 1 cannot be checked. (exit 3)", "one/fleet.html"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("the console does not say %q:\n%s", want, res.Stdout)
		}
	}
	head, byName := readSummary(t, filepath.Join(dir, "one", summary.JSONFile))
	if head.Exit != 3 || head.Counts != (summary.Counts{Sites: 5, Passed: 3, Failed: 1, CannotBeChecked: 1}) {
		t.Errorf("summary: exit %d, counts %+v", head.Exit, head.Counts)
	}
	for name, want := range map[string]summary.Outcome{"alpha": summary.Passed, "mutant": summary.Failed, "bravo": summary.Passed,
		"charlie": summary.Passed, "down": summary.CannotBeChecked} {
		s := byName[name]
		if s.Outcome != want {
			t.Errorf("%s: %s (%s), want %s", name, s.Outcome, s.Verdict, want)
		}
		for _, p := range []string{s.Reports.JSON, s.Reports.HTML, s.Reports.JUnit, s.Reports.Console} {
			if _, err := os.Stat(filepath.Join(dir, "one", p)); p == "" || err != nil {
				t.Errorf("%s: report %q: %v", name, p, err)
			}
		}
	}
	if byName["mutant"].Rules["TAG-GET-404"] != "failed" || byName["alpha"].Rules["TAG-GET-404"] != "passed" {
		t.Errorf("TAG-GET-404: %s on mutant, %s on alpha", byName["mutant"].Rules["TAG-GET-404"], byName["alpha"].Rules["TAG-GET-404"])
	}
	junit, _ := os.ReadFile(filepath.Join(dir, "one", summary.JUnitFile))
	testkit.ValidXML(t, junit, filepath.Join("..", "report", "testdata", "junit.xsd"))
	if n := strings.Count(string(junit), "<testsuite "); n != 5 {
		t.Errorf("%d test suites in the JUnit report, want one per site", n)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "one", summary.HTMLFile))
	if n := strings.Count(string(page), `<tr id="site-`); n != 5 || !strings.Contains(string(page), `href="sites/mutant/report.html"`) {
		t.Errorf("the HTML summary has %d site rows, or no link to the mutant's report", n)
	}

	// The same through two shards, the second taking its index from a
	// Kubernetes Indexed Job's variable, and merge.
	out := res.Stdout + res.Stderr
	for i, env := range [][]string{nil, {"JOB_COMPLETION_INDEX=1"}} {
		shard := []string{"--shard", "0/2"}
		if env != nil {
			shard = []string{"--shards", "2"}
		}
		r := selftest.Run(t.Context(), selftest.Cmd{Dir: dir, Env: env, Timeout: 3 * time.Minute, Args: append([]string{"fleet",
			"--targets", targets, "--report-dir", fmt.Sprintf("shard-%d", i), "--sites-at-once", "3", "--no-color"}, shard...)})
		if r.Exit < 0 || r.TimedOut || !strings.Contains(r.Stdout, fmt.Sprintf("(shard %d/2 of the 5)", i)) {
			t.Fatalf("shard %d: exit %d:\n%s\n%s", i, r.Exit, selftest.Tail(r.Stdout, 30), selftest.Tail(r.Stderr, 10))
		}
		out += r.Stdout + r.Stderr
	}
	if err := os.MkdirAll(filepath.Join(dir, "shards"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "shard-1"), filepath.Join(dir, "shards", "shard-1")); err != nil {
		t.Fatal(err)
	}
	// A summary file, and a folder of shards' folders (as a CI downloads them).
	merged := conformance(t, dir, 3, nil, "merge", "shard-0/fleet.json", "shards", "--report-dir", "merged")
	if !strings.Contains(merged.Stdout, "FAIL: of 5 sites, 3 passed, 1 broke rules, 1 cannot be checked. (exit 3)") {
		t.Errorf("merge says:\n%s", merged.Stdout)
	}
	one, oneSites := readSummary(t, filepath.Join(dir, "one", summary.JSONFile))
	two, twoSites := readSummary(t, filepath.Join(dir, "merged", summary.JSONFile))
	if two.Shards == nil || two.Shards.Total != 2 || len(two.Shards.Missing()) != 0 {
		t.Errorf("the merged summary's shards: %+v", two.Shards)
	}
	if a, b := sameSummary(one, oneSites), sameSummary(two, twoSites); a != b {
		t.Errorf("one run and two shards merged differ:\n%s\n---\n%s", a, b)
	}
	for name, s := range twoSites {
		if _, err := os.Stat(filepath.Join(dir, "merged", s.Reports.HTML)); err != nil {
			t.Errorf("the merged summary's link to %s's report: %v", name, err)
		}
	}
	noSecrets(t, dir, out+merged.Stdout+merged.Stderr, sites)
}

// sameSummary is a summary without what differs from run to run: times,
// request counts (a request or two, by the order answers come in), the
// shards, where the reports are.
func sameSummary(head *summary.Fleet, sites map[string]summary.Site) string {
	h := *head
	h.Started, h.Duration, h.Shards = time.Time{}, 0, nil
	var lines []any
	for _, n := range slices.Sorted(maps.Keys(sites)) {
		s := sites[n]
		s.Started, s.Duration, s.Requests, s.Reports = time.Time{}, 0, 0, summary.Reports{}
		lines = append(lines, s)
	}
	b, _ := json.MarshalIndent([]any{h, lines}, "", " ")
	return string(b)
}
