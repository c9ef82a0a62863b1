package settingsguard

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// Guard holds the settings as they were before a spec sent a
// request that may change them, and puts them back when the spec ends (or,
// for the guard of an Ordered container, when its last spec ends),
// however it ends. Every spec that touches PUT /api/settings goes through
// one, whether it means to change a setting or sends a request the target
// must refuse.
type Guard struct {
	t *framework.Fixture
	// mu guards what requests change (changes, requests, latest):
	// the prepares of a group may send through one guard side by side.
	mu       sync.Mutex
	what     string         // what the specs send, for the run summary
	original map[string]any // the whole settings map before
	// volatile are the fields that changed between two reads with no
	// update between (2.6 names some fields; the others are the host's, and
	// may be a read counter or time): neither restored nor compared.
	volatile []string
	changes  bool // a change was meant (Put)
	// requests says what each request that may change them sent (none
	// sent: nothing to restore), for the run summary of a container's
	// guard (whose what names no request).
	requests []string
	// inOrder: the guard of the settings-writes container (InOrder), the
	// run's last writes: its requests go into the summary, and its
	// restore's verifying read brings the run-end listing along.
	inOrder bool
	// latest is the settings map the guard read last, nil once a request
	// that may change them was sent since: a spec that needs the settings
	// as they are now, and the restore, start from it without a read.
	latest   map[string]any
	latestEx *client.Exchange
	restored bool // the restore ran (once: by its cleanup, or the sweep)
}

// New reads the whole settings map (twice, side by side: fields
// that differ between the two answers are volatile) and registers its
// restore with DeferCleanup before the spec sends anything: the restore
// then runs when the spec passes, fails, times out or the run is
// interrupted. Settings that cannot be read could not be restored, so the
// spec is then not checked. what says what the spec sends, for the run
// summary.
func New(ctx context.Context, t *framework.Fixture, what string) *Guard {
	g, reason := Try(ctx, t, what)
	if reason != "" {
		verdicts.NotCheckedAt(reason, 2)
	}
	return g
}

// Try is New for a prepare or Share function
// (Prepare), which may not skip a spec: when the settings cannot be read
// it returns no guard and why, for judge to say. The restore runs when the
// spec that judges ctx ends (after the group's last spec, for a Share
// function).
func Try(ctx context.Context, t *framework.Fixture, what string) (*Guard, string) {
	if reason := t.SettingsWritesStopped(); reason != "" {
		return nil, reason
	}
	g := &Guard{t: t, what: what}
	if reason := g.read(ctx); reason != "" {
		return nil, reason
	}
	t.DeferCleanup(ctx, func(ctx context.Context) {
		cctx, cancel := framework.CleanupContext(ctx)
		defer cancel()
		g.restore(cctx)
	})
	return g, ""
}

// InOrder returns the one guard of the specs of an Ordered
// container that change the settings one after another: called in the
// container's body, it registers (BeforeAll) the restore that runs after
// the container's last spec, also when a spec fails, times out or the run
// is interrupted. Each spec calls Begin before its first request that may
// change the settings; the first Begin reads them. So the settings are
// read before the first change, restored once at the end and verified
// once, not around every spec; in between, each spec sees what the
// earlier ones left (Current). what names the specs, for the run
// summary, which also lists each request sent.
//
// Ginkgo skips the cleanup of an Ordered container whose later specs it
// skips after a failure with --fail-fast, or after the run's time limit
// passed between or during its specs (ContinueOnFailure); the final sweep
// then restores what such a guard left (restoreLeft).
func InOrder(t *framework.Fixture, what string) *Guard {
	g := &Guard{t: t, what: what, inOrder: true}
	ginkgo.BeforeAll(func() { ginkgo.DeferCleanup(g.cleanup) })
	return g
}

