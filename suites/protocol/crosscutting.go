package protocol

import (
	"github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/every"
)

// crossCuttingPriority makes the cross-cutting specs run after every other
// spec, so they judge the whole run's exchanges.
const crossCuttingPriority = framework.PhaseEveryAnswer

// registerEveryResponse adds the rules every answer keeps (internal/rules/every)
// to the fixture, which judges every exchange of the run with them, and one
// spec per rule that reports the verdict on every exchange recorded before
// it. The number of
// responses each judged reaches the report from t.CrossCutting, not from
// these specs.
func registerEveryResponse(t *framework.Fixture) {
	checks := crosscutting.ExchangeChecks(every.Checks()...)
	t.CrossCutting.Add(checks...)
	ginkgo.Describe("Every response of the run", ginkgo.SpecPriority(crossCuttingPriority), ginkgo.Label(framework.LabelCrossCutting), func() {
		for _, c := range checks {
			t.It(c.Rule, func(ginkgo.SpecContext) {
				tally := t.CrossCutting.Tally(c.Rule)
				if tally.Checked == 0 {
					verdicts.NotChecked("no API response this rule can judge was recorded before this check " +
						"(did the label filter leave no other spec?)")
				}
				if tally.Violations > 0 {
					ginkgo.Fail(tally.Summary())
				}
			})
		}
	})
}

var (
	conforms    = rules.Conforms
	cannotJudge = rules.CannotJudge
	violation   = rules.Violation
)
