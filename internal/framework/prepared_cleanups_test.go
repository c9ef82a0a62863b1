package framework_test

import (
	"context"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
)

// envSharedChild and envFailFastChild make TestSharedCleanupsChild run, as
// the child of one test or the other (RunSpecs runs once per process).
const (
	envSharedChild   = "CONFORMANCE_FRAMEWORK_SHARED_CHILD"
	envFailFastChild = "CONFORMANCE_FRAMEWORK_FAILFAST_CHILD"
)

// TestSharedCleanupsAfterLastJudged: a group whose specs Ginkgo runs in
// another order than they were registered (it orders a container's specs
// by their place in the source, here by text) removes what it shares only
// after the last spec it runs, not after the last one registered.
func TestSharedCleanupsAfterLastJudged(t *testing.T) {
	frameworktest.RunChild(t, "TestSharedCleanupsChild", envSharedChild, "the run of a shared fixture")
}

// TestLeftCleanupsRunAtSuiteEnd: when --fail-fast skips the specs that
// would have judged some prepares (and the group's last spec), the
// cleanups those prepares and the shared fixture registered still run, at
// the end of the suite.
func TestLeftCleanupsRunAtSuiteEnd(t *testing.T) {
	frameworktest.RunChild(t, "TestSharedCleanupsChild", envFailFastChild, "the fail-fast run of a shared fixture")
}

func TestSharedCleanupsChild(t *testing.T) {
	failFast := os.Getenv(envFailFastChild) != ""
	if os.Getenv(envSharedChild) == "" && !failFast {
		t.Skip("run by TestSharedCleanupsAfterLastJudged and TestLeftCleanupsRunAtSuiteEnd in a child process")
	}
	gomega.RegisterFailHandler(ginkgo.Fail)
	target := frameworktest.Fixture(t)
	var mu sync.Mutex
	var cleaned []string     // cleanups run, in order
	var judgedAfter []string // specs judged after the shared cleanup ran
	clean := func(name string) func(context.Context) {
		return func(context.Context) {
			mu.Lock()
			defer mu.Unlock()
			cleaned = append(cleaned, name)
		}
	}
	ginkgo.Describe("a group", func() {
		g := target.NewGroup(framework.PhaseReads)
		shared := framework.Share(g, func(ctx context.Context) string {
			target.DeferCleanup(ctx, clean("shared"))
			return "fixture"
		})
		// Registered c, b, a: Ginkgo runs them a, b, c (same place, by text).
		for _, name := range []string{"c", "b", "a"} {
			framework.Prepare(g, "PAGE-LIST-SHAPE", func(ctx context.Context) string {
				target.DeferCleanup(ctx, clean("member "+name))
				return shared(ctx)
			}, func(ctx ginkgo.SpecContext, v string) {
				mu.Lock()
				if slices.Contains(cleaned, "shared") {
					judgedAfter = append(judgedAfter, name)
				}
				mu.Unlock()
				gomega.Expect(v).To(gomega.Equal("fixture"))
				gomega.Expect(failFast && name == "a").To(gomega.BeFalse(), "fails on purpose")
			}, framework.Case(name))
		}
	})
	framework.Install(target)
	sc, rc := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	rc.Succinct, rc.NoColor = true, true
	sc.FailFast = failFast
	ginkgo.RunSpecs(ignoreFailures{}, "shared cleanups", sc, rc)

	mu.Lock()
	defer mu.Unlock()
	if len(judgedAfter) > 0 {
		t.Errorf("specs %v were judged after the group's shared fixture was cleaned up", judgedAfter)
	}
	for _, want := range []string{"member a", "member b", "member c", "shared"} {
		if !slices.Contains(cleaned, want) {
			t.Errorf("cleanup %q did not run (ran: %v)", want, cleaned)
		}
	}
	if len(cleaned) == 0 || cleaned[len(cleaned)-1] != "shared" {
		t.Errorf("cleanups ran in the order %v: the shared fixture's should come after its users'", cleaned)
	}
}
