package writes_test

import (
	"testing"

	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/suites/pages/writes"
)

// TestWrites runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL), then checks that the run left the
// target's content exactly as it found it.
func TestWrites(t *testing.T) {
	frameworktest.RunSuiteLeavingNoTrace(t, "pages writes", writes.Register)
}
