package framework

import (
	"context"
	"fmt"
	"net/http"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

// FollowEdit keeps the ledger on a page the run created after an edit
// answered ex, and returns the key the page now has (old when the edit
// failed). A new data.key that carries the run marker is trusted; one
// without it is followed only when the old key no longer reads and the
// new one does (a server may derive keys in its own way), else it is
// reported as a teardown problem and left alone, since it could be someone
// else's page. When data.key is the old key or absent and the edit could
// have moved the page (candidates: the run-marked keys it could have moved
// to), a page gone from the old key is looked for under them, so that a
// server that misreports the new key does not make the run leave the page
// behind unnoticed. It never fails a spec, so a prepare function may call
// it (Prepare).
func (t *Fixture) FollowEdit(ctx context.Context, old string, ex *client.Exchange, candidates ...string) string {
	if ex.Err != nil || ex.Status < 200 || ex.Status >= 300 {
		return old
	}
	reads := func(key string) bool {
		r := t.Read(ctx, pagelist.PagePath(key), nil)
		return r.Err == nil && r.Status == http.StatusOK && r.Get("data.key").String() == key
	}
	nk := ex.Get("data.key").String()
	if nk != "" && nk != old {
		switch {
		case IsRunMarked(nk):
			t.Renamed(old, nk)
		case !reads(old) && reads(nk):
			t.Renamed(old, nk)
			t.Observe("an edit moved run page %s to %s, a key without the run marker", old, nk)
		default:
			t.Ledger.AddProblem(fmt.Sprintf("an edit of page %s answered data.key %s, which carries no run marker "+
				"and could not be confirmed as the page's new key; not deleted automatically", old, nk))
		}
		return nk
	}
	if len(candidates) == 0 || reads(old) {
		return old
	}
	for _, c := range candidates {
		if c != old && IsRunMarked(c) && reads(c) {
			t.Renamed(old, c)
			return c
		}
	}
	t.Ledger.AddProblem(fmt.Sprintf("page %s no longer reads after an edit that answered data.key %q, "+
		"and it was not found where the edit could have moved it; it may be left on the target", old, nk))
	return old
}
