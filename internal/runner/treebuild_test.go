package runner

import (
	"maps"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/testkit"
	"github.com/conformance-suite/conformance/suites"
)

// The children of the tests below: Ginkgo runs a suite once per process.
const (
	childEnv  = "RUNNER_TEST_CHILD" // the child test to run
	filterEnv = "RUNNER_TEST_FILTER"
	buildsEnv = "RUNNER_TEST_BUILDS"
)

// runChild runs the child test named test in a process of its own with
// env added, and fails t with its output if it fails.
func runChild(t *testing.T, test string, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")
	cmd.Env = append(append(os.Environ(), childEnv+"="+test), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", test, err, out)
	}
}

// isChild skips test unless this process was started to run it.
func isChild(t *testing.T, test string) {
	if os.Getenv(childEnv) != test {
		t.Skip("a child of another test of this package")
	}
}

// Ginkgo builds the whole tree of specs, and sorts it, each time it runs
// or previews the suite: the preview was a tenth of a read-only run's CPU.
// A run that selects no spec is not previewed, and builds the tree once; a
// run that selects builds it twice (its preview, then the run). The child
// checks keepStacksWhole too.
func TestTreeBuiltOnceWithoutSelection(t *testing.T) {
	for filter, builds := range map[string]int{"": 1, "area:taxonomy": 2} {
		runChild(t, "TestTreeBuildsChild", filterEnv+"="+filter, buildsEnv+"="+strconv.Itoa(builds))
	}
}

// It also checks that Ginkgo leaves its stack traces unpruned while the
// specs run (keepStacksWhole), and that the setting is put back after.
func TestTreeBuildsChild(t *testing.T) {
	isChild(t, "TestTreeBuildsChild")
	builds, pruning := 0, ""
	ginkgo.Describe("counts the builds of the tree", func() {
		builds++
		pruning = os.Getenv(pruneStackEnv) // the last build is the run's
	})
	ref := testkit.Reference(t)
	filter := os.Getenv(filterEnv)
	var out strings.Builder
	res := Run(t.Context(), Config{BaseURL: ref.URL, Token: ref.Token, ReadOnly: true, LabelFilter: filter, Timeout: 5 * time.Minute,
		Concurrency: client.DefaultConcurrency}, &out)
	if res.Exit != ExitPass {
		t.Fatalf("--label-filter %q: exit %d, want %d:\n%s", filter, res.Exit, ExitPass, out.String())
	}
	if want, _ := strconv.Atoi(os.Getenv(buildsEnv)); builds != want {
		t.Errorf("--label-filter %q: the tree of specs was built %d times, want %d", filter, builds, want)
	}
	if pruning != "FALSE" {
		t.Errorf("while the specs run, %s=%q: Ginkgo compiles a regular expression for every stack trace it takes", pruneStackEnv, pruning)
	}
	if v, ok := os.LookupEnv(pruneStackEnv); ok {
		t.Errorf("after the run, %s=%q is left set", pruneStackEnv, v)
	}
}

// A run without a preview reads its plan (the specs, rules and areas the
// progress counts down) from the specs its tree registered: it must be
// the plan a preview gives, spec for spec.
func TestPlanWithoutPreview(t *testing.T) { runChild(t, "TestPlanWithoutPreviewChild") }

func TestPlanWithoutPreviewChild(t *testing.T) {
	isChild(t, "TestPlanWithoutPreviewChild")
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "preview"})
	if err != nil {
		t.Fatal(err)
	}
	target := framework.New(c, framework.Options{ReadOnly: true})
	suites.Register(target)
	sc, _ := ginkgoConfig(Config{})
	preview := ginkgo.PreviewSpecs(suiteName, sc)
	want, got := newPlan(preview), planOf(target.Registered())
	if want.specCount == 0 || got.specCount != want.specCount {
		t.Fatalf("%d specs registered, the preview selects %d", got.specCount, want.specCount)
	}
	for name, eq := range map[string]bool{
		"specs":      maps.Equal(got.specs, want.specs),
		"rule specs": maps.Equal(got.ruleSpecs, want.ruleSpecs),
		"rule areas": maps.Equal(got.ruleArea, want.ruleArea),
		"area rules": maps.Equal(got.areaRules, want.areaRules),
	} {
		if !eq {
			t.Errorf("the plan's %s differ from the preview's", name)
		}
	}
}
