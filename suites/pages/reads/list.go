package reads

// The page list (4.1): its shape, the type filters, the page size and page
// number, and odd paging values (9.3).

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

func (k kit) listShapeSpecs() {
	cases := []struct {
		name string
		q    url.Values
	}{
		{"no parameters", url.Values{}},
		{"every type, numberOfItems=2, pageNumber=2", framework.QueryWith(framework.EveryTypeQuery(), "numberOfItems", "2", "pageNumber", "2")},
		{"every type, numberOfItems=-1", framework.QueryWith(framework.EveryTypeQuery(), "numberOfItems", "-1")},
	}
	for _, c := range cases {
		k.t.It("PAGE-LIST-SHAPE", func(ctx SpecContext) {
			ex := k.t.Read(ctx, framework.PagesPath, c.q)
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("page-list.json"))
		}, framework.Case(c.name))
	}
}

func (k kit) defaultFilterSpec() {
	t := k.t
	t.It("PAGE-LIST-DEFAULT-FILTER", func(ctx SpecContext) {
		inv, invEx := k.everything(ctx, framework.EveryTypeQuery())
		published := framework.PagesOfType(inv, "published")
		if len(published) == len(inv) {
			framework.NotChecked("%s", k.lacking("no page other than published ones, so a default that lets other types in would not show"))
		}
		// The first page as a client sees it without any parameter.
		first := k.list(ctx, url.Values{})
		Expect(first).To(eachPage("without type filters every page listed is published", framework.PageItems(first), notOfType("published")))
		// Every page of the default listing.
		all, allEx := k.everything(ctx, url.Values{})
		Expect(allEx).To(eachPage("without type filters every page of the whole listing is published", all, notOfType("published")))
		missing, _ := keyDiff(framework.PageKeys(published), framework.PageKeys(all))
		Expect(missing).To(BeEmpty(), framework.Evidence(allEx,
			"without type filters the list holds every published page of the every-type list (%s); these are missing", invEx.RequestLine()))
	})
}

func (k kit) typeFilterSpecs() {
	t := k.t
	for _, ty := range framework.PageTypes() {
		t.It("PAGE-LIST-TYPE-FILTERS", func(ctx SpecContext) {
			inv, invEx := k.everything(ctx, framework.EveryTypeQuery())
			want := framework.PageKeys(framework.PagesOfType(inv, ty))
			if len(want) == 0 {
				// The list of every type shows none: create one, whose type
				// the create answer and a read confirm, so that a filter
				// that drops the type from every listing still shows.
				key := k.createOfType(ctx, ty)
				inv, invEx = k.everything(ctx, framework.EveryTypeQuery())
				want = framework.PageKeys(framework.PagesOfType(inv, ty))
				if missing, _ := keyDiff([]string{key}, want); len(missing) > 0 {
					want = append(want, key)
				}
			}
			got, ex := k.everything(ctx, framework.PageTypeQuery(ty))
			Expect(ex).To(eachPage("with only "+ty+"=true every page listed is "+ty, got, notOfType(ty)))
			missing, extra := keyDiff(want, framework.PageKeys(got))
			Expect(missing).To(BeEmpty(), framework.Evidence(ex, "with only %s=true the list holds every %s page of the every-type "+
				"list (%s) and any created for the check; these are missing", ty, ty, invEx.RequestLine()))
			Expect(extra).To(BeEmpty(), framework.Evidence(ex, "with only %s=true the list holds no page the every-type list (%s) "+
				"does not show as %s; these are extra", ty, invEx.RequestLine(), ty))
		}, framework.Case(ty))
	}
}

// createOfType creates a page of type ty for the current spec (deleted after
// it) and returns its key once a read confirms its type, or reports the rule
// not checked.
func (k kit) createOfType(ctx context.Context, ty string) string {
	if !k.t.CanWrite() {
		framework.NotChecked("%s", k.lacking("no "+ty+" page in the list of every type"))
	}
	// A past date, except for scheduled: a published page with a future date
	// may legitimately become scheduled.
	date := "2001-01-04 10:00:00"
	if ty == "scheduled" {
		date = time.Now().AddDate(10, 0, 0).Format("2006-01-02 15:04:05")
	}
	ex, key := k.createPage(ctx, map[string]any{"type": ty, "date": date, "slug": k.t.Marker(ty)})
	if key == "" {
		framework.NotChecked("the list of every type shows no %s page and creating one failed (%s)", ty, framework.Outcome(ex))
	}
	read := k.t.Read(ctx, framework.PagePath(key), nil)
	if got := read.Get("data.type").String(); read.Status != http.StatusOK || got != ty {
		framework.NotChecked("the list of every type shows no %s page, and the %s page created for the check (%s) "+
			"reads back with type %s (%s)", ty, ty, key, framework.Show(read.Get("data.type")), framework.Outcome(read))
	}
	return key
}

