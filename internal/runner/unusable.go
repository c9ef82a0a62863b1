package runner

import (
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/marker"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/spec"
)

// This file writes the report of a target that cannot be checked at all.

// unusableRun is the report of a run that stopped at preflight: every rule
// not checked, with the reason, so a report file still says what happened.
func unusableRun(cfg Config, c *client.Client, started time.Time, sentence string) *report.Run {
	runID := cfg.RunID
	if runID == "" {
		runID = marker.NewRunID(started)
	}
	meta := report.Meta{SuiteVersion: cfg.SuiteVersion, Target: c.BaseURL(), RunID: runID, Mode: cfg.Mode(),
		LabelFilter: cfg.LabelFilter, Focus: cfg.Focus, Skip: cfg.Skip, Started: started,
		Duration: report.Duration(time.Since(started)), Requests: c.Seq(), Retries: c.Retries()}
	run := report.Build(nil, spec.All(), meta, report.Extras{Observations: retryNotes(c)})
	for i := range run.Rules {
		if run.Rules[i].Status == report.NotChecked {
			run.Rules[i].Reason = "the target cannot be checked (preflight)"
		}
	}
	run.Verdict = "The target cannot be checked: " + sentence
	return run
}
