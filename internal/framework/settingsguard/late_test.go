package settingsguard

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// Settings updates without an answer: the reference server behind
// testkit.LateFront.
const (
	lateTimeout = 200 * time.Millisecond // the client's --request-timeout
	latePause   = 500 * time.Millisecond // Options.LatePause
)

// lateTarget serves the reference server behind f and returns a writing
// fixture whose client waits lateTimeout, and the server.
func lateTarget(t *testing.T, f *testkit.LateFront) (*framework.Fixture, testkit.Server) {
	t.Helper()
	ref := testkit.LateServer(t, f)
	c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken, RequestTimeout: lateTimeout,
		ReadCache: true}) // as a run has it: a check that replayed a read would see no late write
	if err != nil {
		t.Fatal(err)
	}
	return framework.New(c, framework.Options{SettingsWrites: true, LatePause: latePause}), ref
}

// noTokens fails the test when a token's value is in any of the run's
// notes.
func noTokens(t *testing.T, tg *framework.Fixture, ref testkit.Server) {
	t.Helper()
	testkit.NoTokens(t, ref, append(append(tg.Ledger.Settings(), tg.Ledger.Problems()...), tg.Observations()...)...)
}

// settingsPut matches a PUT /api/settings whose body holds s.
func settingsPut(s string) func(*http.Request, []byte) bool {
	return func(r *http.Request, body []byte) bool {
		return r.Method == http.MethodPut && r.URL.Path == "/api/settings" && bytes.Contains(body, []byte(s))
	}
}

// guardedLatePut guards the settings and sends a change the front holds:
// the exchange must get no answer.
func guardedLatePut(t *testing.T, tg *framework.Fixture) (*Guard, context.Context) {
	t.Helper()
	ctx, _ := framework.CollectingCleanups(context.Background())
	g, reason := Try(ctx, tg, "late updates")
	if reason != "" {
		t.Fatal(reason)
	}
	ex := g.Put(ctx, map[string]any{"slogan": "held by the front", "title": "held title"})
	if ex.Err == nil || ex.Status != 0 {
		t.Fatalf("the held PUT was answered: %s", match.Outcome(ex))
	}
	return g, ctx
}

// TestLateSettingsUpdateRestored: a settings update the front carries out
// after the client gave up, and after the guard's first restore, is found
// by the check after the pause and undone; the ledger says verified only
// because that last check read the settings as before. Later settings
// changes are not sent.
func TestLateSettingsUpdateRestored(t *testing.T) {
	f := &testkit.LateFront{Late: settingsPut("held by the front"), Hold: 3 * lateTimeout}
	tg, ref := lateTarget(t, f)
	before := settingsBody(t, tg)
	g, ctx := guardedLatePut(t, tg)

	if tg.SettingsWritesStopped() == "" {
		t.Error("a settings update without an answer did not stop settings writes")
	}
	if ex := g.Put(ctx, map[string]any{"slogan": "second"}); ex.Sent || ex.Err == nil || !strings.Contains(ex.Err.Error(), "got no answer") {
		t.Errorf("a settings change after the update without an answer: sent %v, %v", ex.Sent, ex.Err)
	}
	if _, reason := Try(ctx, tg, "a later spec"); !strings.Contains(reason, "settings writes were stopped") {
		t.Errorf("a later guard: reason %q, want settings writes stopped", reason)
	}

	g.restore(ctx)
	if f.Landed() != 1 {
		t.Fatalf("the held update landed %d times, want once (the test proves nothing)", f.Landed())
	}
	if after := settingsBody(t, tg); !bytes.Equal(before, after) {
		t.Fatalf("settings not restored:\nbefore: %s\nafter:  %s", before, after)
	}
	notes := tg.Ledger.Settings()
	if len(notes) != 1 || !strings.Contains(notes[0], "every field restored and verified (read again") ||
		!strings.Contains(notes[0], "it landed late and the restore was sent again 1 time(s)") {
		t.Errorf("settings notes: %q", notes)
	}
	if p := tg.Ledger.Problems(); len(p) > 0 {
		t.Errorf("problems: %q", p)
	}
	noTokens(t, tg, ref)
}

