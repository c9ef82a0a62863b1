package framework_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/report"
)

// envShareChild makes TestShareCleanupChild run (in the child process
// TestShareCleanup starts: RunSpecs runs once per process).
const envShareChild = "CONFORMANCE_FRAMEWORK_SHARE_CHILD"

// TestShareCleanup checks that what a group shares is removed after the
// group's last spec to run, not after the last one registered: Ginkgo
// runs a container's specs sorted by source location, so a spec
// registered last from a helper written above the others runs first.
func TestShareCleanup(t *testing.T) {
	frameworktest.RunChild(t, "TestShareCleanupChild", envShareChild, "the shared-fixture run")
}

func TestShareCleanupChild(t *testing.T) {
	if os.Getenv(envShareChild) != "1" {
		t.Skip("run by TestShareCleanup in a child process")
	}
	gomega.RegisterFailHandler(ginkgo.Fail)
	target := frameworktest.Fixture(t)
	framework.Install(target)
	key := target.Marker("shared")
	adopted := func() bool { return slices.Contains(target.Ledger.Pages(), key) }
	ginkgo.Describe("a shared fixture", func() {
		g := target.NewGroup()
		shared := framework.Share(g, func(ctx context.Context) bool {
			target.AdoptKey(ctx, key) // its cleanup deletes the page and forgets it
			return true
		})
		judge := func(_ ginkgo.SpecContext, _ bool) {
			gomega.Expect(adopted()).To(gomega.BeTrue(), "the shared page is still there while a spec of the group runs")
		}
		// Registered last, but its location comes first: it runs first.
		first := func() { framework.Prepare(g, "PAGE-LIST-SHAPE", shared, judge, framework.Case("registered last")) }
		framework.Prepare(g, "PAGE-LIST-SHAPE", shared, judge, framework.Case("registered first"))
		framework.Prepare(g, "PAGE-LIST-SHAPE", shared, judge, framework.Case("registered second"))
		first()
	})
	sc, rc := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	rc.Succinct, rc.NoColor = true, true
	ginkgo.RunSpecs(ignoreFailures{}, "shared fixture", sc, rc)

	run := report.Build(target.Report(), target.Catalogue, report.Meta{}, report.Extras{})
	if len(run.Specs) != 3 {
		t.Fatalf("%d specs ran, want 3", len(run.Specs))
	}
	if run.Specs[0].Case != "registered last" {
		t.Errorf("the first spec to run is %q, want the one registered last", run.Specs[0].Case)
	}
	for _, s := range run.Specs {
		if s.Status != report.Passed {
			t.Errorf("%s: %s %s", s.Case, s.Status, s.Message)
		}
	}
	if adopted() {
		t.Errorf("the shared page was not removed after the group's last spec")
	}
}
