package summary

import (
	"bufio"
	_ "embed"
	"html/template"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/runner"
)

// The HTML summary is one file with the single run's style sheet
// (report.HTMLStyle) and no script, so it looks like the sites' own
// reports, opens offline and links to each of them.
//
//go:embed fleet.html.tmpl
var htmlSource string

var page = template.Must(template.New("fleet").Parse(htmlSource))

type htmlHead struct {
	F       *Fleet
	Style   template.CSS
	Word    string
	Class   string // the verdict's colour: pass, fail, incomplete
	Date    string
	Other   int
	Failing []Rule
}

type htmlRow struct {
	S      Site
	Words  string
	Link   string
	Failed []htmlRule
}

type htmlRule struct {
	ID, Why string
	Status  report.Status
}

// WriteHTML writes the HTML summary, one site's row at a time.
func (s *Summary) WriteHTML(w io.Writer) error {
	bw := bufio.NewWriter(w)
	head := htmlHead{F: &s.Fleet, Style: report.HTMLStyle(), Word: "FAIL", Class: "fail",
		Date:  report.Meta{Started: s.Started}.Date(),
		Other: s.Counts.Incomplete + s.Counts.Crashed + s.Counts.NotRun + s.Counts.UsageError}
	switch s.Exit {
	case runner.ExitPass:
		head.Word, head.Class = "PASS", "pass"
	case runner.ExitCouldNotFinish:
		head.Word, head.Class = "COULD NOT FINISH", "incomplete"
	}
	for _, r := range s.Rules {
		if r.Failed > 0 {
			head.Failing = append(head.Failing, r)
		}
	}
	if err := page.ExecuteTemplate(bw, "head", head); err != nil {
		return err
	}
	err := s.Each(func(site Site) error {
		row := htmlRow{S: site, Words: site.Outcome.Words(), Link: link(site.Reports)}
		for _, r := range s.Rules {
			if st := site.Rules[r.ID]; st == report.Failed || st == report.Errored {
				row.Failed = append(row.Failed, htmlRule{ID: r.ID, Why: site.Failures[r.ID], Status: st})
			}
		}
		return page.ExecuteTemplate(bw, "row", row)
	})
	if err != nil {
		return err
	}
	if err := page.ExecuteTemplate(bw, "foot", head); err != nil {
		return err
	}
	return bw.Flush()
}

// link is the site's own report to link to, as a relative URL: its HTML
// report, else its JSON report, else what its run printed.
func link(r Reports) string {
	for _, p := range []string{r.HTML, r.JSON, r.Console} {
		if p == "" {
			continue
		}
		segs := strings.Split(filepath.ToSlash(p), "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		return strings.Join(segs, "/")
	}
	return ""
}
