package auth

import (
	"context"
	"net/http"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// refusals are the statuses that answer probe p sent without a valid
// authentication token: 401 (5.5), and for a probe naming a page that does
// not exist also 404 (4.4, 4.5, 7: no page has the key), since the spec
// does not say which of the two a server checks first (the rules'
// Reading). The API token is valid, so no early error comes first.
func refusals(p framework.Probe) []int {
	if p.NamesMissingPage() {
		return []int{http.StatusUnauthorized, http.StatusNotFound}
	}
	return []int{http.StatusUnauthorized}
}

// caseName tells the spec of probe p apart from others of its rule.
func caseName(p framework.Probe) string {
	if p.NamesMissingPage() {
		return string(p.Endpoint) + ", a page that does not exist"
	}
	return string(p.Endpoint)
}

// batch is requests of one group of specs that need nothing of each other
// (the same probe on every endpoint): the first of the group's specs that
// runs sends them all at once (Fixture.All), and each spec then judges its
// own exchange. Only requests that cannot change the target go in a batch
// (safe probes, GETs), so sending those of specs a run filters out or
// skips is harmless; probes that could change the target are sent by their
// own spec, as the read-only guard wants. The requests are built when sent,
// as they depend on the run (read-only, tokens).
type batch struct {
	t      *framework.Fixture
	builds []func() client.Request
	probes map[int]framework.Probe // entries that are probes, to Settle
	// before runs first when the batch is sent (guards for what a broken
	// server might make); then the follow-up batch is sent right away.
	before func(ctx context.Context)
	then   *batch
	exs    []*client.Exchange
}

func newBatch(t *framework.Fixture) *batch {
	return &batch{t: t, probes: map[int]framework.Probe{}}
}

// add puts a request in the batch and returns its index for exchange.
func (b *batch) add(build func() client.Request) int {
	b.builds = append(b.builds, build)
	return len(b.builds) - 1
}

// addProbe puts safe probe p, sent as build makes it, in the batch; a
// wrongly accepted answer is settled (Probe.Settle) when the batch is sent.
func (b *batch) addProbe(p framework.Probe, build func() client.Request) int {
	i := b.add(build)
	b.probes[i] = p
	return i
}

// exchange returns the exchange of request i, sending the batch first if
// no spec has yet, and names it as the running spec's evidence.
func (b *batch) exchange(ctx context.Context, i int) *client.Exchange {
	b.send(ctx)
	b.t.Judged(b.exs[i])
	return b.exs[i]
}

func (b *batch) send(ctx context.Context) {
	if b.exs != nil {
		return
	}
	if b.before != nil {
		b.before(ctx)
	}
	reqs := make([]client.Request, len(b.builds))
	for i, build := range b.builds {
		reqs[i] = build()
	}
	b.exs = b.t.All(ctx, reqs...)
	for i, p := range b.probes {
		p.Settle(ctx, b.exs[i])
	}
	if b.then != nil {
		b.then.send(ctx)
	}
}

// probeSend is how one spec sends its probe: in a batch when the probe is
// safe, else by itself when the spec runs (Probe.Send, with its guards).
type probeSend struct {
	b     *batch
	i     int // -1: sent by itself
	p     framework.Probe
	build func() client.Request
}

// slot gives probe p, sent as build makes it, its way of sending.
func (b *batch) slot(p framework.Probe, build func() client.Request) probeSend {
	s := probeSend{b: b, i: -1, p: p, build: build}
	if p.Safe {
		s.i = b.addProbe(p, build)
	}
	return s
}

// send returns the probe's exchange, for the running spec to judge.
func (s probeSend) send(ctx context.Context) *client.Exchange {
	if s.i < 0 {
		return s.p.Send(ctx, s.build())
	}
	return s.b.exchange(ctx, s.i)
}
