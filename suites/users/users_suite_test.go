package users_test

import (
	"testing"

	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/suites/users"
)

// TestUsers runs this area's specs against the reference server (or the
// target named by CONFORMANCE_BASE_URL).
func TestUsers(t *testing.T) { frameworktest.RunSuite(t, "users", users.Register) }
