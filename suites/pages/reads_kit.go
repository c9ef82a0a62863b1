package pages

// Helpers of the read specs (reads.go). Every package-level name here starts
// with "reads" or hangs off readKit, so that it cannot clash with the write
// specs' helpers in the same package.

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// readsListPath is the page list endpoint (spec 4.1).
const readsListPath = "/api/pages"

// readsMinPages is how many pages (of any type) the pagination specs want:
// with the page size readsSmallSize picks, at least three pages, the last
// one partly filled.
const readsMinPages = 7

// readsMaxPad bounds the default page size up to which the setup creates
// drafts to fill more than one default-size page (a site whose default is
// larger is checked with the pages it has).
const readsMaxPad = 30

// readsMaxWalk bounds how many pages of one listing a spec visits (the
// default page size on a large site could make many).
const readsMaxWalk = 12

// readsTypes returns the five page types of spec section 3 (a fresh slice
// each call: nothing shared is mutable).
func readsTypes() []string {
	return []string{"published", "static", "sticky", "draft", "scheduled"}
}

// readsTypeQuery sets every type filter: true for the types named, false
// for the others (spec 4.1; booleans as the string true, see the
// PAGE-LIST-TYPE-FILTERS reading).
func readsTypeQuery(on ...string) url.Values {
	q := url.Values{}
	for _, ty := range readsTypes() {
		q.Set(ty, "false")
	}
	for _, ty := range on {
		q.Set(ty, "true")
	}
	return q
}

// readsAllTypes asks for pages of every type: the largest listing a target
// offers, and one that holds the draft pages a run creates.
func readsAllTypes() url.Values { return readsTypeQuery(readsTypes()...) }

// readsWith returns a copy of q with the given name/value pairs set.
func readsWith(q url.Values, kv ...string) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out.Set(kv[i], kv[i+1])
	}
	return out
}

// readsAbout renders a failure description: the expectation, then the
// exchanges it is about (already redacted by the client).
func readsAbout(format string, args []any, exs ...*client.Exchange) func() string {
	return func() string {
		var b strings.Builder
		b.WriteString(fmt.Sprintf(format, args...))
		for i, ex := range exs {
			if ex == nil {
				continue
			}
			if i == 0 {
				b.WriteString("\n\n")
			} else {
				b.WriteString("\ncompared with:\n")
			}
			b.WriteString(ex.String())
		}
		return b.String()
	}
}

// about is readsAbout for one exchange.
func (k readKit) about(ex *client.Exchange, format string, args ...any) func() string {
	return readsAbout(format, args, ex)
}

// about2 is readsAbout for an exchange judged against a reference one.
func (k readKit) about2(ex, ref *client.Exchange, format string, args ...any) func() string {
	return readsAbout(format, args, ex, ref)
}

// readKit carries the target and what the container's setup could not
// prepare (reasons shown when a spec cannot check its rule).
type readKit struct {
	t     *framework.Fixture
	notes *[]string
}

// note records a setup problem.
func (k readKit) note(format string, args ...any) {
	*k.notes = append(*k.notes, fmt.Sprintf(format, args...))
}

// lacking is the reason for a rule left unchecked because the target has no
// data of some kind: why the run did not (or could not) create it.
func (k readKit) lacking(what string) string {
	reason := "the target has " + what
	switch {
	case !k.t.CanWrite():
		reason += ", and this run may not create pages (read-only run or no --auth-token)"
	case len(*k.notes) > 0:
		reason += ", and preparing it failed: " + strings.Join(*k.notes, "; ")
	default:
		reason += ", even after this run created pages for the check"
	}
	return reason
}

// list sends GET /api/pages with q and expects 200 with a data array.
func (k readKit) list(ctx context.Context, q url.Values) *client.Exchange {
	ex := k.t.Read(ctx, readsListPath, q)
	if ex.Truncated {
		framework.NotChecked("the answer to %s is larger than the read limit (--max-body)", ex.RequestLine())
	}
	ExpectWithOffset(1, ex).To(framework.HaveHTTPStatus(http.StatusOK))
	ExpectWithOffset(1, ex.Get("data").IsArray()).To(BeTrue(), k.about(ex, "data is an array of page objects"))
	return ex
}

