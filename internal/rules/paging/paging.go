// Package paging judges the page list's paging (spec 4.1, 8 and 9.3): how
// a list request's numberOfItems and pageNumber are read, which slice of
// the matching pages the answer serves, and what its numberOfItems, meta
// and number of pages must say of that slice. The specs of the normal run
// (suites/pages/reads: its walks, and every answer of the run, whichever
// spec asked for it) and conformance explore's oracle of the page list
// (internal/explore/oracle) all judge with these functions: Meta, PastEnd
// and All judge one answer against the slice it serves, which the walks
// and explore know from their own count of the pages; Answer judges any
// answer against the slice its own meta.total gives (answer.go; the run's
// cross-cutting watcher applies it to every exchange: Checks); and
// TotalsAgree judges meta.total between the answers of a run (totals.go).
//
// The number of pages an answer holds is passed in (n), or counted by
// Items: the normal run reads long lists as a stream, whose pages are
// counted as they arrive.
package paging

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
)

// Request is what a list request asks of paging, as sent.
type Request struct {
	Size     int // numberOfItems: 0 when not sent
	SizeSent bool
	Page     int // pageNumber as sent; 1 when not sent
	// Odd: numberOfItems or pageNumber is no plain integer (9.3: what
	// such a value gives is open, but not a crash).
	Odd bool
	// Untagged: untagged=true, which keeps the untagged pages of the
	// slice, so an answer may hold fewer pages than the slice.
	Untagged bool
}

// plainInt matches the values a list request sends as integers.
var plainInt = regexp.MustCompile(`^-?[0-9]{1,7}$`)

// Read reads a list request's paging parameters; param gives the first
// value of a query parameter, and whether it was sent.
func Read(param func(name string) (string, bool)) Request {
	r := Request{Page: 1}
	if v, ok := param("numberOfItems"); ok {
		r.SizeSent = true
		r.Odd = r.Odd || !plainInt.MatchString(v)
		r.Size, _ = strconv.Atoi(v)
	}
	if v, ok := param("pageNumber"); ok {
		r.Odd = r.Odd || !plainInt.MatchString(v)
		r.Page, _ = strconv.Atoi(v)
	}
	v, ok := param("untagged")
	r.Untagged = ok && v == "true"
	return r
}

// ReadQuery reads the paging parameters of a list request's query.
func ReadQuery(q url.Values) Request {
	return Read(func(name string) (string, bool) {
		vs, ok := q[name]
		if !ok || len(vs) == 0 {
			return "", ok
		}
		return vs[0], true
	})
}

// All reports numberOfItems=-1: every matching page at once (8).
func (r Request) All() bool { return r.SizeSent && r.Size == -1 }

// nonPositiveSize reports a numberOfItems of 0 or below other than -1,
// read as the default page size (PAGE-LIST-NONPOSITIVE-SIZE).
func (r Request) nonPositiveSize() bool { return r.SizeSent && r.Size <= 0 && !r.All() }

// ReadAs is r as the spec reads it (8): a numberOfItems of 0 or below,
// -1 aside, as if none were sent (the default page size); a pageNumber
// below 1 as page 1.
func (r Request) ReadAs() Request {
	if r.nonPositiveSize() {
		r.Size, r.SizeSent = 0, false
	}
	r.Page = max(r.Page, 1)
	return r
}

// ReadAsQuery is q with its paging parameters as the spec reads them
// (ReadAs): the request whose answer one to q must equal.
func ReadAsQuery(q url.Values) url.Values {
	r := ReadQuery(q)
	read := r.ReadAs()
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	if !read.SizeSent {
		out.Del("numberOfItems")
	}
	if _, sent := q["pageNumber"]; sent && read.Page != r.Page {
		out.Set("pageNumber", strconv.Itoa(read.Page))
	}
	return out
}

// Slice is the part of Total matching pages a list answer serves: page
// Page at Size a page.
type Slice struct{ Total, Size, Page int }

// Served is the slice the answer to r serves out of total matching pages,
// the plugin's default page size being defaultSize (r not All).
func (r Request) Served(total, defaultSize int) Slice {
	read := r.ReadAs()
	s := Slice{Total: total, Size: defaultSize, Page: read.Page}
	if read.SizeSent {
		s.Size = read.Size
	}
	return s
}

