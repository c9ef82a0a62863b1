package framework_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// Each case runs a small suite of prepared specs (framework.Prepare) in a
// child process of its own (RunSpecs runs once per process) and judges
// what the run did.
var preparedCases = []struct {
	name string
	run  func(t *testing.T)
}{
	{"order at concurrency 8", func(t *testing.T) { preparedOrder(t, 8) }},
	{"order at concurrency 1", func(t *testing.T) { preparedOrder(t, 1) }},
	{"shared read at concurrency 8", func(t *testing.T) { preparedSharedRead(t, 8) }},
	{"shared read at concurrency 1", func(t *testing.T) { preparedSharedRead(t, 1) }},
	{"selection and gates", preparedSelection},
	{"cleanups", preparedCleanups},
	{"share", preparedShare},
	{"share in run order", preparedShareRunOrder},
	{"interrupted", preparedInterrupted},
	{"nil values", preparedNilValues},
	{"waiting for a share frees its place", preparedShareWaitFreesPlace},
	{"share panics", preparedSharePanics},
}

// envPrepared, followed by a case's name, makes TestPreparedChild run that
// case.
func envPrepared(name string) string {
	return "CONFORMANCE_FRAMEWORK_PREPARED_" + strings.ToUpper(regexp.MustCompile(`\W+`).ReplaceAllString(name, "_"))
}

func TestPrepared(t *testing.T) {
	for _, c := range preparedCases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "interrupted" && runtime.GOOS == "windows" {
				t.Skip("no SIGINT to send")
			}
			t.Parallel()
			frameworktest.RunChild(t, "TestPreparedChild", envPrepared(c.name), "the run "+c.name)
		})
	}
}

func TestPreparedChild(t *testing.T) {
	for _, c := range preparedCases {
		if os.Getenv(envPrepared(c.name)) == "1" {
			c.run(t)
			return
		}
	}
	t.Skip("run by TestPrepared in a child process")
}

// preparedOrder: four prepares whose answers come in the reverse of the
// order they were registered in. Their exchanges are numbered and scoped
// as if each spec had made its requests itself, in registration order; at
// concurrency 1 they also run one after another, in that order.
func preparedOrder(t *testing.T, concurrency int) {
	w := newWorld(t, setup{concurrency: concurrency})
	var want []string // the paths of the requests, in the order registered
	for i := range 4 {
		want = append(want, fmt.Sprintf("/t/%d-a", i), fmt.Sprintf("/t/%d-b", i))
	}
	ginkgo.Describe("order", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		for i := range 4 {
			wait := url.Values{"ms": {strconv.Itoa((3 - i) * 40)}}
			framework.Prepare(g, "PAGE-LIST-SHAPE", func(ctx context.Context) []*client.Exchange {
				w.event(fmt.Sprintf("start %d", i))
				defer w.event(fmt.Sprintf("end %d", i))
				return []*client.Exchange{w.target.Read(ctx, want[2*i], wait), w.target.Read(ctx, want[2*i+1], wait)}
			}, func(_ ginkgo.SpecContext, exs []*client.Exchange) {
				for _, ex := range exs {
					gomega.Expect(ex.Seq).To(gomega.BeNumerically(">", 0), "numbered once its spec judges it")
					gomega.Expect(ex).To(match.HaveHTTPStatus(http.StatusOK))
				}
			}, framework.Case(fmt.Sprintf("order %d", i)))
		}
	})
	specs := w.run(t, "")
	for i := range 4 {
		if s := specs[verdict.Case(fmt.Sprintf("order %d", i))]; s.Status != report.Passed {
			t.Errorf("order %d: %s: %s", i, s.Status, s.Message)
		}
	}
	var recorded []string
	last := 0
	for _, ex := range w.target.Client.Since(0) {
		u, _ := url.Parse(ex.URL)
		if !strings.HasPrefix(u.Path, "/t/") {
			continue
		}
		recorded = append(recorded, u.Path)
		i := len(recorded) - 1
		if ex.Seq <= last || !strings.Contains(ex.Scope, fmt.Sprintf("(order %d)", i/2)) {
			t.Errorf("%s is #%d (after #%d) in scope %q, want a later number in the scope of spec %d", u.Path, ex.Seq, last, ex.Scope, i/2)
		}
		last = ex.Seq
	}
	if !slices.Equal(recorded, want) {
		t.Errorf("recorded in the order %v, want the order registered %v", recorded, want)
	}
	answered, peak := w.server.answers(), w.server.maxInFlight()
	if concurrency == 1 {
		events := w.eventLog()
		wantEvents := []string{"start 0", "end 0", "start 1", "end 1", "start 2", "end 2", "start 3", "end 3"}
		if !slices.Equal(answered, want) || peak != 1 || !slices.Equal(events, wantEvents) {
			t.Errorf("at concurrency 1: answered %v, peak in flight %d, prepares %v; want one by one in the order registered",
				answered, peak, events)
		}
	} else if slices.Equal(answered, want) || peak < 2 {
		t.Errorf("at concurrency %d: answered %v, peak in flight %d: the prepares did not run side by side, this proves nothing",
			concurrency, answered, peak)
	}
}

