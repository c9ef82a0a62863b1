package protocol_test

import (
	"testing"

	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/suites/protocol"
)

// TestProtocol runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL).
func TestProtocol(t *testing.T) { frameworktest.RunSuite(t, "protocol", protocol.Register) }
