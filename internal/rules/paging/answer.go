package paging

// The paging rules judged on every answer to GET /api/pages of a run,
// whoever asked for it: what one answer says of itself (its meta against
// its own request and its own data), and, between answers, meta.total
// (totals.go).

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
)

// Items counts the items of a list answer's data: those a streamed
// answer's stream handed on (its body is the envelope with data emptied),
// else those of its body. ok is false when they cannot be counted: a body
// cut or not read whole, no JSON document, or data no array.
func Items(ex *client.Exchange) (n int, ok bool) {
	if ex.Truncated || ex.BodyCut || !ex.IsJSON() {
		return 0, false
	}
	// data.# is the length of an array, and missing for any other value.
	count := ex.Get("data.#")
	if st := ex.Streamed; st != nil && count.Exists() {
		if st.Path != "data" || st.Full {
			return 0, false
		}
		return st.Items, true
	}
	return int(count.Int()), count.Exists()
}

// everyAnswerRules are the rules Answer judges, in report order.
var everyAnswerRules = []string{"PAGE-LIST-DEFAULT-SIZE", "PAGE-LIST-ALL", "PAGE-LIST-NONPOSITIVE-SIZE",
	"PAGE-LIST-PAGENUMBER-BELOW-1", "PAGE-LIST-PAST-END", "PAGE-LIST-META-CONSISTENT"}

// Checks are the paging rules judged on every answer of a run (Answer),
// one check each: an answer a rule has nothing to say of (another
// endpoint, another kind of request) is one it cannot judge. The checks
// judge an exchange with one Answer: they share the last one's checks.
func Checks() []rules.Check {
	last := &lastAnswer{}
	out := make([]rules.Check, len(everyAnswerRules))
	for i, rule := range everyAnswerRules {
		out[i] = rules.Check{Rule: rule, Judge: func(ex *client.Exchange) rules.Judgement { return Of(rule, last.of(ex)) }}
	}
	return out
}

// lastAnswer keeps the checks of the last exchange Answer judged for
// Checks, whose checks judge each exchange one after the other.
type lastAnswer struct {
	mu     sync.Mutex
	ex     *client.Exchange
	checks []Check
}

func (l *lastAnswer) of(ex *client.Exchange) []Check {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ex != ex {
		l.ex, l.checks = ex, Answer(ex)
	}
	return l.checks
}

// Of is the judgement of rule among checks: every problem of its checks,
// each with what was expected; it cannot judge when none of the checks is
// the rule's.
func Of(rule string, checks []Check) rules.Judgement {
	judged := false
	var problems []string
	for _, c := range checks {
		if c.Rule != rule || c.Skip {
			continue
		}
		judged = true
		if !c.Holds() {
			problems = append(problems, fmt.Sprintf("%s (expected: %s)", c.Problem, c.Expected))
		}
	}
	switch {
	case !judged:
		return rules.CannotJudge()
	case len(problems) > 0:
		return rules.Violation("%s", strings.Join(problems, "; "))
	}
	return rules.Conforms()
}

// listed is what a list answer says of its paging.
type listed struct {
	n               int // the items of data
	total, pageSize int // meta.total, meta.pageSize
}

// Answer judges one answer to GET /api/pages on its own: its meta against
// its own request, its own meta.total and the items of its data (Items).
// The size used is numberOfItems as sent when it is positive; otherwise
// (not sent, or 0 or below but -1) the default, whatever the answer
// reports it to be as long as that is positive and numberOfItems and
// meta.pageSize agree: the default is a plugin setting. The checks are
// Meta's (PAGE-LIST-META-CONSISTENT, PAGE-LIST-PAST-END, and those of
// PAGE-LIST-NONPOSITIVE-SIZE and PAGE-LIST-PAGENUMBER-BELOW-1 for the
// requests they are about) and All's (numberOfItems=-1), with the slice
// cut from the answer's own meta.total, and PAGE-LIST-DEFAULT-SIZE's (or
// PAGE-LIST-NONPOSITIVE-SIZE's) that the default size is positive.
//
// None when the answer is not judged: not a 200 to GET /api/pages, a body
// not read whole, numberOfItems or a member of meta of another kind than
// 4.1 shows (PAGE-LIST-SHAPE's concern), or a request whose paging is
// open: a numberOfItems or pageNumber that is no plain integer (9.3), a
// paging parameter sent twice. An untagged sent with any value but false
// may have kept only the untagged pages of the slice: data then holds at
// most the slice.
func Answer(ex *client.Exchange) []Check {
	if ex.Method != http.MethodGet || ex.Status != http.StatusOK {
		return nil
	}
	u, err := url.Parse(ex.URL)
	if err != nil || !strings.HasSuffix(u.Path, "/api/pages") {
		return nil
	}
	r, ok := readOwn(u.Query())
	if !ok {
		return nil
	}
	l, ok := listedOf(ex)
	if !ok {
		return nil
	}
	if r.All() {
		return All(ex, l.n, l.total, r)
	}
	if r.ReadAs().SizeSent {
		return Meta(ex, l.n, r, r.Served(l.total, 0))
	}
	rule := "PAGE-LIST-DEFAULT-SIZE"
	if r.nonPositiveSize() {
		rule = "PAGE-LIST-NONPOSITIVE-SIZE"
	}
	positive := Check{Rule: rule, What: "meta.pageSize", Expected: "meta.pageSize is the default page size (a plugin setting), a positive size",
		Judgement: holds(l.pageSize > 0, "meta.pageSize is %d", l.pageSize)}
	if !positive.Holds() {
		return []Check{positive}
	}
	return append(Meta(ex, l.n, r, r.Served(l.total, l.pageSize)), positive)
}

// readOwn reads the paging of a list request for Answer: ok is false when
// what it asks of paging is open.
func readOwn(q url.Values) (Request, bool) {
	for _, name := range []string{"numberOfItems", "pageNumber", "untagged"} {
		if len(q[name]) > 1 {
			return Request{}, false
		}
	}
	r := ReadQuery(q)
	if vs, sent := q["untagged"]; sent && (len(vs) == 0 || vs[0] != "false") {
		r.Untagged = true
	}
	return r, !r.Odd
}

// listedOf reads the paging an answer reports and the items of its data;
// ok is false when a member is missing or of another kind than 4.1 shows.
func listedOf(ex *client.Exchange) (l listed, ok bool) {
	if l.n, ok = Items(ex); !ok {
		return l, false
	}
	for _, path := range []string{"numberOfItems", "meta.total", "meta.pageNumber", "meta.pageSize"} {
		if !isInteger(ex.Get(path)) {
			return l, false
		}
	}
	l.total, l.pageSize = int(ex.Get("meta.total").Num), int(ex.Get("meta.pageSize").Num)
	more := ex.Get("meta.hasMore").Type
	return l, l.total >= 0 && (more == gjson.True || more == gjson.False)
}
