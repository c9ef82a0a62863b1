package paging

// meta.total between the answers of a run (PAGE-LIST-TOTAL-AGREES): it
// counts the pages the type filters match (4.1), so two answers with the
// same type filters and no write between them report the same total,
// whatever their numberOfItems, pageNumber and untagged.

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules/listfilter"
)

// Listed is a list answer as TotalsAgree compares it: what was read of it
// when it was recorded (its body may be released later), and when it was
// on its way.
type Listed struct {
	Ex *client.Exchange
	// Types are the types its request includes (listfilter.Types), in
	// listfilter.PageTypes' order.
	Types    []string
	Total    int
	From, To time.Time // from sending to the whole answer
}

// ListedOf reads an answer for TotalsAgree; ok is false when it is not
// compared: not a 200 to GET /api/pages whose meta.total is an integer
// and whose body came whole, or a request that leaves open which types it
// includes (a type parameter other than true or false, or sent twice) or
// what its paging gives (Answer's readOwn).
func ListedOf(ex *client.Exchange) (Listed, bool) {
	if ex.Method != http.MethodGet || ex.Status != http.StatusOK {
		return Listed{}, false
	}
	u, err := url.Parse(ex.URL)
	if err != nil || !strings.HasSuffix(u.Path, "/api/pages") {
		return Listed{}, false
	}
	q := u.Query()
	types, ok := listfilter.TypesOfQuery(q)
	if _, plain := readOwn(q); !ok || !plain {
		return Listed{}, false
	}
	total := ex.Get("meta.total")
	if _, list := Items(ex); !list || !isInteger(total) {
		return Listed{}, false
	}
	from, to := ex.WireSpan()
	return Listed{Ex: ex, Types: types, Total: int(total.Num), From: from, To: to}, true
}

// Write is a request of the run that may have changed the site, and when
// it was on its way; Unanswered: it got no answer, or only the server in
// front's (a 502 or 504 of a gateway that gave up: client.Exchange.Fault),
// so the server may act on it at any later time.
type Write struct {
	From, To   time.Time
	Unanswered bool
}

// WriteOf reads a request for TotalsAgree; ok is false when it cannot
// have changed the site: a GET, HEAD or OPTIONS (client.Alone), or a
// request that was never sent. A write refused counts: a broken server
// may have acted on it.
func WriteOf(ex *client.Exchange) (Write, bool) {
	if !client.Alone(ex.Method) || !ex.Sent {
		return Write{}, false
	}
	from, to := ex.WireSpan()
	return Write{From: from, To: to, Unanswered: ex.Status == 0 || ex.Fault() != ""}, true
}

// TotalProblem is an answer whose meta.total disagrees with that of
// Other, an answer with the same type filters and no write between them.
type TotalProblem struct {
	Ex, Other *client.Exchange
	Problem   string
}

// TotalsAgree judges meta.total between the answers ls
// (PAGE-LIST-TOTAL-AGREES, 4.1): answers with the same type filters and no
// write of ws between them report the same total. Two answers have no
// write between them when no write was on its way at any moment from the
// first one's sending to the second one's answer, and no write before
// them is still unanswered (it may land at any time). The order of the
// exchanges' numbers is not that of the wire (the exchanges of requests
// made side by side are numbered when their holder's turn comes: see
// client.Hold), so the times are compared.
//
// How a scheduled page becomes published is not shown (3): the host
// publishes a scheduled page once its date has passed, without a write.
// So between two answers one after the other, the total of types that
// include published but not scheduled may grow, and that of types that
// include scheduled but not published may shrink; any other must not
// change. compared counts the answers compared with at least one other.
func TotalsAgree(ls []Listed, ws []Write) (problems []TotalProblem, compared int) {
	groups := map[string][]Listed{}
	var keys []string
	for _, l := range ls {
		epoch, clean := epochOf(l, ws)
		if !clean {
			continue
		}
		key := fmt.Sprintf("%d %s", epoch, strings.Join(l.Types, ","))
		if _, seen := groups[key]; !seen {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], l)
	}
	for _, key := range keys {
		g := groups[key]
		if len(g) < 2 {
			continue
		}
		compared += len(g)
		slices.SortStableFunc(g, func(a, b Listed) int { return a.From.Compare(b.From) })
		problems = append(problems, disagreements(g)...)
	}
	return problems, compared
}

// epochOf is how many writes of ws were answered before l was sent: the
// answers of one epoch (and types) have no write between them. clean is
// false when a write was on its way while l was, or one sent before l
// ends got no answer.
func epochOf(l Listed, ws []Write) (epoch int, clean bool) {
	for _, w := range ws {
		switch {
		case w.Unanswered && w.From.Before(l.To):
			return 0, false
		case w.To.Before(l.From):
			epoch++
		case w.From.Before(l.To):
			return 0, false // on its way while l was
		}
	}
	return epoch, true
}

// disagreements judges the answers of one epoch and types, in the order
// they were sent: each against the first, or, for totals that may grow or
// shrink (TotalsAgree), each against the last one answered before it was
// sent (of two side by side, either may be the later one).
func disagreements(g []Listed) []TotalProblem {
	published, scheduled := slices.Contains(g[0].Types, "published"), slices.Contains(g[0].Types, "scheduled")
	// way: 0 must not change, 1 may grow, -1 may shrink.
	way := 0
	switch {
	case published && !scheduled:
		way = 1
	case scheduled && !published:
		way = -1
	}
	var out []TotalProblem
	for i := 1; i < len(g); i++ {
		ref, l := g[0], g[i]
		if way != 0 {
			j := lastBefore(g[:i], l.From)
			if j < 0 {
				continue
			}
			ref = g[j]
		}
		if c := cmp.Compare(l.Total, ref.Total); c != 0 && c != way {
			out = append(out, TotalProblem{Ex: l.Ex, Other: ref.Ex, Problem: totalProblem(l, ref, way)})
		}
	}
	return out
}

// lastBefore is the index of the last of g answered before at; -1 when
// none was.
func lastBefore(g []Listed, at time.Time) int {
	for j := len(g) - 1; j >= 0; j-- {
		if g[j].To.Before(at) {
			return j
		}
	}
	return -1
}

// totalProblem words what is wrong with l's total, against ref's.
func totalProblem(l, ref Listed, way int) string {
	p := fmt.Sprintf("meta.total is %d with the types %s, while %s, with the same types and no write between, reported %d",
		l.Total, strings.Join(l.Types, ", "), ref.Ex.RequestLine(), ref.Total)
	switch way {
	case 1:
		p += " (only a scheduled page becoming published could change it, and that adds a published page)"
	case -1:
		p += " (only a scheduled page becoming published could change it, and that removes a scheduled page)"
	}
	return p
}
