package framework

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// The tests of writes that got no answer run the reference server behind a
// front (lateFront) that holds chosen writes past the client's request
// timeout and carries them out afterwards, as a front with a busy worker
// queue does.
const (
	lateTimeout = 200 * time.Millisecond // the client's --request-timeout
	latePause   = 500 * time.Millisecond // Options.LatePause
)

// lateFront holds the writes late matches for hold (longer than
// lateTimeout: the client gives up), then hands them to the server; with
// again set, it carries out the last held write again every 50ms until the
// test ends (a queue that keeps a copy of it).
type lateFront struct {
	late   func(r *http.Request, body []byte) bool
	hold   time.Duration
	again  bool
	deny   func(r *http.Request) bool // answered 500, never carried out
	next   http.Handler
	mu     sync.Mutex
	landed []string // method and path of each held write once carried out
}

func (f *lateFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if f.deny != nil && f.deny(r) {
		http.Error(w, "refused by the test's front", http.StatusInternalServerError)
		return
	}
	if f.late == nil || !f.late(r, body) {
		f.next.ServeHTTP(w, r)
		return
	}
	time.Sleep(f.hold)
	f.land(r, body)
	if f.again {
		go func() {
			for range 200 { // 10s at most: every test ends sooner
				time.Sleep(50 * time.Millisecond)
				f.land(r, body)
			}
		}()
	}
}

// land carries out the held write r, whose client stopped waiting.
func (f *lateFront) land(r *http.Request, body []byte) {
	r2 := r.Clone(context.WithoutCancel(r.Context()))
	r2.Body = io.NopCloser(bytes.NewReader(body))
	f.next.ServeHTTP(httptest.NewRecorder(), r2)
	f.mu.Lock()
	f.landed = append(f.landed, r.Method+" "+r.URL.Path)
	f.mu.Unlock()
}

func (f *lateFront) landedCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.landed)
}

// lateTarget serves the reference server behind f and returns a writing
// fixture whose client waits lateTimeout, and the server.
func lateTarget(t *testing.T, f *lateFront) (*Fixture, testkit.Server) {
	t.Helper()
	ref := testkit.ReferenceWith(t, reference.Options{}, func(h http.Handler) http.Handler {
		f.next = h
		return f
	})
	c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken, RequestTimeout: lateTimeout,
		ReadCache: true}) // as a run has it: a check that replayed a read would see no late write
	if err != nil {
		t.Fatal(err)
	}
	return New(c, Options{SettingsWrites: true, LatePause: latePause}), ref
}

// settingsPut matches a PUT /api/settings whose body holds s.
func settingsPut(s string) func(*http.Request, []byte) bool {
	return func(r *http.Request, body []byte) bool {
		return r.Method == http.MethodPut && r.URL.Path == "/api/settings" && bytes.Contains(body, []byte(s))
	}
}

// guardedLatePut guards the settings and sends a change the front holds:
// the exchange must get no answer.
func guardedLatePut(t *testing.T, tg *Fixture) (*SettingsGuard, context.Context) {
	t.Helper()
	ctx := context.WithValue(context.Background(), cleanupsKey{}, &cleanups{})
	g, reason := tg.TryGuardSettings(ctx, "late updates")
	if reason != "" {
		t.Fatal(reason)
	}
	ex := g.Put(ctx, map[string]any{"slogan": "held by the front", "title": "held title"})
	if !fateUnknown(ex) {
		t.Fatalf("the held PUT was answered: %s", match.Outcome(ex))
	}
	return g, ctx
}

// noTokens fails the test when a token's value is in any of the run's
// notes.
func noTokens(t *testing.T, tg *Fixture, ref testkit.Server) {
	t.Helper()
	all := strings.Join(append(append(tg.Ledger.Settings(), tg.Ledger.Problems()...), tg.Observations()...), "\n")
	t.Logf("the run's notes:\n%s", all)
	for _, tok := range []string{ref.Token, ref.AuthToken} {
		if strings.Contains(all, tok) {
			t.Errorf("a token's value is in the run's notes:\n%s", all)
		}
	}
}

