// Package pages holds the specs of the pages area of the spec.
package pages

import "github.com/conformance-suite/conformance/internal/harness"

// Register adds the pages specs for target t.
func Register(t *harness.Target) {}