// TestLateSettingsUpdateKeepsLanding: a front that carries the update out
// again and again, past every check: the ledger says plainly the settings
// may not be as before, names the fields with their original values and
// gives the request that puts them back, tokens as placeholders; the
// note that an earlier restore was verified is taken back by the run's
// last check.
func TestLateSettingsUpdateKeepsLanding(t *testing.T) {
	tg, ref := lateTarget(t, &testkit.LateFront{Late: settingsPut("held by the front"), Hold: 3 * lateTimeout, Again: true})
	_, original, problem := Read(context.Background(), tg)
	if problem != "" {
		t.Fatal(problem)
	}
	tg.Ledger.SettingsVerified("an earlier spec", "every field restored and verified")
	g, ctx := guardedLatePut(t, tg)
	g.restore(ctx)

	problems := strings.Join(tg.Ledger.Problems(), "\n")
	for _, want := range []string{
		"settings (late updates) may not be as before: a settings update got no answer (PUT /api/settings: no answer within the request timeout",
		`slogan: was ` + showValue(original["slogan"]) + `, now "held by the front"`,
		"This puts them back: curl -sS -i -X PUT \"" + ref.URL + "/api/settings\"",
		`\"authentication\":\"${CONFORMANCE_AUTH_TOKEN}\"`, `\"token\":\"${CONFORMANCE_TOKEN}\"`,
		`\"slogan\":` + strings.ReplaceAll(showValue(original["slogan"]), `"`, `\"`),
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems lack %q:\n%s", want, problems)
		}
	}
	tg.SettleLateWrites(ctx)
	notes := tg.Ledger.Settings()
	want := []string{
		"an earlier spec; restored and verified then, but changed again later: " + notRestoredLate,
		"late updates; NOT restored: " + notRestoredLate,
		"a settings update that got no answer landed late; NOT restored (see the problems)",
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("settings notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
	noTokens(t, tg, ref)
}

// TestLateSettingsFinalCheck: an update that lands after the guard's
// checks is undone by the run's last check (SettleLateWrites), which says
// so in the ledger.
func TestLateSettingsFinalCheck(t *testing.T) {
	f := &testkit.LateFront{Late: settingsPut("held by the front"), Hold: 3 * lateTimeout}
	tg, ref := lateTarget(t, f)
	before := settingsBody(t, tg)
	g, ctx := guardedLatePut(t, tg)
	time.Sleep(3 * lateTimeout) // landed: the guard finds nothing left to wait for
	g.restore(ctx)
	put(t, tg, map[string]any{"title": "landed after the guard's check"}) // (as if held longer)
	tg.SettleLateWrites(ctx)
	if after := settingsBody(t, tg); !bytes.Equal(before, after) {
		t.Fatalf("settings not restored at the end of the run:\nbefore: %s\nafter:  %s", before, after)
	}
	notes := tg.Ledger.Settings()
	if len(notes) != 2 || !strings.HasPrefix(notes[1], "a settings update that got no answer landed late; every field restored and verified at the end of the run") {
		t.Errorf("settings notes: %q", notes)
	}
	noTokens(t, tg, ref)
}

// TestSettingsCurlHeaderPlacement: with the tokens in headers, the request
// that puts the settings back carries them there, as placeholders.
func TestSettingsCurlHeaderPlacement(t *testing.T) {
	ref := testkit.Reference(t)
	c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken, CredentialsPlacement: client.CredentialsInHeader})
	if err != nil {
		t.Fatal(err)
	}
	got := settingsCurl(framework.New(c, framework.Options{}), map[string]any{"slogan": `A "b" $x`})
	want := `curl -sS -i -X PUT "` + ref.URL + `/api/settings" -H "Authorization: Bearer ${CONFORMANCE_TOKEN}" ` +
		`-H "X-Auth-Token: ${CONFORMANCE_AUTH_TOKEN}" -H "Content-Type: application/json" --data-raw "{\"slogan\":\"A \\\"b\\\" \$x\"}"`
	if got != want {
		t.Errorf("curl:\n%s\nwant:\n%s", got, want)
	}
}