// integer reads a member that must be an integer (spec 4.1 list envelope).
func (k readKit) integer(ex *client.Exchange, path string) int {
	r := ex.Get(path)
	ok := r.Type == gjson.Number && r.Num == math.Trunc(r.Num)
	ExpectWithOffset(1, ok).To(BeTrue(), k.about(ex, "%s is an integer; it is %s", path, readsRaw(r)))
	return int(r.Num)
}

// boolean reads a member that must be a boolean.
func (k readKit) boolean(ex *client.Exchange, path string) bool {
	r := ex.Get(path)
	ok := r.Type == gjson.True || r.Type == gjson.False
	ExpectWithOffset(1, ok).To(BeTrue(), k.about(ex, "%s is a boolean; it is %s", path, readsRaw(r)))
	return r.Bool()
}

// readsPaging is the paging part of a list answer as sent (numberOfItems
// and the four meta members, whatever their types), compared whole between
// two answers that must be the same. Their types are PAGE-LIST-SHAPE's
// concern, not that of the rules comparing two answers.
func readsPaging(ex *client.Exchange) map[string]any {
	out := map[string]any{}
	for _, path := range []string{"numberOfItems", "meta.total", "meta.pageNumber", "meta.pageSize", "meta.hasMore"} {
		out[path] = ex.Get(path).Value()
	}
	return out
}

// total is the number of pages matching the type filters of q: the list's
// meta.total when it is an integer, otherwise (PAGE-LIST-SHAPE's concern)
// the number of pages a full listing holds.
func (k readKit) total(ctx context.Context, q url.Values) int {
	ex := k.list(ctx, q)
	if r := ex.Get("meta.total"); r.Type == gjson.Number && r.Num == math.Trunc(r.Num) {
		return int(r.Num)
	}
	items, _ := k.everything(ctx, q)
	return len(items)
}

func readsRaw(r gjson.Result) string {
	if !r.Exists() {
		return "missing"
	}
	return r.Raw
}

// readsItems returns the data array of a list answer.
func readsItems(ex *client.Exchange) []gjson.Result { return ex.Get("data").Array() }

// readsKeys returns the keys of page objects, in order.
func readsKeys(items []gjson.Result) []string {
	keys := make([]string, 0, len(items))
	for _, it := range items {
		keys = append(keys, it.Get("key").String())
	}
	return keys
}

// readsTagged reports whether a page object has tags. The spec's form is a
// non-empty object; a non-empty string or array (earlier releases) counts
// too, so that a shape problem (PAGE-OBJECT-SHAPE) does not also read as
// "untagged".
func readsTagged(item gjson.Result) bool {
	tg := item.Get("tags")
	switch {
	case tg.IsObject():
		return len(tg.Map()) > 0
	case tg.IsArray():
		return len(tg.Array()) > 0
	case tg.Type == gjson.String:
		return tg.Str != ""
	}
	return false
}

// readsUntaggedKeys keeps the keys of the pages without tags, in order.
func readsUntaggedKeys(items []gjson.Result) []string {
	var keys []string
	for _, it := range items {
		if !readsTagged(it) {
			keys = append(keys, it.Get("key").String())
		}
	}
	if keys == nil {
		keys = []string{}
	}
	return keys
}

// readsOfType keeps the pages of one type.
func readsOfType(items []gjson.Result, ty string) []gjson.Result {
	var out []gjson.Result
	for _, it := range items {
		if it.Get("type").String() == ty {
			out = append(out, it)
		}
	}
	return out
}

// readsFirstChild returns the first page whose key is hierarchical.
func readsFirstChild(items []gjson.Result) (gjson.Result, bool) {
	for _, it := range items {
		if strings.Contains(it.Get("key").String(), "/") {
			return it, true
		}
	}
	return gjson.Result{}, false
}

// readsTagBeforeUntagged reports whether some tagged page comes before an
// untagged one: only then does filtering before pagination give other
// slices than filtering after it.
func readsTagBeforeUntagged(items []gjson.Result) bool {
	seenTagged := false
	for _, it := range items {
		if readsTagged(it) {
			seenTagged = true
		} else if seenTagged {
			return true
		}
	}
	return false
}

