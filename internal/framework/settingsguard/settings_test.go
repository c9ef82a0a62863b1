package settingsguard

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// referenceTarget serves a fresh reference server with the given mutants
// and returns a writing target on it.
func referenceTarget(t *testing.T, mutants ...reference.Mutant) *framework.Fixture {
	t.Helper()
	ref := testkit.Reference(t, mutants...)
	c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken})
	if err != nil {
		t.Fatal(err)
	}
	return framework.New(c, framework.Options{SettingsWrites: true})
}

// settingsBody returns the raw body of GET /api/settings.
func settingsBody(t *testing.T, tg *framework.Fixture) []byte {
	t.Helper()
	ex := tg.ReadAuth(context.Background(), "/api/settings", nil)
	if ex.Err != nil || ex.Status != http.StatusOK {
		t.Fatalf("GET /api/settings: %s", match.Outcome(ex))
	}
	return append([]byte(nil), ex.Body()...)
}

// readOriginal is the settings as a restore takes them (Read).
func readOriginal(t *testing.T, tg *framework.Fixture) map[string]any {
	t.Helper()
	_, original, problem := Read(context.Background(), tg)
	if problem != "" {
		t.Fatal(problem)
	}
	return original
}

// wantRestored fails t unless the settings read as before, byte for byte.
func wantRestored(t *testing.T, tg *framework.Fixture, before []byte) {
	t.Helper()
	if after := settingsBody(t, tg); !bytes.Equal(before, after) {
		t.Fatalf("settings not restored:\nbefore: %s\nafter:  %s", before, after)
	}
}

func put(t *testing.T, tg *framework.Fixture, fields map[string]any) {
	t.Helper()
	if ex := tg.Write(context.Background(), http.MethodPut, "/api/settings", fields); ex.Err != nil {
		t.Fatal(ex.Err)
	}
}

// TestRestoreUndoesBrokenServers changes settings the way the specs do on
// servers that break the spec (a PUT that also resets other fields, an
// invalid value accepted) or that encode what they store, and checks that
// restoreSettings leaves them byte-for-byte as before.
func TestRestoreUndoesBrokenServers(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		mutants []reference.Mutant
		setup   map[string]any // applied before the "original" snapshot
		change  map[string]any
	}{
		{"PUT resets homepage, pageNotFound and uriBlog", []reference.Mutant{reference.SettingsPutResetsHomepage}, nil,
			map[string]any{"slogan": "changed"}},
		{"invalid customFields accepted", []reference.Mutant{reference.CustomFieldsInvalidAccepted}, nil,
			map[string]any{"customFields": "{not json"}},
		{"stored text comes back HTML-encoded", nil, map[string]any{"slogan": `Salt & Pepper <b>"q"</b>`},
			map[string]any{"slogan": "changed"}},
		{"customFields read back as an object", []reference.Mutant{reference.SettingsCustomFieldsObject}, nil,
			map[string]any{"customFields": `{"a":{"type":"string"}}`}},
		{"several fields changed", nil, nil,
			map[string]any{"slogan": "changed", "itemsPerPage": 3, "extremeFriendly": false, "customFields": `{"a":{"type":"string"}}`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tg := referenceTarget(t, c.mutants...)
			if c.setup != nil {
				put(t, tg, c.setup)
			}
			before := settingsBody(t, tg)
			original := readOriginal(t, tg)
			put(t, tg, c.change)
			if bytes.Equal(before, settingsBody(t, tg)) {
				t.Fatal("the change did not change the settings: the test proves nothing")
			}
			if problem := restoreSettings(ctx, tg, original, nil); problem != "" {
				t.Fatalf("restore reported: %s", problem)
			}
			wantRestored(t, tg, before)
		})
	}
}

// TestRestoreReportsWhatItCannotUndo: a field the server will not take back
// is named in the problem, never reported as restored.
func TestRestoreReportsWhatItCannotUndo(t *testing.T) {
	ctx := context.Background()
	tg := referenceTarget(t)
	original := readOriginal(t, tg)
	// A field the server does not have: PUT ignores it, so it can never
	// read back as "before".
	original["conformanceNoSuchField"] = "x"
	problem := restoreSettings(ctx, tg, original, nil)
	if !strings.Contains(problem, "conformanceNoSuchField") {
		t.Fatalf("restoreSettings = %q, want a problem naming conformanceNoSuchField", problem)
	}
}

// TestRestoreLeavesVolatileFieldsAlone: on a server whose settings carry
// fields that change on every read (lastReadAt, readCount), a restore puts
// back what the spec changed and does not report those fields, whether the
// guard knew them as volatile or finds them so after the restore.
func TestRestoreLeavesVolatileFieldsAlone(t *testing.T) {
	ctx := context.Background()
	tg := referenceTarget(t, reference.BenignVolatileSettings)
	_, first, problem := Read(ctx, tg)
	if problem != "" {
		t.Fatal(problem)
	}
	_, original, _ := Read(ctx, tg)
	volatile := changedFields(first, original)
	if !slices.Equal(volatile, []string{"lastReadAt", "readCount"}) {
		t.Fatalf("fields changed between two reads: %v, want lastReadAt and readCount", volatile)
	}
	for _, known := range [][]string{volatile, nil} {
		put(t, tg, map[string]any{"slogan": "changed"})
		if problem := restoreSettings(ctx, tg, original, nil, known...); problem != "" {
			t.Fatalf("restore (volatile fields given: %v) reported: %s", known, problem)
		}
		_, now, _ := Read(ctx, tg)
		if d := Diff(original, now, volatile...); len(d) > 0 {
			t.Fatalf("settings not restored: %v", d)
		}
	}
}

