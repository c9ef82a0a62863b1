package pages_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/suites/pages"
)

// TestPages runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL), then checks that the run, writes
// included, left the target's content exactly as it found it
// (leave_no_trace_test.go). RunSpecs runs once per process, so the
// snapshots are taken here, around it.
func TestPages(t *testing.T) {
	RegisterFailHandler(Fail)
	target, snapshot := frameworktest.FixtureAndSnapshot(t)
	before := takeSnapshot(t, snapshot, "before")
	framework.Install(target)
	pages.Register(target)
	RunSpecs(t, "pages")
	checkNoTrace(t, before, snapshot)
}