// readsDiff returns the keys of want missing from got and the keys of got
// not in want.
func readsDiff(want, got []string) (missing, extra []string) {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range list {
			m[s] = true
		}
		return m
	}
	w, g := in(want), in(got)
	for _, s := range want {
		if !g[s] {
			missing = append(missing, s)
		}
	}
	for _, s := range got {
		if !w[s] {
			extra = append(extra, s)
		}
	}
	return missing, extra
}

// readsDuplicates returns the keys that occur more than once.
func readsDuplicates(keys []string) []string {
	count := map[string]int{}
	var dups []string
	for _, k := range keys {
		count[k]++
		if count[k] == 2 {
			dups = append(dups, k)
		}
	}
	return dups
}

// readsSmallSize picks a page size that splits total pages into several
// pages (at most about nine requests for a walk), with a partly filled last
// page when it can.
func readsSmallSize(total int) int {
	s := max(2, (total+7)/8)
	if total > s && total%s == 0 {
		s++
	}
	return s
}

// readsPageCount is the number of non-empty pages of size s.
func readsPageCount(total, s int) int {
	if s <= 0 || total <= 0 {
		return 0
	}
	return (total + s - 1) / s
}

// readsVisit lists the page numbers a walk visits: all of them, or on a
// long listing the first ones and the last two.
func readsVisit(pages int) []int {
	var out []int
	for pn := 1; pn <= pages; pn++ {
		if pages <= readsMaxWalk || pn <= readsMaxWalk-2 || pn >= pages-1 {
			out = append(out, pn)
		}
	}
	return out
}

// readsExpectedLen is how many pages page pn of size s holds out of total.
func readsExpectedLen(total, s, pn int) int {
	return max(0, min(s, total-(pn-1)*s))
}

// allMatching returns every page matching the type filters of q, as the
// reference another rule's check compares against. It does not judge the
// server: it asks for numberOfItems=-1 and, when that answer is incomplete
// (len(data) differs from meta.total: PAGE-LIST-ALL's concern), for one page
// of meta.total items, so that a broken -1 does not spill into other rules.
// problem is non-empty when no consistent listing could be had.
func (k readKit) allMatching(ctx context.Context, q url.Values) (items []gjson.Result, ex *client.Exchange, problem string) {
	ex = k.t.Read(ctx, readsListPath, readsWith(q, "numberOfItems", "-1"))
	if ex.Truncated {
		// A large site: its whole listing does not fit the read limit.
		// Walk it in pages instead (the pagination rules judge the walk
		// itself; here it only gathers the pages to compare with).
		return k.walkAll(ctx, q, ex)
	}
	if ex.Err != nil || ex.Status != http.StatusOK || !ex.Get("data").IsArray() {
		return nil, ex, fmt.Sprintf("%s did not answer 200 with a data array (%s)", ex.RequestLine(), readsStatus(ex))
	}
	items = readsItems(ex)
	total := ex.Get("meta.total")
	if total.Type != gjson.Number || int(total.Num) == len(items) {
		// Without a usable meta.total (PAGE-LIST-SHAPE's concern) the -1
		// answer is the best listing there is.
		return items, ex, ""
	}
	n := int(total.Num)
	if n > 0 {
		ex2 := k.t.Read(ctx, readsListPath, readsWith(q, "numberOfItems", strconv.Itoa(n)))
		if ex2.Err == nil && ex2.Status == http.StatusOK && len(readsItems(ex2)) == n {
			return readsItems(ex2), ex2, ""
		}
	}
	return nil, ex, fmt.Sprintf("the pages to compare with could not be listed: numberOfItems=-1 gave %d pages "+
		"while meta.total is %d, and numberOfItems=%d did not give them either", len(items), n, n)
}

// Bounds of walkAll: it starts with pages of readsWalkSize items and makes
// them smaller while one page is still larger than the read limit; it
// sends at most readsWalkPages requests per size, so a huge site costs a
// bounded number of reads.
const (
	readsWalkSize  = 100
	readsWalkPages = 200
)

