package reads

// The paging of every answer to GET /api/pages of the run, whichever spec
// asked for it (rules/paging): the walks judge the pages they ask for,
// these the pages every other spec asks for too (the writes', the
// taxonomy's, the tripwire's, with other filters and sizes), at no
// request of their own. What one answer says of itself (paging.Answer) is
// judged by the run's cross-cutting watcher as each answer is recorded;
// meta.total between answers (paging.TotalsAgree) once the run has made
// them all.

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/paging"
	"github.com/conformance-suite/conformance/internal/spec"
)

// everyAnswer is the Case of the specs that judge every answer.
const everyAnswer = "every answer of the run"

// registerEveryAnswer adds the paging checks of one answer to t's
// cross-cutting watcher, starts collecting the run's list answers and
// writes for meta.total, and registers one spec per rule that reports
// them, after every other spec (PhaseEveryAnswer).
func registerEveryAnswer(t *framework.Fixture) {
	checks := crosscutting.ExchangeChecks(paging.Checks()...)
	t.CrossCutting.Add(checks...)
	totals := collectTotals(t)
	Describe("Paging of every page list answer of the run", framework.PhaseEveryAnswer, Label(framework.LabelCrossCutting), func() {
		for _, c := range checks {
			t.It(c.Rule, func(SpecContext) {
				tally := t.CrossCutting.Tally(c.Rule)
				if tally.Checked == 0 {
					verdicts.NotChecked("no answer to GET /api/pages that this rule is about was recorded before this check " +
						"(did the label filter leave no other spec?)")
				}
				if tally.Violations > 0 {
					Fail("Expected: every answer to GET /api/pages of the run, whichever spec asked for it, to keep this rule\n\n" +
						tally.Summary())
				}
			}, framework.Case(everyAnswer), spec.ListPages)
		}
		t.It("PAGE-LIST-TOTAL-AGREES", func(SpecContext) { totals.judge() }, framework.Case(everyAnswer))
	})
}

// totals collects what PAGE-LIST-TOTAL-AGREES compares: the run's list
// answers and its writes, as they are recorded.
type totals struct {
	t      *framework.Fixture
	lists  framework.Collector[struct{}, paging.Listed]
	writes framework.Collector[struct{}, paging.Write]
}

// collectTotals collects from every exchange of t's run recorded from now
// on.
func collectTotals(t *framework.Fixture) *totals {
	s := &totals{t: t}
	t.Client.OnExchange(func(ex *client.Exchange) {
		if l, ok := paging.ListedOf(ex); ok {
			s.lists.Add(struct{}{}, l)
		} else if w, ok := paging.WriteOf(ex); ok {
			s.writes.Add(struct{}{}, w)
		}
	})
	return s
}

// maxTotalsShown bounds the disagreements a failure lists.
const maxTotalsShown = 20

// judge: PAGE-LIST-TOTAL-AGREES over the answers collected so far.
func (s *totals) judge() {
	problems, compared := paging.TotalsAgree(s.lists.Of(struct{}{}), s.writes.Of(struct{}{}))
	if compared == 0 {
		verdicts.NotChecked("the run recorded no two answers to GET /api/pages with the same type filters and no write " +
			"between them before this check (did the label filter leave no other spec?)")
	}
	var lines []string
	var first *client.Exchange
	for i, p := range problems {
		if i == maxTotalsShown {
			lines = append(lines, fmt.Sprintf("and %d more", len(problems)-i))
			break
		}
		if first == nil {
			first = p.Ex
			s.t.Judged(p.Other, p.Ex)
		}
		lines = append(lines, fmt.Sprintf("%s: %s", p.Ex.RequestLine(), p.Problem))
	}
	Expect(lines).To(BeEmpty(), match.Evidence(first, "meta.total is the same in every answer to GET /api/pages with the "+
		"same type filters and no write between (%d answers compared)", compared))
}
