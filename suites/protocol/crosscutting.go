package protocol

import (
	"fmt"

	"github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/framework"
)

// crossCuttingPriority makes the cross-cutting specs run after every other
// spec, so they judge the whole run's exchanges.
const crossCuttingPriority = -1000

// registerEveryResponse adds the cross-cutting checks to the fixture, which
// judges every exchange of the run with them, and one spec per rule that
// reports the verdict on every exchange recorded before it. The number of
// responses each judged reaches the report from t.CrossCutting, not from
// these specs.
func registerEveryResponse(t *framework.Fixture) {
	checks := framework.EveryResponseChecks()
	t.CrossCutting.Add(checks...)
	ginkgo.Describe("Every response of the run", ginkgo.SpecPriority(crossCuttingPriority), ginkgo.Label(framework.LabelCrossCutting), func() {
		for _, c := range checks {
			t.It(c.Rule, func(ginkgo.SpecContext) {
				tally := t.CrossCutting.Tally(c.Rule)
				if tally.Checked == 0 {
					framework.NotChecked("no API response this rule can judge was recorded before this check " +
						"(did the label filter leave no other spec?)")
				}
				if tally.Violations > 0 {
					ginkgo.Fail(tally.Summary())
				}
			})
		}
	})
}

func conforms() framework.Judgement    { return framework.Judgement{} }
func cannotJudge() framework.Judgement { return framework.Judgement{Skip: true} }

func violation(format string, args ...any) framework.Judgement {
	return framework.Judgement{Problem: fmt.Sprintf(format, args...)}
}
