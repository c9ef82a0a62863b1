package auth_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/harness"
	"github.com/conformance-suite/conformance/internal/harness/harnesstest"
	"github.com/conformance-suite/conformance/suites/auth"
)

// TestAuth runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL).
func TestAuth(t *testing.T) {
	RegisterFailHandler(Fail)
	target := harnesstest.Target(t)
	harness.Install(target)
	auth.Register(target)
	RunSpecs(t, "auth")
}
