package framework_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// TestGuardCreates runs the group's guard of refused creates
// (Group.GuardCreates) in a child process (RunSpecs runs once per
// process): prepares side by side send creates the target should refuse
// (here: creates it carries out, as a broken server would), some read or
// settled, some not.
func TestGuardCreates(t *testing.T) {
	frameworktest.RunChild(t, "TestGuardCreatesChild", envPrepared("guard creates"), "the run of the group's create guard")
}

func TestGuardCreatesChild(t *testing.T) {
	if os.Getenv(envPrepared("guard creates")) != "1" {
		t.Skip("run by TestGuardCreates in a child process")
	}
	w := newWorld(t, setup{concurrency: 8})
	slug := func(name string) string { return w.target.Marker("guarded-" + name) }
	// create makes the page at slug, as a broken server would on a create
	// it should have refused.
	create := func(ctx context.Context, slug string) {
		ex := w.target.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: pagelist.PagesPath,
			Credentials: client.BothTokens, JSON: w.target.PageFields(ctx, map[string]any{"slug": slug})})
		if ex.Get("data.key").String() != slug {
			w.event("could not create " + slug)
		}
	}
	var same bool
	judged := func(ginkgo.SpecContext, string) { gomega.Expect(true).To(gomega.BeTrue()) }
	ginkgo.Describe("guard", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		guard := g.GuardCreates()
		same = g.GuardCreates() == guard
		framework.Prepare(g, "PAGE-CREATE-201", func(ctx context.Context) string {
			guard.Watch(ctx, slug("unread")) // made, never read: the group's cleanup finds it
			create(ctx, slug("unread"))
			guard.Watch(ctx, slug("absent")) // not made, never read
			return ""
		}, judged, framework.Case("unread"))
		framework.Prepare(g, "PAGE-CREATE-201", func(ctx context.Context) string {
			guard.Watch(ctx, slug("read"))
			create(ctx, slug("read"))
			return guard.Read(ctx, slug("read")).Get("data.key").String() // found: adopted
		}, judged, framework.Case("read"))
		framework.Prepare(g, "PAGE-CREATE-201", func(ctx context.Context) string {
			guard.Watch(ctx, slug("read-404"))
			guard.Read(ctx, slug("read-404")) // 404: settled
			guard.Watch(ctx, slug("settled"))
			guard.Settle(ctx, slug("settled"))
			return ""
		}, judged, framework.Case("settled"))
	})
	before := takeSnapshot(t, w)
	specs := w.run(t, "")
	if !same {
		t.Error("GuardCreates gave a group two guards")
	}
	for _, c := range []verdict.Case{"unread", "read", "settled"} {
		if s := specs[c]; s.Status != report.Passed {
			t.Errorf("%s: %s (%s)", c, s.Status, s.Message)
		}
	}
	if events := w.eventLog(); len(events) > 0 {
		t.Fatalf("%v: this proves nothing", events)
	}
	// Its last spec: it judged the last of the group's prepares.
	last := "(settled)"
	for name, want := range map[string]struct {
		reads   int
		deleted string // the scope of the delete, "" for none
	}{
		"unread":   {reads: 1, deleted: last},     // read by the group's cleanup
		"absent":   {reads: 1},                    // read by the group's cleanup, found nothing
		"read":     {reads: 1, deleted: "(read)"}, // read once, adopted: deleted with its spec
		"read-404": {reads: 1},                    // read once, settled
		"settled":  {reads: 0},                    // settled without a read
	} {
		s := slug(name)
		reads := 0
		for _, ex := range w.target.Client.Since(0) {
			if u, err := url.Parse(ex.URL); err == nil && ex.Method == http.MethodGet && u.Path == pagelist.PagePath(s) {
				reads++
			}
		}
		dels := w.deletes(s)
		switch {
		case reads != want.reads:
			t.Errorf("%s: slug read %d times, want %d", name, reads, want.reads)
		case want.deleted == "" && len(dels) > 0:
			t.Errorf("%s: deleted by %s, want no delete", name, scopes(dels))
		case want.deleted != "" && (len(dels) != 1 || !strings.Contains(dels[0].Scope, want.deleted)):
			t.Errorf("%s: deleted by %s, want once, in the cleanup of spec %s", name, scopes(dels), want.deleted)
		}
	}
	checkNoTrace(t, w, before)
}
