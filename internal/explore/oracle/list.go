package oracle

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/schemas"
)

// ListModel is what the page list's answers are judged against: how many
// pages of each type the site holds (counted in the listing of every
// type, whose number of pages agrees with its meta.total:
// framework.Fixture.ListAllPages) and the plugin's default page size
// (meta.pageSize without numberOfItems).
type ListModel struct {
	Counts      map[string]int
	DefaultSize int
}

// plainInt matches the integers a list request sends as such (others are
// odd paging values, 9.3).
var plainInt = regexp.MustCompile(`^-?[0-9]{1,7}$`)

// listQuery is a list request's parameters, read as the spec reads them.
type listQuery struct {
	types     []string // the types included
	typeParam bool     // some type filter was sent
	untagged  bool
	size      int // numberOfItems: 0 when not sent
	sizeSent  bool
	page      int // pageNumber as sent; 1 when not sent
	odd       bool
}

func parseList(c gen.Case) listQuery {
	q := listQuery{page: 1}
	for _, t := range gen.Types {
		v, sent := c.Param(t)
		q.typeParam = q.typeParam || sent
		if v == "true" || (t == "published" && !sent) {
			q.types = append(q.types, t)
		}
	}
	q.untagged = paramIs(c, "untagged", "true")
	if v, ok := c.Param("numberOfItems"); ok {
		q.sizeSent = true
		q.odd = q.odd || !plainInt.MatchString(v)
		q.size, _ = strconv.Atoi(v)
	}
	if v, ok := c.Param("pageNumber"); ok {
		q.odd = q.odd || !plainInt.MatchString(v)
		q.page, _ = strconv.Atoi(v)
	}
	return q
}

func paramIs(c gen.Case, name, value string) bool {
	v, ok := c.Param(name)
	return ok && v == value
}

// List judges an answer to GET /api/pages (4.1, 8, 9.3) against the
// model: its shape, the types it holds, meta.total, and meta and the
// number of pages for any filter, size and page number. paired, when the
// request had untagged=true, is the answer to the same request without
// it: untagged keeps the untagged pages of that same slice.
func (j *Judge) List(c gen.Case, ex, paired *client.Exchange, m ListModel) {
	q := parseList(c)
	if q.odd {
		// 9.3: odd paging values no longer crash; what they give is open.
		if ex.Status < 500 && ex.Status != http.StatusOK {
			j.Observe("GET /api/pages with a non-integer numberOfItems or pageNumber answered %d", ex.Status)
		}
		if ex.Status == http.StatusOK {
			j.Check("PAGE-LIST-BAD-PAGING-NO-CRASH", ex.Get("data").IsArray(), ex, "data", "a 200 holds the page list (data an array)", describe(ex.Get("data")))
		}
		return
	}
	total := 0
	for _, t := range q.types {
		total += m.Counts[t]
	}
	if ex.Status >= 500 || !j.Status(statusRule(q, total, m.DefaultSize), ex, http.StatusOK) || ex.Truncated {
		return
	}
	if !j.listShape(ex) {
		return
	}
	filterRule := "PAGE-LIST-TYPE-FILTERS"
	if !q.typeParam {
		filterRule = "PAGE-LIST-DEFAULT-FILTER"
	}
	items := ex.Get("data").Array()
	for _, it := range items {
		typ := it.Get("type").String()
		if !j.Check(filterRule, slices.Contains(q.types, typ), ex, "data[].type", "only pages of the types "+strings.Join(q.types, ", "), fmt.Sprintf("page %q of type %q", it.Get("key").String(), typ)) {
			break
		}
	}
	totalRule := filterRule
	if q.untagged {
		totalRule = "PAGE-LIST-TOTAL-IGNORES-UNTAGGED"
	}
	meta := ex.Get("meta")
	j.Check(totalRule, meta.Get("total").Int() == int64(total), ex, "meta.total",
		fmt.Sprintf("meta.total %d (the pages of the types %s)", total, strings.Join(q.types, ", ")), "meta.total "+meta.Get("total").Raw)
	j.paging(q, ex, items, total, m.DefaultSize)
	if q.untagged {
		j.untagged(ex, paired, items)
	}
}

// statusRule names the rule an answer other than 200 to a list request
// with integer paging breaks: the paging rule the request exercises (all
// pages, a non-positive size, a page number below 1, a page past the
// last), else PAGE-LIST-SHAPE.
func statusRule(q listQuery, total, defaultSize int) string {
	switch {
	case q.sizeSent && q.size == -1:
		return "PAGE-LIST-ALL"
	case q.sizeSent && q.size <= 0:
		return "PAGE-LIST-NONPOSITIVE-SIZE"
	case q.page < 1:
		return "PAGE-LIST-PAGENUMBER-BELOW-1"
	}
	size := defaultSize
	if q.sizeSent {
		size = q.size
	}
	if total > 0 && (q.page-1)*size >= total {
		return "PAGE-LIST-PAST-END"
	}
	return "PAGE-LIST-SHAPE"
}

