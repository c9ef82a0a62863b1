// Package junitxml is the shape of a JUnit XML document, as both JUnit
// reports write it (a run's, internal/report, and a fleet's,
// internal/fleet/summary): the schema strict consumers check against
// (Jenkins' junit-10.xsd, with the attributes the Ant schema requires on a
// testsuite): no properties inside a testcase, timestamp and hostname on
// every testsuite, times in seconds with three decimals.
// internal/report/testdata/junit.xsd is that schema.
package junitxml

import (
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Suite is one <testsuite>.
type Suite struct {
	XMLName    xml.Name   `xml:"testsuite"`
	Name       string     `xml:"name,attr"`
	Tests      int        `xml:"tests,attr"`
	Failures   int        `xml:"failures,attr"`
	Errors     int        `xml:"errors,attr"`
	Skipped    int        `xml:"skipped,attr"`
	Time       Seconds    `xml:"time,attr"`
	Timestamp  string     `xml:"timestamp,attr"`
	Hostname   string     `xml:"hostname,attr"`
	ID         int        `xml:"id,attr"`
	Package    string     `xml:"package,attr"`
	Properties []Property `xml:"properties>property"`
	Cases      []Case     `xml:"testcase"`
}

// Property is one <property> of a suite.
type Property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// Props are the properties named and valued by pairs: name, value, name,
// value, ...
func Props(pairs ...string) []Property {
	props := make([]Property, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		props = append(props, Property{Name: pairs[i], Value: pairs[i+1]})
	}
	return props
}

// Case is one <testcase>: passed, or skipped, errored or failed with a
// Message.
type Case struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	Time      Seconds  `xml:"time,attr"`
	Skipped   *Message `xml:"skipped,omitempty"`
	Error     *Message `xml:"error,omitempty"`
	Failure   *Message `xml:"failure,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// Message is a <skipped>, <error> or <failure>: a message, its type, and
// a text whose line breaks are kept as they are, for people reading the
// file.
type Message struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

// Seconds is a duration as JUnit writes it: seconds, rounded to the
// millisecond ("0.125").
type Seconds time.Duration

// MarshalXMLAttr implements xml.MarshalerAttr.
func (s Seconds) MarshalXMLAttr(name xml.Name) (xml.Attr, error) {
	return xml.Attr{Name: name, Value: s.String()}, nil
}

// String is the duration as the attribute shows it.
func (s Seconds) String() string {
	ms := time.Duration(s).Round(time.Millisecond).Milliseconds()
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}

// UnmarshalXMLAttr implements xml.UnmarshalerAttr.
func (s *Seconds) UnmarshalXMLAttr(attr xml.Attr) error {
	d, err := time.ParseDuration(attr.Value + "s")
	*s = Seconds(d)
	return err
}

// Safe replaces the characters XML 1.0 does not allow, which a CDATA
// section cannot escape (a target's body may hold any byte).
func Safe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r',
			r >= 0x20 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
			return r
		}
		return '\uFFFD'
	}, s)
}

// Host is a suite's hostname: the target's host. The run is about that
// host; the machine the suite ran on is in the CI job's log.
func Host(target string) string {
	if u, err := url.Parse(target); err == nil && u.Host != "" {
		return u.Host
	}
	return "localhost"
}
