package pages

import "github.com/conformance-suite/conformance/internal/harness"

func registerReads(t *harness.Target) {}
