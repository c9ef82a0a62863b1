package framework

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
)

// This file keeps the run's writes that got no answer. Behind a front
// whose workers are busy, a write the client stopped waiting for
// (--request-timeout) may still reach the server later: a settings update
// after the run's restore, a create after the sweep. Such a write is in
// flight until proven otherwise: the run sends no further settings change
// (SettingsWritesStopped), checks the settings again once the write could
// have landed (settingsafter.go), and lists its pages again at the end
// (SettleLateWrites).

// lateMargin is added to how long the client waited for a write that got
// no answer, to give the default time such a write may still take to
// land (Options.LatePause).
const lateMargin = 5 * time.Second

// fateUnknown reports whether ex left the client and its fate is unknown:
// it got no status back (an interrupted one too), or the server in front
// answered 502 or 504 for it, which it may have passed on to the API
// (client.Exchange.Fault). A request never sent (Sent false) cannot land;
// one the API answered was answered.
func fateUnknown(ex *client.Exchange) bool {
	switch {
	case ex == nil || !ex.Sent:
		return false
	case ex.Status == 0:
		return ex.Err != nil
	}
	return (ex.Status == http.StatusBadGateway || ex.Status == http.StatusGatewayTimeout) && ex.Fault() != ""
}

// LateWrite is a write that got no answer: what it was, why, and until
// when it may still land.
type LateWrite struct {
	seq      int
	settings bool   // PUT /api/settings (else a pages write)
	What     string // "PUT /api/settings" and the cause
	Settle   time.Time
	Pause    time.Duration
}

// lateWrites is what the Ledger keeps of the writes without an answer, and
// the settings as the run found them (the first guard's read), which the
// end of the run checks again.
type lateWrites struct {
	mu       sync.Mutex
	writes   []LateWrite
	original map[string]any
	volatile []string
}

// add records w once (by its exchange number).
func (l *lateWrites) add(w LateWrite) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, o := range l.writes {
		if o.seq == w.seq {
			return
		}
	}
	l.writes = append(l.writes, w)
}

// latest is the write of the kind (settings or pages) that may land last;
// false when there is none.
func (l *lateWrites) latest(settings bool) (LateWrite, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out LateWrite
	found := false
	for _, w := range l.writes {
		if w.settings == settings && (!found || w.Settle.After(out.Settle)) {
			out, found = w, true
		}
	}
	return out, found
}

// first is the first write of the kind without an answer.
func (l *lateWrites) first(settings bool) (LateWrite, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, w := range l.writes {
		if w.settings == settings {
			return w, true
		}
	}
	return LateWrite{}, false
}

// found records the settings as the run found them, once: the first
// guard's read comes before any settings change of the run.
func (l *lateWrites) found(original map[string]any, volatile []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.original == nil {
		l.original, l.volatile = original, volatile
	}
}

func (l *lateWrites) foundSettings() (map[string]any, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.original, l.volatile
}

// NoteWrite records ex when it is a settings or pages write that got no
// answer; it reports whether it did.
func (t *Fixture) NoteWrite(ex *client.Exchange) bool {
	if !fateUnknown(ex) || ex.Method == http.MethodGet || ex.Method == http.MethodHead {
		return false
	}
	path := ex.URL
	if u, err := url.Parse(ex.URL); err == nil {
		path = u.Path
	}
	settings := strings.HasSuffix(path, "/api/settings")
	if !settings && !strings.Contains(path, "/api/pages") {
		return false
	}
	pause := t.LatePause
	if pause <= 0 {
		pause = ex.Duration + lateMargin
	}
	t.late.add(LateWrite{seq: ex.Seq, settings: settings, Pause: pause,
		What:   ex.Method + " " + path + ": " + client.Cause(ex.Err),
		Settle: ex.Started.Add(ex.Duration).Add(pause)})
	return true
}

// noteLog records every write of the run's log that got no answer (those
// sent outside the settings guard too).
func (t *Fixture) noteLog() {
	for _, ex := range t.Client.Exchanges() {
		t.NoteWrite(ex)
	}
}

// SettingsWritesStopped is why the run sends no further settings change:
// a settings update got no answer and may still land, so a change sent now
// could be undone by it, or undo it, in any order. "" while settings may
// be changed.
func (t *Fixture) SettingsWritesStopped() string {
	w, ok := t.late.first(true)
	if !ok {
		return ""
	}
	return "settings writes were stopped: a settings update got no answer and may still land (" + w.What +
		"); the run checks the settings again before it ends"
}

// SettleLateWrites is the run's last word on its writes that got no
// answer (Install's AfterSuite calls it after the sweep): once they could
// have landed, it lists the pages again (settleLatePages) and checks the
// settings again (settleLateSettings). Without such a write it sends
// nothing.
func (t *Fixture) SettleLateWrites(ctx context.Context) {
	if !t.CanWrite() {
		return
	}
	t.noteLog()
	t.settleLatePages(ctx)
	t.runAtEnd(ctx, false)
}

// settleLatePages sweeps again once a pages write that got no answer could
// have landed: a create that lands after the first sweep made a page
// carrying the run marker, which the sweep finds (strays), deletes, or
// leaves in the ledger ("What the run left"). What it found is an
// observation either way.
func (t *Fixture) settleLatePages(ctx context.Context) {
	w, ok := t.late.latest(false)
	if !ok {
		return
	}
	lctx, cancel := LateContext(ctx, w.Pause)
	defer cancel()
	if !SleepUntil(lctx, w.Settle) {
		return
	}
	found := t.sweep(lctx)
	head := fmt.Sprintf("a write to the pages got no answer (%s); once it could have landed the run listed the site's pages again and ", w.What)
	if len(found) == 0 {
		t.Observe("%sfound no page of this run left; a page that lands later still carries the run's marker, and "+
			"`conformance cleanup --base-url %s` removes it", head, t.Client.BaseURL())
		return
	}
	t.Observe("%sfound %d page(s) of this run it had not heard of: %s (deleted unless listed under what the run left)",
		head, len(found), strings.Join(found, ", "))
}

// LateContext is the context of the checks after a write without an
// answer: like CleanupContext, no interrupt cuts it short, and it lasts
// the checks' bound plus one cleanup's time.
func LateContext(ctx context.Context, bound time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), bound+cleanupTimeout)
}

// NoteSettingsRead tells the checks of late settings updates what the
// settings were before the run changed them (the first guard's read); a
// later read changes nothing.
func (t *Fixture) NoteSettingsRead(original map[string]any, volatile []string) {
	t.late.found(original, volatile)
}

// LateSettingsWrite is the settings update without an answer that may land
// last; false when every one got its answer.
func (t *Fixture) LateSettingsWrite() (LateWrite, bool) { return t.late.latest(true) }

// SettingsFound is what NoteSettingsRead kept: the settings before the run
// changed them and their volatile fields (nil before any guard read them).
func (t *Fixture) SettingsFound() (map[string]any, []string) { return t.late.foundSettings() }

// unansweredWrites are the run's writes whose fate is unknown: sent, and
// no answer came (or a front's own 502 or 504).
func (t *Fixture) unansweredWrites() []*client.Exchange {
	var out []*client.Exchange
	for _, ex := range t.Client.Exchanges() {
		if ex.Method != http.MethodGet && ex.Method != http.MethodHead && ex.Method != http.MethodOptions && fateUnknown(ex) {
			out = append(out, ex)
		}
	}
	return out
}