// Begin reads the settings the guard will restore, when no spec of the
// container has yet (InOrder); when they cannot be read, the
// spec is not checked. Call it before anything that may change them.
func (g *Guard) Begin(ctx context.Context) {
	if reason := g.t.SettingsWritesStopped(); reason != "" {
		verdicts.NotCheckedAt(reason, 1)
	}
	if g.original == nil {
		g.begin(ctx, 2)
	}
}

// begin is read for a spec, which it makes not checked when the settings
// cannot be read; skip counts the frames above begin to name as its
// location.
func (g *Guard) begin(ctx context.Context, skip int) {
	if reason := g.read(ctx); reason != "" {
		verdicts.NotCheckedAt(reason, skip+1)
	}
}

// read reads the settings twice, side by side (the first may be the read
// cache's answer, from before any write: all the better to find fields
// that change by themselves), and keeps them as the guard's original;
// it returns why it could not ("" when it could).
func (g *Guard) read(ctx context.Context) string {
	read := client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.BothTokens}
	fresh := read
	fresh.Fresh = true
	exs := g.t.All(ctx, read, fresh)
	first, problem := settingsOf(exs[0])
	var original map[string]any
	if problem == "" {
		original, problem = settingsOf(exs[1])
	}
	if problem != "" {
		return "the settings could not be read before changing them, so they could not be restored (" + problem + ")"
	}
	g.original, g.volatile = original, changedFields(first, original)
	g.latest, g.latestEx = original, exs[1]
	g.t.AtEnd("", true, g.restoreLeft)
	t := g.t
	t.AtEnd("settings: updates without an answer", false, func(ctx context.Context) { settleLateSettings(ctx, t) })
	g.t.NoteSettingsRead(original, g.volatile)
	return ""
}

// Original is the settings map as it was before the first change (not to
// be changed).
func (g *Guard) Original() map[string]any { return g.original }

// Volatile lists the fields that changed between two reads with no update
// between, sorted.
func (g *Guard) Volatile() []string { return g.volatile }

// Read reads the whole settings map now (the guard keeps it for Current);
// the string is what went wrong, "" when it was read.
func (g *Guard) Read(ctx context.Context) (*client.Exchange, map[string]any, string) {
	ex, m, problem := Read(ctx, g.t)
	if problem == "" {
		g.mu.Lock()
		g.latest, g.latestEx = m, ex
		g.mu.Unlock()
	}
	return ex, m, problem
}

// Current is the settings as they are now: those the guard read last, or
// a new Read when a request that may change them was sent since.
func (g *Guard) Current(ctx context.Context) (*client.Exchange, map[string]any, string) {
	g.mu.Lock()
	latest, latestEx := g.latest, g.latestEx
	g.mu.Unlock()
	if latest != nil {
		return latestEx, latest, ""
	}
	return g.Read(ctx)
}

// Put sends a settings change with both tokens. Once a settings update
// got no answer, nothing is sent (SettingsWritesStopped): the exchange
// carries a *framework.SettingsNotSent error.
func (g *Guard) Put(ctx context.Context, fields map[string]any) *client.Exchange {
	return g.send(ctx, "PUT "+strings.Join(slices.Sorted(maps.Keys(fields)), ", "), true,
		client.Request{Method: http.MethodPut, Path: "/api/settings", JSON: fields, Credentials: client.BothTokens})
}

// PutForm sends a settings change as a form-encoded body (spec 1), with
// both tokens.
func (g *Guard) PutForm(ctx context.Context, form url.Values) *client.Exchange {
	return g.send(ctx, "PUT "+strings.Join(slices.Sorted(maps.Keys(form)), ", ")+" (form-encoded)", true,
		client.Request{Method: http.MethodPut, Path: "/api/settings", Form: form, Credentials: client.BothTokens})
}

// Send sends a request that should not change the settings (one the target
// must refuse); should it change them after all, they are restored too.
func (g *Guard) Send(ctx context.Context, r client.Request) *client.Exchange {
	fields := slices.Concat(slices.Collect(maps.Keys(r.JSON)), slices.Collect(maps.Keys(r.Form)))
	return g.send(ctx, r.Method+" "+strings.Join(slices.Sorted(slices.Values(fields)), ", ")+" (to be refused)", false, r)
}

