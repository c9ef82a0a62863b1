// Package protocol holds the specs of the protocol area of the spec.
package protocol

import "github.com/conformance-suite/conformance/internal/harness"

// Register adds the protocol specs for target t.
func Register(t *harness.Target) {}
