package settingsguard

import (
	"context"

	"github.com/conformance-suite/conformance/internal/framework"
)

// This file gives the settings restore of Guard to callers that
// run outside a Ginkgo spec (conformance explore), which restore after
// each change of their own instead of in a spec's cleanup.

// Restore puts back every field of original that differs on the
// target (volatile fields aside) and verifies the whole map with a GET,
// as a Guard's restore does; current, when not nil, is the map
// as the target holds it now. It returns "" when the settings read
// exactly as before, or what is still wrong.
func Restore(ctx context.Context, t *framework.Fixture, original, current map[string]any, volatile ...string) string {
	return restoreSettings(ctx, t, original, current, volatile...)
}

// ChangedFields lists the names of the fields whose values differ
// between two settings maps (or that only one of them has), except the
// named ones, sorted.
func ChangedFields(before, after map[string]any, except ...string) []string {
	return changedFields(before, after, except...)
}

// SettledChanges lists the names of the fields of now (a settings map read
// after a request) that differ from before, except the named fields and
// the volatile ones, sorted, as Guard.Changed judges them: a field
// that differs is read twice more, volatilePause apart, and when it
// changes between those reads it is left out and returned in late (the
// caller counts it volatile from now on).
func SettledChanges(ctx context.Context, t *framework.Fixture, before, now map[string]any, volatile []string, except ...string) (changed, late []string) {
	return settledChanges(ctx, t, before, now, volatile, except...)
}
