package pages

import "github.com/conformance-suite/conformance/internal/harness"

func registerWrites(t *harness.Target) {}
