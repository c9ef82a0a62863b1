package reads_test

import (
	"testing"

	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/suites/pages/reads"
)

// TestReads runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL), then checks that the pages the
// reads create where the target lacks data are all gone again.
func TestReads(t *testing.T) {
	frameworktest.RunSuiteLeavingNoTrace(t, "pages reads", reads.Register)
}
