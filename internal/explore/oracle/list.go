package oracle

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/rules/listfilter"
	"github.com/conformance-suite/conformance/internal/rules/pageobj"
	"github.com/conformance-suite/conformance/internal/rules/paging"
)

// ListModel is what the page list's answers are judged against: how many
// pages of each type the site holds (counted in the listing of every
// type, whose number of pages agrees with its meta.total:
// pagelist.Reader.ListAll) and the plugin's default page size
// (meta.pageSize without numberOfItems).
type ListModel struct {
	Counts      map[string]int
	DefaultSize int
}

// listQuery is a list request's parameters, read as the spec reads them.
type listQuery struct {
	paging.Request
	types     []string // the types included
	typeParam bool     // some type filter was sent
}

func parseList(c gen.Case) listQuery {
	q := listQuery{Request: paging.Read(c.Param)}
	q.types, q.typeParam = listfilter.Types(c.Param)
	return q
}

// maxSpelled bounds the boolean filters spelled otherwise that List reads
// both ways (2^n readings).
const maxSpelled = 4

// List judges an answer to GET /api/pages as judgeList does. A boolean
// filter spelled otherwise than true or false (1, TRUE, yes, "":
// gen.ClassSpelling) may be read either way: 4.1 says "boolean" and not
// how a server reads those spellings, so the answer passes when it holds
// for one reading of each such filter (the first reading that holds is
// recorded as an observation), and fails with the findings of the
// reading that has fewest (the first of those) when none holds.
func (j *Judge) List(c gen.Case, ex, paired *client.Exchange, m ListModel) {
	readings := spellingReadings(c)
	if len(readings) == 1 {
		j.judgeList(readings[0].Case, ex, paired, m)
		return
	}
	var best *Judge
	for _, r := range readings {
		rj := NewJudge()
		rj.judgeList(r.Case, ex, paired, m)
		if len(rj.Findings) == 0 {
			j.merge(rj)
			j.Observe("GET /api/pages read %s", r.words)
			return
		}
		if best == nil || len(rj.Findings) < len(best.Findings) {
			best = rj
		}
	}
	j.merge(best)
}

// reading is a list case with its spelled filters read one way.
type reading struct {
	gen.Case
	words string // "published=1 as true, …"
}

// spellingReadings are the ways c's filters spelled otherwise may be
// read: each true or false (c alone when it has none, or more than
// maxSpelled).
func spellingReadings(c gen.Case) []reading {
	var odd []int
	for i, p := range c.Query {
		if _, canonical := gen.SpelledBool(p.Value); !canonical && p.Class == gen.ClassSpelling {
			odd = append(odd, i)
		}
	}
	if len(odd) == 0 || len(odd) > maxSpelled {
		return []reading{{Case: c}}
	}
	var out []reading
	for bits := 0; bits < 1<<len(odd); bits++ {
		r := reading{Case: c}
		r.Query = append([]gen.Param(nil), c.Query...)
		var words []string
		for k, i := range odd {
			v := "true"
			if bits&(1<<k) != 0 {
				v = "false"
			}
			words = append(words, fmt.Sprintf("%s=%q as %s", c.Query[i].Name, c.Query[i].Value, v))
			r.Query[i].Value = v
		}
		r.words = strings.Join(words, ", ")
		out = append(out, r)
	}
	return out
}

// merge takes the checks, findings and observations of another judge.
func (j *Judge) merge(o *Judge) {
	for r, n := range o.Checked {
		j.Checked[r] += n
	}
	j.Findings = append(j.Findings, o.Findings...)
	for _, s := range o.Observed {
		j.Observe("%s", s)
	}
}