// walkAll gathers every page matching q by walking the list a page at a
// time, for sites whose numberOfItems=-1 answer is larger than the read
// limit (big is the -1 exchange that was cut). The pagination rules judge
// walks; here the walk only gathers the pages to compare with.
func (k readKit) walkAll(ctx context.Context, q url.Values, big *client.Exchange) ([]gjson.Result, *client.Exchange, string) {
	last := big
	for size := readsWalkSize; size >= 4; size /= 4 {
		var items []gjson.Result
		cut := false
		for p := 1; p <= readsWalkPages; p++ {
			last = k.t.Read(ctx, readsListPath, readsWith(q, "numberOfItems", strconv.Itoa(size), "pageNumber", strconv.Itoa(p)))
			if last.Truncated {
				cut = true // try smaller pages
				break
			}
			if last.Err != nil || last.Status != http.StatusOK || !last.Get("data").IsArray() {
				return nil, last, fmt.Sprintf("the answer to %s is larger than the read limit (--max-body), and walking the list "+
					"instead failed at %s (%s)", big.RequestLine(), last.RequestLine(), readsStatus(last))
			}
			page := readsItems(last)
			items = append(items, page...)
			if len(page) < size || !last.Get("meta.hasMore").Bool() {
				return items, last, ""
			}
		}
		if !cut {
			return nil, last, fmt.Sprintf("the site has more than %d pages matching %s: too many to compare with", size*readsWalkPages, q.Encode())
		}
	}
	return nil, last, fmt.Sprintf("the answer to %s is larger than the read limit (--max-body), even a few pages at a time", big.RequestLine())
}

// everyPage is the listing of every type for a spec; a target with no page
// at all leaves the rule not checked.
func (k readKit) everyPage(ctx context.Context) ([]gjson.Result, *client.Exchange) {
	items, ex := k.everything(ctx, readsAllTypes())
	if len(items) == 0 {
		framework.NotChecked("the target has no page at all")
	}
	return items, ex
}

// childPage is the first child page (key parent/child) the target lists;
// without one the rule is not checked.
func (k readKit) childPage(ctx context.Context) gjson.Result {
	items, _ := k.everything(ctx, readsAllTypes())
	child, ok := readsFirstChild(items)
	if !ok {
		framework.NotChecked("%s", k.lacking("no child page (key parent/child)"))
	}
	return child
}

// everything is allMatching for a spec: it reports the rule not checked when
// the reference listing cannot be had.
func (k readKit) everything(ctx context.Context, q url.Values) ([]gjson.Result, *client.Exchange) {
	items, ex, problem := k.allMatching(ctx, q)
	if problem != "" {
		framework.NotChecked("%s", problem)
	}
	return items, ex
}

func readsStatus(ex *client.Exchange) string {
	if ex.Err != nil {
		return ex.Err.Error()
	}
	return "HTTP " + strconv.Itoa(ex.Status)
}

// readsSample picks pages to read one by one: the first page of each type,
// the first child page and the first page whose key is not plain ASCII.
func readsSample(items []gjson.Result) []gjson.Result {
	var out []gjson.Result
	seen := map[string]bool{}
	add := func(it gjson.Result) {
		key := it.Get("key").String()
		if key != "" && !seen[key] {
			seen[key] = true
			out = append(out, it)
		}
	}
	for _, ty := range readsTypes() {
		if of := readsOfType(items, ty); len(of) > 0 {
			add(of[0])
		}
	}
	if child, ok := readsFirstChild(items); ok {
		add(child)
	}
	for _, it := range items {
		if key := it.Get("key").String(); strconv.QuoteToASCII(key) != `"`+key+`"` {
			add(it)
			break
		}
	}
	return out
}

// readsPages says how many pages: "1 page", "3 pages".
func readsPages(n int) string {
	if n == 1 {
		return "1 page"
	}
	return strconv.Itoa(n) + " pages"
}

// readsLastSegment is the part of a key after its last slash.
func readsLastSegment(key string) string {
	return key[strings.LastIndex(key, "/")+1:]
}

// readsAbsoluteURL reports why s is not an absolute http(s) URL ("" when it is).
func readsAbsoluteURL(s string) string {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "not a URL: " + err.Error()
	case u.Scheme != "http" && u.Scheme != "https":
		return "no http or https scheme"
	case u.Host == "":
		return "no host"
	}
	return ""
}
