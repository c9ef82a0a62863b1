package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The HTML report must work offline and show what the target sent as
// text: no script, no stylesheet or image fetched, bodies escaped.
func TestHTMLSelfContainedAndEscaped(t *testing.T) {
	out := string(render(t, func(b *bytes.Buffer) error { return fixtureRun(t).WriteHTML(b) }))
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "@import", "url(", " src="} {
		if strings.Contains(out, bad) {
			t.Errorf("the HTML report holds %q", bad)
		}
	}
	if !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("a body holding <script> is not shown escaped")
	}
	// Links only point inside the document.
	for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if !strings.HasPrefix(m[1], "#") {
			t.Errorf("link to %q", m[1])
		}
	}
}

func TestMarkdownEscapesTargetContent(t *testing.T) {
	for in, want := range map[string]string{
		"a | b":              `a \| b`,
		"<b>x</b>":           "&lt;b&gt;x&lt;/b&gt;",
		"[link](http://x)":   `\[link\](http://x)`,
		"*bold* _it_ `code`": "\\*bold\\* \\_it\\_ \\`code\\`",
		"two\nlines":         "two lines",
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
	// A body with a fence cannot close the block it is shown in.
	block := mdBlock("http", "body: ```\n````x")
	if !strings.HasPrefix(block, "`````http\n") || !strings.HasSuffix(block, "\n`````\n") {
		t.Errorf("fence not longer than the content's: %q", block)
	}
	if got := mdCode("a`b|c"); got != "``a`b\\|c``" {
		t.Errorf("mdCode = %q", got)
	}
}

// A run that fails everything with big exchanges still fits a pull-request
// comment: at most MarkdownLimit bytes, well-formed, every failed rule
// named, and a note pointing to the full reports.
func TestMarkdownFitsAPullRequestComment(t *testing.T) {
	// The catalogue has about a hundred rules: up to 150 failures are all
	// named; 400 must still fit.
	for _, n := range []int{1, 30, 150, 400} {
		r := &Run{Verdict: "FAIL", Cleanup: Cleanup{PagesLeft: []string{"conformance-x-left"}}}
		big := exchange("GET", "/api/pages", 200, "OK", strings.Repeat("x", 20000))
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("PAGE-RULE-%03d", i)
			r.Specs = append(r.Specs, SpecResult{Name: id, Status: Failed, Message: "Expected: HTTP 404\nGot: HTTP 200\n\n" + big, Requests: "#1\n" + big})
			r.Rules = append(r.Rules, RuleResult{ID: id, Area: "pages", Status: Failed, Specs: []int{i}})
			r.Counts.Failed++
		}
		out := string(render(t, func(b *bytes.Buffer) error { return r.WriteMarkdown(b) }))
		if len(out) > MarkdownLimit {
			t.Errorf("%d failures: the Markdown report is %d bytes, over %d", n, len(out), MarkdownLimit)
		}
		for i := 0; i < min(n, 150); i++ {
			if id := fmt.Sprintf("PAGE-RULE-%03d", i); !strings.Contains(out, id) {
				t.Errorf("%d failures: %s is not named", n, id)
			}
		}
		if !strings.Contains(out, "conformance-x-left") {
			t.Errorf("%d failures: what the run left on the target was cut", n)
		}
		if strings.Count(out, "<details>") != strings.Count(out, "</details>") || strings.Count(out, "```")%2 != 0 {
			t.Errorf("%d failures: a block is left open", n)
		}
		cut := strings.Contains(out, "The HTML and JSON reports (--html-report, --json-report) have everything")
		if cut != (n > 1) {
			t.Errorf("%d failures: note on the cut shown = %v, want %v", n, cut, n > 1)
		}
		if n == 1 && !strings.Contains(out, "<summary>Exchange") {
			t.Error("one failure: its exchange was left out though it fits")
		}
	}
}
