package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/verdict"
)

func TestPrettyJSONMarksPathsAndEscapes(t *testing.T) {
	in := `{"status":"0","data":{"tags":"a,b","list":[1,{"x":"</mark><script>"}],"e":{}},"meta":{"total":2}}`
	got := prettyJSON(in, map[string]bool{"data.tags": true, "data.list[1]": true, "meta.total": true})
	want := `{
  "status": "0",
  "data": {
    <mark>"tags": "a,b"</mark>,
    "list": [
      1,
      <mark>{</mark>
        "x": "&lt;/mark&gt;&lt;script&gt;"
      }
    ],
    "e": {}
  },
  "meta": {
    <mark>"total": 2</mark>
  }
}`
	got = strings.ReplaceAll(got, "&#34;", `"`)
	if got != want {
		t.Errorf("prettyJSON =\n%s\nwant\n%s", got, want)
	}
}

// A body the client cut mid-way prints as far as it goes.
func TestPrettyJSONOfACutBody(t *testing.T) {
	got := strings.ReplaceAll(prettyJSON(`{"data":[{"key":"a","tags":"x"},{"key":"b","ti`, map[string]bool{"data[0].tags": true}), "&#34;", `"`)
	for _, want := range []string{`<mark>"tags": "x"</mark>`, "      \"key\": \"b\",\n      \"ti"} {
		if !strings.Contains(got, want) {
			t.Errorf("prettyJSON of a cut body lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "<mark>") != strings.Count(got, "</mark>") {
		t.Errorf("a <mark> is left open:\n%s", got)
	}
}

func TestExchangeHTML(t *testing.T) {
	body := `{"data":{"tags":"<b>"},"more":"` + strings.Repeat("x", 40)
	ex := "request:  GET http://x/api/pages?token=${CONFORMANCE_TOKEN}\nresponse: 200 OK (1ms)\n          Content-Type: application/json\n" +
		"          body: " + body[:30] + " …[9000 bytes in all]\nretried:  once"
	// The spec's exchange as data holds more of the body than its text
	// shows: what follows the shared part is the client's note.
	data := []verdict.Exchange{{Seq: 1, Body: body}, {Seq: 2, Body: `{"other":1}`}}
	got := strings.ReplaceAll(string(exchangeHTML(ex, data, []string{"data.tags"})), "&#34;", `"`)
	for _, want := range []string{
		"          body: <span class=\"json\">{\n              \"data\": {\n                <mark>\"tags\": \"&lt;b&gt;\"</mark>",
		"</span> …[9000 bytes in all]\nretried:  once",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("exchangeHTML lacks %q:\n%s", want, got)
		}
	}
	// Without data, a body that is not whole JSON is shown as text.
	plain := string(exchangeHTML(ex, nil, []string{"data.tags"}))
	if strings.Contains(plain, "<mark>") || strings.Contains(plain, `class="json"`) || !strings.Contains(plain, " …[9000 bytes in all]") {
		t.Errorf("exchangeHTML without data:\n%s", plain)
	}
}

// A schema failure's offending path is marked because its fact names it
// (Fact.Field), not because the report reads the failure's text: the
// text here names no path at all.
func TestSchemaPathMarkedFromFact(t *testing.T) {
	body := `{"status":"0","message":"List","data":[{"key":"a","tags":"x"},{"key":"b","tags":{}}]}`
	ex := "request:  GET http://x/api/pages\nresponse: 200 OK (1ms)\n          body: " + body + "\nreproduce: curl -sS -i http://x/api/pages"
	spec := SpecResult{Name: "[PAGE-LIST-SHAPE] list", Rules: []string{"PAGE-LIST-SHAPE"}, Status: Failed,
		Message:   "Expected: a body matching schema page-list.json\nGot: one page's tags are wrong\n\n" + ex,
		Facts:     []verdict.Fact{{Expected: "a body matching schema page-list.json", Status: 200, Seq: 1, Field: "data[0].tags"}},
		Exchanges: []verdict.Exchange{{Seq: 1, Method: "GET", Path: "/api/pages", Status: 200, Body: body}}}
	run := &Run{Specs: []SpecResult{spec}, Rules: []RuleResult{{ID: "PAGE-LIST-SHAPE", Status: Failed, Specs: []int{0}}}}
	var b bytes.Buffer
	if err := run.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	out := strings.ReplaceAll(b.String(), "&#34;", `"`)
	if strings.Count(out, "<mark>") != 1 || !strings.Contains(out, `<mark>"tags": "x"</mark>`) {
		t.Errorf("the HTML report does not mark data[0].tags alone:\n%s", out[strings.Index(out, "<pre class=\"exchange\">"):])
	}
}

// The reports show plain Gomega failures through the facts the framework
// records: no Go types reach them, however Gomega rendered the values.
func TestGomegaFailureShownInWords(t *testing.T) {
	rendered := "Expected\n    <[]string | len:2, cap:2>: [\"a is wrong\", \"b is wrong\"]\nto be empty"
	s := SpecResult{Status: Failed, Message: "every page is right\n" + rendered,
		Facts: []verdict.Fact{{Expected: "it to be empty", Got: "2 items:\n  - a is wrong\n  - b is wrong", Rendered: rendered}}}
	exp, _ := readableMessage(s)
	want := "every page is right\nGot: 2 items:\n  - a is wrong\n  - b is wrong\nExpected it to be empty"
	if exp != want {
		t.Errorf("readableMessage = %q, want %q", exp, want)
	}
}
