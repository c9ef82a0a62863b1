package framework_test

import (
	"context"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// The cases of framework.After, each a small suite run in a child process
// of its own (RunSpecs runs once per process), as TestPrepared's.
var afterCases = []struct {
	name string
	run  func(t *testing.T)
}{
	{"waits for every earlier prepare of the rule", afterWaits},
	{"gives up its place while waiting", afterFreesPlace},
	{"does not wait for a rule the run does not prepare", afterSkipsUnprepared},
	{"names a rule registered later", afterLaterRule},
}

func envAfter(name string) string {
	return envPrepared("after " + name)
}

func TestAfter(t *testing.T) {
	for _, c := range afterCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			frameworktest.RunChild(t, "TestAfterChild", envAfter(c.name), "the run where After "+c.name)
		})
	}
}

func TestAfterChild(t *testing.T) {
	for _, c := range afterCases {
		if os.Getenv(envAfter(c.name)) == "1" {
			c.run(t)
			return
		}
	}
	t.Skip("run by TestAfter in a child process")
}

// expectPassed fails t for each case of specs that did not pass.
func expectPassed(t *testing.T, specs map[verdict.Case]report.SpecResult, cases ...string) {
	t.Helper()
	for _, c := range cases {
		if s := specs[verdict.Case(c)]; s.Status != report.Passed {
			t.Errorf("%s: %s (%s), want passed", c, s.Status, s.Message)
		}
	}
}

// readAs is a prepare that notes when it starts and ends, reading path
// (answered after ms milliseconds) between the two.
func readAs(w *world, name, path, ms string) func(ctx context.Context) string {
	return func(ctx context.Context) string {
		w.event("start " + name)
		defer w.event("end " + name)
		return w.target.Read(ctx, path, url.Values{"ms": {ms}}).Get("data").String()
	}
}

// afterWaits: at --concurrency 8, a prepare After a rule starts only once
// both prepares of that rule have returned (the slower last), while a
// prepare of another rule goes out beside them.
func afterWaits(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8})
	judge := func(_ ginkgo.SpecContext, v string) { gomega.Expect(v).NotTo(gomega.BeEmpty()) }
	ginkgo.Describe("after", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		framework.Prepare(g, "PAGE-GET-OK", readAs(w, "slow target", "/t/slow", "200"), judge, framework.Case("slow target"))
		framework.Prepare(g, "PAGE-GET-OK", readAs(w, "quick target", "/t/quick", "20"), judge, framework.Case("quick target"))
		framework.Prepare(g, "PAGE-LIST-SHAPE", readAs(w, "waiter", "/t/waiter", "0"), judge,
			framework.Case("waiter"), framework.After("PAGE-GET-OK"))
		framework.Prepare(g, "PAGE-LIST-ALL", readAs(w, "free", "/t/free", "50"), judge, framework.Case("free"))
	})
	specs := w.run(t, "")
	expectPassed(t, specs, "slow target", "quick target", "waiter", "free")
	events := w.eventLog()
	at := func(e string) int { return slices.Index(events, e) }
	if at("start waiter") < at("end slow target") || at("start waiter") < at("end quick target") {
		t.Errorf("prepares ran %v: the waiter started before both prepares of the rule it comes after had returned", events)
	}
	if at("start free") > at("end slow target") {
		t.Errorf("prepares ran %v: a prepare without After waited; this proves nothing", events)
	}
}

// afterFreesPlace: at --concurrency 2, the prepare the waiter comes after
// can only return once a third prepare has started, and the waiter holds
// the second place. Were it to keep its place while waiting, the third
// would never start.
func afterFreesPlace(t *testing.T) {
	w := newWorld(t, setup{concurrency: 2})
	third := make(chan struct{})
	ginkgo.Describe("after", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		framework.Prepare(g, "PAGE-GET-OK", func(context.Context) string {
			select {
			case <-third:
				return "made"
			case <-time.After(5 * time.Second):
				return "the third prepare never started"
			}
		}, func(_ ginkgo.SpecContext, v string) { gomega.Expect(v).To(gomega.Equal("made")) }, framework.Case("first"))
		framework.Prepare(g, "PAGE-LIST-SHAPE", func(context.Context) string { w.event("waiter"); return "ran" },
			func(_ ginkgo.SpecContext, v string) { gomega.Expect(v).To(gomega.Equal("ran")) },
			framework.Case("waiter"), framework.After("PAGE-GET-OK"))
		framework.Prepare(g, "PAGE-LIST-ALL", func(context.Context) string { w.event("third"); close(third); return "ran" },
			func(_ ginkgo.SpecContext, v string) { gomega.Expect(v).To(gomega.Equal("ran")) }, framework.Case("third"))
	})
	specs := w.run(t, "")
	expectPassed(t, specs, "first", "waiter", "third")
	if events := w.eventLog(); !slices.Equal(events, []string{"third", "waiter"}) {
		t.Errorf("prepares ran %v, want the third, then the waiter", events)
	}
}

// afterSkipsUnprepared: a prepare After rules whose only prepares the run
// does not make (one gated by a read-only run, one left out by the label
// filter) runs at once, instead of waiting for prepares that never come.
func afterSkipsUnprepared(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8, readOnly: true})
	ginkgo.Describe("after", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		framework.Prepare(g, "PAGE-CREATE-201", func(context.Context) string { return "gated" },
			func(ginkgo.SpecContext, string) {}, framework.Case("gated"))
		framework.Prepare(g, "PAGE-GET-OK", func(context.Context) string { return "filtered" },
			func(ginkgo.SpecContext, string) {}, framework.Case("filtered"))
		framework.Prepare(g, "PAGE-LIST-SHAPE", func(context.Context) string { return "ran" },
			func(_ ginkgo.SpecContext, v string) { gomega.Expect(v).To(gomega.Equal("ran")) },
			framework.Case("waiter"), framework.After("PAGE-CREATE-201", "PAGE-GET-OK"),
			ginkgo.SpecTimeout(3*time.Second)) // it waited for a prepare that never comes
	})
	specs := w.run(t, "!rule:PAGE-GET-OK")
	expectPassed(t, specs, "waiter")
	if s := specs["gated"]; s.Status != report.NotChecked {
		t.Errorf("gated: %s, want not checked: this proves nothing", s.Status)
	}
}

// afterLaterRule: After may name only rules whose prepares the group
// registered before: one registered later is a bug of the suite, reported
// before any spec runs.
func afterLaterRule(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8})
	ginkgo.Describe("after", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		framework.Prepare(g, "PAGE-LIST-SHAPE", func(context.Context) string { return "" },
			func(ginkgo.SpecContext, string) {}, framework.Case("waiter"), framework.After("PAGE-GET-OK"))
		framework.Prepare(g, "PAGE-GET-OK", func(context.Context) string { return "" },
			func(ginkgo.SpecContext, string) {}, framework.Case("later"))
	})
	w.run(t, "")
	bugs := strings.Join(w.target.Bugs(), "\n")
	if !strings.Contains(bugs, "(waiter)\" waits for the prepare of PAGE-GET-OK (framework.After)") {
		t.Errorf("the suite's bugs: %q, want the waiter's After named", bugs)
	}
}
