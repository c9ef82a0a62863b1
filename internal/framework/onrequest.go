package framework

import (
	"context"
	"net/http"
	"net/url"

	"github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
)

// A spec that checks one answer reads like its rule: the request, and what
// must hold of the answer. The group sends the request beside its other
// specs' (Prepare does the scheduling), and a read another spec of the run
// made already comes from the read cache.

// OnRead registers a spec of rule id (args as for Fixture.It) that reads
// GET path with query and the API token, and judges the answer.
func (g *Group) OnRead(id, path string, query url.Values, judge func(ex *client.Exchange), args ...any) bool {
	return g.onRequest(id, client.Request{Method: http.MethodGet, Path: path, Query: query}, judge, args)
}

// OnRequest registers a spec of rule id (args as for Fixture.It) that
// sends r and judges the answer. r must be one the run may send beside
// others: a read, or a request the target must refuse.
func (g *Group) OnRequest(id string, r client.Request, judge func(ex *client.Exchange), args ...any) bool {
	return g.onRequest(id, r, judge, args)
}

func (g *Group) onRequest(id string, r client.Request, judge func(ex *client.Exchange), args []any) bool {
	return prepareAt(3, g, id, func(ctx context.Context) *client.Exchange { return g.t.Client.Do(ctx, r) },
		func(_ ginkgo.SpecContext, ex *client.Exchange) { judge(ex) }, args...)
}
