package files_test

import (
	"testing"

	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/suites/files"
)

// TestFiles runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL).
func TestFiles(t *testing.T) { frameworktest.RunSuite(t, "files", files.Register) }
