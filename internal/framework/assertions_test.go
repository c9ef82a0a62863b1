package framework_test

import (
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// envCountingChild makes TestAssertionCountingChild run (in the child
// process TestAssertionCounting starts: RunSpecs runs once per process).
const envCountingChild = "CONFORMANCE_FRAMEWORK_COUNTING_CHILD"

// TestAssertionCounting checks that a spec passes only when it evaluated an
// assertion: one that asserts nothing is reported not checked
// (verdict.NoAssertion), and every way of asserting counts.
func TestAssertionCounting(t *testing.T) {
	frameworktest.RunChild(t, "TestAssertionCountingChild", envCountingChild, "the assertion-counting run")
}

func TestAssertionCountingChild(t *testing.T) {
	if os.Getenv(envCountingChild) != "1" {
		t.Skip("run by TestAssertionCounting in a child process")
	}
	gomega.RegisterFailHandler(ginkgo.Fail)
	target := frameworktest.Fixture(t)
	framework.Install(target)
	target.CrossCutting.Add(crosscutting.ExchangeCheck{Rule: "GEN-NO-CACHE",
		Check: func(*client.Exchange) rules.Judgement { return rules.Judgement{} }})
	// Fresh: each spec's read reaches the target (the read cache would
	// replay the first), so the cross-cutting check judges every one.
	list := func(ctx ginkgo.SpecContext) *client.Exchange {
		return target.Read(ctx, "/api/pages", nil, framework.Fresh())
	}
	// expectOK asserts for its caller, as suite helpers do.
	expectOK := func(ex *client.Exchange) {
		gomega.ExpectWithOffset(1, ex.Status).To(gomega.Equal(http.StatusTeapot))
	}
	var failLine, helperLine int
	ginkgo.Describe("assertion counting", func() {
		target.It("PAGE-LIST-SHAPE", func(ctx ginkgo.SpecContext) {
			_ = list(ctx) // a request, but nothing judged
		}, framework.Case("no assertion"))
		target.It("PAGE-LIST-SHAPE", func(ctx ginkgo.SpecContext) {
			var found []string // nothing found: still an assertion that ran
			gomega.Expect(found).To(gomega.BeEmpty())
		}, framework.Case("empty"))
		target.It("PAGE-LIST-SHAPE", func(ctx ginkgo.SpecContext) {
			ex := list(ctx)
			gomega.Expect(ex).To(match.HaveHTTPStatus(http.StatusOK))
			gomega.Ω(ex).Should(match.HaveJSON("data"))
			gomega.Expect(strconv.Atoi("x")).Error().To(gomega.HaveOccurred())
		}, framework.Case("matchers"))
		target.It("PAGE-LIST-SHAPE", func(ginkgo.SpecContext) {
			gomega.Eventually(func() int { return 1 }).WithTimeout(time.Second).Should(gomega.Equal(1))
			gomega.Consistently(func() int { return 1 }).WithPolling(time.Millisecond).Within(5 * time.Millisecond).
				ShouldNot(gomega.Equal(2))
		}, framework.Case("async"))
		target.It("PAGE-GET-404", func(ctx ginkgo.SpecContext) {
			failLine = line()
			gomega.Expect(list(ctx).Status).To(gomega.Equal(http.StatusTeapot))
		}, framework.Case("failure"))
		target.It("TAG-GET-404", func(ctx ginkgo.SpecContext) {
			helperLine = line()
			expectOK(list(ctx))
		}, framework.Case("helper failure"))
		// After the others, so the exchanges they sent were judged.
		target.It("GEN-NO-CACHE", func(ginkgo.SpecContext) {}, ginkgo.Label(framework.LabelCrossCutting), framework.Case("cross-cutting"))
	})
	sc, rc := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	rc.Succinct, rc.NoColor = true, true
	ginkgo.RunSpecs(ignoreFailures{}, "assertion counting", sc, rc)

	run := report.Build(target.Report(), target.Catalogue, report.Meta{}, report.Extras{})
	specs := map[verdict.Case]report.SpecResult{}
	for _, s := range run.Specs {
		specs[s.Case] = s
	}
	if s := specs["no assertion"]; s.Status != report.NotChecked || !s.NoAssertion || s.Message != verdict.ReasonNoAssertion || s.Assertions != 0 {
		t.Errorf("a spec that asserted nothing: %s (noAssertion %v, %d assertions, %q), want not checked: %s",
			s.Status, s.NoAssertion, s.Assertions, s.Message, verdict.ReasonNoAssertion)
	}
	for c, want := range map[verdict.Case]int{"empty": 1, "matchers": 3, "async": 2} {
		if s := specs[c]; s.Status != report.Passed || s.Assertions != want {
			t.Errorf("%s: %s with %d assertions (%s), want passed with %d", c, s.Status, s.Assertions, s.Message, want)
		}
	}
	if s := specs["cross-cutting"]; s.Status != report.Passed || s.Assertions < 4 {
		t.Errorf("cross-cutting: %s with %d assertions (%s), want passed with the responses it judged (4 or more)", s.Status, s.Assertions, s.Message)
	}
	// Failures still point at the suite's line, through the wrapper.
	for c, want := range map[verdict.Case]int{"failure": failLine + 1, "helper failure": helperLine + 1} {
		s := specs[c]
		if s.Status != report.Failed || s.Assertions != 1 || !strings.HasSuffix(s.Location, "assertions_test.go:"+strconv.Itoa(want)) {
			t.Errorf("%s: %s with %d assertions at %s, want failed with 1 at assertions_test.go:%d", c, s.Status, s.Assertions, s.Location, want)
		}
	}
	for _, r := range run.Rules {
		if r.Status == report.Passed && r.Assertions == 0 {
			t.Errorf("rule %s passed with no assertion", r.ID)
		}
	}
}

// line is the line it is called from.
func line() int {
	_, _, n, _ := runtime.Caller(1)
	return n
}

// TestOutcomesAsData runs specs that are not checked, fail a matcher and
// fail a plain Gomega assertion against the reference server, and checks
// what reaches the report as data: the typed reason, the Case, the facts of
// the failed matcher and the exchanges of failing specs.
func TestOutcomesAsData(t *testing.T) {
	gomega.RegisterFailHandler(ginkgo.Fail)
	target := frameworktest.Fixture(t)
	framework.Install(target)
	missing := func(ctx ginkgo.SpecContext) *client.Exchange {
		return target.Read(ctx, client.KeyPath("pages", target.Marker("no-such-page")), nil)
	}
	ginkgo.Describe("outcomes", func() {
		target.It("PAGE-GET-OK", func(ginkgo.SpecContext) {
			verdicts.NotChecked("the target has no %s page", "draft")
		}, framework.Case("not checked"))
		target.It("PAGE-GET-404", func(ctx ginkgo.SpecContext) {
			gomega.Expect(missing(ctx)).To(match.HaveHTTPStatus(http.StatusOK))
		}, framework.Case("matcher"))
		target.It("TAG-GET-404", func(ctx ginkgo.SpecContext) {
			ex := missing(ctx)
			gomega.Expect(ex.Status).To(gomega.Equal(http.StatusOK))
		})
		target.It("USER-LIST-SHAPE", func(ginkgo.SpecContext) {
			gomega.Expect([]string{"a is wrong", "b is wrong"}).To(gomega.BeEmpty(), "nothing is wrong")
		})
	})
	sc, rc := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	rc.Succinct, rc.NoColor = true, true
	ginkgo.RunSpecs(ignoreFailures{}, "outcomes as data", sc, rc)

	run := report.Build(target.Report(), target.Catalogue, report.Meta{}, report.Extras{})
	specs := map[string]report.SpecResult{}
	for _, s := range run.Specs {
		specs[s.Rules[0]] = s
	}
	if s := specs["PAGE-GET-OK"]; s.Status != report.NotChecked || s.Message != "the target has no draft page" || s.Case != "not checked" {
		t.Errorf("not checked: %+v", s)
	}
	m := specs["PAGE-GET-404"]
	if m.Status != report.Failed || m.Case != "matcher" || len(m.Facts) != 1 || len(m.Exchanges) != 1 {
		t.Fatalf("matcher failure: %+v", m)
	}
	if f := m.Facts[0]; f.Status != http.StatusNotFound || f.Expected != "HTTP 200" || f.Got != "HTTP 404" || f.Seq != m.Exchanges[0].Seq {
		t.Errorf("fact %+v", f)
	}
	if ex := m.Exchanges[0]; ex.Method != http.MethodGet || ex.Status != http.StatusNotFound || ex.Body == "" || ex.Cut {
		t.Errorf("exchange %+v", ex)
	}
	// A plain Gomega failure is recorded in words, about no response (the
	// diagnosis then reads the spec's last one), with the Go-typed message
	// it stands for.
	g := specs["TAG-GET-404"]
	if g.Status != report.Failed || len(g.Facts) != 1 || len(g.Exchanges) != 1 || g.Case != "" {
		t.Fatalf("plain Gomega failure: %+v", g)
	}
	if f := g.Facts[0]; f.Expected != "it to equal 200" || f.Got != "404" || f.Seq != 0 || f.Status != 0 ||
		f.Rendered == "" || !strings.Contains(g.Message, f.Rendered) {
		t.Errorf("plain Gomega fact %+v", f)
	}
	if f := specs["USER-LIST-SHAPE"].Facts; len(f) != 1 || f[0].Expected != "it to be empty" ||
		f[0].Got != "2 items:\n  - a is wrong\n  - b is wrong" {
		t.Errorf("plain Gomega fact of a list %+v", f)
	}
	for _, s := range run.Specs {
		for _, ex := range s.Exchanges {
			if strings.Contains(ex.Query, target.Client.Token()) {
				t.Errorf("a recorded query shows the token: %q", ex.Query)
			}
		}
	}
}

// ignoreFailures is the GinkgoTestingT of a run whose specs fail on
// purpose; the test judges their report.
type ignoreFailures struct{}

func (ignoreFailures) Fail() {}
