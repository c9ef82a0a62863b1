package report

import (
	"encoding/xml"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/report/junitxml"
)

// The JUnit report follows the schema strict consumers check against
// (junitxml): no properties inside a testcase, so the rule IDs are in each
// case's name.

type junitSuites struct {
	XMLName  xml.Name         `xml:"testsuites"`
	Comment  xml.Comment      `xml:",comment"`
	Name     string           `xml:"name,attr"`
	Tests    int              `xml:"tests,attr"`
	Failures int              `xml:"failures,attr"`
	Errors   int              `xml:"errors,attr"`
	Time     junitxml.Seconds `xml:"time,attr"`
	Suites   []junitxml.Suite `xml:"testsuite"`
}

// WriteJUnit writes one <testsuite> per area and one <testcase> per spec,
// named with its rule IDs; no setup nodes, no timelines for passed specs.
func (r *Run) WriteJUnit(w io.Writer) error {
	byArea := map[string][]SpecResult{}
	for _, s := range r.Specs {
		byArea[s.Area] = append(byArea[s.Area], s)
	}
	areas := slices.Sorted(maps.Keys(byArea))
	out := junitSuites{Name: "conformance " + r.Meta.Target, Time: junitxml.Seconds(r.Meta.Duration)}
	if r.Diagnosis != nil {
		// A comment at the top, for a person opening the file; CI tools
		// read the diagnosis property.
		out.Comment = xml.Comment(" " + strings.ReplaceAll(r.Diagnosis.Line, "--", "- -") + " ")
	}
	props := r.junitProperties()
	partly := r.PartlyChecked()
	for i, a := range areas {
		suite := junitxml.Suite{Name: a, ID: i, Package: "conformance", Properties: props,
			Timestamp: r.Meta.Started.UTC().Format("2006-01-02T15:04:05"), Hostname: junitxml.Host(r.Meta.Target)}
		for _, s := range byArea[a] {
			c := junitxml.Case{Name: junitCaseName(s), Classname: "conformance." + a, Time: junitxml.Seconds(s.Duration)}
			switch s.Status {
			case Failed:
				exp, exchanges := readableMessage(s)
				text := strings.Join(append([]string{exp}, exchanges...), "\n\n")
				if s.Requests != "" {
					text += "\n\nEvery request the spec made:\n" + s.Requests
				}
				c.Failure = &junitxml.Message{Message: failureSummary(exp), Type: "rule failed", Text: junitxml.Safe(text)}
				suite.Failures++
			case Errored:
				c.Error = &junitxml.Message{Message: clipRunes(firstLine(s.Message), 200), Type: "error", Text: junitxml.Safe(s.Message)}
				suite.Errors++
			case NotChecked:
				c.Skipped = &junitxml.Message{Message: NotCheckedPrefix + s.Message}
				suite.Skipped++
			case Passed:
				// A pass of a rule only partly checked says so.
				c.SystemOut = partlyCheckedOf(partly, s)
			}
			suite.Tests++
			suite.Time += junitxml.Seconds(s.Duration)
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
	return junitxml.Safe(strings.Join(lines, "\n"))
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

// junitProperties describe the run on every <testsuite>: what was checked,
// how, when, with which selection, and the diagnosis if any.
func (r *Run) junitProperties() []junitxml.Property {
	m := r.Meta
	props := junitxml.Props("target", m.Target, "mode", m.Mode, "suiteVersion", m.SuiteVersion,
		"runId", m.RunID, "date", m.Started.UTC().Format(time.RFC3339))
	if m.LabelFilter != "" {
		props = append(props, junitxml.Props("labelFilter", m.LabelFilter)...)
	}
	for _, f := range m.Focus {
		props = append(props, junitxml.Props("focus", f)...)
	}
	for _, s := range m.Skip {
		props = append(props, junitxml.Props("skip", s)...)
	}
	if m.RerunOf != "" {
		props = append(props, junitxml.Props("rerunOf", m.RerunOf)...)
	}
	props = append(props, junitxml.Props("verdict", r.Verdict)...)
	if r.Diagnosis != nil {
		props = append(props, junitxml.Props("diagnosis", r.Diagnosis.Line)...)
	}
	return props
}
