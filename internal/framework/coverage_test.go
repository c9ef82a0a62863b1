package framework_test

import (
	"net/http"
	"os"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/coverkit"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// envCoverageChild makes TestCoverageMarksChild run (in the child process
// TestCoverageMarks starts: RunSpecs runs once per process).
const envCoverageChild = "CONFORMANCE_FRAMEWORK_COVERAGE_CHILD"

// TestCoverageMarks checks that the coverage map is measured: a cell is
// filled only by an assertion that ran on real data in a spec that was
// judged (passed or failed), with the spec's rule; a spec reported not
// checked fills nothing; what a spec's exchanges show of the page list's
// query parameters fills a cell only for a rule the cell names.
func TestCoverageMarks(t *testing.T) {
	frameworktest.RunChild(t, "TestCoverageMarksChild", envCoverageChild, "the coverage run")
}

func TestCoverageMarksChild(t *testing.T) {
	if os.Getenv(envCoverageChild) != "1" {
		t.Skip("run by TestCoverageMarks in a child process")
	}
	gomega.RegisterFailHandler(ginkgo.Fail)
	target := frameworktest.Fixture(t)
	framework.Install(target)
	page := func(ctx ginkgo.SpecContext) *client.Exchange {
		return target.Read(ctx, pagelist.PagePath("alpha-post"), nil)
	}
	drafts := func(ctx ginkgo.SpecContext) *client.Exchange {
		return target.Read(ctx, pagelist.PagesPath, pagelist.PageTypeQuery("draft"))
	}
	title := coverage.CellID("body", "title", coverage.Create)
	slug := coverage.CellID("body", "slug", coverage.Create)
	content := coverage.CellID("body", "content", coverage.Create)
	cell := func(f string) coverage.ID { return coverage.CellID("page", f, coverage.Views) }
	ginkgo.Describe("coverage marks", func() {
		target.It("PAGE-CREATE-FIELDS", func(ctx ginkgo.SpecContext) {
			target.ExpectReadBack(title, page(ctx), "data.title", gomega.Equal("Alpha Post"))
		}, framework.Case("read back"))
		target.It("PAGE-CREATE-FIELDS", func(ctx ginkgo.SpecContext) {
			target.ExpectReadBack(slug, page(ctx), "data.slug", gomega.Equal("alpha-post"))
			verdicts.NotChecked("judged, then found it could not say")
		}, framework.Case("not checked"))
		target.It("PAGE-CREATE-FIELDS", func(ctx ginkgo.SpecContext) {
			target.ExpectReadBack(content, page(ctx), "data.contentRaw", gomega.Equal("not what was stored"))
		}, framework.Case("failed"))
		target.It("PAGE-LIST-TYPE-FILTERS", func(ctx ginkgo.SpecContext) {
			gomega.Expect(drafts(ctx)).To(match.HaveHTTPStatus(http.StatusOK))
		}, framework.Case("a filter sent"))
		target.It("PAGE-VIEWS-AGREE", func(ctx ginkgo.SpecContext) {
			ex := page(ctx)
			views := func(other string) []coverkit.View {
				return []coverkit.View{{Name: "the page", Ex: ex, Obj: ex.Get("data")}, {Name: "another view", Ex: ex, Obj: gjson.Parse(other)}}
			}
			differs := target.NewCheck()
			differs.Same("alpha-post", cell, nil, views(`{"key":"alpha-post","title":"Another"}`), "key", "title")
			gomega.Expect(differs.Problems()).To(gomega.HaveLen(1), "the title differs")
			agrees := target.NewCheck()
			agrees.Same("alpha-post", cell, nil, views(`{"key":"alpha-post","title":"Alpha Post"}`), "key", "title", "uuid")
			agrees.Expect("the views agree")
		}, framework.Case("views"))
		target.It("PAGE-VIEWS-AGREE", func(ginkgo.SpecContext) {
			target.NewCheck().Expect("something")
		}, framework.Case("nothing to compare"))
	})
	sc, rc := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	rc.Succinct, rc.NoColor = true, true
	ginkgo.RunSpecs(ignoreFailures{}, "coverage marks", sc, rc)

	marks := target.Coverage.Marks()
	want := map[coverage.ID]string{title: "PAGE-CREATE-FIELDS", content: "PAGE-CREATE-FIELDS",
		coverage.CellID("query", "draft", coverage.Sent): "PAGE-LIST-TYPE-FILTERS"}
	for id, rule := range want {
		if marks[id][rule] == 0 {
			t.Errorf("cell %s: marks %v, want one by %s", id, marks[id], rule)
		}
	}
	if m := marks[slug]; len(m) > 0 {
		t.Errorf("cell %s is marked %v by a spec reported not checked", slug, m)
	}
	// The draft listing's other parameters were left out; that fills the
	// omitted cells of PAGE-LIST-DEFAULT-FILTER's only, not of the filter
	// rule that made it.
	if m := marks[coverage.CellID("query", "untagged", coverage.Omitted)]; m["PAGE-LIST-TYPE-FILTERS"] == 0 {
		t.Errorf("query.untagged.omitted: marks %v, want one by PAGE-LIST-TYPE-FILTERS (it names that rule)", m)
	}
	if m := marks[coverage.CellID("query", "numberOfItems", coverage.Omitted)]; len(m) > 0 {
		t.Errorf("query.numberOfItems.omitted is marked %v by a rule it does not name", m)
	}
	for _, f := range []string{"key", "title"} {
		if marks[cell(f)]["PAGE-VIEWS-AGREE"] == 0 {
			t.Errorf("page.%s.views: marks %v, want one by PAGE-VIEWS-AGREE", f, marks[cell(f)])
		}
	}
	if m := marks[cell("uuid")]; len(m) > 0 {
		t.Errorf("page.uuid.views is marked %v, but only one view showed uuid", m)
	}
	run := report.Build(target.Report(), target.Catalogue, report.Meta{}, report.Extras{})
	for _, s := range run.Specs {
		if s.Case == "views" && s.Status != report.Passed {
			t.Errorf("the views spec: %s (%s), want passed", s.Status, s.Message)
		}
		if s.Case == "nothing to compare" && (s.Status != report.NotChecked || s.Message == verdict.ReasonNoAssertion) {
			t.Errorf("a check that looked at nothing: %s (%s), want not checked with its reason", s.Status, s.Message)
		}
	}
}

// TestCheckBoundsProblems checks that a check over a site of many pages
// that breaks a rule on each words its first problems and counts the
// rest, rather than keeping a sentence a page.
func TestCheckBoundsProblems(t *testing.T) {
	many := frameworktest.Fixture(t).NewCheck()
	for i := range 60 {
		many.Problem(nil, "page %d differs", i)
	}
	problems := many.Problems()
	if len(problems) != 51 || problems[0] != "page 0 differs" || problems[50] != "and 10 more" {
		t.Errorf("problems: %d of them, first %q, last %q; want 51, the first worded, the last \"and 10 more\"",
			len(problems), problems[0], problems[len(problems)-1])
	}
}
