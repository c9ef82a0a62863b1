// Package files holds the specs of the files area of the spec.
package files

import "github.com/conformance-suite/conformance/internal/harness"

// Register adds the files specs for target t.
func Register(t *harness.Target) {}
