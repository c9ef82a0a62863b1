package paging

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// at is a moment of a crafted run, in milliseconds from its start.
func at(ms int) time.Time { return time.Unix(1000, 0).Add(time.Duration(ms) * time.Millisecond) }

// answer is a list answer of types with total, on its way from ms to
// ms+10.
func answer(ms, total int, types ...string) Listed {
	return Listed{Ex: &client.Exchange{Method: http.MethodGet, URL: "http://h/api/pages"}, Types: types, Total: total, From: at(ms), To: at(ms + 10)}
}

// write is a write on its way from ms to ms+10.
func write(ms int) Write { return Write{From: at(ms), To: at(ms + 10)} }

// TestTotalsAgree: answers with the same types and no write between them
// report the same total; a write between, or on its way beside one of
// them, or one unanswered before them, leaves them uncompared. Between
// one answer and a later one, published alone may grow and scheduled
// alone shrink (a scheduled page published when its date passes).
func TestTotalsAgree(t *testing.T) {
	every := []string{"draft", "published", "static", "sticky", "scheduled"}
	for _, c := range []struct {
		name     string
		ls       []Listed
		ws       []Write
		problems int
		compared int
	}{
		{"the same", []Listed{answer(0, 7, every...), answer(20, 7, every...)}, nil, 0, 2},
		{"another", []Listed{answer(0, 7, every...), answer(20, 6, every...), answer(40, 7, every...)}, nil, 1, 3},
		{"other types", []Listed{answer(0, 7, every...), answer(20, 3, "draft")}, nil, 0, 0},
		{"a write between", []Listed{answer(0, 7, every...), answer(40, 8, every...)}, []Write{write(20)}, 0, 0},
		{"a write before both", []Listed{answer(20, 7, every...), answer(40, 8, every...)}, []Write{write(0)}, 1, 2},
		{"a write after both", []Listed{answer(0, 7, every...), answer(20, 8, every...)}, []Write{write(40)}, 1, 2},
		{"a write beside one", []Listed{answer(0, 7, every...), answer(20, 8, every...), answer(40, 8, every...)}, []Write{write(25)}, 0, 0},
		{"an unanswered write before", []Listed{answer(20, 7, every...), answer(40, 8, every...)},
			[]Write{{From: at(0), To: at(5), Unanswered: true}}, 0, 0},
		{"an unanswered write after", []Listed{answer(0, 7, every...), answer(20, 8, every...)},
			[]Write{{From: at(40), To: at(45), Unanswered: true}}, 1, 2},
		{"published grows", []Listed{answer(0, 7, "published"), answer(20, 8, "published")}, nil, 0, 2},
		{"published shrinks", []Listed{answer(0, 7, "published"), answer(20, 6, "published")}, nil, 1, 2},
		{"published shrinks side by side", []Listed{answer(0, 7, "published"), answer(5, 6, "published")}, nil, 0, 2},
		{"scheduled shrinks", []Listed{answer(0, 2, "scheduled"), answer(20, 1, "scheduled")}, nil, 0, 2},
		{"scheduled grows", []Listed{answer(0, 2, "scheduled"), answer(20, 3, "scheduled")}, nil, 1, 2},
		{"published and scheduled", []Listed{answer(0, 9, "published", "scheduled"), answer(20, 10, "published", "scheduled")}, nil, 1, 2},
		{"recorded out of order", []Listed{answer(20, 6, "published"), answer(0, 7, "published")}, nil, 1, 2},
	} {
		problems, compared := TotalsAgree(c.ls, c.ws)
		if len(problems) != c.problems || compared != c.compared {
			t.Errorf("%s: %d problems (%v), %d compared; want %d, %d", c.name, len(problems), problems, compared, c.problems, c.compared)
		}
	}
}

// TestListedOf: what a list answer is compared by, and which answers and
// requests are not compared or count as writes.
func TestListedOf(t *testing.T) {
	body := listAnswer(2, 5, 12, 1, 0, true)
	l, ok := ListedOf(get(t, "draft=true&numberOfItems=5&untagged=true", body))
	if !ok || l.Total != 12 || !slices.Equal(l.Types, []string{"draft", "published"}) || !l.From.Before(l.To) {
		t.Errorf("ListedOf: %+v, %t", l, ok)
	}
	for _, q := range []string{"draft=1", "draft=true&draft=false", "numberOfItems=x"} {
		if _, ok := ListedOf(get(t, q, body)); ok {
			t.Errorf("%s: compared", q)
		}
	}
	for method, want := range map[string]bool{http.MethodGet: false, http.MethodPut: true, http.MethodDelete: true} {
		ex := rulestest.Send(t, rulestest.Reply{Status: http.StatusOK, Body: body}, client.Request{Method: method})
		if _, ok := WriteOf(ex); ok != want {
			t.Errorf("%s: a write %t, want %t", method, ok, want)
		}
	}
	if _, ok := WriteOf(&client.Exchange{Method: http.MethodPost}); ok {
		t.Error("a write never sent counts")
	}
	gaveUp := rulestest.Send(t, rulestest.Reply{Status: http.StatusGatewayTimeout, Body: "<html>504</html>",
		Header: map[string]string{"Content-Type": "text/html"}}, client.Request{Method: http.MethodPost})
	if w, ok := WriteOf(gaveUp); !ok || !w.Unanswered {
		t.Errorf("a write the front gave up on: %+v, %t; want unanswered", w, ok)
	}
}
