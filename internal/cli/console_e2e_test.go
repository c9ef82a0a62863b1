package cli_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// End-to-end tests of the console: what a person sees of a run.

// maxScreen is the most lines the console of a run with one bug may take.
const maxScreen = 200

// ginkgoTraces are what Ginkgo's own reporter prints, which the suite's
// console replaces.
var ginkgoTraces = []string{"[FAILED]", "Summarizing", "Ran ", "specs •", "Timeline >>", "[It]", ".go:"}

func lineCount(s string) int { return strings.Count(s, "\n") }

// A run with one bug fits a screen: every rule the bug breaks is under
// the one cause, and no exchange is printed without --verbose.
func TestConsoleOneBugFitsAScreen(t *testing.T) {
	for _, c := range []struct {
		mutant   reference.Mutant
		maxLines int
		oneCause bool
	}{
		{reference.TagsAsString, maxScreen, true},
		// The previous release breaks some forty rules in a dozen ways:
		// a screen or two.
		{reference.Legacy321, maxScreen, false},
	} {
		t.Run(string(c.mutant), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			res := demo(t, dir, "--mutant", string(c.mutant), "--json-report", "r.json")
			if res.Exit != 1 {
				t.Fatalf("exit %d, want 1\n%s", res.Exit, selftest.Tail(res.Stdout, 20))
			}
			n := lineCount(res.Stdout)
			t.Logf("demo --mutant %s: %d console lines", c.mutant, n)
			if n > c.maxLines {
				t.Errorf("the console takes %d lines, want at most %d:\n%s", n, c.maxLines, res.Stdout)
			}
			for _, s := range append([]string{"request:", "reproduce:", "${CONFORMANCE_TOKEN}"}, ginkgoTraces...) {
				if strings.Contains(res.Stdout, s) {
					t.Errorf("the console shows %q:\n%s", s, selftest.Tail(res.Stdout, 40))
				}
			}
			run := readReport(t, filepath.Join(dir, "r.json"))
			if c.oneCause {
				want := fmt.Sprintf("Failed rules by cause (1 cause behind %d rules):", run.Counts.Failed)
				if !strings.Contains(res.Stdout, want) || strings.Contains(res.Stdout, "Other failed rules") {
					t.Errorf("the console does not put the %d failed rules under one cause (%q):\n%s", run.Counts.Failed, want, res.Stdout)
				}
			}
			for _, rr := range run.Rules {
				if rr.Status == "failed" && strings.Count(res.Stdout, " "+rr.ID+" ") != 1 {
					t.Errorf("failed rule %s is not listed exactly once", rr.ID)
				}
			}
		})
	}
}

// areaLine is a progress line: an area's rules, once its last is done.
var areaLine = regexp.MustCompile(`(?m)^[✓✗-] (\w+) +\d+ rules?: `)

// A passing run says per area how its rules went, one line each as the
// area finishes (no terminal: no live line), then the summary and the
// verdict.
func TestConsolePassingRun(t *testing.T) {
	t.Parallel()
	res := demo(t, t.TempDir())
	if res.Exit != 0 {
		t.Fatalf("exit %d\n%s", res.Exit, res.Stdout)
	}
	t.Logf("demo: %d console lines", lineCount(res.Stdout))
	if n := lineCount(res.Stdout); n > 40 {
		t.Errorf("a passing run takes %d lines:\n%s", n, res.Stdout)
	}
	areas := map[string]int{}
	for _, m := range areaLine.FindAllStringSubmatch(res.Stdout, -1) {
		areas[m[1]]++
	}
	for _, a := range []string{"protocol", "auth", "pages", "taxonomy", "users", "settings", "files"} {
		if areas[a] != 1 {
			t.Errorf("area %s has %d progress lines, want 1:\n%s", a, areas[a], res.Stdout)
		}
	}
	if len(areas) != 7 {
		t.Errorf("progress lines for areas %v", areas)
	}
	for _, s := range append([]string{"\r", "Failed rules", "\x1b["}, ginkgoTraces...) {
		if strings.Contains(res.Stdout, s) {
			t.Errorf("the console of a passing run without a terminal shows %q:\n%s", s, res.Stdout)
		}
	}
	if !strings.Contains(res.Stdout, "\nPASS: ") {
		t.Errorf("no verdict:\n%s", res.Stdout)
	}
}

// --verbose adds each failure's exchanges, tokens redacted, with the curl
// line that reproduces it.
func TestConsoleVerboseShowsExchanges(t *testing.T) {
	t.Parallel()
	srv := testkit.Reference(t, reference.TagsAsString)
	ref, token, auth := srv.URL, srv.Token, srv.AuthToken
	args := []string{"--base-url", ref, "--label-filter", "area:pages && !writes"}
	env := []string{"CONFORMANCE_TOKEN=" + token, "CONFORMANCE_AUTH_TOKEN=" + auth}
	runCases(t, []cliCase{
		{name: "--verbose", args: append(args, "--verbose"), env: env, wantExit: 1,
			wantStdout: []string{"request:  GET " + ref + "/api/pages", "token=${CONFORMANCE_TOKEN}", "reproduce: curl", "── "},
			notStdout:  []string{token, auth}},
		{name: "without", args: args, env: env, wantExit: 1,
			wantStdout: []string{"tags is a string where the spec wants an object"},
			notStdout:  []string{"request:", "reproduce:", token}},
	})
}
