package taxonomy_test

import (
	"testing"

	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/suites/taxonomy"
)

// TestTaxonomy runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL).
func TestTaxonomy(t *testing.T) { frameworktest.RunSuite(t, "taxonomy", taxonomy.Register) }
