package runner

import (
	"strings"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/report"
)

// tripped is the verdict on a run whose tripwire stopped its writes (the
// site lost data during the run: internal/tripwire), overriding every
// other: rule verdicts after that point say nothing about the spec, and
// the site owner must act now.
func tripped(t *framework.Fixture, run *report.Run, baseURL string) *health {
	if t.Tripwire == nil {
		return nil
	}
	run.Observations = append(run.Observations, t.Tripwire.Notes()...)
	trip := t.Tripwire.Tripped()
	if trip == nil {
		return nil
	}
	var b strings.Builder
	b.WriteString(trip.Sentence("the run", t.Ledger.Pages(), baseURL))
	if len(t.Ledger.Problems()) > 0 {
		b.WriteString(" What else the run could not undo is listed under \"What the run left or restored on the target\".")
	}
	return &health{Sentence: b.String(), Exit: ExitUnusable}
}
