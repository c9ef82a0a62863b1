package framework

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/tripwire"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// Install registers the suite-wide nodes, and makes Gomega's package-level
// assertions count into t (assertions.go). Ginkgo allows one BeforeSuite and
// one ReportAfterSuite per process, so only runners call it, once, after
// the suites' Register functions and after any ginkgo.PreviewSpecs: a
// preview drops top-level BeforeEach/AfterEach nodes registered before it.
func Install(t *Fixture) {
	countAssertions(t)
	ginkgo.BeforeSuite(func() {
		if bugs := t.Bugs(); len(bugs) > 0 {
			ginkgo.Fail("the suite itself is inconsistent:\n  " + strings.Join(bugs, "\n  "))
		}
	})

	var mark int
	// A spec's report is over a kilobyte: each node reads it once, and
	// passes it on by pointer (a copy made the node's new goroutine's
	// small stack grow).
	ginkgo.BeforeEach(func() {
		report := ginkgo.CurrentSpecReport()
		t.Client.SetScope(report.FullText())
		t.specBegins(report.SpecPriority)
		mark = t.Client.Seq()
		t.evidence(nil) // forget what the last spec judged
	})
	ginkgo.AfterEach(func() {
		own := t.Client.Since(mark)
		report := ginkgo.CurrentSpecReport()
		t.endSpecCoverage(&report, own)
		if report.State == types.SpecStateSkipped {
			// Not checked for want of an answer: it could not finish.
			if cause := verdicts.CouldNotFinishCause(&report, t.evidence(own)); cause != "" {
				verdicts.CouldNotFinish(cause)
			}
			return
		}
		if !report.Failed() {
			return
		}
		evidence := t.evidence(own)
		switch {
		case slices.ContainsFunc(evidence, func(ex *client.Exchange) bool { return tripwire.IsStopped(ex.Err) }):
			// It failed because its writes were stopped, not because of
			// the target's answers: its rule is not checked.
			verdicts.AddEntry(verdict.EntryNotChecked, verdict.NotChecked{Reason: t.WritesStopped(), WritesStopped: true})
		case t.heldBackSettings(&report, evidence):
			// Its settings write was held back after one got no answer.
			verdicts.AddEntry(verdict.EntryNotChecked, verdict.NotChecked{Reason: t.SettingsWritesStopped(), WritesStopped: true})
		default:
			cause := verdicts.CouldNotFinishCause(&report, evidence)
			if cause == "" {
				cause = verdicts.TaintedBy(t.unansweredWrites(), evidence)
			}
			if cause != "" {
				verdicts.CouldNotFinish(cause)
			}
		}
		var b strings.Builder
		var data []verdict.Exchange
		for _, ex := range evidence {
			fmt.Fprintf(&b, "#%d\n%s\n", ex.Seq, ex.String())
			data = append(data, verdicts.ExchangeData(ex, t.Client.Redactor().String))
		}
		if b.Len() > 0 {
			ginkgo.AddReportEntry(verdict.EntryRequests, b.String(), ginkgo.ReportEntryVisibilityFailureOrVerbose)
			verdicts.AddEntry(verdict.EntryExchanges, data)
		}
	})

	ginkgo.AfterSuite(func(ctx context.Context) {
		t.Client.SetScope("cleanup")
		t.stopBackground()
		t.releasePrepared(ctx)
		t.runAtEnd(ctx, true)
		t.sweep(ctx)
		t.SettleLateWrites(ctx)
		if t.Tripwire != nil {
			t.Tripwire.Final(ctx, t.Client)
		}
	})
	ginkgo.ReportAfterSuite("conformance report", func(r types.Report) { t.setReport(r) })

}
