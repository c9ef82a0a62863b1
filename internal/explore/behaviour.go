package explore

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
)

// behaviour is what an exploration has seen of the target, in terms that
// do not depend on the values sent: for each request, its endpoint, the
// status of the answer, its message (cut before any value it quotes) and
// its shape (top-level members and the kind of data); the findings; and
// which field was sent in which boundary class (the coverage cells). A
// case that adds to it showed new behaviour: what guides the search and
// ends it (search.go).
type behaviour struct {
	seen  map[string]bool
	cells map[gen.Cell]*cellSeen
}

// cellSeen counts the sendings of one field in one class, and the status
// each got (of the case's own request).
type cellSeen struct {
	n        int
	statuses map[int]int
}

func newBehaviour() *behaviour {
	return &behaviour{seen: map[string]bool{}, cells: map[gen.Cell]*cellSeen{}}
}

// add records what one sending of c showed, and returns how many things
// it showed for the first time.
func (b *behaviour) add(c gen.Case, out outcome) int {
	fresh := 0
	note := func(s string) {
		if !b.seen[s] {
			b.seen[s] = true
			fresh++
		}
	}
	for _, ex := range out.exchanges {
		note(answerShape(ex))
	}
	for _, f := range out.judge.Findings {
		note("finding " + f.Signature())
	}
	if out.skipped {
		return 0 // not sent: nothing seen (session.skip counts it)
	}
	status := mainStatus(c, out.exchanges)
	for _, cell := range c.Cells() {
		note("cell " + cell.String())
		cs := b.cells[cell]
		if cs == nil {
			cs = &cellSeen{statuses: map[int]int{}}
			b.cells[cell] = cs
		}
		cs.n++
		if status != 0 {
			cs.statuses[status]++
		}
	}
	return fresh
}

// digits are replaced in messages: counts and dates are values, not words.
var digits = regexp.MustCompile(`[0-9]+`)

// answerShape describes an answer apart from its values: method,
// endpoint, status, message and top-level members.
func answerShape(ex *client.Exchange) string {
	endpoint := ex.URL
	if u, err := url.Parse(ex.URL); err == nil {
		endpoint = u.Path
	}
	parts := strings.SplitN(strings.TrimPrefix(endpoint, "/"), "/", 3)
	if len(parts) == 3 {
		parts[2] = "{key}"
	}
	endpoint = "/" + strings.Join(parts, "/")
	if ex.Status == 0 {
		return fmt.Sprintf("%s %s: no answer", ex.Method, endpoint)
	}
	msg, _, _ := strings.Cut(ex.Get("message").String(), ":")
	msg = digits.ReplaceAllString(msg, "#")
	if len(msg) > 60 {
		msg = msg[:60]
	}
	var members []string
	ex.JSON().ForEach(func(k, _ gjson.Result) bool {
		members = append(members, k.String())
		return true
	})
	sort.Strings(members)
	data := "none"
	if d := ex.Get("data"); d.Exists() {
		data = d.Type.String()
		if d.IsArray() {
			data = "array"
		} else if d.IsObject() {
			data = "object"
		}
	}
	return fmt.Sprintf("%s %s → %d %q {%s} data %s", ex.Method, endpoint, ex.Status, msg, strings.Join(members, ","), data)
}

// mainMethod is the method of the request a case is about (a create's
// POST, an edit's PUT...), before and after which it may read.
func mainMethod(c gen.Case) string {
	switch c.Kind {
	case gen.KindCreate:
		return http.MethodPost
	case gen.KindEdit, gen.KindSettings:
		return http.MethodPut
	case gen.KindRefused:
		switch c.Target {
		case "create":
			return http.MethodPost
		case "delete":
			return http.MethodDelete
		}
		return http.MethodPut
	case gen.KindToken, gen.KindBody:
		return c.Method
	}
	return http.MethodGet
}

// mainStatus is the status of the first request of the case's own
// method (0 when none was answered).
func mainStatus(c gen.Case, exs []*client.Exchange) int {
	m := mainMethod(c)
	for _, ex := range exs {
		if ex.Method == m {
			return ex.Status
		}
	}
	return 0
}

// coverage says, field by field, in which boundary classes the
// exploration sent it, how often and what the answers' statuses were,
// and which classes of the field's type it did not reach.
func (b *behaviour) coverage(skipped map[gen.Cell]bool) (lines []string, reached, total int) {
	for _, f := range gen.FieldTypes {
		var got, missed []string
		for _, class := range gen.Classes[f.Type] {
			cell := gen.Cell{Field: f.Name, Class: class}
			total++
			cs := b.cells[cell]
			switch {
			case cs != nil:
				reached++
				got = append(got, fmt.Sprintf("%s %d%s", class, cs.n, statusList(cs.statuses)))
			case skipped[cell]:
				missed = append(missed, class+" (not sent: it could not be undone)")
			default:
				missed = append(missed, class)
			}
		}
		line := fmt.Sprintf("%s (%s): %s", f.Name, f.Type, strings.Join(got, ", "))
		switch {
		case len(got) == 0 && len(missed) == len(gen.Classes[f.Type]) && !anySkipped(skipped, f.Name):
			line = fmt.Sprintf("%s (%s): not sent", f.Name, f.Type)
		case len(got) == 0:
			line = fmt.Sprintf("%s (%s): not reached: %s", f.Name, f.Type, strings.Join(missed, ", "))
		case len(missed) > 0:
			line += "; not reached: " + strings.Join(missed, ", ")
		}
		lines = append(lines, line)
	}
	return lines, reached, total
}

// anySkipped reports whether a class of the field was not sent because it
// could not be undone.
func anySkipped(skipped map[gen.Cell]bool, field string) bool {
	for c := range skipped {
		if c.Field == field {
			return true
		}
	}
	return false
}

// statusList renders the statuses a cell's cases got: " → 201, 400".
func statusList(statuses map[int]int) string {
	if len(statuses) == 0 {
		return ""
	}
	var out []string
	for _, c := range slices.Sorted(maps.Keys(statuses)) {
		out = append(out, fmt.Sprint(c))
	}
	return " → " + strings.Join(out, ", ")
}