// Pages is how many non-empty pages the listing has at s.Size a page.
func (s Slice) Pages() int {
	if s.Size <= 0 || s.Total <= 0 {
		return 0
	}
	return (s.Total + s.Size - 1) / s.Size
}

// Len is how many pages the slice holds.
func (s Slice) Len() int { return max(0, min(s.Size, s.Total-(s.Page-1)*s.Size)) }

// HasMore reports whether later pages hold pages (meta.hasMore).
func (s Slice) HasMore() bool { return s.Page < s.Pages() }

// PastEnd reports a page after the last one (page 1 never is: an empty
// listing has an empty first page).
func (s Slice) PastEnd() bool { return s.Page > 1 && s.Page > s.Pages() }

// Check is one thing a paging rule judges on a list answer.
type Check struct {
	Rule string
	// What names what was judged ("meta.pageNumber", "len(data)"), in
	// words that do not depend on the request.
	What     string
	Expected string
	rules.Judgement
}

// StatusRule names the rule an answer other than 200 to a list request r
// with integer paging breaks, out of total matching pages at the default
// size defaultSize: the paging rule r exercises (all pages, a
// non-positive size, a page number below 1, a page past the last), else
// PAGE-LIST-SHAPE.
func StatusRule(r Request, total, defaultSize int) string {
	switch {
	case r.All():
		return "PAGE-LIST-ALL"
	case r.nonPositiveSize():
		return "PAGE-LIST-NONPOSITIVE-SIZE"
	case r.Page < 1:
		return "PAGE-LIST-PAGENUMBER-BELOW-1"
	case r.Served(total, defaultSize).PastEnd():
		return "PAGE-LIST-PAST-END"
	}
	return "PAGE-LIST-SHAPE"
}

// Meta judges a 200 answer ex to r that holds n pages and serves slice s
// (r.Served), r not All: numberOfItems and meta.pageSize are the size
// used, meta.pageNumber the page served, n the pages of the slice (at
// most those with untagged=true) and meta.hasMore whether later pages
// hold pages. Each check is the rule r exercises: the size used of a
// non-positive numberOfItems PAGE-LIST-NONPOSITIVE-SIZE's, the page of a
// pageNumber below 1 PAGE-LIST-PAGENUMBER-BELOW-1's, a page past the last
// PAGE-LIST-PAST-END's (PastEnd), the rest PAGE-LIST-META-CONSISTENT's.
func Meta(ex *client.Exchange, n int, r Request, s Slice) []Check {
	sizeRule, pageRule := "PAGE-LIST-META-CONSISTENT", "PAGE-LIST-META-CONSISTENT"
	if r.nonPositiveSize() {
		sizeRule = "PAGE-LIST-NONPOSITIVE-SIZE"
	}
	if r.Page < 1 {
		pageRule = "PAGE-LIST-PAGENUMBER-BELOW-1"
	}
	out := []Check{
		integerIs(sizeRule, ex, "numberOfItems", s.Size, "the page size used"),
		integerIs(sizeRule, ex, "meta.pageSize", s.Size, "the page size used"),
		integerIs(pageRule, ex, "meta.pageNumber", s.Page, "the page served"),
	}
	if s.PastEnd() {
		return append(out, PastEnd(ex, n, s)...)
	}
	countRule := pageRule
	if countRule == "PAGE-LIST-META-CONSISTENT" {
		countRule = sizeRule
	}
	want := s.Len()
	expected := fmt.Sprintf("page %d of size %d holds %d of the %d pages", s.Page, s.Size, want, s.Total)
	ok := n == want
	if r.Untagged {
		expected = fmt.Sprintf("page %d of size %d holds at most %d of the %d pages (untagged=true)", s.Page, s.Size, want, s.Total)
		ok = n <= want
	}
	return append(out,
		Check{Rule: countRule, What: "len(data)", Expected: expected, Judgement: holds(ok, "%d pages", n)},
		booleanIs(pageRule, ex, "meta.hasMore", s.HasMore(), fmt.Sprintf("true exactly when later pages hold pages (page %d of %d)", s.Page, s.Pages())))
}