// send sends r, a request that may change the settings (what, change: see
// sending), unless settings writes were stopped; a request that gets no
// answer stops them (NoteWrite).
func (g *Guard) send(ctx context.Context, what string, change bool, r client.Request) *client.Exchange {
	if reason := g.t.SettingsWritesStopped(); reason != "" {
		// Among the spec's evidence: a spec that fails on it is not
		// checked, for this reason (Install's AfterEach).
		ex := framework.NotSent(r.Method, r.Path, &framework.SettingsNotSent{Reason: reason})
		g.t.Judged(ex)
		return ex
	}
	g.sending(what, change)
	ex := g.t.Client.Do(ctx, r)
	g.t.NoteWrite(ex)
	return ex
}

// sending notes a request that may change the settings (meant to: a
// change): what it sends, and that what the guard read last is out of
// date.
func (g *Guard) sending(what string, change bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.changes = g.changes || change
	g.latest, g.latestEx = nil, nil
	g.requests = append(g.requests, what)
}

// Changed lists the fields of now (a settings map read after a request)
// that differ from before (the settings before that request), one line
// each, except the named fields and the volatile ones. A field that
// differs is read twice more, volatilePause apart, and counted volatile
// (and left out) when it changes between those reads: a field a server
// updates by itself with one-second resolution may not change between two
// quick reads.
func (g *Guard) Changed(ctx context.Context, before, now map[string]any, except ...string) []string {
	if _, late := settledChanges(ctx, g.t, before, now, g.volatile, except...); len(late) > 0 {
		g.volatile = slices.Sorted(slices.Values(slices.Concat(g.volatile, late)))
	}
	return Diff(before, now, slices.Concat(except, g.volatile)...)
}

// cleanup is the restore DeferCleanup runs: with a context no interrupt
// cancels (CleanupContext).
func (g *Guard) cleanup(ctx ginkgo.SpecContext) {
	cctx, cancel := framework.CleanupContext(ctx)
	defer cancel()
	g.restore(cctx)
}

// restore puts back what changed and records the outcome in the ledger: a
// meant change always, a request that should have changed nothing only
// when it did.
func (g *Guard) restore(ctx context.Context) {
	g.mu.Lock()
	if g.restored || len(g.requests) == 0 || g.original == nil {
		g.mu.Unlock()
		return
	}
	g.restored = true
	what := g.what
	if g.inOrder {
		what += " (" + strings.Join(g.requests, "; ") + ")"
	}
	changes := g.changes
	g.mu.Unlock()
	// A request that got no answer may change the settings after this
	// read: the checks after it (settleGuard) decide.
	_, late := g.t.LateSettingsWrite()
	if !changes && !late {
		if _, now, problem := g.Current(ctx); problem == "" && len(changedFields(g.original, now, g.volatile...)) == 0 {
			return
		}
	}
	g.mu.Lock()
	latest := g.latest
	g.mu.Unlock()
	problem := restore(ctx, g.t, g.original, latest, g.inOrder, g.volatile...)
	if _, late := g.t.LateSettingsWrite(); late {
		settleGuard(ctx, g.t, what, g.original, g.volatile)
		return
	}
	if problem != "" {
		g.t.Ledger.AddProblem(g.t.Client.Redactor().String("settings (" + what + ") not restored: " + problem))
		g.t.Ledger.SettingsChanged(what + "; the restore FAILED (see the problems)")
		return
	}
	g.t.Ledger.SettingsVerified(what, "every field restored and verified")
}

// restoreLeft restores the settings when the guard's own restore did not
// run (AtEnd, before the sweep): the backstop of a container Ginkgo left
// without its cleanup. The specs have ended then, so no guard is in use.
func (g *Guard) restoreLeft(ctx context.Context) {
	cctx, cancel := framework.CleanupContext(ctx)
	defer cancel()
	g.restore(cctx)
}
