package report

import (
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// unansweredSpec is a spec of rule id that failed (or was skipped) and
// that the framework found could not finish for want of an answer.
func unansweredSpec(id string, state types.SpecState) types.SpecReport {
	sr := leaf("4.2 GET /api/pages/{key}", id, "text", state, "area:pages")
	sr.Failure = types.Failure{Message: "the request got no answer"}
	sr.ReportEntries = types.ReportEntries{{Name: verdict.EntryNotChecked, Value: types.WrapEntryValue(verdict.NotChecked{
		Reason: verdict.CouldNotFinishPrefix + "GET /api/pages/x: no answer: the connection closed without an answer", CouldNotFinish: true})}}
	return sr
}

// A spec that failed or was not checked for want of an answer makes its
// rule errored (could not finish) with the cause; a run whose one
// shortfall that is says so, and is told apart from an interrupted one.
func TestCouldNotFinish(t *testing.T) {
	cases := []struct {
		name          string
		specs         []types.SpecReport
		only          bool
		verdictPrefix string
	}{
		{"failed for want of an answer", []types.SpecReport{unansweredSpec("PAGE-GET-404", types.SpecStateFailed)}, true, "COULD NOT FINISH"},
		{"not checked for want of an answer", []types.SpecReport{unansweredSpec("PAGE-GET-404", types.SpecStateSkipped)}, true, "COULD NOT FINISH"},
		{"and a rule failed", []types.SpecReport{unansweredSpec("PAGE-GET-404", types.SpecStateFailed),
			leaf("4.8", "USER-GET-404", "text", types.SpecStateFailed, "area:users")}, false, "FAIL"},
		{"and a spec interrupted", []types.SpecReport{unansweredSpec("PAGE-GET-404", types.SpecStateFailed),
			leaf("4.8", "USER-GET-404", "text", types.SpecStateInterrupted, "area:users")}, false, "INCOMPLETE"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			specs := append(types.SpecReports{counted(leaf("4.1", "PAGE-LIST-SHAPE", "text", types.SpecStatePassed, "area:pages"), 1)}, tc.specs...)
			run := Build(&types.Report{SpecReports: specs}, fixtureCatalogue(t), Meta{}, Extras{})
			var rr RuleResult
			for _, r := range run.Rules {
				if r.ID == "PAGE-GET-404" {
					rr = r
				}
			}
			if rr.Status != Errored || !rr.CouldNotFinish || !strings.Contains(rr.Reason, "no answer: the connection closed") {
				t.Errorf("PAGE-GET-404: %s, could not finish %v, %q", rr.Status, rr.CouldNotFinish, rr.Reason)
			}
			if run.OnlyUnanswered() != tc.only || !strings.HasPrefix(run.Verdict, tc.verdictPrefix) {
				t.Errorf("only unanswered %v, verdict %q; want %v, %s…", run.OnlyUnanswered(), run.Verdict, tc.only, tc.verdictPrefix)
			}
			var junit, console strings.Builder
			if err := run.WriteJUnit(&junit); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(junit.String(), `<error message="could not finish: GET /api/pages/x`) {
				t.Errorf("JUnit has no error for the rule:\n%s", junit.String())
			}
			run.WriteConsole(&console, ConsoleOptions{})
			if !strings.Contains(console.String(), "could not finish: a request they rest on got no answer") {
				t.Errorf("console:\n%s", console.String())
			}
		})
	}
}