// preparedSharedRead: two prepares read the same path, the first only
// after a slow request. Side by side the second sends the read and the
// first replays it; one after another the first sends it. The record, as
// the specs judge it and as reports show it, is the same both ways: the
// spec judged first has the request, the other its replay.
func preparedSharedRead(t *testing.T, concurrency int) {
	w := newWorld(t, setup{concurrency: concurrency})
	read := func(ctx context.Context, path string, ms int) *client.Exchange {
		return w.target.Read(ctx, path, url.Values{"ms": {strconv.Itoa(ms)}})
	}
	judge := func(_ ginkgo.SpecContext, exs []*client.Exchange) {
		for _, ex := range exs {
			u, _ := url.Parse(ex.URL)
			w.event(fmt.Sprintf("%s #%d replayed %v", u.Path, ex.Seq, ex.Replayed))
			gomega.Expect(ex).To(match.HaveHTTPStatus(http.StatusOK))
		}
	}
	ginkgo.Describe("shared read", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		framework.Prepare(g, "PAGE-LIST-SHAPE", func(ctx context.Context) []*client.Exchange {
			return []*client.Exchange{read(ctx, "/t/slow", 300), read(ctx, "/t/shared", 20)}
		}, judge, framework.Case("first"))
		framework.Prepare(g, "PAGE-LIST-SHAPE", func(ctx context.Context) []*client.Exchange {
			return []*client.Exchange{read(ctx, "/t/shared", 20)}
		}, judge, framework.Case("second"))
	})
	specs := w.run(t, "")
	for _, c := range []verdict.Case{"first", "second"} {
		if s := specs[c]; s.Status != report.Passed {
			t.Errorf("%s: %s (%s)", c, s.Status, s.Message)
		}
	}
	want := []string{"/t/slow #1 replayed false", "/t/shared #2 replayed false", "/t/shared #2 replayed true"}
	if got := w.eventLog(); !slices.Equal(got, want) {
		t.Errorf("at concurrency %d the specs judged %v, want %v", concurrency, got, want)
	}
	answered := w.server.answers()
	sentFirst := []string{"/t/slow", "/t/shared"}
	if concurrency > 1 {
		sentFirst = []string{"/t/shared", "/t/slow"} // the second spec's read went out first
	}
	if !slices.Equal(answered, sentFirst) {
		t.Errorf("at concurrency %d the server answered %v, want %v: this proves nothing", concurrency, answered, sentFirst)
	}
}