// listShape validates the answer against page-list.json: a page object
// that breaks page.json is PAGE-OBJECT-SHAPE's, the rest PAGE-LIST-SHAPE's.
func (j *Judge) listShape(ex *client.Exchange) bool {
	v, err := schemas.Violations("page-list.json", ex.Body())
	var pageV, listV []string
	for _, x := range v {
		if strings.HasPrefix(x.Path, "data[") || strings.HasPrefix(x.Path, "data.") {
			pageV = append(pageV, x.Path+": "+x.Problem)
		} else {
			listV = append(listV, x.Path+": "+x.Problem)
		}
	}
	ok := j.Check("PAGE-LIST-SHAPE", err == nil && len(listV) == 0, ex, "list shape", "numberOfItems, meta {total, pageNumber, pageSize, hasMore} and data, an array of pages", violations(listV, err))
	return j.Check("PAGE-OBJECT-SHAPE", len(pageV) == 0, ex, "page shape", "page objects of section 2.1", violations(pageV, nil)) && ok
}

// paging judges meta and the number of pages served.
func (j *Judge) paging(q listQuery, ex *client.Exchange, items []gjson.Result, total, defaultSize int) {
	meta := ex.Get("meta")
	n := len(items)
	if q.sizeSent && q.size == -1 {
		want := fmt.Sprintf("all %d pages", total)
		ok := n == total || (q.untagged && n <= total)
		if q.page > 1 && n == 0 {
			ok = true // what pageNumber does beside -1 is not said
		}
		j.Check("PAGE-LIST-ALL", ok, ex, "len(data)", want, fmt.Sprintf("%d pages", n))
		j.Check("PAGE-LIST-ALL", !meta.Get("hasMore").Bool(), ex, "meta.hasMore", "meta.hasMore false", "meta.hasMore "+meta.Get("hasMore").Raw)
		for _, f := range []string{"numberOfItems", "meta.pageSize"} {
			v := ex.Get(f).Int()
			j.Check("PAGE-LIST-ALL", v == -1 || v == int64(total), ex, f, fmt.Sprintf("%s -1 or %d", f, total), f+" "+ex.Get(f).Raw)
		}
		return
	}
	size, sizeRule := defaultSize, "PAGE-LIST-META-CONSISTENT"
	switch {
	case q.sizeSent && q.size > 0:
		size = q.size
	case q.sizeSent:
		sizeRule = "PAGE-LIST-NONPOSITIVE-SIZE"
	}
	page, pageRule := q.page, "PAGE-LIST-META-CONSISTENT"
	if page < 1 {
		page, pageRule = 1, "PAGE-LIST-PAGENUMBER-BELOW-1"
	}
	for _, f := range []string{"numberOfItems", "meta.pageSize"} {
		j.Check(sizeRule, ex.Get(f).Int() == int64(size), ex, f, fmt.Sprintf("%s %d", f, size), f+" "+ex.Get(f).Raw)
	}
	j.Check(pageRule, meta.Get("pageNumber").Int() == int64(page), ex, "meta.pageNumber", fmt.Sprintf("meta.pageNumber %d", page), "meta.pageNumber "+meta.Get("pageNumber").Raw)
	skip := (page - 1) * size
	want := min(max(total-skip, 0), size)
	countRule := pageRule
	if countRule == "PAGE-LIST-META-CONSISTENT" {
		countRule = sizeRule
	}
	if want == 0 && total > 0 {
		countRule = "PAGE-LIST-PAST-END"
	}
	if q.untagged {
		j.Check(countRule, n <= want, ex, "len(data)", fmt.Sprintf("at most %d pages (page %d of %d at %d a page)", want, page, total, size), fmt.Sprintf("%d pages", n))
	} else {
		j.Check(countRule, n == want, ex, "len(data)", fmt.Sprintf("%d pages (page %d of %d at %d a page)", want, page, total, size), fmt.Sprintf("%d pages", n))
	}
	hasMore := skip+size < total
	hasMoreRule := pageRule
	if want == 0 && total > 0 {
		hasMoreRule = "PAGE-LIST-PAST-END"
	}
	j.Check(hasMoreRule, meta.Get("hasMore").Bool() == hasMore, ex, "meta.hasMore", fmt.Sprintf("meta.hasMore %t", hasMore), "meta.hasMore "+meta.Get("hasMore").Raw)
}

// untagged judges an untagged=true answer: untagged pages only, exactly
// those of the same slice without untagged (4.1: after pagination).
func (j *Judge) untagged(ex, paired *client.Exchange, items []gjson.Result) {
	const rule = "PAGE-LIST-UNTAGGED-AFTER-PAGINATION"
	var got []string
	for _, it := range items {
		key := it.Get("key").String()
		got = append(got, key)
		if !j.Check(rule, len(it.Get("tags").Map()) == 0, ex, "data[].tags", "untagged pages only", fmt.Sprintf("page %q has tags %s", key, it.Get("tags").Raw)) {
			return
		}
	}
	if paired == nil || paired.Status != http.StatusOK || !paired.Get("data").IsArray() {
		return
	}
	var want []string
	for _, it := range paired.Get("data").Array() {
		if len(it.Get("tags").Map()) == 0 {
			want = append(want, it.Get("key").String())
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	j.Check(rule, slices.Equal(got, want), ex, "untagged slice", "the untagged pages of the same slice without untagged: "+joinQuoted(want), joinQuoted(got))
}