// TestLateSettingsUpdateRestored: a settings update the front carries out
// after the client gave up, and after the guard's first restore, is found
// by the check after the pause and undone; the ledger says verified only
// because that last check read the settings as before. Later settings
// changes are not sent.
func TestLateSettingsUpdateRestored(t *testing.T) {
	f := &lateFront{late: settingsPut("held by the front"), hold: 3 * lateTimeout}
	tg, ref := lateTarget(t, f)
	before := settingsBody(t, tg)
	g, ctx := guardedLatePut(t, tg)

	if tg.SettingsWritesStopped() == "" {
		t.Error("a settings update without an answer did not stop settings writes")
	}
	if ex := g.Put(ctx, map[string]any{"slogan": "second"}); ex.Sent || ex.Err == nil || !strings.Contains(ex.Err.Error(), "got no answer") {
		t.Errorf("a settings change after the update without an answer: sent %v, %v", ex.Sent, ex.Err)
	}
	if _, reason := tg.TryGuardSettings(ctx, "a later spec"); !strings.Contains(reason, "settings writes were stopped") {
		t.Errorf("a later guard: reason %q, want settings writes stopped", reason)
	}

	g.restore(ctx)
	if f.landedCount() != 1 {
		t.Fatalf("the held update landed %d times, want once (the test proves nothing)", f.landedCount())
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
	tg, ref := lateTarget(t, &lateFront{late: settingsPut("held by the front"), hold: 3 * lateTimeout, again: true})
	_, original, problem := tg.ReadSettings(context.Background())
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
	tg.settleLateWrites(ctx)
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
// checks is undone by the run's last check (settleLateWrites), which says
// so in the ledger.
func TestLateSettingsFinalCheck(t *testing.T) {
	f := &lateFront{late: settingsPut("held by the front"), hold: 3 * lateTimeout}
	tg, ref := lateTarget(t, f)
	before := settingsBody(t, tg)
	g, ctx := guardedLatePut(t, tg)
	time.Sleep(3 * lateTimeout) // landed: the guard finds nothing left to wait for
	g.restore(ctx)
	put(t, tg, map[string]any{"title": "landed after the guard's check"}) // (as if held longer)
	tg.settleLateWrites(ctx)
	if after := settingsBody(t, tg); !bytes.Equal(before, after) {
		t.Fatalf("settings not restored at the end of the run:\nbefore: %s\nafter:  %s", before, after)
	}
	notes := tg.Ledger.Settings()
	if len(notes) != 2 || !strings.HasPrefix(notes[1], "a settings update that got no answer landed late; every field restored and verified at the end of the run") {
		t.Errorf("settings notes: %q", notes)
	}
	noTokens(t, tg, ref)
}

// pagesPost matches a create of the run's pages.
func pagesPost(r *http.Request, body []byte) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/api/pages" && bytes.Contains(body, []byte("held-page"))
}

// TestLateCreateFound: a create the front carries out after the client
// gave up, and after the run's first sweep, is found by the sweep after
// the pause and deleted; when its delete fails, the page is named in
// what the run left.
func TestLateCreateFound(t *testing.T) {
	for _, deny := range []bool{false, true} {
		f := &lateFront{late: pagesPost, hold: 3 * lateTimeout}
		if deny {
			f.deny = func(r *http.Request) bool {
				return r.Method == http.MethodDelete && strings.Contains(r.URL.Path, "held-page")
			}
		}
		tg, ref := lateTarget(t, f)
		ctx := context.WithValue(context.Background(), cleanupsKey{}, &cleanups{})
		ex, key := tg.CreatePage(ctx, map[string]any{"slug": tg.Marker("held-page")})
		if !fateUnknown(ex) || key != "" {
			t.Fatalf("the held create was answered: %s", match.Outcome(ex))
		}
		tg.sweep(ctx) // the AfterSuite's first sweep: before the page landed
		if f.landedCount() != 0 {
			t.Fatal("the create landed before the first sweep: the test proves nothing")
		}
		tg.settleLateWrites(ctx)
		if f.landedCount() != 1 {
			t.Fatal("the held create never landed")
		}
		left := tg.strays(ctx)
		obs := strings.Join(tg.Observations(), "\n")
		if !strings.Contains(obs, "found 1 page(s) of this run it had not heard of: "+tg.Marker("held-page")) {
			t.Errorf("observations: %s", obs)
		}
		switch {
		case !deny && len(left) > 0:
			t.Errorf("the late page is still there: %v", left)
		case deny && (len(left) != 1 || strings.Join(tg.Ledger.Pages(), ",") != left[0]):
			t.Errorf("the page whose delete failed: listed %v, ledger %v (want it named)", left, tg.Ledger.Pages())
		}
		noTokens(t, tg, ref)
	}
}

// TestNoLateWriteNoWait: a run whose writes were all answered sends
// nothing more at its end, and waits for nothing.
func TestNoLateWriteNoWait(t *testing.T) {
	tg, _ := lateTarget(t, &lateFront{})
	put(t, tg, map[string]any{"slogan": "answered"})
	seq, start := tg.Client.Seq(), time.Now()
	tg.settleLateWrites(context.Background())
	if tg.Client.Seq() != seq || time.Since(start) > latePause/2 {
		t.Errorf("settleLateWrites sent %d request(s) and took %s with no write left unanswered", tg.Client.Seq()-seq, time.Since(start))
	}
}

// TestSettingsCurlHeaderPlacement: with the tokens in headers, the request
// that puts the settings back carries them there, as placeholders.
func TestSettingsCurlHeaderPlacement(t *testing.T) {
	ref := testkit.Reference(t)
	c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken, CredentialsPlacement: client.CredentialsInHeader})
	if err != nil {
		t.Fatal(err)
	}
	got := New(c, Options{}).settingsCurl(map[string]any{"slogan": `A "b" $x`})
	want := `curl -sS -i -X PUT "` + ref.URL + `/api/settings" -H "Authorization: Bearer ${CONFORMANCE_TOKEN}" ` +
		`-H "X-Auth-Token: ${CONFORMANCE_AUTH_TOKEN}" -H "Content-Type: application/json" --data-raw "{\"slogan\":\"A \\\"b\\\" \$x\"}"`
	if got != want {
		t.Errorf("curl:\n%s\nwant:\n%s", got, want)
	}
}