// preparedSelection: a group prepares only the specs the run selected
// and that are not gated; a spec the selection did not foresee but that
// runs all the same is prepared alone, in its own spec.
func preparedSelection(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8, readOnly: true})
	ginkgo.Describe("selection", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		for _, c := range []struct {
			name, rule string
			args       []any
		}{
			{"selected", "PAGE-LIST-SHAPE", nil},
			{"marked writes", "PAGE-LIST-SHAPE", []any{framework.Writes}},
			{"write rule", "PAGE-CREATE-201", nil},
			{"filtered out", "PAGE-GET-OK", nil},
			{"unforeseen", "PAGE-LIST-SHAPE", nil},
		} {
			framework.Prepare(g, c.rule, func(ctx context.Context) framework.Got {
				w.called(c.name)
				w.event("prepare " + c.name)
				return framework.GotExchange(w.target.Read(ctx, "/t/"+strings.ReplaceAll(c.name, " ", "-"), nil))
			}, func(_ ginkgo.SpecContext, got framework.Got) {
				w.event("judge " + c.name)
				gomega.Expect(got.Exchange()).To(match.HaveHTTPStatus(http.StatusOK))
			}, append(c.args, framework.Case(c.name))...)
		}
	})
	specs := w.run(t, "!rule:PAGE-GET-OK", "unforeseen")
	for _, name := range []string{"selected", "unforeseen"} {
		if s := specs[verdict.Case(name)]; s.Status != report.Passed || w.count(name) != 1 {
			t.Errorf("%s: %s (%s), prepared %d times; want passed, prepared once", name, s.Status, s.Message, w.count(name))
		}
	}
	for _, name := range []string{"marked writes", "write rule"} {
		if s := specs[verdict.Case(name)]; s.Status != report.NotChecked || !strings.Contains(s.Message, "read-only") {
			t.Errorf("%s: %s (%s), want not checked in a read-only run", name, s.Status, s.Message)
		}
	}
	for _, name := range []string{"marked writes", "write rule", "filtered out"} {
		if n := w.count(name); n != 0 {
			t.Errorf("%s: prepared %d times, want never", name, n)
		}
	}
	if s, ok := specs["filtered out"]; ok && s.Status == report.Passed {
		t.Errorf("filtered out: %s", s.Status)
	}
	if got, want := w.server.answers(), []string{"/t/selected", "/t/unforeseen"}; !slices.Equal(got, want) {
		t.Errorf("the server got %v, want %v", got, want)
	}
	events := w.eventLog()
	if slices.Index(events, "prepare unforeseen") < slices.Index(events, "judge selected") {
		t.Errorf("the unforeseen spec was prepared with the group, before its own spec ran: %v", events)
	}
}

// preparedNilValues: a prepare may return the nil of an interface type
// (no error, nothing found); its judge gets it as such.
func preparedNilValues(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8})
	ginkgo.Describe("nil values", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		framework.Prepare(g, "PAGE-LIST-SHAPE", func(context.Context) error { return nil },
			func(_ ginkgo.SpecContext, err error) { gomega.Expect(err).NotTo(gomega.HaveOccurred()) }, framework.Case("nil error"))
		framework.Prepare(g, "PAGE-LIST-SHAPE", func(context.Context) any { return nil },
			func(_ ginkgo.SpecContext, v any) { gomega.Expect(v).To(gomega.BeNil()) }, framework.Case("nil any"))
	})
	specs := w.run(t, "")
	for _, c := range []verdict.Case{"nil error", "nil any"} {
		if s := specs[c]; s.Status != report.Passed {
			t.Errorf("%s: %s (%s)", c, s.Status, s.Message)
		}
	}
}

// preparedShareWaitFreesPlace: at --concurrency 2, the shared fixture can
// only be made once the third prepare has run; the second prepare waits
// for the fixture meanwhile. Were it to keep its place, the third would
// never start and the fixture never be made.
func preparedShareWaitFreesPlace(t *testing.T) {
	w := newWorld(t, setup{concurrency: 2})
	third := make(chan struct{})
	ginkgo.Describe("share", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		shared := framework.Share(g, func(context.Context) string {
			select {
			case <-third:
				return "made"
			case <-time.After(5 * time.Second):
				return "the third prepare never started"
			}
		})
		for _, c := range []string{"a first user", "b second user"} {
			framework.Prepare(g, "PAGE-LIST-SHAPE", shared, func(_ ginkgo.SpecContext, v string) {
				gomega.Expect(v).To(gomega.Equal("made"))
			}, framework.Case(c))
		}
		framework.Prepare(g, "PAGE-LIST-SHAPE", func(context.Context) string { close(third); return "ran" },
			func(_ ginkgo.SpecContext, v string) { gomega.Expect(v).To(gomega.Equal("ran")) }, framework.Case("c third"))
	})
	specs := w.run(t, "")
	for _, c := range []verdict.Case{"a first user", "b second user", "c third"} {
		if s := specs[c]; s.Status != report.Passed {
			t.Errorf("%s: %s (%s)", c, s.Status, s.Message)
		}
	}
}

