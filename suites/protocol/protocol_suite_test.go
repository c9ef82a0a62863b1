package protocol_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/harness"
	"github.com/conformance-suite/conformance/internal/harness/harnesstest"
	"github.com/conformance-suite/conformance/suites/protocol"
)

// TestProtocol runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL).
func TestProtocol(t *testing.T) {
	RegisterFailHandler(Fail)
	target := harnesstest.Target(t)
	harness.Install(target)
	protocol.Register(target)
	RunSpecs(t, "protocol")
}
