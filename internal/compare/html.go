package compare

import (
	"html/template"
	"io"
	"strings"

	"github.com/conformance-suite/conformance/internal/report"
)

// The HTML page is one file with its style inline and no script, so it
// opens offline and from an artifact as it is.
var page = template.Must(template.New("compare").Funcs(template.FuncMap{
	"verdict": func(s report.Status) string {
		icon, words := verdictText(s)
		return strings.TrimSpace(icon + " " + words)
	},
	"join": strings.Join,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance of {{len .M.Columns}} runs compared</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #1f2328; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
code { font-family: ui-monospace, monospace; }
td.passed { background: #dafbe1; }
td.failed { background: #ffebe9; }
td.error { background: #fff8c5; }
td.not-checked, td.not-testable, td.absent { color: #59636e; }
tr.differs th, tr.differs td:first-child { background: #fff1b8; }
tr.differs td.mark { font-weight: bold; }
</style>
</head>
<body>
<h1>Conformance of {{len .M.Columns}} runs compared</h1>
<table>
<tr><th>Run</th>{{range .M.Columns}}<th>{{.Label}}</th>{{end}}</tr>
<tr><th>Target</th>{{range .M.Columns}}<td><code>{{.Target}}</code></td>{{end}}</tr>
<tr><th>Suite version</th>{{range .M.Columns}}<td><code>{{.SuiteVersion}}</code></td>{{end}}</tr>
<tr><th>Mode</th>{{range .M.Columns}}<td>{{.Mode}}</td>{{end}}</tr>
<tr><th>Date</th>{{range .M.Columns}}<td>{{.Date}}</td>{{end}}</tr>
<tr><th>Filters</th>{{range .M.Columns}}<td>{{join .Filters "; "}}</td>{{end}}</tr>
<tr><th>Verdict</th>{{range .M.Columns}}<td>{{.Verdict}}</td>{{end}}</tr>
</table>
<h2>Totals</h2>
<table>
<tr><th>Rules</th>{{range .M.Columns}}<th>{{.Label}}</th>{{end}}</tr>
{{range .Totals}}<tr><th>{{verdict .Status}}</th>{{range .Counts}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
<h2>Rules</h2>
<p><strong>{{.M.Differing}} of {{len .M.Rows}} rules differ between the runs</strong> (marked ≠, highlighted).{{if .Hidden}} The {{.Hidden}} rules with the same verdict in every run are not shown.{{end}}</p>
<table>
<tr><th>≠</th><th>Rule</th><th>§</th>{{range .M.Columns}}<th>{{.Label}}</th>{{end}}</tr>
{{range .Rows}}<tr{{if .Differs}} class="differs"{{end}}><td class="mark">{{if .Differs}}≠{{end}}</td><td><code>{{.ID}}</code><br><small>{{.Text}}</small></td><td>{{.Section}}</td>{{range .Cells}}<td class="{{.}}">{{verdict .}}</td>{{end}}</tr>
{{end}}</table>
</body>
</html>
`))

// WriteHTML writes the matrix as one self-contained HTML page.
func (m *Matrix) WriteHTML(w io.Writer, o Options) error {
	type total struct {
		Status report.Status
		Counts []int
	}
	var totals []total
	for _, t := range totalLines {
		row := total{Status: t.status}
		for _, c := range m.Columns {
			row.Counts = append(row.Counts, t.count(c.Totals))
		}
		totals = append(totals, row)
	}
	rows := m.shown(o)
	return page.Execute(w, struct {
		M      *Matrix
		Totals []total
		Rows   []Row
		Hidden int
	}{m, totals, rows, len(m.Rows) - len(rows)})
}
