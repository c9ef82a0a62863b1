package summary

import (
	"fmt"
	"io"
	"strings"

	"github.com/conformance-suite/conformance/internal/report"
)

// SiteLine is the console's line for a site that has just finished, the
// done-th of total.
func SiteLine(s Site, done, total int) string {
	width := len(fmt.Sprint(total))
	line := fmt.Sprintf("[%*d/%d] %-17s %s  %s", width, done, total, s.Outcome.Words(), s.Name, s.Verdict)
	if failed := failedIDs(s, 5); failed != "" {
		line += " " + failed
	}
	return line + fmt.Sprintf(" (%s)", s.Duration)
}

// failedIDs lists up to n of the rules the site failed, in ID order.
func failedIDs(s Site, n int) string {
	var ids []string
	for _, id := range sortedKeys(s.Rules) {
		if s.Rules[id] == report.Failed {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return ""
	}
	more := ""
	if len(ids) > n {
		ids, more = ids[:n], fmt.Sprintf(" and %d more", len(ids)-n)
	}
	return "[" + strings.Join(ids, ", ") + more + "]"
}

// maxListed bounds the sites the console summary lists by name.
const maxListed = 50

// WriteConsole writes the fleet's summary: the sites by outcome, the rules
// that failed on some site with the sites they failed on (sites × rules,
// the failing cells), the sites that did not pass, and the verdict.
func (s *Summary) WriteConsole(w io.Writer) error {
	c := s.Counts
	fmt.Fprintf(w, "\nFleet of %s", plural(c.Sites, "site"))
	if s.Shards != nil {
		fmt.Fprintf(w, " (shards %s of %d; the targets file lists %d)", joinInts(s.Shards.Present), s.Shards.Total, s.Targets.Sites)
	}
	fmt.Fprintf(w, ": %d passed, %d broke rules, %d cannot be checked, %d could not finish, %d other\n",
		c.Passed, c.Failed, c.CannotBeChecked, c.CouldNotFinish, c.Incomplete+c.UsageError+c.Crashed+c.NotRun)
	var failing []Rule
	for _, r := range s.Rules {
		if r.Failed > 0 {
			failing = append(failing, r)
		}
	}
	if len(failing) > 0 {
		fmt.Fprintf(w, "\nRules that failed on some site:\n")
		for _, r := range failing {
			named := strings.Join(r.FailedOn, ", ")
			if r.Failed > len(r.FailedOn) {
				named += fmt.Sprintf(" and %d more", r.Failed-len(r.FailedOn))
			}
			fmt.Fprintf(w, "  %-34s %s: %s\n", r.ID, plural(r.Failed, "site"), named)
		}
	}
	listed, notPassed := 0, c.Sites-c.Passed
	if notPassed > 0 {
		fmt.Fprintf(w, "\nSites that did not pass:\n")
	}
	err := s.Each(func(site Site) error {
		if site.Outcome == Passed || listed >= maxListed {
			return nil
		}
		listed++
		line := fmt.Sprintf("  %-24s %-17s %s", site.Name, site.Outcome.Words(), site.Verdict)
		if failed := failedIDs(site, 8); failed != "" {
			line += " " + failed
		}
		_, err := fmt.Fprintln(w, line)
		return err
	})
	if err != nil {
		return err
	}
	if notPassed > listed {
		fmt.Fprintf(w, "  ... and %d more (fleet.html and fleet.json list every site)\n", notPassed-listed)
	}
	_, err = fmt.Fprintf(w, "\n%s (exit %d)\n", s.Verdict, s.Exit)
	return err
}
