package settings_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/harness"
	"github.com/conformance-suite/conformance/internal/harness/harnesstest"
	"github.com/conformance-suite/conformance/suites/settings"
)

// TestSettings runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL).
func TestSettings(t *testing.T) {
	RegisterFailHandler(Fail)
	target := harnesstest.Target(t)
	harness.Install(target)
	settings.Register(target)
	RunSpecs(t, "settings")
}
