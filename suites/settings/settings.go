// Package settings holds the specs of the settings area of the spec.
package settings

import "github.com/conformance-suite/conformance/internal/harness"

// Register adds the settings specs for target t.
func Register(t *harness.Target) {}