// PastEnd judges an answer ex holding n pages to a page past the last
// one (s.PastEnd): no pages, and meta.hasMore false
// (PAGE-LIST-PAST-END).
func PastEnd(ex *client.Exchange, n int, s Slice) []Check {
	const rule = "PAGE-LIST-PAST-END"
	return []Check{
		{Rule: rule, What: "len(data)", Expected: fmt.Sprintf("page %d, past the last page (%d at %d a page), holds no page",
			s.Page, s.Total, s.Size), Judgement: holds(n == 0, "%d pages", n)},
		booleanIs(rule, ex, "meta.hasMore", false, "false past the last page"),
	}
}

// All judges a 200 answer ex to r (numberOfItems=-1) that holds n pages,
// out of total matching pages (PAGE-LIST-ALL): every one of them (with
// untagged=true, at most these), meta.hasMore false, and numberOfItems and
// meta.pageSize -1 or the number of pages. What a pageNumber beside -1
// does is not said: an empty answer to a page after the first passes.
func All(ex *client.Exchange, n, total int, r Request) []Check {
	const rule = "PAGE-LIST-ALL"
	ok := n == total || (r.Untagged && n <= total) || (r.Page > 1 && n == 0)
	out := []Check{
		{Rule: rule, What: "len(data)", Expected: fmt.Sprintf("numberOfItems=-1 returns all %d matching pages", total),
			Judgement: holds(ok, "%d pages", n)},
		booleanIs(rule, ex, "meta.hasMore", false, "false when every page is returned"),
	}
	for _, path := range []string{"numberOfItems", "meta.pageSize"} {
		v := ex.Get(path)
		out = append(out, Check{Rule: rule, What: path, Expected: fmt.Sprintf("%s is -1 or the number of matching pages (%d)", path, total),
			Judgement: holds(isInteger(v) && (int(v.Num) == -1 || int(v.Num) == total), "%s is %s", path, rules.Show(v))})
	}
	return out
}

// Total judges meta.total against the number of matching pages; the rule
// is the caller's (the type filters', untagged's, or the walk's, whose
// every page reports the same total).
func Total(ex *client.Exchange, total int) rules.Judgement {
	v := ex.Get("meta.total")
	return holds(isInteger(v) && int(v.Num) == total, "meta.total is %s, want %d", rules.Show(v), total)
}

// OddValue judges an answer ex to a request with a numberOfItems or
// pageNumber that is no plain integer (PAGE-LIST-BAD-PAGING-NO-CRASH,
// 9.3): what it gives is not specified, any answer but a crash (5xx, a
// body that is not JSON) will do, and a 200 of GET /api/pages is the page
// list (data an array).
func OddValue(ex *client.Exchange) Check {
	c := Check{Rule: "PAGE-LIST-BAD-PAGING-NO-CRASH", What: "odd paging", Expected: "an answer below 500 with a JSON body; a 200 holds the page list (data an array)"}
	switch {
	case ex.Status >= http.StatusInternalServerError:
		c.Judgement = rules.Violation("HTTP %d", ex.Status)
	case !ex.IsJSON():
		c.Judgement = rules.Violation("HTTP %d, the body is not JSON", ex.Status)
	case ex.Status == http.StatusOK && !ex.Get("data").IsArray():
		c.Judgement = rules.Violation("a 200 whose data is %s", rules.Show(ex.Get("data")))
	}
	return c
}

// integerIs checks that the integer at path of ex is want.
func integerIs(rule string, ex *client.Exchange, path string, want int, what string) Check {
	v := ex.Get(path)
	return Check{Rule: rule, What: path, Expected: fmt.Sprintf("%s is %s (%d)", path, what, want),
		Judgement: holds(isInteger(v) && int(v.Num) == want, "%s is %s", path, rules.Show(v))}
}

// booleanIs checks that the boolean at path of ex is want.
func booleanIs(rule string, ex *client.Exchange, path string, want bool, what string) Check {
	v := ex.Get(path)
	ok := (v.Type == gjson.True && want) || (v.Type == gjson.False && !want)
	return Check{Rule: rule, What: path, Expected: path + " is " + what, Judgement: holds(ok, "%s is %s", path, rules.Show(v))}
}

// holds is a judgement: conforms when ok, else the problem.
func holds(ok bool, format string, args ...any) rules.Judgement {
	if ok {
		return rules.Conforms()
	}
	return rules.Violation(format, args...)
}

// isInteger reports whether a JSON value is an integral number.
func isInteger(r gjson.Result) bool { return r.Type == gjson.Number && r.Num == math.Trunc(r.Num) }
