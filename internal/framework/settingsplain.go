package framework

import "context"

// This file gives the settings restore of SettingsGuard to callers that
// run outside a Ginkgo spec (conformance explore), which restore after
// each change of their own instead of in a spec's cleanup.

// RestoreSettings puts back every field of original that differs on the
// target (volatile fields aside) and verifies the whole map with a GET,
// as a SettingsGuard's restore does; current, when not nil, is the map
// as the target holds it now. It returns "" when the settings read
// exactly as before, or what is still wrong.
func (t *Fixture) RestoreSettings(ctx context.Context, original, current map[string]any, volatile ...string) string {
	return t.restoreSettings(ctx, original, current, volatile...)
}

// ChangedSettings lists the names of the fields whose values differ
// between two settings maps (or that only one of them has), except the
// named ones, sorted.
func ChangedSettings(before, after map[string]any, except ...string) []string {
	return changedFields(before, after, except...)
}

// SettledChanges lists the names of the fields of now (a settings map read
// after a request) that differ from before, except the named fields and
// the volatile ones, sorted, as SettingsGuard.Changed judges them: a field
// that differs is read twice more, volatilePause apart, and when it
// changes between those reads it is left out and returned in late (the
// caller counts it volatile from now on).
func (t *Fixture) SettledChanges(ctx context.Context, before, now map[string]any, volatile []string, except ...string) (changed, late []string) {
	return t.settledChanges(ctx, before, now, volatile, except...)
}