// preparedSharePanics: a panic while a shared fixture is made errs every
// spec whose prepare asked for it (not only the one that made it), each
// showing where the panic was raised; none of them is judged.
func preparedSharePanics(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8})
	cases := []string{"user 1", "user 2", "user 3"}
	ginkgo.Describe("share panics", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		broken := framework.Share(g, func(context.Context) string { panic("the shared fixture broke") })
		for _, c := range cases {
			framework.Prepare(g, "PAGE-LIST-SHAPE", broken, func(ginkgo.SpecContext, string) {
				w.called("judged after a panic")
			}, framework.Case(c))
		}
	})
	specs := w.run(t, "")
	for _, c := range cases {
		if s := specs[verdict.Case(c)]; s.Status != report.Errored {
			t.Errorf("%s: %s (%s), want errored", c, s.Status, s.Message)
		}
		panicked := w.ginkgoSpec(c).Failure.ForwardedPanic
		if !strings.Contains(panicked, "the shared fixture broke") || !strings.Contains(panicked, "prepared_test.go") {
			t.Errorf("%s: the spec's panic:\n%s\nwant the shared fixture's panic and where it was raised", c, panicked)
		}
	}
	if n := w.count("judged after a panic"); n != 0 {
		t.Errorf("judged %d times after the shared fixture panicked, want never", n)
	}
}

// made is what a prepare that creates a page got.
type made struct {
	ex  *client.Exchange
	key string
}

// createPage is a prepare function that creates a page and notes its key
// under name.
func createPage(w *world, name string) func(ctx context.Context) made {
	return func(ctx context.Context) made {
		ex, key := w.target.CreatePage(ctx, nil)
		w.created(name, key)
		return made{ex: ex, key: key}
	}
}

// preparedCleanups: what a prepare creates is deleted when the spec that
// judges it ends (not by the final sweep), whether the judge passes or
// fails, or the prepare panicked; the panic fails that spec.
func preparedCleanups(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8})
	ginkgo.Describe("cleanups", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		framework.Prepare(g, "PAGE-CREATE-201", createPage(w, "passes"), func(ctx ginkgo.SpecContext, m made) {
			gomega.Expect(m.key).NotTo(gomega.BeEmpty())
			gomega.Expect(w.target.Read(ctx, pagelist.PagePath(m.key), nil)).To(match.HaveHTTPStatus(http.StatusOK),
				"the page is there while its spec judges")
		}, framework.Case("passes"))
		framework.Prepare(g, "PAGE-CREATE-201", createPage(w, "judge fails"), func(_ ginkgo.SpecContext, m made) {
			gomega.Expect(m.key).NotTo(gomega.BeEmpty())
			gomega.Expect(m.ex.Status).To(gomega.Equal(299), "this judge fails on purpose")
		}, framework.Case("judge fails"))
		framework.Prepare(g, "PAGE-CREATE-201", func(ctx context.Context) made {
			createPage(w, "prepare panics")(ctx)
			panic("the prepare broke")
		}, func(ginkgo.SpecContext, made) {
			w.called("judged after a panic")
		}, framework.Case("prepare panics"))
	})
	before := takeSnapshot(t, w)
	specs := w.run(t, "")
	// A panic is a bug of the suite, not a failure of the target: the
	// spec errs, as one whose body panicked.
	for name, want := range map[string]report.Status{"passes": report.Passed, "judge fails": report.Failed, "prepare panics": report.Errored} {
		s := specs[verdict.Case(name)]
		if s.Status != want {
			t.Errorf("%s: %s (%s), want %s", name, s.Status, s.Message, want)
		}
		key := w.key(name)
		if key == "" {
			t.Errorf("%s: its prepare created no page; this proves nothing", name)
			continue
		}
		if dels := w.deletes(key); len(dels) != 1 || !strings.Contains(dels[0].Scope, "("+name+")") {
			t.Errorf("%s: page %s deleted by %s, want once, by the cleanup of the spec that judged it", name, key, scopes(dels))
		}
	}
	// The spec shows the panic and where the prepare function raised it.
	panicked := w.ginkgoSpec("prepare panics").Failure.ForwardedPanic
	if !strings.Contains(panicked, "the prepare broke") || !strings.Contains(panicked, "prepared_test.go") || w.count("judged after a panic") != 0 {
		t.Errorf("a panicking prepare: judged %d times, the spec's panic:\n%s\nwant the prepare's panic and where it was raised, no judging",
			w.count("judged after a panic"), panicked)
	}
	checkNoTrace(t, w, before)
}

