package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The JUnit report follows the schema strict consumers check against
// (Jenkins' junit-10.xsd, with the attributes the Ant schema requires on a
// testsuite): no properties inside a testcase, so the rule IDs are in each
// case's name; timestamp and hostname on every testsuite; times in
// seconds with three decimals. testdata/junit.xsd is that schema.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Comment  xml.Comment  `xml:",comment"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     junitSeconds `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       junitSeconds    `xml:"time,attr"`
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
	Time      junitSeconds  `xml:"time,attr"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"` // line breaks kept as they are, for people reading the file
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// junitSeconds is a duration as JUnit writes it: seconds, rounded to the
// millisecond ("0.125").
type junitSeconds time.Duration

// MarshalXMLAttr implements xml.MarshalerAttr.
func (s junitSeconds) MarshalXMLAttr(name xml.Name) (xml.Attr, error) {
	ms := time.Duration(s).Round(time.Millisecond).Milliseconds()
	return xml.Attr{Name: name, Value: fmt.Sprintf("%d.%03d", ms/1000, ms%1000)}, nil
}

// UnmarshalXMLAttr implements xml.UnmarshalerAttr.
func (s *junitSeconds) UnmarshalXMLAttr(attr xml.Attr) error {
	d, err := time.ParseDuration(attr.Value + "s")
	*s = junitSeconds(d)
	return err
}

// WriteJUnit writes one <testsuite> per area and one <testcase> per spec,
// named with its rule IDs; no setup nodes, no timelines for passed specs.
func (r *Run) WriteJUnit(w io.Writer) error {
	byArea := map[string][]SpecResult{}
	for _, s := range r.Specs {
		byArea[s.Area] = append(byArea[s.Area], s)
	}
	areas := slices.Sorted(maps.Keys(byArea))
	out := junitSuites{Name: "conformance " + r.Meta.Target, Time: junitSeconds(r.Meta.Duration)}
	if r.Diagnosis != nil {
		// A comment at the top, for a person opening the file; CI tools
		// read the diagnosis property.
		out.Comment = xml.Comment(" " + strings.ReplaceAll(r.Diagnosis.Line, "--", "- -") + " ")
	}
	props := r.junitProperties()
	partly := r.PartlyChecked()
	for i, a := range areas {
		suite := junitSuite{Name: a, ID: i, Package: "conformance", Properties: props,
			Timestamp: r.Meta.Started.UTC().Format("2006-01-02T15:04:05"), Hostname: junitHost(r.Meta.Target)}
		for _, s := range byArea[a] {
			c := junitCase{Name: junitCaseName(s), Classname: "conformance." + a, Time: junitSeconds(s.Duration)}
			switch s.Status {
			case Failed:
				exp, exchanges := readableMessage(s)
				text := strings.Join(append([]string{exp}, exchanges...), "\n\n")
				if s.Requests != "" {
					text += "\n\nEvery request the spec made:\n" + s.Requests
				}
				c.Failure = &junitProblem{Message: failureSummary(exp), Type: "rule failed", Text: xmlSafe(text)}
				suite.Failures++
			case Errored:
				c.Error = &junitProblem{Message: clipRunes(firstLine(s.Message), 200), Type: "error", Text: xmlSafe(s.Message)}
				suite.Errors++
			case NotChecked:
				c.Skipped = &junitSkipped{Message: NotCheckedPrefix + s.Message}
				suite.Skipped++
			case Passed:
				// A pass of a rule only partly checked says so.
				c.SystemOut = partlyCheckedOf(partly, s)
			}
			suite.Tests++
			suite.Time += junitSeconds(s.Duration)
			suite.Cases = append(suite.Cases, c)
		}
		out.Tests += suite.Tests
		out.Failures += suite.Failures
		out.Errors += suite.Errors
		out.Suites = append(out.Suites, suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// partlyCheckedOf says, for a passed spec, which of its rules passed only
// partly ("" when none did); partly is the run's PartlyChecked, listed once
// for every spec.
func partlyCheckedOf(partly []RuleResult, s SpecResult) string {
	var lines []string
	for _, rr := range partly {
		for _, id := range s.Rules {
			if id == rr.ID {
				lines = append(lines, rr.ID+" "+rr.Partial.Summary())
			}
		}
	}
	return xmlSafe(strings.Join(lines, "\n"))
}

// xmlSafe replaces the characters XML 1.0 does not allow, which a CDATA
// section cannot escape (a target's body may hold any byte).
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

// junitCaseName is the spec's text, which starts "[RULE-ID] ..." when it
// checks one rule; the IDs are added in front when the text lacks one, so
// CI tools that show names only still show every rule.
func junitCaseName(s SpecResult) string {
	var missing []string
	for _, id := range s.Rules {
		if !strings.Contains(s.Name, "["+id+"]") {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return s.Name
	}
	return "[" + strings.Join(missing, ", ") + "] " + s.Name
}

// junitHost is the testsuite's hostname: the target's host. The run is
// about that host; the machine the suite ran on is in the CI job's log.
func junitHost(target string) string {
	if u, err := url.Parse(target); err == nil && u.Host != "" {
		return u.Host
	}
	return "localhost"
}

// junitProperties describe the run on every <testsuite>: what was checked,
// how, when, with which selection, and the diagnosis if any.
func (r *Run) junitProperties() []junitProperty {
	m := r.Meta
	props := []junitProperty{{"target", m.Target}, {"mode", m.Mode}, {"suiteVersion", m.SuiteVersion},
		{"runId", m.RunID}, {"date", m.Started.UTC().Format(time.RFC3339)}}
	if m.LabelFilter != "" {
		props = append(props, junitProperty{"labelFilter", m.LabelFilter})
	}
	for _, f := range m.Focus {
		props = append(props, junitProperty{"focus", f})
	}
	for _, s := range m.Skip {
		props = append(props, junitProperty{"skip", s})
	}
	if m.RerunOf != "" {
		props = append(props, junitProperty{"rerunOf", m.RerunOf})
	}
	props = append(props, junitProperty{"verdict", r.Verdict})
	if r.Diagnosis != nil {
		props = append(props, junitProperty{"diagnosis", r.Diagnosis.Line})
	}
	return props
}
