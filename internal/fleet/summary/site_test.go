package summary

import (
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/report"
)

const failingReport = `{"formatVersion": 2,
 "meta": {"target": "https://b.example", "mode": "read-only", "started": "2026-11-29T12:00:00Z", "duration": "1.5s", "requests": 120},
 "verdict": "FAIL: the target breaks 1 rule(s) of the spec; 64 passed, 39 not checked.",
 "counts": {"passed": 64, "failed": 1, "notChecked": 39, "notTestable": 13, "error": 0},
 "rules": [{"id": "TAG-GET-404", "status": "failed", "specs": [0, 1]}, {"id": "PAGE-LIST-ALL", "status": "passed", "specs": [2]},
           {"id": "USER-LIST", "status": "error", "specs": [3], "reason": "no answer"}],
 "specs": [{"status": "passed"}, {"status": "failed", "message": "Expected: HTTP 404\nGot: HTTP 200\n\nrequest: GET /api/tags/x"},
           {"status": "passed"}, {"status": "error", "message": "GET /api/users got no answer: reset\nmore"}]}`

func TestFromReport(t *testing.T) {
	var s Site
	if err := s.FromReport(strings.NewReader(failingReport)); err != nil {
		t.Fatal(err)
	}
	s.Judge(1, true, "")
	if s.Outcome != Failed || s.Requests != 120 || s.Counts.Failed != 1 || s.Started.IsZero() || s.Mode != "read-only" {
		t.Errorf("site %+v", s)
	}
	if s.Rules["TAG-GET-404"] != report.Failed || s.Rules["PAGE-LIST-ALL"] != report.Passed {
		t.Errorf("rules %v", s.Rules)
	}
	if got := s.Failures["TAG-GET-404"]; got != "Expected: HTTP 404; Got: HTTP 200" {
		t.Errorf("TAG-GET-404 failed because %q", got)
	}
	if got := s.Failures["USER-LIST"]; got != "GET /api/users got no answer: reset" {
		t.Errorf("USER-LIST errored because %q", got)
	}
	if err := new(Site).FromReport(strings.NewReader(`{"rules": []}`)); err == nil {
		t.Error("a report without rules was read")
	}
}

func TestJudge(t *testing.T) {
	cases := []struct {
		exit      int
		failed    int
		hasReport bool
		tail      string
		want      Outcome
		verdict   string
	}{
		{0, 0, true, "", Passed, "from the report"},
		{1, 1, true, "", Failed, "from the report"},
		{1, 0, true, "", Incomplete, "from the report"},
		{3, 0, true, "", CannotBeChecked, "from the report"},
		{4, 0, true, "", CouldNotFinish, "from the report"},
		{2, 0, false, "conformance: --label-filter \"(\": bad\nRun 'conformance --help' for usage.\n", UsageError, `conformance: --label-filter "(": bad`},
		{2, 0, false, "panic: oops\n\ngoroutine 1 [running]:\nmain.main()\n", Crashed, "ended without a verdict (exit 2)"},
		{-1, 0, false, "", Crashed, "(exit -1): (it printed nothing)"},
		{197, 0, true, "", Crashed, "from the report"},
	}
	for _, c := range cases {
		s := Site{Counts: report.Counts{Failed: c.failed}}
		if c.hasReport {
			s.Verdict = "from the report"
		}
		s.Judge(c.exit, c.hasReport, c.tail)
		if s.Outcome != c.want || !strings.Contains(s.Verdict, c.verdict) || s.Exit != c.exit {
			t.Errorf("exit %d: %s, %q; want %s, %q", c.exit, s.Outcome, s.Verdict, c.want, c.verdict)
		}
	}
}
