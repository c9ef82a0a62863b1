package protocol_test

import (
	"os"
	"testing"

	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/suites/protocol"
)

// readOnlyChildEnv, when set, makes TestProtocol the read-only run of
// TestReadOnlyRun instead of the ordinary one.
const readOnlyChildEnv = "CONFORMANCE_PROTOCOL_READ_ONLY_CHILD"

// TestProtocol runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL).
func TestProtocol(t *testing.T) {
	if os.Getenv(readOnlyChildEnv) != "" {
		frameworktest.ReadOnlyRun(t, "protocol, read-only", protocol.Register)
		return
	}
	frameworktest.RunSuite(t, "protocol", protocol.Register)
}

// TestReadOnlyRun runs this area's specs as a --read-only run would, in a
// child process, and fails if any request other than a GET carried the
// authentication token, or if a spec not marked as writing tried to write.
func TestReadOnlyRun(t *testing.T) {
	frameworktest.RunChild(t, "TestProtocol", readOnlyChildEnv, "the read-only run")
}
