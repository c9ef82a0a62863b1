package auth

import (
	"context"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/probe"
	"github.com/conformance-suite/conformance/internal/framework/settingsguard"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
	"github.com/conformance-suite/conformance/internal/spec"
)

// refusals are the statuses that answer probe p sent without a valid
// authentication token: 401 (5.5), and for a probe naming a page that does
// not exist also 404 (4.4, 4.5, 7: no page has the key), since the spec
// does not say which of the two a server checks first (the rules'
// Reading). The API token is valid, so no early error comes first.
func refusals(p probe.Probe, sent tokens.Token) []int {
	return tokens.Expect(tokens.Request{API: tokens.Valid, Auth: sent, NeedsAuth: true, MissingPage: p.NamesMissingPage()}).Codes
}

// caseName tells the spec of probe p apart from others of its rule.
func caseName(p probe.Probe) string {
	if p.NamesMissingPage() {
		return string(p.Endpoint) + ", a page that does not exist"
	}
	return string(p.Endpoint)
}

// probeGroup is what the specs of one group that send requests the target
// must refuse share, each made once by the first prepare function that
// needs it (framework.Share) and cleaned up after the group's last spec:
// the group's guard of the pages a refused create might make after all
// (Group.GuardCreates), the guard of the settings a refused update might
// change, and the create without the authentication token, which two rules
// judge.
type probeGroup struct {
	t        *framework.Fixture
	pages    *framework.CreateGuard
	settings func(ctx context.Context) settingsGuard
	// createNoAuth is POST /api/pages without the authentication token:
	// AUTH-WRITE-NEEDS-AUTH judges its status, AUTH-REFUSED-WRITE-NO-EFFECT
	// what it left behind.
	createNoAuth func(ctx context.Context) sentCreate
	noAuthCreate probe.Probe
}

// sentCreate is a create the target should refuse, and a read of the
// probe's slug after it (nil ex: the run was interrupted before).
type sentCreate struct {
	ex, read *client.Exchange
}

// settingsGuard is the group's guard of the settings, or why there is none
// (the settings could not be read, so they could not be restored).
type settingsGuard struct {
	guard  *settingsguard.Guard
	reason string
}

// missing says why there is no guard.
func (s settingsGuard) missing() string {
	if s.reason == "" {
		return "interrupted before the settings were read"
	}
	return s.reason
}

func newProbeGroup(t *framework.Fixture, g *framework.Group) *probeGroup {
	pg := &probeGroup{t: t, pages: g.GuardCreates(),
		noAuthCreate: probe.New(t, spec.CreatePage, "no-auth-"+probe.EndpointName(spec.CreatePage))}
	pg.settings = framework.Share(g, func(ctx context.Context) settingsGuard {
		guard, reason := settingsguard.Try(ctx, t, "PUT /api/settings without valid credentials (must be refused)")
		return settingsGuard{guard: guard, reason: reason}
	})
	pg.createNoAuth = framework.Share(g, func(ctx context.Context) sentCreate {
		r := pg.noAuthCreate.Request()
		r.Credentials = client.APIToken
		return pg.create(ctx, pg.noAuthCreate, r)
	})
	return pg
}

// send is Probe.Send for a prepare function: it sends probe p's request r
// under the guard its endpoint needs, and takes responsibility for what a
// wrongly accepted answer made (Probe.Settle). Without an exchange it says
// why.
func (pg *probeGroup) send(ctx context.Context, p probe.Probe, r client.Request) (*client.Exchange, string) {
	var ex *client.Exchange
	switch p.Endpoint {
	case spec.CreatePage:
		return pg.create(ctx, p, r).ex, ""
	case spec.EditSettings:
		s := pg.settings(ctx)
		if s.guard == nil {
			return nil, s.missing()
		}
		ex = s.guard.Send(ctx, r)
	default:
		ex = pg.t.Client.Do(ctx, r)
	}
	p.Settle(ctx, ex)
	return ex, ""
}

// create sends probe p's create r, which the target should refuse, under
// the group's guard, and reads the probe's slug right after it: a page
// found there is adopted, and the guard need not read the slug again.
func (pg *probeGroup) create(ctx context.Context, p probe.Probe, r client.Request) sentCreate {
	pg.pages.Watch(ctx, p.Slug)
	ex := pg.t.Client.Do(ctx, r)
	p.Settle(ctx, ex)
	return sentCreate{ex: ex, read: pg.pages.Read(ctx, p.Slug)}
}

// got is send's answer as a prepare function returns it.
func (pg *probeGroup) got(ctx context.Context, p probe.Probe, r client.Request) framework.Got {
	if pg == nil {
		// A read: nothing for the group's guards to keep.
		return framework.GotExchange(p.Send(ctx, r))
	}
	ex, reason := pg.send(ctx, p, r)
	if ex == nil {
		return framework.GotNothing("%s", reason)
	}
	return framework.GotExchange(ex)
}

// gotNoAuthCreate is createNoAuth's answer as a prepare function returns
// it.
func (pg *probeGroup) gotNoAuthCreate(ctx context.Context) framework.Got {
	if c := pg.createNoAuth(ctx); c.ex != nil {
		return framework.GotExchange(c.ex)
	}
	return framework.GotNothing("interrupted before the create was sent")
}
