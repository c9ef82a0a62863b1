package framework

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// The writes without an answer: the reference server behind
// testkit.LateFront.
const (
	lateTimeout = 200 * time.Millisecond // the client's --request-timeout
	latePause   = 500 * time.Millisecond // Options.LatePause
)

// lateTarget serves the reference server behind f and returns a writing
// fixture whose client waits lateTimeout, and the server.
func lateTarget(t *testing.T, f *testkit.LateFront) (*Fixture, testkit.Server) {
	t.Helper()
	ref := testkit.LateServer(t, f)
	c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken, RequestTimeout: lateTimeout,
		ReadCache: true}) // as a run has it: a check that replayed a read would see no late write
	if err != nil {
		t.Fatal(err)
	}
	return New(c, Options{SettingsWrites: true, LatePause: latePause}), ref
}

// noTokens fails the test when a token's value is in any of the run's
// notes.
func noTokens(t *testing.T, tg *Fixture, ref testkit.Server) {
	t.Helper()
	testkit.NoTokens(t, ref, append(append(tg.Ledger.Settings(), tg.Ledger.Problems()...), tg.Observations()...)...)
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
		f := &testkit.LateFront{Late: pagesPost, Hold: 3 * lateTimeout}
		if deny {
			f.Deny = func(r *http.Request) bool {
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
		if f.Landed() != 0 {
			t.Fatal("the create landed before the first sweep: the test proves nothing")
		}
		tg.SettleLateWrites(ctx)
		if f.Landed() != 1 {
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
	tg, _ := lateTarget(t, &testkit.LateFront{})
	if ex := tg.Write(context.Background(), http.MethodPut, "/api/settings", map[string]any{"slogan": "answered"}); ex.Err != nil {
		t.Fatal(ex.Err)
	}
	seq, start := tg.Client.Seq(), time.Now()
	tg.SettleLateWrites(context.Background())
	if tg.Client.Seq() != seq || time.Since(start) > latePause/2 {
		t.Errorf("SettleLateWrites sent %d request(s) and took %s with no write left unanswered", tg.Client.Seq()-seq, time.Since(start))
	}
}
