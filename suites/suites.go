// Package suites lists the suite packages, one per area of the spec (the
// pages area in two: reads and writes). A runner calls Register once, then
// framework.Install, then RunSpecs.
package suites

import (
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/suites/auth"
	"github.com/conformance-suite/conformance/suites/files"
	"github.com/conformance-suite/conformance/suites/pages/reads"
	"github.com/conformance-suite/conformance/suites/pages/writes"
	"github.com/conformance-suite/conformance/suites/protocol"
	"github.com/conformance-suite/conformance/suites/settings"
	"github.com/conformance-suite/conformance/suites/taxonomy"
	"github.com/conformance-suite/conformance/suites/users"
)

// Register adds every area's specs for target t.
func Register(t *framework.Fixture) {
	protocol.Register(t)
	auth.Register(t)
	reads.Register(t)
	writes.Register(t)
	taxonomy.Register(t)
	taxonomy.RegisterViews(t)
	users.Register(t)
	settings.Register(t)
	files.Register(t)
}