func (k kit) sizeSpecs() {
	t := k.t
	// Without parameters (published pages only) a small site may not fill a
	// page; every type, with the drafts the run may create, should. Either
	// way the size used shows only when the listing is longer than it.
	for _, c := range []struct {
		name, pages string
		q           url.Values
	}{{"no parameters", "published page", url.Values{}}, {"every type", "page", framework.EveryTypeQuery()}} {
		t.It("PAGE-LIST-DEFAULT-SIZE", func(ctx SpecContext) {
			ex := k.list(ctx, c.q)
			n, size, total := k.integer(ex, "numberOfItems"), k.integer(ex, "meta.pageSize"), k.integer(ex, "meta.total")
			Expect(n).To(Equal(size), framework.Evidence(ex, "numberOfItems (%d) and meta.pageSize (%d) report the same page size", n, size))
			Expect(size).To(BeNumerically(">", 0), framework.Evidence(ex, "the default page size is positive"))
			Expect(framework.PageItems(ex)).To(HaveLen(min(size, total)),
				framework.Evidence(ex, "the first page holds min(page size %d, meta.total %d) pages", size, total))
			if size != 15 {
				t.Observe("PAGE-LIST-DEFAULT-SIZE: the default page size is %d (the plugin setting's default is 15)", size)
			}
			if total <= size {
				framework.NotChecked("%s", k.lacking(count(total, c.pages)+", no more than the page size reported ("+
					strconv.Itoa(size)+"), so the size used cannot be seen"))
			}
		}, framework.Case(c.name))
	}

	for _, c := range []struct {
		name, pages string
		q           url.Values
	}{{"every type", "page", framework.EveryTypeQuery()}, {"no type parameter", "published page", url.Values{}}} {
		t.It("PAGE-LIST-ALL", func(ctx SpecContext) {
			ref := k.list(ctx, c.q)
			refTotal := k.integer(ref, "meta.total")
			ex := k.list(ctx, framework.QueryWith(c.q, "numberOfItems", "-1"))
			total := k.integer(ex, "meta.total")
			Expect(total).To(Equal(refTotal), framework.Evidence(ex,
				"meta.total is the same with numberOfItems=-1 as with the default page size (%s)", ref.RequestLine()))
			items := framework.PageItems(ex)
			Expect(items).To(HaveLen(total), framework.Evidence(ex, "numberOfItems=-1 returns all %d matching pages", total))
			Expect(repeatedKeys(framework.PageKeys(items))).To(BeEmpty(), framework.Evidence(ex, "numberOfItems=-1 lists each page once"))
			Expect(ex).To(framework.HaveJSON("meta.hasMore", Equal(false)), "meta.hasMore is false when every page is returned")
			for _, path := range []string{"numberOfItems", "meta.pageSize"} {
				Expect(k.integer(ex, path)).To(Or(Equal(-1), Equal(total)),
					framework.Evidence(ex, "%s is -1 or the number of matching pages (%d)", path, total))
			}
			if refTotal == 0 {
				framework.NotChecked("%s", k.lacking("no "+c.pages))
			}
		}, framework.Case(c.name))
	}

	for _, v := range []string{"0", "-5"} {
		t.It("PAGE-LIST-NONPOSITIVE-SIZE", func(ctx SpecContext) {
			k.expectReadAs(ctx, framework.QueryWith(framework.EveryTypeQuery(), "numberOfItems", v), framework.EveryTypeQuery(),
				"numberOfItems="+v, "the default page size", "no more pages than one list page at the default size holds, "+
					"so falling back to the default size cannot be told from listing all pages")
		}, framework.Case("numberOfItems="+v))
	}

	for _, v := range []string{"0", "-1"} {
		t.It("PAGE-LIST-PAGENUMBER-BELOW-1", func(ctx SpecContext) {
			q := framework.QueryWith(framework.EveryTypeQuery(), "numberOfItems", "2")
			k.expectReadAs(ctx, framework.QueryWith(q, "pageNumber", v), framework.QueryWith(q, "pageNumber", "1"),
				"pageNumber="+v, "page 1", "no more than 2 pages, one list page at numberOfItems=2, so page 1 cannot be "+
					"told from any other reading of pageNumber="+v)
		}, framework.Case("pageNumber="+v))
	}
}

