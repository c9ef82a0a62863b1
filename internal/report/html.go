package report

import (
	_ "embed"
	"html/template"
	"io"
	"strings"
)

// The HTML report is one file with inline CSS, one small inline script
// (the copy buttons) and no remote resource, so it can be attached to a CI
// run and opened offline.
//
//go:embed report.html.tmpl
var htmlSource string

func htmlTemplate() (*template.Template, error) {
	return template.New("report").Funcs(template.FuncMap{
		"inc":          func(i int) int { return i + 1 },
		"exchange":     exchangeHTML,
		"coverageHTML": coverageHTML,
		"failedStatus": func(s Status) bool { return s == Failed || s == Errored },
		"lineCount":    func(s string) int { return strings.Count(s, "\n") + 1 },
		"verdictWord": func(outcome string) string {
			switch outcome {
			case "pass":
				return "PASS"
			case "fail":
				return "FAIL"
			}
			return "INCOMPLETE"
		},
	}).Parse(htmlSource)
}

// WriteHTML writes the self-contained HTML report. html/template escapes
// everything the target sent (bodies, headers, messages).
func (r *Run) WriteHTML(w io.Writer) error {
	t, err := htmlTemplate()
	if err != nil {
		return err
	}
	return t.Execute(w, newView(r))
}
