// Package taxonomy holds the specs of the taxonomy area of the spec.
package taxonomy

import "github.com/conformance-suite/conformance/internal/harness"

// Register adds the taxonomy specs for target t.
func Register(t *harness.Target) {}
