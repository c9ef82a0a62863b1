package settingsguard

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// This file checks the settings again after a settings update that got no
// answer (inflight.go): the restore may have run before that update
// landed, so a restore verified at once proves nothing. The settings are
// read again once the update could have landed, restored again while they
// differ, and only what the last check read goes into the ledger.

// lateBoundFactor bounds the checks after a write without an answer: they
// stop lateBoundFactor pauses after the first.
const lateBoundFactor = 4

// lateOutcome is what the checks after a settings update without an
// answer found.
type lateOutcome struct {
	verified bool                // the last check read every field as before
	waited   time.Duration       // from the first check's wait to the last read
	after    time.Duration       // from when the client gave up on late to the last read
	restores int                 // restores sent again
	late     framework.LateWrite // the update that may land last
	diff     []string            // what the last check read, one line a field
	problem  string              // the last check could not read the settings
	put      map[string]any
}

// settleSettings reads the settings once the settings updates without an
// answer could have landed, and while they differ from original sends the
// restore again, waiting twice as long each time, until a check reads them
// as before or lateBoundFactor pauses have passed.
func settleSettings(ctx context.Context, t *framework.Fixture, original map[string]any, volatile []string) lateOutcome {
	w, _ := t.LateSettingsWrite()
	out := lateOutcome{late: w}
	bound := lateBoundFactor * w.Pause
	ctx, cancel := framework.LateContext(ctx, bound)
	defer cancel()
	start := time.Now()
	end, step, at := start.Add(bound), w.Pause, w.Settle
	for {
		if at.After(end) {
			at = end
		}
		if !framework.SleepUntil(ctx, at) {
			out.problem = "the checks ran out of time"
			break
		}
		var now map[string]any
		now, volatile = checkSettings(ctx, t, original, volatile, &out)
		if out.verified || !time.Now().Before(end) {
			break
		}
		if now != nil {
			restoreSettings(ctx, t, original, now, volatile...)
			out.restores++
		}
		at, step = time.Now().Add(step), 2*step
		if lw, _ := t.LateSettingsWrite(); lw.Settle.After(at) {
			at = lw.Settle // the restore itself got no answer
		}
	}
	out.waited = time.Since(start)
	out.after = time.Since(w.Settle.Add(-w.Pause))
	return out
}

// checkSettings is one check of settleSettings: it reads the settings
// (fresh: a late update empties no cache) and records in out what differs
// from original, fields that change by themselves aside (those it adds to
// volatile). It returns what it read (nil when it could not) and volatile.
func checkSettings(ctx context.Context, t *framework.Fixture, original map[string]any, volatile []string, out *lateOutcome) (map[string]any, []string) {
	_, now, problem := Read(ctx, t, framework.Fresh())
	out.problem, out.diff, out.put = problem, nil, nil
	if problem != "" {
		return nil, volatile
	}
	changed, late := settledChanges(ctx, t, original, now, volatile)
	volatile = append(volatile, late...)
	if len(changed) == 0 {
		out.verified = true
		return now, volatile
	}
	out.diff = Diff(original, now, volatile...)
	out.put = map[string]any{}
	for _, k := range changed {
		if v, ok := original[k]; ok {
			out.put[k] = v
		}
	}
	return now, volatile
}

// settleGuard ends a guard's restore when a settings update got no answer
// (Guard.restore): the ledger says what the last check read.
func settleGuard(ctx context.Context, t *framework.Fixture, what string, original map[string]any, volatile []string) {
	out := settleSettings(ctx, t, original, volatile)
	if out.verified {
		t.Ledger.SettingsVerified(what, "every field restored and verified "+out.how())
		return
	}
	t.Ledger.AddProblem(t.Client.Redactor().String("settings (" + what + ") may not be as before: " + out.left(t, original, volatile)))
	t.Ledger.SettingsChanged(what + "; NOT restored: " + notRestoredLate)
}

// notRestoredLate is the settings note of a change the last check read
// still there.
const notRestoredLate = "a settings update that got no answer landed after the restore " +
	"(the problems name the fields and the request that puts them back)"

