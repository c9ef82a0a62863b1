package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The HTML report must work offline and show what the target sent as
// text: no stylesheet or image fetched, no script but its own inline one
// (the copy buttons), bodies escaped.
func TestHTMLSelfContainedAndEscaped(t *testing.T) {
	out := string(render(t, func(b *bytes.Buffer) error { return fixtureRun(t).WriteHTML(b) }))
	for _, bad := range []string{"<link", "<img", "<iframe", "@import", "url(", " src="} {
		if strings.Contains(out, bad) {
			t.Errorf("the HTML report holds %q", bad)
		}
	}
	if n := strings.Count(out, "<script"); n != 1 {
		t.Errorf("the HTML report holds %d scripts, want its own one", n)
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

// Every rule chip is a link, and every link inside the report lands on
// exactly one element.
func TestHTMLEveryChipLinksToAnAnchor(t *testing.T) {
	for name, run := range map[string]*Run{"fixture": fixtureRun(t), "legacy": legacyRun(t)} {
		out := string(render(t, func(b *bytes.Buffer) error { return run.WriteHTML(b) }))
		ids := map[string]int{}
		for _, m := range regexp.MustCompile(` id="([^"]*)"`).FindAllStringSubmatch(out, -1) {
			ids[m[1]]++
		}
		for id, n := range ids {
			if n > 1 {
				t.Errorf("%s: id %q is used %d times", name, id, n)
			}
		}
		for _, m := range regexp.MustCompile(`href="#([^"]*)"`).FindAllStringSubmatch(out, -1) {
			if ids[m[1]] != 1 {
				t.Errorf("%s: the link to #%s lands nowhere", name, m[1])
			}
		}
		// The legend's chips explain the colours; every other chip is a rule.
		body := out[strings.Index(out, "</div>\n<table class=\"grid\">"):]
		for _, m := range regexp.MustCompile(`<(\w+) class="chip [^"]*"[^>]*>([A-Z][A-Z0-9-]+)<`).FindAllStringSubmatch(body, -1) {
			if m[1] != "a" && !strings.Contains(m[0], "chip "+string(Passed)) && !strings.Contains(m[0], "not-testable\">not") {
				t.Errorf("%s: the chip of %s is a <%s>, not a link", name, m[2], m[1])
			}
		}
		for _, rr := range run.Rules {
			if ids["rule-"+rr.ID] != 1 {
				t.Errorf("%s: rule %s has no anchor", name, rr.ID)
			}
		}
	}
}

// What the HTML shows under "Expected" is words, not Go's types; JSON
// bodies are indented; each curl line is shown once, with a copy button.
func TestHTMLFailureReadsWell(t *testing.T) {
	out := string(render(t, func(b *bytes.Buffer) error { return fixtureRun(t).WriteHTML(b) }))
	for _, internal := range []string{"&lt;float64&gt;", "| len:", "&lt;[]string"} {
		if strings.Contains(out, internal) {
			t.Errorf("the HTML report shows Gomega's %q", internal)
		}
	}
	if !strings.Contains(out, "Got: 200\nExpected it to equal 404") {
		t.Error("the Gomega comparison is not put in words")
	}
	if !strings.Contains(out, "body: <span class=\"json\">{\n") || !strings.Contains(out, "  &#34;status&#34;: &#34;1&#34;,\n") {
		t.Error("JSON bodies are not indented")
	}
	for _, sec := range strings.Split(out, "<section class=\"failure")[1:] {
		for _, m := range regexp.MustCompile(`<pre class="curl" id="([^"]+)">([^<]*)</pre><button type="button" class="copy" data-copy="([^"]+)">`).FindAllStringSubmatch(sec, -1) {
			if m[1] != m[3] {
				t.Errorf("the copy button copies #%s, not its curl line #%s", m[3], m[1])
			}
			for _, line := range strings.Split(m[2], "\n") {
				if n := strings.Count(sec, line); n != 1 {
					t.Errorf("the curl line %q is shown %d times in its failure", line, n)
				}
			}
		}
	}
	if n := strings.Count(out, `class="copy"`); n != strings.Count(out, `<pre class="curl"`) || n == 0 {
		t.Errorf("%d copy buttons for %d curl blocks", n, strings.Count(out, `<pre class="curl"`))
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
