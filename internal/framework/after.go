package framework

import (
	"context"
	"strings"
)

// This file orders the prepares of a group. Most prepares go out side by
// side in any order; a few must come after another's requests: the
// refused-extension probes of FILES-UPLOAD-REFUSED-400 go to the page after
// FILES-UPLOAD-ROUNDTRIP's uploads and file lists, so that an accepted probe
// cannot pass for an upload; USER-NO-SENSITIVE-FIELDS judges the profiles
// USER-GET-SHAPE's prepare read (its requests are then that spec's own
// evidence). After says so, and the group does the waiting: a suite holds
// no channel of its own, and a prepare that waits gives up its place among
// the group's --concurrency meanwhile, so that it never keeps the prepare
// it waits for, or any other, from starting.

// AfterDecorator is the Prepare argument After returns.
type AfterDecorator struct{ ids []string }

// After is a Prepare argument: the spec's prepare function runs once every
// prepare of rules ids that its group registered before it has returned.
// Only those the run prepares (selected, not gated) are waited for, so that
// no prepare waits for one that never comes; with none, it runs at once.
// What the prepare then asks of a shared fixture (Share) that those made
// comes back at once, as they made it. A rule named must have a prepare in
// the group registered before the spec's (else a suite bug is reported):
// prepares wait only for earlier ones, so none can wait for itself.
func After(ids ...string) AfterDecorator { return AfterDecorator{ids: ids} }

// splitAfter takes the After arguments out of args: the rest are It's,
// ids the rules they name.
func splitAfter(args []any) (rest []any, ids []string) {
	for _, a := range args {
		if after, ok := a.(AfterDecorator); ok {
			ids = append(ids, after.ids...)
		} else {
			rest = append(rest, a)
		}
	}
	return rest, ids
}

// earlier returns the members of g registered so far of rules ids, for
// the prepare of spec def to wait for.
func (g *Group) earlier(def specDef, ids []string) []*prepared {
	var out []*prepared
	for _, id := range ids {
		found := false
		for _, m := range g.members {
			if m.def.rule.ID == id {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			g.t.recordBug("%q waits for the prepare of %s (framework.After), which its group does not register before it",
				strings.TrimSpace(def.text), id)
		}
	}
	return out
}

// waitForEarlier waits until each member m must come after (After) that the
// run prepares has returned, or ctx ends, giving up m's place among the
// group's --concurrency meanwhile (await).
func (m *prepared) waitForEarlier(ctx context.Context) {
	for _, e := range m.after {
		// started is set for every member before any prepare runs.
		if e.started && !m.await(ctx, e.done) {
			return
		}
	}
}
