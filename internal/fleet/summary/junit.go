package summary

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/report/junitxml"
)

// The fleet's JUnit report has one <testsuite> per site and, in it, one
// <testcase> per rule the site's run could judge (not-testable rules are
// left out, as a single run's report leaves them out): a failed rule is a
// <failure>, an errored one an <error>, one not checked <skipped>. A site
// that has no verdict per rule (it cannot be checked, it crashed, it was
// not run) is one <testcase> with an <error> that says why. It follows the
// schema the single run's report follows (internal/report/testdata/junit.xsd).

// junitSuiteOf is one site's test suite.
func (s *Summary) junitSuiteOf(site Site) junitxml.Suite {
	started := site.Started
	if started.IsZero() {
		started = s.Started
	}
	suite := junitxml.Suite{Name: site.Name, ID: site.Index, Package: "conformance.fleet", Time: junitxml.Seconds(site.Duration),
		Timestamp: started.UTC().Format("2006-01-02T15:04:05"), Hostname: junitxml.Host(site.BaseURL),
		Properties: junitxml.Props("base-url", site.BaseURL, "mode", site.Mode, "outcome", string(site.Outcome),
			"exit-code", fmt.Sprint(site.Exit), "verdict", junitxml.Safe(site.Verdict))}
	class := "conformance." + site.Name
	if len(site.Rules) == 0 || site.Outcome == CannotBeChecked || site.Outcome == Crashed {
		suite.Cases = []junitxml.Case{{Name: "[site] " + site.Name, Classname: class, Time: suite.Time,
			Error: &junitxml.Message{Message: clip(junitxml.Safe(site.Verdict), 500), Type: string(site.Outcome)}}}
		suite.Tests, suite.Errors = 1, 1
		return suite
	}
	for _, r := range s.Rules {
		st, ok := site.Rules[r.ID]
		if !ok || st == report.NotTestable {
			continue
		}
		c := junitxml.Case{Name: fmt.Sprintf("[%s] %s", r.ID, r.Text), Classname: class + "." + r.Area}
		switch st {
		case report.Failed:
			c.Failure = &junitxml.Message{Message: junitxml.Safe(site.Failures[r.ID]), Type: "rule failed"}
			suite.Failures++
		case report.Errored:
			c.Error = &junitxml.Message{Message: junitxml.Safe(site.Failures[r.ID]), Type: "error"}
			suite.Errors++
		case report.NotChecked:
			c.Skipped = &junitxml.Message{Message: "not checked"}
			suite.Skipped++
		}
		suite.Tests++
		suite.Cases = append(suite.Cases, c)
	}
	return suite
}

// WriteJUnit writes the JUnit report, one site's suite at a time.
func (s *Summary) WriteJUnit(w io.Writer) error {
	var tests, failures, errs int
	if err := s.Each(func(site Site) error {
		suite := s.junitSuiteOf(site)
		tests, failures, errs = tests+suite.Tests, failures+suite.Failures, errs+suite.Errors
		return nil
	}); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(xml.Header)
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	root := xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: []xml.Attr{
		{Name: xml.Name{Local: "name"}, Value: "conformance fleet " + s.Targets.File},
		{Name: xml.Name{Local: "tests"}, Value: fmt.Sprint(tests)},
		{Name: xml.Name{Local: "failures"}, Value: fmt.Sprint(failures)},
		{Name: xml.Name{Local: "errors"}, Value: fmt.Sprint(errs)},
		{Name: xml.Name{Local: "time"}, Value: junitxml.Seconds(s.Duration).String()},
	}}
	if err := enc.EncodeToken(xml.Comment(" " + strings.ReplaceAll(s.Verdict, "--", "- -") + " ")); err != nil {
		return err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	bw.WriteString("\n")
	if err := enc.EncodeToken(root); err != nil {
		return err
	}
	if err := s.Each(func(site Site) error { return enc.Encode(s.junitSuiteOf(site)) }); err != nil {
		return err
	}
	if err := enc.EncodeToken(root.End()); err != nil {
		return err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	bw.WriteString("\n")
	return bw.Flush()
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