// preparedShare: the prepares of a group get one shared fixture, made once
// whatever how many ask for it at once, and removed when the group's last
// spec ends (even when that spec fails), after every spec has used it.
func preparedShare(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8})
	cases := []string{"share 1", "share 2", "share 3"}
	ginkgo.Describe("share", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		page := framework.Share(g, func(ctx context.Context) string {
			w.called("share")
			time.Sleep(30 * time.Millisecond) // the other prepares ask meanwhile
			return createPage(w, "shared")(ctx).key
		})
		for i, c := range cases {
			framework.Prepare(g, "PAGE-GET-OK", func(ctx context.Context) made {
				key := page(ctx)
				return made{ex: w.target.Read(ctx, pagelist.PagePath(key), nil), key: key}
			}, func(ctx ginkgo.SpecContext, m made) {
				gomega.Expect(m.ex).To(match.HaveHTTPStatus(http.StatusOK))
				gomega.Expect(w.target.Read(ctx, pagelist.PagePath(m.key), nil, framework.Fresh())).To(
					match.HaveHTTPStatus(http.StatusOK), "the shared page is there while each spec judges")
				if i == len(cases)-1 {
					gomega.Expect(m.key).To(gomega.BeEmpty(), "the group's last judge fails on purpose")
				}
			}, framework.Case(c))
		}
	})
	before := takeSnapshot(t, w)
	specs := w.run(t, "")
	for i, c := range cases {
		want := report.Passed
		if i == len(cases)-1 {
			want = report.Failed
		}
		if s := specs[verdict.Case(c)]; s.Status != want {
			t.Errorf("%s: %s (%s), want %s", c, s.Status, s.Message, want)
		}
	}
	if n := w.count("share"); n != 1 {
		t.Errorf("the shared fixture was made %d times, want once", n)
	}
	key := w.key("shared")
	dels := w.deletes(key)
	if key == "" || len(dels) != 1 || !strings.Contains(dels[0].Scope, "(share 3)") {
		t.Fatalf("shared page %q deleted by %s, want once, by the cleanup of the group's last spec", key, scopes(dels))
	}
	all := w.target.Client.Since(0)
	at := slices.Index(all, dels[0])
	for i, ex := range all {
		for _, c := range cases {
			if strings.Contains(ex.Scope, "("+c+")") && i > at {
				t.Errorf("%s %s (%s) came after the shared page's delete", ex.Method, ex.URL, c)
			}
		}
	}
	checkNoTrace(t, w, before)
}

// preparedShareRunOrder: Ginkgo runs a container's specs sorted by source
// location, not in the order they were registered: the shared fixture is
// removed after the last spec to run, not after the last one registered
// (here the first to run).
func preparedShareRunOrder(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8})
	ginkgo.Describe("share in run order", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		page := framework.Share(g, func(ctx context.Context) string { return createPage(w, "shared")(ctx).key })
		prepare := func(ctx context.Context) made { return made{key: page(ctx)} }
		judge := func(ctx ginkgo.SpecContext, m made) {
			gomega.Expect(w.target.Read(ctx, pagelist.PagePath(m.key), nil, framework.Fresh())).To(
				match.HaveHTTPStatus(http.StatusOK), "the shared page is there while each spec judges")
		}
		// Registered last, but its location comes first: it runs first.
		first := func() { framework.Prepare(g, "PAGE-GET-OK", prepare, judge, framework.Case("registered last")) }
		framework.Prepare(g, "PAGE-GET-OK", prepare, judge, framework.Case("registered first"))
		framework.Prepare(g, "PAGE-GET-OK", prepare, judge, framework.Case("registered second"))
		first()
	})
	before := takeSnapshot(t, w)
	specs := w.run(t, "")
	for _, c := range []verdict.Case{"registered last", "registered first", "registered second"} {
		if s := specs[c]; s.Status != report.Passed {
			t.Errorf("%s: %s (%s), want passed", c, s.Status, s.Message)
		}
	}
	key := w.key("shared")
	dels := w.deletes(key)
	if key == "" || len(dels) != 1 || !strings.Contains(dels[0].Scope, "(registered second)") {
		t.Fatalf("shared page %q deleted by %s, want once, by the cleanup of the last spec to run", key, scopes(dels))
	}
	checkNoTrace(t, w, before)
}

