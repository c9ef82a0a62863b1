package summary

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/conformance-suite/conformance/internal/report"
)

// The fleet's JUnit report has one <testsuite> per site and, in it, one
// <testcase> per rule the site's run could judge (not-testable rules are
// left out, as a single run's report leaves them out): a failed rule is a
// <failure>, an errored one an <error>, one not checked <skipped>. A site
// that has no verdict per rule (it cannot be checked, it crashed, it was
// not run) is one <testcase> with an <error> that says why. It follows the
// schema the single run's report follows (internal/report/testdata/junit.xsd).

type junitSuite struct {
	XMLName    xml.Name        `xml:"testsuite"`
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	Hostname   string          `xml:"hostname,attr"`
	ID         int             `xml:"id,attr"`
	Package    string          `xml:"package,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
}

// seconds is a duration as JUnit writes it.
func seconds(d time.Duration) string {
	ms := d.Round(time.Millisecond).Milliseconds()
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}

// junitSuiteOf is one site's test suite.
func (s *Summary) junitSuiteOf(site Site) junitSuite {
	started := site.Started
	if started.IsZero() {
		started = s.Started
	}
	suite := junitSuite{Name: site.Name, ID: site.Index, Package: "conformance.fleet", Time: seconds(time.Duration(site.Duration)),
		Timestamp: started.UTC().Format("2006-01-02T15:04:05"), Hostname: hostOf(site.BaseURL),
		Properties: []junitProperty{{"base-url", site.BaseURL}, {"mode", site.Mode}, {"outcome", string(site.Outcome)},
			{"exit-code", fmt.Sprint(site.Exit)}, {"verdict", xmlSafe(site.Verdict)}}}
	class := "conformance." + site.Name
	if len(site.Rules) == 0 || site.Outcome == CannotBeChecked || site.Outcome == Crashed {
		suite.Cases = []junitCase{{Name: "[site] " + site.Name, Classname: class, Time: suite.Time,
			Error: &junitMessage{Message: clip(xmlSafe(site.Verdict), 500), Type: string(site.Outcome)}}}
		suite.Tests, suite.Errors = 1, 1
		return suite
	}
	for _, r := range s.Rules {
		st, ok := site.Rules[r.ID]
		if !ok || st == report.NotTestable {
			continue
		}
		c := junitCase{Name: fmt.Sprintf("[%s] %s", r.ID, r.Text), Classname: class + "." + r.Area, Time: "0.000"}
		switch st {
		case report.Failed:
			c.Failure = &junitMessage{Message: xmlSafe(site.Failures[r.ID]), Type: "rule failed"}
			suite.Failures++
		case report.Errored:
			c.Error = &junitMessage{Message: xmlSafe(site.Failures[r.ID]), Type: "error"}
			suite.Errors++
		case report.NotChecked:
			c.Skipped = &junitMessage{Message: "not checked"}
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
		{Name: xml.Name{Local: "time"}, Value: seconds(time.Duration(s.Duration))},
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

// hostOf is the host of a base URL, JUnit's hostname attribute.
func hostOf(base string) string {
	if u, err := url.Parse(base); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return "unknown"
}

// xmlSafe drops what XML 1.0 cannot carry (control characters but tab
// and line breaks, invalid UTF-8), which a site's answers may have put in
// a message.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, s)
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
