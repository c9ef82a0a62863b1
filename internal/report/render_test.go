package report

import (
	"bytes"
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

// A run that fails everything with big exchanges still fits a GitHub job
// summary (1 MiB), keeping every failure's expectation.
func TestMarkdownFitsJobSummary(t *testing.T) {
	r := &Run{Verdict: "FAIL"}
	big := exchange("GET", "/api/pages", 200, "OK", strings.Repeat("x", 20000))
	for i := 0; i < 400; i++ {
		id := "PAGE-RULE-" + strings.Repeat("X", i%7) + string(rune('A'+i%26)) + strings.Repeat("Y", i/26)
		r.Specs = append(r.Specs, SpecResult{Name: id, Status: Failed, Message: "Expected: HTTP 404\nGot: HTTP 200\n\n" + big, Requests: "#1\n" + big})
		r.Rules = append(r.Rules, RuleResult{ID: id, Area: "pages", Status: Failed, Specs: []int{i}})
		r.Counts.Failed++
	}
	out := string(render(t, func(b *bytes.Buffer) error { return r.WriteMarkdown(b) }))
	if len(out) > 1<<20 {
		t.Fatalf("the Markdown report is %d bytes, over a job summary's 1 MiB", len(out))
	}
	if n := strings.Count(out, "Got: HTTP 200"); n < 400 {
		t.Errorf("only %d of 400 expectations shown", n)
	}
	if !strings.Contains(out, "left out to keep this summary under GitHub's size limit") {
		t.Error("no note says exchanges were left out")
	}
}
