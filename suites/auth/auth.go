// Package auth holds the specs of the auth area of the spec.
package auth

import "github.com/conformance-suite/conformance/internal/harness"

// Register adds the auth specs for target t.
func Register(t *harness.Target) {}
