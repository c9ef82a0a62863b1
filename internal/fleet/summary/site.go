package summary

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/runner"
)

// siteReport is what a site's line takes from the site's JSON report
// (report.Run); the rest of the report is not decoded.
type siteReport struct {
	Meta struct {
		Target   string          `json:"target"`
		Mode     string          `json:"mode"`
		Started  json.RawMessage `json:"started"`
		Duration report.Duration `json:"duration"`
		Requests int             `json:"requests"`
	} `json:"meta"`
	Verdict string        `json:"verdict"`
	Counts  report.Counts `json:"counts"`
	Rules   []struct {
		ID     string        `json:"id"`
		Status report.Status `json:"status"`
		Specs  []int         `json:"specs"`
		Reason string        `json:"reason"`
	} `json:"rules"`
	Specs []struct {
		Status  report.Status `json:"status"`
		Message string        `json:"message"`
	} `json:"specs"`
}

// FromReport fills the site's line from its JSON report: the verdict, the
// counts, each rule's verdict and, for each failed or errored rule, why
// in one line. It leaves the outcome to Judge.
func (s *Site) FromReport(r io.Reader) error {
	var rep siteReport
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return fmt.Errorf("not a conformance JSON report: %w", err)
	}
	if len(rep.Rules) == 0 {
		return fmt.Errorf("a conformance JSON report lists rules; this one lists none")
	}
	if len(rep.Meta.Started) > 0 {
		_ = json.Unmarshal(rep.Meta.Started, &s.Started)
	}
	s.Verdict, s.Counts, s.Duration, s.Requests = rep.Verdict, rep.Counts, rep.Meta.Duration, rep.Meta.Requests
	if rep.Meta.Mode != "" {
		s.Mode = rep.Meta.Mode
	}
	s.Rules = make(map[string]report.Status, len(rep.Rules))
	for _, rr := range rep.Rules {
		s.Rules[rr.ID] = rr.Status
		if rr.Status != report.Failed && rr.Status != report.Errored {
			continue
		}
		why := rr.Reason
		for _, i := range rr.Specs {
			if i >= 0 && i < len(rep.Specs) && rep.Specs[i].Status == rr.Status {
				why = report.SpecResult{Status: rr.Status, Message: rep.Specs[i].Message}.FailureLine()
				break
			}
		}
		if s.Failures == nil {
			s.Failures = map[string]string{}
		}
		s.Failures[rr.ID] = why
	}
	return nil
}

// Judge sets the site's outcome from its process's exit code and what its
// report said (hasReport: FromReport read one). A code the suite does not
// use, or a usage error with a Go panic in the console's tail, is a
// crash.
func (s *Site) Judge(exit int, hasReport bool, consoleTail string) {
	s.Exit = exit
	switch exit {
	case runner.ExitPass:
		s.Outcome = Passed
	case runner.ExitFail:
		s.Outcome = Incomplete
		if s.Counts.Failed > 0 {
			s.Outcome = Failed
		}
	case runner.ExitUnusable:
		s.Outcome = CannotBeChecked
	case runner.ExitCouldNotFinish:
		s.Outcome = CouldNotFinish
	case runner.ExitUsage:
		s.Outcome = UsageError
		if crashed(consoleTail) {
			s.Outcome = Crashed
		}
	default:
		s.Outcome = Crashed
	}
	if !hasReport || s.Verdict == "" {
		s.Verdict = lastLines(consoleTail, 3)
		if s.Outcome == Crashed {
			s.Verdict = fmt.Sprintf("The site's run ended without a verdict (exit %d): %s", exit, s.Verdict)
		}
	}
}

// crashed tells a Go runtime's crash (exit 2, like a usage error) by what
// it prints.
func crashed(tail string) bool {
	return strings.Contains(tail, "panic: ") || strings.Contains(tail, "fatal error: ") || strings.Contains(tail, "\ngoroutine ")
}

// lastLines is the last n lines of s that are not empty, on one line.
func lastLines(s string, n int) string {
	var keep []string
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "Run 'conformance --help'") {
			keep = append([]string{l}, keep...)
		}
	}
	if len(keep) == 0 {
		return "(it printed nothing)"
	}
	return strings.Join(keep, " ")
}
