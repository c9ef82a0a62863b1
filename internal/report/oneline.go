package report

import (
	"html/template"
	"strings"
)

// What summaries of many runs (conformance fleet) take from a run's
// report to look and read as the run's own reports do.

// FailureLine is a failed or errored spec's message in one short line, as
// the JUnit report's failure@message says it.
func (s SpecResult) FailureLine() string {
	if s.Status == Errored {
		return clipRunes(firstLine(s.Message), 200)
	}
	exp, _ := readableMessage(s)
	return failureSummary(exp)
}

// HTMLStyle is the HTML report's style sheet, for other pages of the
// suite to look like it.
func HTMLStyle() template.CSS {
	_, css, _ := strings.Cut(htmlSource, "<style>")
	css, _, _ = strings.Cut(css, "</style>")
	return template.CSS(css)
}
