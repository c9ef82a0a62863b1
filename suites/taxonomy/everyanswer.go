package taxonomy

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/termview"
	"github.com/conformance-suite/conformance/internal/spec"
)

// The rules one answer of a single tag or category shows on its own
// (internal/rules/termview: its pages are those its list names, each
// carries the term, each gives a tag its name) are judged on every such
// answer of the run, whoever asked for it: the first reads of the specs
// above, and the views the page writes suite reads right after each of its
// writes. They cost no request of their own: the run's cross-cutting
// watcher judges each answer as it is recorded, its pages as the stream
// kept them. A spec per rule reports the verdict, after every other spec.

// everyAnswerPriority makes the specs that report these checks run after
// every other spec, as suites/protocol's cross-cutting ones do, so that
// they report on every answer of the run.
const everyAnswerPriority = -1000

// registerEveryAnswer adds the checks of every single view's answer to
// the run's cross-cutting watcher, and one spec per rule that reports
// them.
func registerEveryAnswer(t *framework.Fixture) {
	checks := crosscutting.ExchangeChecks(termview.Checks(singleView(t))...)
	t.CrossCutting.Add(checks...)
	ginkgo.Describe("Every answer of a single tag or category", ginkgo.SpecPriority(everyAnswerPriority),
		ginkgo.Label(framework.LabelCrossCutting), func() {
			for _, c := range checks {
				endpoint, path := spec.GetTag, "/api/tags/{key}"
				if strings.HasPrefix(c.Rule, "CAT-") {
					endpoint, path = spec.GetCategory, "/api/categories/{key}"
				}
				t.It(c.Rule, func(ginkgo.SpecContext) {
					tally := t.CrossCutting.Tally(c.Rule)
					if tally.Checked == 0 {
						verdicts.NotChecked("the run received no answer of GET %s this rule could judge "+
							"(a 200 with a list, and pages to judge, read whole)", path)
					}
					if tally.Violations > 0 {
						ginkgo.Fail(fmt.Sprintf("Expected: every answer of GET %s the run received, whichever spec asked "+
							"for it, to keep this rule\n\n%s", path, tally.Summary()))
					}
				}, framework.Case("every answer of GET "+path+" of the run"), endpoint)
			}
		})
}

// singleView reads an exchange as termview judges it: an answer 200 of
// GET /api/tags/{key} or GET /api/categories/{key} read whole, data an
// object whose pages is an array; its pages those the stream kept
// (pagelist.PageItems) when it was read as one, as the run reads them.
func singleView(t *framework.Fixture) func(ex *client.Exchange) (termview.View, bool) {
	return func(ex *client.Exchange) (termview.View, bool) {
		if ex.Method != http.MethodGet || ex.Err != nil || ex.Status != http.StatusOK || pagelist.Unread(ex) != "" {
			return termview.View{}, false
		}
		var v termview.View
		switch t.CrossCutting.Endpoint(ex) {
		case "/api/tags/{key}":
			v.Tag = true
		case "/api/categories/{key}":
		default:
			return termview.View{}, false
		}
		v.Term = ex.Get("data")
		pages := v.Term.Get("pages")
		switch {
		case !v.Term.IsObject() || !pages.IsArray():
			return termview.View{}, false
		case ex.Streamed == nil:
			v.Pages = termview.ArrayPages(pages)
		case ex.Streamed.Path != "data.pages":
			return termview.View{}, false
		default:
			kept := pagelist.PageItems(ex)
			v.Pages = func(yield func(p gjson.Result) bool) {
				kept.Scan(func(_ int, p gjson.Result) bool { return yield(p) })
			}
		}
		return v, true
	}
}