// preparedInterrupted: a run interrupted (SIGINT) while a prepare is still
// on its way: the spec waiting for it stops, the prepare's context ends
// before the final sweep, and the page it created is removed by the
// sweep, not by a cleanup of a spec that never judged it.
func preparedInterrupted(t *testing.T) {
	w := newWorld(t, setup{concurrency: 8})
	ginkgo.Describe("interrupted", func() {
		g := w.target.NewGroup(framework.PhaseReads)
		framework.Prepare(g, "PAGE-CREATE-201", func(ctx context.Context) made {
			m := createPage(w, "interrupted")(ctx)
			interruptSelf(t)
			<-ctx.Done() // still on its way when the run is interrupted
			w.called("returned")
			return m
		}, func(ginkgo.SpecContext, made) {
			w.called("judged")
		}, framework.Case("interrupted"))
		framework.Prepare(g, "PAGE-GET-OK", func(ctx context.Context) framework.Got {
			return framework.GotExchange(w.target.Read(ctx, "/t/next", nil))
		}, func(_ ginkgo.SpecContext, got framework.Got) {
			w.called("judged")
		}, framework.Case("next"))
	})
	before := takeSnapshot(t, w)
	specs := w.run(t, "")
	key := w.key("interrupted")
	if key == "" {
		t.Fatal("the interrupted prepare created no page; this proves nothing")
	}
	if s := specs["interrupted"]; s.Status == report.Passed || w.count("judged") != 0 || w.count("returned") != 1 {
		t.Errorf("interrupted spec %s (%s), %d judged, prepare returned %d times; want not passed, nothing judged, the prepare ended",
			s.Status, s.Message, w.count("judged"), w.count("returned"))
	}
	if dels := w.deletes(key); len(dels) != 1 || dels[0].Scope != "cleanup" {
		t.Errorf("page %s deleted by %s, want once, by the final sweep", key, scopes(dels))
	}
	var creates int
	for _, ex := range w.target.Client.Exchanges() {
		if ex.Method == http.MethodPost && ex.Get("data.key").String() == key {
			creates++
		}
	}
	if creates != 1 {
		t.Errorf("the interrupted prepare's create is recorded %d times, want once (released at the end of the run)", creates)
	}
	checkNoTrace(t, w, before)
}

// scopes describes who sent exchanges, for messages.
func scopes(exs []*client.Exchange) string {
	if len(exs) == 0 {
		return "nobody"
	}
	var out []string
	for _, ex := range exs {
		out = append(out, fmt.Sprintf("#%d in %q", ex.Seq, ex.Scope))
	}
	return strings.Join(out, ", ")
}

func takeSnapshot(t *testing.T, w *world) frameworktest.Snapshot {
	t.Helper()
	s, err := w.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// checkNoTrace: the target reads as before the run, and the run knows of
// no page or teardown problem left.
func checkNoTrace(t *testing.T, w *world, before frameworktest.Snapshot) {
	t.Helper()
	if diff := before.Diff(takeSnapshot(t, w)); len(diff) > 0 {
		t.Errorf("the run left a trace:\n  %s", strings.Join(diff, "\n  "))
	}
	if pages, problems := w.target.Ledger.Pages(), w.target.Ledger.Problems(); len(pages) > 0 || len(problems) > 0 {
		t.Errorf("pages left %v, teardown problems %v", pages, problems)
	}
}
