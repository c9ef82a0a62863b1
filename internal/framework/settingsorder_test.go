package framework_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/settingsguard"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// envSettingsOrderChild names the case TestSettingsGuardInOrderChild runs
// (in the child process TestSettingsGuardInOrder starts for it: RunSpecs
// runs once per process).
const envSettingsOrderChild = "CONFORMANCE_FRAMEWORK_SETTINGS_ORDER_CHILD"

// TestSettingsGuardInOrder: the specs of an Ordered container share one
// guard, on a server whose every PUT also resets fields it was not sent.
// The settings must read byte-for-byte as before, restored by one PUT (not
// one per spec) and verified by one GET:
//   - "in order": one spec passes, the next fails, the last passes; the
//     restore runs when the container ends, before a later container's
//     spec reads the settings;
//   - "fail-fast" and "time limit": the run stops at the second spec's
//     failure (--fail-fast) or while the third spec's change is on the
//     target (the run's time limit), so Ginkgo skips the container's
//     cleanup, and the final sweep restores the settings.
func TestSettingsGuardInOrder(t *testing.T) {
	for _, c := range []string{"in order", "fail-fast", "time limit"} {
		t.Run(c, func(t *testing.T) {
			t.Parallel()
			frameworktest.RunChild(t, "TestSettingsGuardInOrderChild", envSettingsOrderChild+"_"+strings.ReplaceAll(c, " ", "_"),
				"the settings-guard run ("+c+")")
		})
	}
}

func TestSettingsGuardInOrderChild(t *testing.T) {
	var mode string
	for _, c := range []string{"in order", "fail-fast", "time limit"} {
		if os.Getenv(envSettingsOrderChild+"_"+strings.ReplaceAll(c, " ", "_")) == "1" {
			mode = c
		}
	}
	if mode == "" {
		t.Skip("run by TestSettingsGuardInOrder in a child process")
	}
	var mu sync.Mutex
	var requests []string
	ref := testkit.ReferenceWith(t, reference.Options{Mutants: []reference.Mutant{reference.SettingsPutResetsHomepage}},
		func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/settings" {
					mu.Lock()
					requests = append(requests, r.Method)
					mu.Unlock()
				}
				h.ServeHTTP(w, r)
			})
		})
	c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// homepage set, so that a PUT resetting it changes something.
	if ex := c.Do(ctx, client.Request{Method: http.MethodPut, Path: "/api/settings",
		JSON: map[string]any{"homepage": "alpha-post"}, Credentials: client.BothTokens}); ex.Status != http.StatusOK {
		t.Fatalf("setting homepage: %s", match.Outcome(ex))
	}
	before := rawSettings(t, c)
	requests = nil

	target := framework.New(c, framework.Options{SettingsWrites: true})
	gomega.RegisterFailHandler(ginkgo.Fail)
	framework.Install(target)
	ran := map[string]bool{}
	ginkgo.Describe("settings changed in order", ginkgo.Ordered, ginkgo.ContinueOnFailure, ginkgo.SpecPriority(2), func() {
		g := settingsguard.InOrder(target, "the test's specs")
		change := func(ctx ginkgo.SpecContext, name string, fields map[string]any) {
			ran[name] = true
			g.Begin(ctx)
			gomega.Expect(g.Put(ctx, fields)).To(match.HaveHTTPStatus(http.StatusOK))
		}
		target.It("SETTINGS-EDIT-OK", func(ctx ginkgo.SpecContext) {
			change(ctx, "passes", map[string]any{"slogan": "changed by the first spec"})
		}, framework.Case("passes"))
		target.It("SETTINGS-EDIT-OK", func(ctx ginkgo.SpecContext) {
			change(ctx, "fails", map[string]any{"itemsPerPage": 3})
			gomega.Expect(true).To(gomega.BeFalse(), "this spec fails after its change")
		}, framework.Case("fails"))
		target.It("SETTINGS-EDIT-OK", func(ctx ginkgo.SpecContext) {
			change(ctx, "third", map[string]any{"title": "changed by the third spec"})
			if mode == "time limit" {
				<-ctx.Done() // the suite's time limit ends it here
			}
		}, framework.Case("third"))
		target.It("SETTINGS-EDIT-OK", func(ctx ginkgo.SpecContext) {
			change(ctx, "last", map[string]any{"description": "changed by the last spec"})
		}, framework.Case("last"))
	})
	var seenAfter []byte
	ginkgo.Describe("a later container", ginkgo.SpecPriority(1), func() {
		target.It("SETTINGS-GET-SHAPE", func(ginkgo.SpecContext) {
			seenAfter = rawSettings(t, c)
			gomega.Expect(seenAfter).NotTo(gomega.BeEmpty())
		})
	})
	sc, rc := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	switch mode {
	case "fail-fast":
		sc.FailFast = true
	case "time limit":
		sc.Timeout = 3 * time.Second
	}
	rc.Succinct, rc.NoColor = true, true
	ginkgo.RunSpecs(ignoreFailures{}, "settings guard in order ("+mode+")", sc, rc)
	mu.Lock()
	got := slices.Clone(requests)
	mu.Unlock()

	wantRan := map[string]bool{"passes": true, "fails": true, "third": mode != "fail-fast", "last": mode == "in order"}
	for name, want := range wantRan {
		if ran[name] != want {
			t.Fatalf("specs run: %v; want %v", ran, wantRan)
		}
	}
	after := rawSettings(t, c)
	if !bytes.Equal(before, after) {
		t.Errorf("settings not restored:\nbefore: %s\nafter:  %s", before, after)
	}
	if mode == "in order" && !bytes.Equal(before, seenAfter) {
		t.Errorf("settings not restored when the container ended: a later container read\n%s\nbefore: %s", seenAfter, before)
	}
	// Two reads before the first change, the changes, then one read of the
	// settings as the specs left them, one restoring PUT, one verifying
	// GET: the changes are not undone spec by spec.
	changes := 2
	if wantRan["third"] {
		changes++
	}
	if wantRan["last"] {
		changes++
	}
	want := slices.Concat([]string{"GET", "GET"}, slices.Repeat([]string{"PUT"}, changes), []string{"GET", "PUT", "GET"})
	if mode == "in order" {
		want = append(want, "GET") // the later container's read
	}
	if !slices.Equal(got, want) {
		t.Errorf("requests to /api/settings: %v, want %v", got, want)
	}
	if p := target.Ledger.Problems(); len(p) > 0 {
		t.Errorf("teardown problems: %q", p)
	}
	if s := target.Ledger.Settings(); len(s) != 1 || !strings.Contains(s[0], "every field restored and verified") ||
		!strings.Contains(s[0], "PUT itemsPerPage") {
		t.Errorf("run summary of the settings: %q, want one line listing the changes, restored and verified", s)
	}
}

// rawSettings is the body of GET /api/settings, read past the read cache.
func rawSettings(t *testing.T, c *client.Client) []byte {
	t.Helper()
	ex := c.Do(context.Background(), client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.BothTokens, Fresh: true})
	if ex.Err != nil || ex.Status != http.StatusOK {
		t.Fatalf("GET /api/settings: %s", match.Outcome(ex))
	}
	return append([]byte(nil), ex.Body()...)
}
