package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// consoleRun is a run where one field of the wrong kind breaks three
// rules, with the exchange each failure printed, and many rules not
// checked for one reason.
func consoleRun() *Run {
	b := newFailedRun()
	for i, id := range []string{"PAGE-LIST-SHAPE", "PAGE-GET-SHAPE", "PAGE-EDIT-OK"} {
		ex := answer(10+i, "GET", "/api/pages/p"+id, 200, `{"data":{"key":"a","tags":"News"}}`)
		b.fail(id, []verdict.Exchange{ex, answer(20+i, "GET", "/api/other", 200, `{}`)},
			schemaFact(ex, "data.tags", "expected object, got string", "object"))
		b.run.Specs[i].Message = "Expected: a body matching schema page.json\nGot:\n  data.tags: expected object, got string\n\n" +
			"request:  GET http://127.0.0.1:8080/api/pages/p" + id + "?token=${CONFORMANCE_TOKEN}\n" +
			"response: 200 OK (1ms)\n          body: {\"data\":{\"key\":\"a\",\"tags\":\"News\"}}\n" +
			"reproduce: curl -sS -i \"http://127.0.0.1:8080/api/pages/p" + id + "?token=${CONFORMANCE_TOKEN}\"\n"
	}
	for _, id := range []string{"A-RULE-WITH-A-LONG-ID-1", "A-RULE-WITH-A-LONG-ID-2", "A-RULE-WITH-A-LONG-ID-3", "A-RULE-WITH-A-LONG-ID-4",
		"A-RULE-WITH-A-LONG-ID-5", "A-RULE-WITH-A-LONG-ID-6", "A-RULE-WITH-A-LONG-ID-7", "A-RULE-WITH-A-LONG-ID-8"} {
		b.run.Rules = append(b.run.Rules, RuleResult{ID: id, Area: "pages", Section: "4", Text: "text", Status: NotChecked, Reason: "read-only run"})
		b.run.Counts.NotChecked++
	}
	b.run.Verdict = "FAIL: the target breaks 3 rule(s) of the spec; 0 passed, 8 not checked."
	return b.run
}

func consoleText(r *Run, o ConsoleOptions) string {
	var b bytes.Buffer
	r.WriteConsole(&b, o)
	return b.String()
}

func TestConsoleGroupsByCause(t *testing.T) {
	out := consoleText(consoleRun(), ConsoleOptions{Width: 80})
	for _, want := range []string{"Failed rules by cause (1 cause behind 3 rules):", "✗ data.tags is a string where the spec wants an object",
		"      PAGE-LIST-SHAPE ", "      PAGE-EDIT-OK ", "Not checked (8 rules):", "8 rules: read-only run", "A-RULE-WITH-A-LONG-ID-2 and 6 more"} {
		if !strings.Contains(out, want) {
			t.Errorf("the console lacks %q:\n%s", want, out)
		}
	}
	for _, gone := range []string{"request:", "reproduce:", "\x1b["} {
		if strings.Contains(out, gone) {
			t.Errorf("the console shows %q without --verbose or colour:\n%s", gone, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 && !strings.HasPrefix(l, "Conformance of") {
			t.Errorf("a line of %d columns on a console of 80: %q", n, l)
		}
	}
}

// --verbose adds each failure's exchange once, with its curl line, and
// names the spec's other requests in one line.
func TestConsoleVerbose(t *testing.T) {
	out := consoleText(consoleRun(), ConsoleOptions{Verbose: true})
	if n := strings.Count(out, "request:  GET"); n != 3 {
		t.Errorf("%d exchanges shown, want each of the 3 once:\n%s", n, out)
	}
	for _, want := range []string{"reproduce: curl -sS -i \"http://127.0.0.1:8080/api/pages/pPAGE-EDIT-OK?token=${CONFORMANCE_TOKEN}\"",
		"its other requests: #22 GET /api/other → 200", "── PAGE-EDIT-OK spec"} {
		if !strings.Contains(out, want) {
			t.Errorf("the verbose console lacks %q:\n%s", want, out)
		}
	}
}

func TestConsoleColour(t *testing.T) {
	if out := consoleText(consoleRun(), ConsoleOptions{Color: true}); !strings.Contains(out, red+bold+"FAIL") {
		t.Errorf("no colour on the verdict:\n%q", out)
	}
}

func TestIDList(t *testing.T) {
	ids := []string{"AAAA", "BBBB", "CCCC", "DDDD"}
	for width, want := range map[int]string{100: "AAAA, BBBB, CCCC, DDDD", 20: "AAAA and 3 more", 5: "4 rules"} {
		if got := idList(ids, width); got != want {
			t.Errorf("idList at %d columns = %q, want %q", width, got, want)
		}
	}
}