// settleLateSettings is the run's last check of the settings, when a
// settings update got no answer (SettleLateWrites): against the settings
// as the run found them (the first guard's read).
func settleLateSettings(ctx context.Context, t *framework.Fixture) {
	original, volatile := t.SettingsFound()
	if _, late := t.LateSettingsWrite(); !late || original == nil {
		return
	}
	out := settleSettings(ctx, t, original, volatile)
	switch {
	case out.verified && out.restores == 0:
		// The notes stand: the last check read what they say.
	case out.verified:
		t.Ledger.SettingsVerified("a settings update that got no answer landed late",
			"every field restored and verified at the end of the run "+out.how())
	default:
		t.Ledger.SettingsChangedAgain("restored and verified then, but changed again later: " + notRestoredLate)
		t.Ledger.AddProblem(t.Client.Redactor().String("at the end of the run the settings may not be as the run found them: " +
			out.left(t, original, volatile)))
		t.Ledger.SettingsChanged("a settings update that got no answer landed late; NOT restored (see the problems)")
	}
}

// how says how a verified outcome was reached.
func (o lateOutcome) how() string {
	s := fmt.Sprintf("(read again %s after the client stopped waiting for a settings update that got no answer: %s)",
		o.after.Round(100*time.Millisecond), o.late.What)
	if o.restores > 0 {
		s += fmt.Sprintf("; it landed late and the restore was sent again %d time(s)", o.restores)
	}
	return s
}

// left says what an unverified outcome leaves, and the request that puts
// it back: the fields that differ, or every field the run found when the
// settings could not be read.
func (o lateOutcome) left(t *framework.Fixture, original map[string]any, volatile []string) string {
	s := fmt.Sprintf("a settings update got no answer (%s) and landed after the restore; after %s and %d more restore(s), ",
		o.late.What, o.waited.Round(100*time.Millisecond), o.restores)
	put := o.put
	if o.problem != "" {
		s += "the last check could not read them (" + o.problem + ")"
		put = maps.Clone(original)
		for _, k := range volatile {
			delete(put, k)
		}
	} else {
		s += "the last check read: " + strings.Join(o.diff, "; ")
	}
	if len(put) > 0 {
		s += ". This puts them back: " + settingsCurl(t, put)
	}
	return s
}

// settingsCurl renders PUT /api/settings with fields as a curl line, the
// tokens as the placeholders the client prints everywhere (the
// environment variables the CLI reads), never their values.
func settingsCurl(t *framework.Fixture, fields map[string]any) string {
	body := maps.Clone(fields)
	parts := []string{"curl", "-sS", "-i", "-X", "PUT", shellQuote(t, t.Client.BaseURL()+"/api/settings")}
	if t.Client.CredentialsPlacement() == client.CredentialsInHeader {
		parts = append(parts, "-H", shellQuote(t, client.AuthorizationHeader+": Bearer "+client.TokenPlaceholder),
			"-H", shellQuote(t, client.AuthTokenHeader+": "+client.AuthTokenPlaceholder))
	} else {
		body["token"], body["authentication"] = client.TokenPlaceholder, client.AuthTokenPlaceholder
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // values as the settings hold them
	if err := enc.Encode(body); err != nil {
		return "(the request could not be rendered: " + err.Error() + ")"
	}
	parts = append(parts, "-H", shellQuote(t, "Content-Type: application/json"), "--data-raw", shellQuote(t, strings.TrimSpace(b.String())))
	return strings.Join(parts, " ")
}

// shellEscaper escapes what a shell interprets inside double quotes.
var shellEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`)

// shellQuote double-quotes s for a shell, redacted first, with the token
// placeholders left to expand (as the client's own curl lines do).
func shellQuote(t *framework.Fixture, s string) string {
	s = shellEscaper.Replace(t.Client.Redactor().String(s))
	for _, p := range []string{client.TokenPlaceholder, client.AuthTokenPlaceholder} {
		s = strings.ReplaceAll(s, shellEscaper.Replace(p), p)
	}
	return `"` + s + `"`
}