// judgeList judges an answer to GET /api/pages (4.1, 8, 9.3) against the
// model: its shape (PAGE-LIST-SHAPE, PAGE-OBJECT-SHAPE: rules/pageobj),
// the types it holds (PAGE-LIST-TYPE-FILTERS, PAGE-LIST-DEFAULT-FILTER:
// rules/listfilter), meta.total, and meta and the number of pages for any
// filter, size and page number (rules/paging). paired, when the request
// had untagged=true, is the answer to the same request without it:
// untagged keeps the untagged pages of that same slice
// (PAGE-LIST-UNTAGGED-AFTER-PAGINATION, PAGE-LIST-TOTAL-IGNORES-UNTAGGED).
func (j *Judge) judgeList(c gen.Case, ex, paired *client.Exchange, m ListModel) {
	q := parseList(c)
	if q.Odd {
		// 9.3: odd paging values no longer crash; what they give is open
		// (a 5xx is Every's to judge, under the same rule).
		if ex.Status < 500 && ex.Status != http.StatusOK {
			j.Observe("GET /api/pages with a non-integer numberOfItems or pageNumber answered %d", ex.Status)
		}
		if ex.Status < 500 {
			j.paging(ex, paging.OddValue(ex))
		}
		return
	}
	total := 0
	for _, t := range q.types {
		total += m.Counts[t]
	}
	if ex.Status >= 500 || !j.Status(paging.StatusRule(q.Request, total, m.DefaultSize), ex, http.StatusOK) || ex.Truncated {
		return
	}
	if !j.listShape(ex) {
		return
	}
	filterRule := listfilter.Rule(q.typeParam)
	items := ex.Get("data").Array()
	for _, it := range items {
		v := listfilter.OfType(it, q.types)
		if !j.Check(filterRule, v.Holds(), ex, "data[].type", "only pages of the types "+strings.Join(q.types, ", "), fmt.Sprintf("page %q: %s", it.Get("key").String(), v.Problem)) {
			break
		}
	}
	totalRule := filterRule
	if q.Untagged {
		totalRule = "PAGE-LIST-TOTAL-IGNORES-UNTAGGED"
	}
	v := paging.Total(ex, total)
	j.Check(totalRule, v.Holds(), ex, "meta.total", fmt.Sprintf("meta.total %d (the pages of the types %s)", total, strings.Join(q.types, ", ")), v.Problem)
	n, _ := paging.Items(ex) // as the normal run counts them (data is an array: listShape)
	if q.All() {
		j.paging(ex, paging.All(ex, n, total, q.Request)...)
	} else {
		j.paging(ex, paging.Meta(ex, n, q.Request, q.Served(total, m.DefaultSize))...)
	}
	if q.Untagged {
		j.untagged(ex, paired, items)
	}
}

// paging records the checks of the paging rules (internal/rules/paging).
func (j *Judge) paging(ex *client.Exchange, checks ...paging.Check) {
	for _, c := range checks {
		if !c.Skip {
			j.Check(c.Rule, c.Holds(), ex, c.What, c.Expected, c.Problem)
		}
	}
}

// listShape judges the answer's shape (rules/pageobj): the whole answer
// against page-list.json is PAGE-LIST-SHAPE's (a page object that breaks
// page.json breaks the list too, as the normal run judges it), its pages'
// violations also PAGE-OBJECT-SHAPE's.
func (j *Judge) listShape(ex *client.Exchange) bool {
	list, pages := pageobj.List(ex.Body())
	ok := j.Judged("PAGE-LIST-SHAPE", ex, "list shape", "numberOfItems, meta {total, pageNumber, pageSize, hasMore} and data, an array of pages", list)
	return j.Judged("PAGE-OBJECT-SHAPE", ex, "page shape", "page objects of section 2.1", pages) && ok
}

// untagged judges an untagged=true answer (rules/listfilter): exactly
// the untagged pages of the same slice without untagged (4.1: after
// pagination). Without a usable answer to that request, each page listed
// must be untagged.
func (j *Judge) untagged(ex, paired *client.Exchange, items []gjson.Result) {
	const rule = "PAGE-LIST-UNTAGGED-AFTER-PAGINATION"
	var got []string
	for _, it := range items {
		got = append(got, it.Get("key").String())
	}
	if paired == nil || paired.Status != http.StatusOK || !paired.Get("data").IsArray() {
		for _, it := range items {
			if !j.Check(rule, !listfilter.Tagged(it), ex, "data[].tags", "untagged pages only", fmt.Sprintf("page %q has tags %s", it.Get("key").String(), it.Get("tags").Raw)) {
				return
			}
		}
		return
	}
	var want []string
	for _, it := range paired.Get("data").Array() {
		if !listfilter.Tagged(it) {
			want = append(want, it.Get("key").String())
		}
	}
	j.Judged(rule, ex, "untagged slice", "the untagged pages of the same slice without untagged: "+joinQuoted(want), listfilter.UntaggedSlice(got, want))
}