// TestGuardSharedBySidebySidePrepares: the prepares of a group may send
// through one guard at once (auth's refused settings updates); under the
// race detector this fails without the guard's lock, and the restore sees
// every request (each listed, the settings left as they were).
func TestGuardSharedBySidebySidePrepares(t *testing.T) {
	ctx, _ := framework.CollectingCleanups(context.Background())
	tg := referenceTarget(t)
	g, reason := Try(ctx, tg, "refused updates")
	if reason != "" {
		t.Fatal(reason)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			g.Send(ctx, client.Request{Method: http.MethodPut, Path: "/api/settings", Credentials: client.APIToken,
				JSON: map[string]any{"slogan": fmt.Sprintf("refused %d", i)}})
			g.Current(ctx)
		})
	}
	wg.Wait()
	g.restore(ctx)
	if len(g.requests) != 8 || g.changes {
		t.Errorf("guard after 8 refused sends: %d requests noted, changes %v", len(g.requests), g.changes)
	}
	if _, now, problem := Read(ctx, tg); problem != "" || len(Diff(g.Original(), now)) > 0 {
		t.Errorf("settings after the restore: %s %v", problem, Diff(g.Original(), now))
	}
}

// TestFreshSettingsReadsSeeVolatileFields: with the read cache on, the
// second of two settings reads must still go to the target, or fields that
// change by themselves (a read counter) look stable and every comparison
// of the settings fails on them (benign-volatile-settings).
func TestFreshSettingsReadsSeeVolatileFields(t *testing.T) {
	tok, auth := reference.NewToken(), reference.NewToken()
	srv, err := reference.New(reference.Options{Token: tok, AuthToken: auth, Mutants: []reference.Mutant{reference.BenignVolatileSettings}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := client.New(client.Config{BaseURL: ts.URL, Token: tok, AuthToken: auth, ReadCache: true})
	if err != nil {
		t.Fatal(err)
	}
	f := framework.New(c, framework.Options{SettingsWrites: true})
	ctx := context.Background()
	if _, _, problem := Read(ctx, f); problem != "" {
		t.Fatal(problem)
	}
	if got := settleVolatile(ctx, f, []string{"readCount", "slogan"}); !slices.Equal(got, []string{"readCount"}) {
		t.Errorf("settleVolatile with the read cache on found %v volatile, want [readCount]", got)
	}
	if ex, _, _ := Read(ctx, f); !ex.Replayed {
		t.Error("a plain settings read right after another was not replayed: this test proves nothing")
	}
}

// TestRestoreSendsCustomFieldsAsJSON: on a server that reads customFields
// back HTML-encoded, as the host does, the restore sends the site's
// customFields as the JSON text they encode from the first: one PUT and
// one GET, and the settings are as before.
func TestRestoreSendsCustomFieldsAsJSON(t *testing.T) {
	tg := referenceTarget(t)
	before := settingsBody(t, tg)
	original := readOriginal(t, tg)
	if cf, _ := original["customFields"].(string); !strings.Contains(cf, "&quot;") {
		t.Fatalf("the reference reads customFields back as %q, not HTML-encoded: the test proves nothing", cf)
	}
	put(t, tg, map[string]any{"customFields": `{"a":{"type":"string"}}`, "slogan": "changed"})
	sent := restoreSends(t, tg, original, false)
	if want := []string{"GET /api/settings", "PUT /api/settings", "GET /api/settings"}; !slices.Equal(sent, want) {
		t.Errorf("the restore sent %v, want %v (a read, one update, the read that verifies it)", sent, want)
	}
	wantRestored(t, tg, before)
}

// TestContainerRestoreReadsTheRunPagesBeside: the restore of the settings
// container, the run's last writes, verifies with a read that brings the
// listing of every page along, which RunPagesAtEnd then takes without a
// request of its own.
func TestContainerRestoreReadsTheRunPagesBeside(t *testing.T) {
	ctx := context.Background()
	tg := referenceTarget(t)
	original := readOriginal(t, tg)
	put(t, tg, map[string]any{"slogan": "changed"})
	sent := restoreSends(t, tg, original, true)
	slices.Sort(sent[2:]) // the last two went side by side
	if want := []string{"GET /api/settings", "PUT /api/settings", "GET /api/pages", "GET /api/settings"}; !slices.Equal(sent, want) {
		t.Errorf("the restore sent %v, want %v", sent, want)
	}
	seq := tg.Client.Seq()
	if _, _, listed := tg.RunPagesAtEnd(ctx); !listed || tg.Client.Seq() != seq {
		t.Errorf("RunPagesAtEnd sent %d request(s) (listed %v), want none: the restore's read brought the listing", tg.Client.Seq()-seq, listed)
	}
}

// restoreSends restores original on tg (atRunEnd as the settings
// container's guard does), failing t when the restore reports a problem,
// and returns the method and path of each request it sent.
func restoreSends(t *testing.T, tg *framework.Fixture, original map[string]any, atRunEnd bool) []string {
	t.Helper()
	seq := tg.Client.Seq()
	if problem := restore(context.Background(), tg, original, nil, atRunEnd); problem != "" {
		t.Fatalf("restore reported: %s", problem)
	}
	var sent []string
	for _, ex := range tg.Client.Since(seq) {
		sent = append(sent, ex.Method+" "+strings.SplitN(ex.URL, "?", 2)[0][len(tg.Client.BaseURL()):])
	}
	return sent
}
