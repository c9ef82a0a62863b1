package auth

import (
	"context"
	"net/http"
	"sync"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
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

// probeGroup is what the specs of one group that send requests the target
// must refuse share, each made once by the first prepare function that
// needs it (framework.Share) and cleaned up after the group's last spec:
// the guard of the pages a refused create might make after all, the guard
// of the settings a refused update might change, and the create without
// the authentication token, which two rules judge.
type probeGroup struct {
	t        *framework.Fixture
	pages    func(ctx context.Context) *pageGuard
	settings func(ctx context.Context) settingsGuard
	// createNoAuth is POST /api/pages without the authentication token:
	// AUTH-WRITE-NEEDS-AUTH judges its status, AUTH-REFUSED-WRITE-NO-EFFECT
	// what it left behind.
	createNoAuth func(ctx context.Context) sentCreate
	noAuthCreate framework.Probe
}

// sentCreate is a create the target should refuse, and a read of the
// probe's slug after it (nil ex: the run was interrupted before).
type sentCreate struct {
	ex, read *client.Exchange
}

// settingsGuard is the group's guard of the settings, or why there is none
// (the settings could not be read, so they could not be restored).
type settingsGuard struct {
	guard  *framework.SettingsGuard
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
	pg := &probeGroup{t: t, pages: sharedPageGuard(t, g),
		noAuthCreate: t.NewProbe(spec.CreatePage, "no-auth-"+framework.EndpointName(spec.CreatePage))}
	pg.settings = framework.Share(g, func(ctx context.Context) settingsGuard {
		guard, reason := t.TryGuardSettings(ctx, "PUT /api/settings without valid credentials (must be refused)")
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
func (pg *probeGroup) send(ctx context.Context, p framework.Probe, r client.Request) (*client.Exchange, string) {
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
func (pg *probeGroup) create(ctx context.Context, p framework.Probe, r client.Request) sentCreate {
	pg.pages(ctx).watch(p.Slug)
	ex := pg.t.Client.Do(ctx, r)
	p.Settle(ctx, ex)
	return sentCreate{ex: ex, read: pg.readSlug(ctx, p.Slug)}
}

// got is send's answer as a prepare function returns it.
func (pg *probeGroup) got(ctx context.Context, p framework.Probe, r client.Request) framework.Got {
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

// pageGuard is GuardCreate for the creates of a group that the target
// should refuse (or that may answer without the key they made): watch
// names each one's run-marked slug before it is sent, and after the
// group's last spec every slug nobody settled is read, side by side, and a
// page found there is deleted. A prepare function that reads such a slug
// anyway (readSlug), or whose create answered with the page, settles it:
// one read a slug, not two.
type pageGuard struct {
	t       *framework.Fixture
	mu      sync.Mutex
	watched []string
	settled map[string]bool
}

// sharedPageGuard returns the group's pageGuard (framework.Share).
func sharedPageGuard(t *framework.Fixture, g *framework.Group) func(ctx context.Context) *pageGuard {
	return framework.Share(g, func(ctx context.Context) *pageGuard {
		pg := &pageGuard{t: t, settled: map[string]bool{}}
		t.DeferCleanup(ctx, pg.cleanup)
		return pg
	})
}

// watch names the slug of a create about to be sent. A nil guard (the run
// was interrupted before it was made) watches nothing: the final sweep
// still finds the run's pages by their marker.
func (pg *pageGuard) watch(slug string) {
	if pg == nil {
		return
	}
	pg.mu.Lock()
	defer pg.mu.Unlock()
	pg.watched = append(pg.watched, slug)
}

// settle says the page at slug is accounted for: adopted, or shown absent.
func (pg *pageGuard) settle(slug string) {
	if pg == nil {
		return
	}
	pg.mu.Lock()
	defer pg.mu.Unlock()
	pg.settled[slug] = true
}

// unsettled lists the watched slugs nobody settled.
func (pg *pageGuard) unsettled() []string {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	var out []string
	for _, s := range pg.watched {
		if !pg.settled[s] {
			out = append(out, s)
		}
	}
	return out
}

// slugRead is a read of the page at slug as it is now: with both tokens
// when the run may write (a site may show drafts only then, and only then
// could a page found be deleted), else with the API token alone.
func slugRead(t *framework.Fixture, slug string) client.Request {
	r := client.Request{Method: http.MethodGet, Path: framework.PagePath(slug), Credentials: client.APIToken, Fresh: true}
	if t.CanWrite() {
		r.Credentials = client.BothTokens
	}
	return r
}

// foundAt reports whether read, an answer to slugRead, shows the page at
// slug.
func foundAt(read *client.Exchange, slug string) bool {
	return read.Err == nil && read.Status == http.StatusOK && read.Get("data.key").String() == slug
}

// readSlug reads the page at slug for a prepare function (slugRead) and
// settles it when the answer shows: a page found is adopted (deleted when
// the spec that judges ctx ends), a 404 shows no page there. Any other
// answer (an error status, another page) shows neither: the group's
// cleanup reads the slug again.
func (pg *probeGroup) readSlug(ctx context.Context, slug string) *client.Exchange {
	t := pg.t
	read := t.Client.Do(ctx, slugRead(t, slug))
	if !t.CanWrite() || read.Err != nil {
		return read
	}
	switch {
	case foundAt(read, slug):
		t.AdoptKey(ctx, slug)
	case read.Status != http.StatusNotFound:
		return read
	}
	pg.pages(ctx).settle(slug)
	return read
}

// cleanup reads every slug nobody settled, side by side, and deletes a page
// found there (GuardCreate's cleanup, for many slugs at once).
func (pg *pageGuard) cleanup(ctx context.Context) {
	t := pg.t
	slugs := pg.unsettled()
	if !t.CanWrite() || len(slugs) == 0 {
		return
	}
	ctx, cancel := framework.CleanupContext(ctx)
	defer cancel()
	reads := make([]client.Request, len(slugs))
	for i, s := range slugs {
		reads[i] = slugRead(t, s)
	}
	for i, read := range t.All(ctx, reads...) {
		if foundAt(read, slugs[i]) {
			t.Ledger.AddPage(slugs[i])
			_ = t.DeletePage(ctx, slugs[i]) // the sweep retries and reports what remains
		}
	}
}
