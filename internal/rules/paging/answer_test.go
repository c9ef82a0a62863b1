package paging

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// listAnswer is a 200 of the page list holding n pages, with numberOfItems
// size and meta total, page, pageSize (size when 0) and hasMore.
func listAnswer(n, size, total, page, pageSize int, more bool) string {
	if pageSize == 0 {
		pageSize = size
	}
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`{"key":"p%d","type":"published"}`, i)
	}
	return fmt.Sprintf(`{"status":"0","message":"ok","numberOfItems":%d,"meta":{"total":%d,"pageNumber":%d,"pageSize":%d,"hasMore":%t},"data":[%s]}`,
		size, total, page, pageSize, more, strings.Join(items, ","))
}

// get fetches body as the answer to GET /api/pages?query.
func get(t *testing.T, query, body string) *client.Exchange {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	return rulestest.Send(t, rulestest.Reply{Status: http.StatusOK, Body: body}, client.Request{Query: q})
}

// TestAnswer: each paging rule judges an answer on its own, with its own
// meta.total and the size it was asked for (or, without one, the default
// it reports); a rule the request is not about cannot judge it.
func TestAnswer(t *testing.T) {
	const conforms, breaks, skips = "conforms", "breaks", "cannot judge"
	for _, c := range []struct {
		name, query, body, rule, want string
	}{
		{"a middle page", "numberOfItems=5&pageNumber=2", listAnswer(5, 5, 12, 2, 0, true), "PAGE-LIST-META-CONSISTENT", conforms},
		{"the last page, partly filled", "numberOfItems=5&pageNumber=3", listAnswer(2, 5, 12, 3, 0, false), "PAGE-LIST-META-CONSISTENT", conforms},
		{"hasMore on the last page", "numberOfItems=5&pageNumber=3", listAnswer(2, 5, 12, 3, 0, true), "PAGE-LIST-META-CONSISTENT", breaks},
		{"one page short", "numberOfItems=5&pageNumber=3", listAnswer(1, 5, 12, 3, 0, false), "PAGE-LIST-META-CONSISTENT", breaks},
		{"pageSize not numberOfItems", "numberOfItems=5", listAnswer(5, 5, 12, 1, 4, true), "PAGE-LIST-META-CONSISTENT", breaks},
		{"another size than asked", "numberOfItems=5", listAnswer(4, 4, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", breaks},
		{"the page number off", "numberOfItems=5&pageNumber=2", listAnswer(5, 5, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", breaks},
		{"untagged: fewer pages", "numberOfItems=5&untagged=true", listAnswer(2, 5, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", conforms},
		{"untagged=1 read as maybe untagged", "numberOfItems=5&untagged=1", listAnswer(2, 5, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", conforms},
		{"untagged=false: the whole slice", "numberOfItems=5&untagged=false", listAnswer(2, 5, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", breaks},
		{"untagged: more than the slice", "numberOfItems=5&untagged=true", listAnswer(6, 5, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", breaks},
		{"the default size, any", "", listAnswer(10, 10, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", conforms},
		{"the default size, positive", "", listAnswer(10, 10, 12, 1, 0, true), "PAGE-LIST-DEFAULT-SIZE", conforms},
		{"the default size zero", "", listAnswer(0, 0, 12, 1, 0, false), "PAGE-LIST-DEFAULT-SIZE", breaks},
		{"the default size, one page short", "", listAnswer(9, 10, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", breaks},
		{"the default size, a size asked", "numberOfItems=3", listAnswer(3, 3, 12, 1, 0, true), "PAGE-LIST-DEFAULT-SIZE", skips},
		{"numberOfItems=0: the default", "numberOfItems=0", listAnswer(10, 10, 12, 1, 0, true), "PAGE-LIST-NONPOSITIVE-SIZE", conforms},
		{"numberOfItems=0: size 0", "numberOfItems=0", listAnswer(0, 0, 12, 1, 0, false), "PAGE-LIST-NONPOSITIVE-SIZE", breaks},
		{"numberOfItems=-5: reported as sent", "numberOfItems=-5", listAnswer(10, -5, 12, 1, 10, true), "PAGE-LIST-NONPOSITIVE-SIZE", breaks},
		{"pageNumber=0: page 1", "numberOfItems=5&pageNumber=0", listAnswer(5, 5, 12, 1, 0, true), "PAGE-LIST-PAGENUMBER-BELOW-1", conforms},
		{"pageNumber=0: empty", "numberOfItems=5&pageNumber=0", listAnswer(0, 5, 12, 1, 0, false), "PAGE-LIST-PAGENUMBER-BELOW-1", breaks},
		{"pageNumber=-1: page -1", "numberOfItems=5&pageNumber=-1", listAnswer(5, 5, 12, -1, 0, true), "PAGE-LIST-PAGENUMBER-BELOW-1", breaks},
		{"past the end", "numberOfItems=5&pageNumber=4", listAnswer(0, 5, 12, 4, 0, false), "PAGE-LIST-PAST-END", conforms},
		{"past the end, hasMore", "numberOfItems=5&pageNumber=4", listAnswer(0, 5, 12, 4, 0, true), "PAGE-LIST-PAST-END", breaks},
		{"past the end, pages", "numberOfItems=5&pageNumber=9", listAnswer(2, 5, 12, 9, 0, false), "PAGE-LIST-PAST-END", breaks},
		{"past the end of nothing", "numberOfItems=5&pageNumber=2", listAnswer(0, 5, 0, 2, 0, false), "PAGE-LIST-PAST-END", conforms},
		{"page 1 of nothing is no past end", "numberOfItems=5", listAnswer(0, 5, 0, 1, 0, false), "PAGE-LIST-PAST-END", skips},
		{"-1: every page", "numberOfItems=-1", listAnswer(12, -1, 12, 1, 0, false), "PAGE-LIST-ALL", conforms},
		{"-1: the count reported", "numberOfItems=-1", listAnswer(12, 12, 12, 1, 0, false), "PAGE-LIST-ALL", conforms},
		{"-1: capped", "numberOfItems=-1", listAnswer(10, -1, 12, 1, 0, false), "PAGE-LIST-ALL", breaks},
		{"-1: page 2 empty", "numberOfItems=-1&pageNumber=2", listAnswer(0, -1, 12, 2, 0, false), "PAGE-LIST-ALL", conforms},
		{"-1 is no page", "numberOfItems=-1", listAnswer(12, -1, 12, 1, 0, false), "PAGE-LIST-META-CONSISTENT", skips},
		{"odd paging is open", "numberOfItems=abc", listAnswer(0, 0, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", skips},
		{"a size sent twice is open", "numberOfItems=5&numberOfItems=2", listAnswer(2, 2, 12, 1, 0, true), "PAGE-LIST-META-CONSISTENT", skips},
		{"numberOfItems a string: the shape's", "numberOfItems=5", strings.Replace(listAnswer(5, 5, 12, 1, 0, true), `"numberOfItems":5`, `"numberOfItems":"5"`, 1), "PAGE-LIST-META-CONSISTENT", skips},
		{"no meta: the shape's", "numberOfItems=5", `{"status":"0","message":"ok","numberOfItems":5,"data":[]}`, "PAGE-LIST-META-CONSISTENT", skips},
	} {
		ex := get(t, c.query, c.body)
		j := Of(c.rule, Answer(ex))
		got := conforms
		switch {
		case j.Skip:
			got = skips
		case !j.Holds():
			got = breaks
		}
		if got != c.want {
			t.Errorf("%s (%s): %s %s (%s), want %s", c.name, c.query, c.rule, got, j.Problem, c.want)
		}
	}
}

// TestAnswerOtherRequests: answers the paging rules do not judge.
func TestAnswerOtherRequests(t *testing.T) {
	body := listAnswer(1, 5, 12, 1, 0, true) // one page short
	for name, ex := range map[string]*client.Exchange{
		"a 400": rulestest.Send(t, rulestest.Reply{Status: http.StatusBadRequest, Body: body}, client.Request{}),
		"another endpoint": rulestest.Send(t, rulestest.Reply{Status: http.StatusOK, Body: body},
			client.Request{Path: "/api/pages/some-page", Query: url.Values{"numberOfItems": {"5"}}}),
		"a write": rulestest.Send(t, rulestest.Reply{Status: http.StatusOK, Body: body},
			client.Request{Method: http.MethodPost, Query: url.Values{"numberOfItems": {"5"}}}),
	} {
		if checks := Answer(ex); checks != nil {
			t.Errorf("%s: judged %v", name, checks)
		}
	}
	if checks := Answer(get(t, "numberOfItems=5", body)); Of("PAGE-LIST-META-CONSISTENT", checks).Holds() {
		t.Error("the same answer to GET /api/pages: not judged")
	}
}

// countFold counts the items of a streamed answer.
type countFold struct{ n int }

func (f *countFold) Item([]byte)         { f.n++ }
func (f *countFold) Value() (any, int64) { return f.n, 8 }

// TestItemsStreamed: a streamed answer's items are those its stream
// handed on, its body holding data emptied.
func TestItemsStreamed(t *testing.T) {
	body := listAnswer(3, 5, 3, 1, 0, false)
	ex := rulestest.Send(t, rulestest.Reply{Status: http.StatusOK, Body: body},
		client.Request{Query: url.Values{"numberOfItems": {"5"}}, Stream: &client.Stream{Path: "data", New: func() client.Fold { return &countFold{} }}})
	if ex.Streamed == nil || ex.Get("data.#").Int() != 0 {
		t.Fatalf("not streamed: %s", ex)
	}
	if n, ok := Items(ex); !ok || n != 3 {
		t.Errorf("Items = %d, %t; want 3", n, ok)
	}
	if j := Of("PAGE-LIST-META-CONSISTENT", Answer(ex)); j.Skip || !j.Holds() {
		t.Errorf("the streamed answer: %+v", j)
	}
}
