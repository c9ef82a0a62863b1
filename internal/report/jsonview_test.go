package report

import (
	"slices"
	"strings"
	"testing"
)

func TestOffendingPaths(t *testing.T) {
	for exp, want := range map[string][]string{
		"Expected: a body matching schema tag-response.json\nGot:\n  data.pages[0].tags: expected object, got string": {"data.pages[0].tags"},
		"every list item matches\n3 found:\n  - data[0] (key a): tags: expected object, got string":                   {"data[0].tags"},
		"data of GET /api/pages/x matches schema page.json\n1 found:\n  - category: expected string, got boolean":     {"data.category"},
		"meta.hasMore is true exactly when later pages hold pages":                                                    {"meta.hasMore"},
		"Expected: HTTP 404\nGot: HTTP 200": nil,
	} {
		if got := offendingPaths(exp); !slices.Equal(got, want) {
			t.Errorf("offendingPaths(%q) = %q, want %q", exp, got, want)
		}
	}
}

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
	ex := "request:  GET http://x/api/pages?token=${CONFORMANCE_TOKEN}\nresponse: 200 OK (1ms)\n          Content-Type: application/json\n" +
		"          body: {\"data\":{\"tags\":\"<b>\"}} …[9000 bytes in all]\nretried:  once"
	got := strings.ReplaceAll(string(exchangeHTML(ex, []string{"data.tags"})), "&#34;", `"`)
	for _, want := range []string{
		"          body: <span class=\"json\">{\n              \"data\": {\n                <mark>\"tags\": \"&lt;b&gt;\"</mark>",
		"</span> …[9000 bytes in all]\nretried:  once",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("exchangeHTML lacks %q:\n%s", want, got)
		}
	}
}