// expectReadAs checks that the list answer to q, which sends an odd paging
// value (what), is the answer to ref, which sends what the value must be
// read as (readAs): the same numberOfItems and meta, and the same pages in
// any order (none is stated for the list). When ref's first page holds
// every page, other readings give the same answer: the rule is then not
// checked, for the reason unseen.
func (k kit) expectReadAs(ctx context.Context, q, ref url.Values, what, readAs, unseen string) {
	refEx := k.list(ctx, ref)
	if len(framework.PageItems(refEx)) == 0 {
		framework.NotChecked("%s", k.lacking("no page at all"))
	}
	ex := k.list(ctx, q)
	Expect(paging(ex)).To(Equal(paging(refEx)), framework.Evidence(ex,
		"%s is read as %s: numberOfItems and meta are those of %s", what, readAs, refEx.RequestLine()))
	Expect(keysOf(ex)).To(ConsistOf(keysOf(refEx)), framework.Evidence(ex,
		"%s gives the same pages as %s, in any order", what, refEx.RequestLine()))
	if onePage(refEx) {
		framework.NotChecked("%s", k.lacking(unseen))
	}
}

// keysOf returns the keys of the pages a list answer holds, in its order.
func keysOf(ex *client.Exchange) []string { return framework.PageKeys(framework.PageItems(ex)) }

// onePage reports whether a first list page holds every matching page
// (meta.total, when it is an integer, is no larger than len(data)): then
// every page number reading that lands on a page gives the same answer.
func onePage(ex *client.Exchange) bool {
	total := ex.Get("meta.total")
	return isInteger(total) && int(total.Num) <= len(framework.PageItems(ex))
}

// notOfType is the problem of a page object whose type is not ty (for
// eachPage).
func notOfType(ty string) func(it gjson.Result) string {
	return func(it gjson.Result) string {
		if got := it.Get("type"); got.Type != gjson.String || got.Str != ty {
			return "type is " + framework.Show(got)
		}
		return ""
	}
}

// paging is the paging part of a list answer as sent (numberOfItems
// and the four meta members, whatever their types), compared whole between
// two answers that must be the same. Their types are PAGE-LIST-SHAPE's
// concern, not that of the rules comparing two answers.
func paging(ex *client.Exchange) map[string]any {
	out := map[string]any{}
	for _, path := range []string{"numberOfItems", "meta.total", "meta.pageNumber", "meta.pageSize", "meta.hasMore"} {
		out[path] = ex.Get(path).Value()
	}
	return out
}

func (k kit) pastEndSpecs() {
	t := k.t
	for _, c := range []struct {
		name  string
		ahead int
	}{{"the page after the last", 1}, {"far past the last page", 1000}} {
		t.It("PAGE-LIST-PAST-END", func(ctx SpecContext) {
			total := k.total(ctx, framework.EveryTypeQuery())
			pn := max(pageCount(total, 2), 1) + c.ahead
			ex := k.t.Read(ctx, framework.PagesPath, framework.QueryWith(framework.EveryTypeQuery(), "numberOfItems", "2", "pageNumber", strconv.Itoa(pn)))
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			Expect(ex).To(framework.HaveJSON("data", framework.BeJSONArray(), BeEmpty()),
				"pageNumber=%d, past the last page (%s at 2 a page), gives an empty data array", pn, count(total, "page"))
			Expect(ex).To(framework.HaveJSON("meta.hasMore", Equal(false)), "meta.hasMore is false past the last page")
		}, framework.Case(c.name))
	}
}

func (k kit) badPagingSpecs() {
	for _, param := range []string{"numberOfItems", "pageNumber"} {
		for _, v := range []string{"abc", "", "2.5"} {
			name := param + "=" + v
			if v == "" {
				name = param + " empty"
			}
			k.t.It("PAGE-LIST-BAD-PAGING-NO-CRASH", func(ctx SpecContext) {
				// What such a value gives is not specified: any answer but a
				// crash (5xx, a body that is not JSON) will do.
				ex := k.t.Read(ctx, framework.PagesPath, url.Values{param: {v}})
				Expect(ex).To(framework.Hold("an answer below 500 with a JSON body", func(ex *client.Exchange) []string {
					var crash []string
					if ex.Status >= http.StatusInternalServerError {
						crash = append(crash, fmt.Sprintf("HTTP %d", ex.Status))
					}
					if !ex.IsJSON() {
						crash = append(crash, "the body is not JSON")
					}
					return crash
				}))
				if ex.Status == http.StatusOK {
					// A 200 of GET /api/pages is the page list (4.1).
					Expect(ex).To(framework.HaveJSON("data", framework.BeJSONArray()), "a 200 answer is the page list")
				}
			}, framework.Case(name))
		}
	}
}

// keyDiff returns the keys of want missing from got and the keys of got
// not in want.
func keyDiff(want, got []string) (missing, extra []string) {
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

// repeatedKeys returns the keys that occur more than once.
func repeatedKeys(keys []string) []string {
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
