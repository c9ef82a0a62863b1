package pages

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/schemas"
)

// registerReads adds the specs of the page object (2.1), the page list and
// its pagination (4.1, 8, 9.3) and single-page reads (4.2).
//
// They read whatever the target holds. The specs of the first container
// need nothing in particular (a type filter with no page of its type on the
// target creates one in its own spec). Those of the second need pages of
// some kind: its BeforeAll adds what the target lacks (a child page, a
// tagged page listed before an untagged one, a page that is not published,
// enough pages for several list pages), as run-marked drafts deleted after
// the container, and only when the run may write; otherwise the rules
// concerned are reported not checked with the reason. Every spec reads
// afresh, so pages other specs create or delete do not matter.
func registerReads(t *framework.Fixture) {
	var notes []string
	k := readKit{t: t, notes: &notes}

	Describe("Page reads", func() {
		Describe("2.1 Page object", func() { k.objectSpecs() })
		Describe("4.1 GET /api/pages", Label(spec.ListPages.Label()), func() {
			k.listShapeSpecs()
			k.typeFilterSpecs()
			k.pastEndSpecs()
			k.badPagingSpecs()
		})
		Describe("4.2 GET /api/pages/{key}", Label(spec.GetPage.Label()), func() { k.getSpecs() })
	})

	Describe("Page reads needing pages of some kind", Ordered, ContinueOnFailure, func() {
		BeforeAll(func(ctx SpecContext) { k.prepare(ctx) })

		Describe("2.1 Page object", func() { k.slugSpecs() })
		Describe("4.1 GET /api/pages", Label(spec.ListPages.Label()), func() {
			k.defaultFilterSpec()
			k.sizeSpecs()
			k.walkSpecs()
			k.untaggedSpecs()
		})
		Describe("4.2 GET /api/pages/{key}", Label(spec.GetPage.Label()), func() { k.hierarchicalSpec() })
	})
}

// prepare creates, when the run may write, what the target lacks for the
// checks: never fails (a spec whose data is still missing says why).
func (k readKit) prepare(ctx context.Context) {
	if !k.t.CanWrite() {
		return
	}
	items, _, problem := k.allMatching(ctx, readsAllTypes())
	if problem != "" {
		k.note("%s", problem)
		return
	}
	created := 0
	create := func(what string, fields map[string]any) string {
		// Each page gets a date of its own (unless it has one): the list's
		// order is not specified, and a server sorting by date alone may
		// order pages of equal dates differently from one request to the
		// next, which would make a walk over the pages meaningless.
		if _, ok := fields["date"]; !ok {
			dated := map[string]any{"date": fmt.Sprintf("2001-01-05 %02d:%02d:00", 10+created/60, created%60)}
			for f, v := range fields {
				dated[f] = v
			}
			fields = dated
		}
		ex, key := k.t.CreatePage(ctx, fields)
		if key == "" {
			k.note("creating %s failed (%s)", what, readsStatus(ex))
		} else {
			created++
		}
		return key
	}
	if _, ok := readsFirstChild(items); !ok {
		if parent := create("a parent page", map[string]any{"slug": k.t.Marker("parent")}); parent != "" {
			create("a child page", map[string]any{"slug": k.t.Marker("child"), "parent": parent})
		}
	}
	if !readsTagBeforeUntagged(items) {
		// Untagged, tagged, untagged by date: a tagged page then comes before
		// an untagged one whichever way the list sorts by date.
		create("an untagged page", map[string]any{"slug": k.t.Marker("untagged-old"), "date": "2001-01-01 10:00:00"})
		create("a tagged page", map[string]any{"slug": k.t.Marker("tagged"), "date": "2001-01-02 10:00:00",
			"tags": k.t.Marker("tag")})
		create("an untagged page", map[string]any{"slug": k.t.Marker("untagged-new"), "date": "2001-01-03 10:00:00"})
	}
	nonPublished := len(items) - len(readsOfType(items, "published"))
	if nonPublished == 0 && created == 0 {
		create("a draft page", nil)
	}
	// Enough pages for several list pages, at a small size and, when the
	// default page size is modest, at the default size too.
	want := readsMinPages
	first := k.t.Read(ctx, readsListPath, readsAllTypes())
	if size := first.Get("meta.pageSize"); size.Type == gjson.Number && size.Num > 0 && size.Num <= readsMaxPad {
		want = max(want, int(size.Num)+1)
	}
	for i := len(items) + created; i < want; i++ {
		if create("a draft page", nil) == "" {
			break
		}
	}
}

// ---- 2.1 page object ----

func (k readKit) objectSpecs() {
	t := k.t
	t.It("PAGE-OBJECT-SHAPE", func(ctx SpecContext) {
		items, ex := k.everyPage(ctx)
		var problems []string
		for i, it := range items {
			ps, err := schemas.Validate("page.json", []byte(it.Raw))
			Expect(err).NotTo(HaveOccurred())
			for _, p := range ps {
				problems = append(problems, "data["+strconv.Itoa(i)+"] (key "+it.Get("key").String()+"): "+p)
			}
		}
		Expect(problems).To(BeEmpty(), k.about(ex, "every list item matches schema page.json (the 17 fields of section 2.1)"))
	}, framework.Case("list items, every type"))

	t.It("PAGE-OBJECT-SHAPE", func(ctx SpecContext) {
		sample := k.singleReadSample(ctx)
		for _, it := range sample {
			key := it.Get("key").String()
			ex := t.Read(ctx, client.KeyPath("pages", key), nil)
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			ps, err := schemas.Validate("page.json", []byte(ex.Get("data").Raw))
			Expect(err).NotTo(HaveOccurred(), k.about(ex, "data is one JSON value"))
			Expect(ps).To(BeEmpty(), k.about(ex, "data of GET /api/pages/%s matches schema page.json", key))
		}
	}, framework.Case("single reads, a page of each type found"))

	t.It("PAGE-PERMALINK-ABSOLUTE", func(ctx SpecContext) {
		items, ex := k.everyPage(ctx)
		var wrong []string
		for _, it := range items {
			if p := readsAbsoluteURL(it.Get("permalink").String()); p != "" || it.Get("permalink").Type != gjson.String {
				wrong = append(wrong, "key "+it.Get("key").String()+": permalink "+readsRaw(it.Get("permalink"))+" ("+p+")")
			}
		}
		Expect(wrong).To(BeEmpty(), k.about(ex, "every page's permalink is an absolute http(s) URL"))
	}, framework.Case("list items, every type"))

	t.It("PAGE-PERMALINK-ABSOLUTE", func(ctx SpecContext) {
		first := k.list(ctx, readsAllTypes())
		items := readsItems(first)
		if len(items) == 0 {
			framework.NotChecked("the target has no page at all")
		}
		key := items[0].Get("key").String()
		ex := t.Read(ctx, client.KeyPath("pages", key), nil)
		Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		link := ex.Get("data.permalink")
		Expect(link.Type).To(Equal(gjson.String), k.about(ex, "data.permalink is a string"))
		Expect(readsAbsoluteURL(link.Str)).To(BeEmpty(), k.about(ex, "data.permalink %q is an absolute http(s) URL", link.Str))
	}, framework.Case("single read"))
}

func (k readKit) slugSpecs() {
	t := k.t
	t.It("PAGE-SLUG-LAST-SEGMENT", func(ctx SpecContext) {
		items, ex := k.everyPage(ctx)
		var wrong []string
		for _, it := range items {
			key, slug := it.Get("key").String(), it.Get("slug")
			if slug.Type != gjson.String || slug.Str != readsLastSegment(key) {
				wrong = append(wrong, "key "+key+": slug "+readsRaw(slug))
			}
		}
		Expect(wrong).To(BeEmpty(), k.about(ex, "every page's slug is the last segment of its key"))
	}, framework.Case("list items, every type"))

	t.It("PAGE-SLUG-LAST-SEGMENT", func(ctx SpecContext) {
		child := k.childPage(ctx)
		key := child.Get("key").String()
		ex := t.Read(ctx, client.KeyPath("pages", key), nil)
		Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		got := ex.Get("data.key").String()
		slug := ex.Get("data.slug")
		Expect(slug.Type == gjson.String && slug.Str == readsLastSegment(got)).To(BeTrue(),
			k.about(ex, "the slug of page %s is %q, the last segment of its key; it is %s", got, readsLastSegment(got), readsRaw(slug)))
	}, framework.Case("single read of a child page"))
}

// ---- 4.1 list: shape and filters ----

func (k readKit) listShapeSpecs() {
	cases := []struct {
		name string
		q    url.Values
	}{
		{"no parameters", url.Values{}},
		{"every type, numberOfItems=2, pageNumber=2", readsWith(readsAllTypes(), "numberOfItems", "2", "pageNumber", "2")},
		{"every type, numberOfItems=-1", readsWith(readsAllTypes(), "numberOfItems", "-1")},
	}
	for _, c := range cases {
		k.t.It("PAGE-LIST-SHAPE", func(ctx SpecContext) {
			ex := k.t.Read(ctx, readsListPath, c.q)
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("page-list.json"))
		}, framework.Case(c.name))
	}
}

func (k readKit) defaultFilterSpec() {
	t := k.t
	t.It("PAGE-LIST-DEFAULT-FILTER", func(ctx SpecContext) {
		inv, invEx := k.everything(ctx, readsAllTypes())
		published := readsOfType(inv, "published")
		if len(published) == len(inv) {
			framework.NotChecked("%s", k.lacking("no page other than published ones, so a default that lets other types in would not show"))
		}
		// The first page as a client sees it without any parameter.
		first := k.list(ctx, url.Values{})
		for _, it := range readsItems(first) {
			Expect(it.Get("type").String()).To(Equal("published"),
				k.about(first, "without type filters every page listed is published; page %s is not", it.Get("key").String()))
		}
		// Every page of the default listing.
		all, allEx := k.everything(ctx, url.Values{})
		for _, it := range all {
			Expect(it.Get("type").String()).To(Equal("published"),
				k.about(allEx, "without type filters every page listed is published; page %s is not", it.Get("key").String()))
		}
		missing, _ := readsDiff(readsKeys(published), readsKeys(all))
		Expect(missing).To(BeEmpty(), k.about2(allEx, invEx,
			"without type filters the list holds every published page (these published pages of the every-type list are missing)"))
	})
}

func (k readKit) typeFilterSpecs() {
	t := k.t
	for _, ty := range readsTypes() {
		t.It("PAGE-LIST-TYPE-FILTERS", func(ctx SpecContext) {
			inv, invEx := k.everything(ctx, readsAllTypes())
			want := readsKeys(readsOfType(inv, ty))
			if len(want) == 0 {
				// The list of every type shows none: create one, whose type
				// the create answer and a read confirm, so that a filter
				// that drops the type from every listing still shows.
				key := k.createOfType(ctx, ty)
				inv, invEx = k.everything(ctx, readsAllTypes())
				want = readsKeys(readsOfType(inv, ty))
				if missing, _ := readsDiff([]string{key}, want); len(missing) > 0 {
					want = append(want, key)
				}
			}
			got, ex := k.everything(ctx, readsTypeQuery(ty))
			for _, it := range got {
				Expect(it.Get("type").String()).To(Equal(ty),
					k.about(ex, "with only %s=true every page listed is %s; page %s is not", ty, ty, it.Get("key").String()))
			}
			missing, extra := readsDiff(want, readsKeys(got))
			Expect(missing).To(BeEmpty(), k.about2(ex, invEx,
				"with only %s=true the list holds every %s page (these %s pages of the every-type list, or created for the check, are missing)", ty, ty, ty))
			Expect(extra).To(BeEmpty(), k.about2(ex, invEx,
				"with only %s=true the list holds no page the every-type list does not show as %s (these are extra)", ty, ty))
		}, framework.Case(ty))
	}
}

// createOfType creates a page of type ty for the current spec (deleted after
// it) and returns its key once a read confirms its type, or reports the rule
// not checked.
func (k readKit) createOfType(ctx context.Context, ty string) string {
	if !k.t.CanWrite() {
		framework.NotChecked("%s", k.lacking("no "+ty+" page in the list of every type"))
	}
	// A past date, except for scheduled: a published page with a future date
	// may legitimately become scheduled.
	date := "2001-01-04 10:00:00"
	if ty == "scheduled" {
		date = time.Now().AddDate(10, 0, 0).Format("2006-01-02 15:04:05")
	}
	ex, key := k.t.CreatePage(ctx, map[string]any{"type": ty, "date": date, "slug": k.t.Marker(ty)})
	if key == "" {
		framework.NotChecked("the list of every type shows no %s page and creating one failed (%s)", ty, readsStatus(ex))
	}
	read := k.t.Read(ctx, client.KeyPath("pages", key), nil)
	if got := read.Get("data.type").String(); read.Status != http.StatusOK || got != ty {
		framework.NotChecked("the list of every type shows no %s page, and the %s page created for the check (%s) "+
			"reads back as %s (HTTP %d)", ty, ty, key, readsRaw(read.Get("data.type")), read.Status)
	}
	return key
}

// ---- 4.1 list: page size and page number ----

func (k readKit) sizeSpecs() {
	t := k.t
	// Without parameters (published pages only) a small site may not fill a
	// page; every type, with the drafts the run may create, should.
	for _, c := range []struct {
		name string
		q    url.Values
		full bool
	}{{"no parameters", url.Values{}, false}, {"every type", readsAllTypes(), true}} {
		t.It("PAGE-LIST-DEFAULT-SIZE", func(ctx SpecContext) {
			ex := k.list(ctx, c.q)
			n, size, total := k.integer(ex, "numberOfItems"), k.integer(ex, "meta.pageSize"), k.integer(ex, "meta.total")
			Expect(n).To(Equal(size), k.about(ex, "numberOfItems (%d) and meta.pageSize (%d) report the same page size", n, size))
			Expect(size).To(BeNumerically(">", 0), k.about(ex, "the default page size is positive"))
			Expect(readsItems(ex)).To(HaveLen(min(size, total)),
				k.about(ex, "the first page holds min(page size %d, meta.total %d) pages", size, total))
			if size != 15 {
				t.Observe("PAGE-LIST-DEFAULT-SIZE: the default page size is %d (the plugin setting's default is 15)", size)
			}
			if total <= size && c.full {
				framework.NotChecked("%s", k.lacking(readsPages(total)+", no more than the page size reported ("+
					strconv.Itoa(size)+"), so the size used cannot be seen"))
			}
		}, framework.Case(c.name))
	}

	for _, c := range []struct {
		name, what string
		q          url.Values
	}{{"every type", "no page", readsAllTypes()}, {"no type parameter", "no published page", url.Values{}}} {
		t.It("PAGE-LIST-ALL", func(ctx SpecContext) {
			ref := k.list(ctx, c.q)
			refTotal := k.integer(ref, "meta.total")
			ex := k.list(ctx, readsWith(c.q, "numberOfItems", "-1"))
			total := k.integer(ex, "meta.total")
			Expect(total).To(Equal(refTotal), k.about2(ex, ref, "meta.total is the same with numberOfItems=-1 as with the default page size"))
			items := readsItems(ex)
			Expect(items).To(HaveLen(total), k.about(ex, "numberOfItems=-1 returns all %d matching pages", total))
			Expect(readsDuplicates(readsKeys(items))).To(BeEmpty(), k.about(ex, "numberOfItems=-1 lists each page once"))
			Expect(k.boolean(ex, "meta.hasMore")).To(BeFalse(), k.about(ex, "meta.hasMore is false when every page is returned"))
			for _, path := range []string{"numberOfItems", "meta.pageSize"} {
				Expect(k.integer(ex, path)).To(Or(Equal(-1), Equal(total)),
					k.about(ex, "%s is -1 or the number of matching pages (%d)", path, total))
			}
			if refTotal == 0 {
				framework.NotChecked("%s", k.lacking(c.what))
			}
		}, framework.Case(c.name))
	}

	for _, v := range []string{"0", "-5"} {
		t.It("PAGE-LIST-NONPOSITIVE-SIZE", func(ctx SpecContext) {
			ref := k.list(ctx, readsAllTypes())
			if len(readsItems(ref)) == 0 {
				framework.NotChecked("%s", k.lacking("no page at all"))
			}
			ex := k.list(ctx, readsWith(readsAllTypes(), "numberOfItems", v))
			Expect(readsPaging(ex)).To(Equal(readsPaging(ref)), k.about2(ex, ref,
				"numberOfItems=%s falls back to the default page size: numberOfItems and meta are those of a request without it", v))
			Expect(readsKeys(readsItems(ex))).To(Equal(readsKeys(readsItems(ref))), k.about2(ex, ref,
				"numberOfItems=%s gives the same pages as a request without it", v))
		}, framework.Case("numberOfItems="+v))
	}

	for _, v := range []string{"0", "-1"} {
		t.It("PAGE-LIST-PAGENUMBER-BELOW-1", func(ctx SpecContext) {
			ref := k.list(ctx, readsWith(readsAllTypes(), "numberOfItems", "2", "pageNumber", "1"))
			if len(readsItems(ref)) == 0 {
				framework.NotChecked("%s", k.lacking("no page at all"))
			}
			ex := k.list(ctx, readsWith(readsAllTypes(), "numberOfItems", "2", "pageNumber", v))
			Expect(readsPaging(ex)).To(Equal(readsPaging(ref)), k.about2(ex, ref, "pageNumber=%s is treated as 1: numberOfItems and meta are those of page 1", v))
			Expect(readsKeys(readsItems(ex))).To(Equal(readsKeys(readsItems(ref))), k.about2(ex, ref,
				"pageNumber=%s gives the same pages as page 1", v))
		}, framework.Case("pageNumber="+v))
	}
}

func (k readKit) pastEndSpecs() {
	t := k.t
	for _, c := range []struct {
		name  string
		ahead int
	}{{"the page after the last", 1}, {"far past the last page", 1000}} {
		t.It("PAGE-LIST-PAST-END", func(ctx SpecContext) {
			total := k.total(ctx, readsAllTypes())
			pn := max(readsPageCount(total, 2), 1) + c.ahead
			ex := k.t.Read(ctx, readsListPath, readsWith(readsAllTypes(), "numberOfItems", "2", "pageNumber", strconv.Itoa(pn)))
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			data := ex.Get("data")
			Expect(data.IsArray() && len(data.Array()) == 0).To(BeTrue(),
				k.about(ex, "pageNumber=%d, past the last page (%s at 2 a page), gives an empty data array", pn, readsPages(total)))
			Expect(k.boolean(ex, "meta.hasMore")).To(BeFalse(), k.about(ex, "meta.hasMore is false past the last page"))
		}, framework.Case(c.name))
	}
}

// ---- 4.1 list: walking the pages ----

func (k readKit) walkSpecs() {
	t := k.t
	for _, small := range []bool{true, false} {
		name := "default page size, every type"
		if small {
			name = "small page size, every type"
		}
		t.It("PAGE-LIST-META-CONSISTENT", func(ctx SpecContext) {
			q := readsAllTypes()
			if small {
				probe := k.list(ctx, q)
				q = readsWith(q, "numberOfItems", strconv.Itoa(readsSmallSize(k.integer(probe, "meta.total"))))
			}
			first := k.list(ctx, readsWith(q, "pageNumber", "1"))
			total := k.integer(first, "meta.total")
			size := k.integer(first, "meta.pageSize")
			if small {
				size, _ = strconv.Atoi(q.Get("numberOfItems"))
			}
			Expect(size).To(BeNumerically(">", 0), k.about(first, "the page size is positive"))
			pages := readsPageCount(total, size)
			for _, pn := range readsVisit(max(pages, 1)) {
				ex := first
				if pn > 1 {
					ex = k.list(ctx, readsWith(q, "pageNumber", strconv.Itoa(pn)))
				}
				k.checkMeta(ex, pn, size, total, pages)
			}
			if pages < 2 {
				framework.NotChecked("%s", k.lacking(readsPages(total)+" of every type, one list page at size "+
					strconv.Itoa(size)+": hasMore and partly filled pages cannot be seen"))
			}
		}, framework.Case(name))
	}

	t.It("PAGE-LIST-WALK", func(ctx SpecContext) {
		total := k.total(ctx, readsAllTypes())
		size := readsSmallSize(total)
		q := readsWith(readsAllTypes(), "numberOfItems", strconv.Itoa(size))
		first := k.list(ctx, readsWith(q, "pageNumber", "1"))
		pages := readsPageCount(total, size)
		if pages < 2 {
			framework.NotChecked("%s", k.lacking(readsPages(total)+", too few for several list pages"))
		}
		var keys []string
		var last *client.Exchange
		for pn := 1; pn <= pages; pn++ {
			ex := first
			if pn > 1 {
				ex = k.list(ctx, readsWith(q, "pageNumber", strconv.Itoa(pn)))
			}
			keys = append(keys, readsKeys(readsItems(ex))...)
			last = ex
		}
		Expect(readsDuplicates(keys)).To(BeEmpty(), k.about(last,
			"walking pages 1 to %d of numberOfItems=%d yields each page once (these keys came more than once)", pages, size))
		Expect(keys).To(HaveLen(total), k.about2(last, first,
			"walking pages 1 to %d of numberOfItems=%d yields all %d matching pages", pages, size, total))
	}, framework.Case("every type"))
}

// checkMeta checks one page of a walk (PAGE-LIST-META-CONSISTENT).
func (k readKit) checkMeta(ex *client.Exchange, pn, size, total, pages int) {
	Expect(k.integer(ex, "numberOfItems")).To(Equal(size), k.about(ex, "numberOfItems is the page size used (%d)", size))
	Expect(k.integer(ex, "meta.pageSize")).To(Equal(size), k.about(ex, "meta.pageSize is the page size used (%d)", size))
	Expect(k.integer(ex, "meta.pageNumber")).To(Equal(pn), k.about(ex, "meta.pageNumber is the page served (%d)", pn))
	Expect(k.integer(ex, "meta.total")).To(Equal(total), k.about(ex, "meta.total is the same on every page (%d)", total))
	Expect(k.boolean(ex, "meta.hasMore")).To(Equal(pn < pages),
		k.about(ex, "meta.hasMore is true exactly when later pages hold pages (page %d of %d)", pn, pages))
	Expect(readsItems(ex)).To(HaveLen(readsExpectedLen(total, size, pn)),
		k.about(ex, "page %d of size %d holds %d of the %d pages", pn, size, readsExpectedLen(total, size, pn), total))
}

// ---- 4.1 list: untagged ----

func (k readKit) untaggedSpecs() {
	t := k.t
	t.It("PAGE-LIST-UNTAGGED-AFTER-PAGINATION", func(ctx SpecContext) {
		// Sized from the number of pages, not meta (PAGE-LIST-SHAPE's concern).
		inv, _ := k.everything(ctx, readsAllTypes())
		size := readsSmallSize(len(inv))
		q := readsWith(readsAllTypes(), "numberOfItems", strconv.Itoa(size))
		first := k.list(ctx, readsWith(q, "pageNumber", "1"))
		pages := readsPageCount(len(inv), size)
		var all []gjson.Result
		var afterSlices [][]string
		for pn := 1; pn <= min(pages, readsMaxWalk); pn++ {
			plain := first
			if pn > 1 {
				plain = k.list(ctx, readsWith(q, "pageNumber", strconv.Itoa(pn)))
			}
			want := readsUntaggedKeys(readsItems(plain))
			ex := k.list(ctx, readsWith(q, "pageNumber", strconv.Itoa(pn), "untagged", "true"))
			Expect(readsKeys(readsItems(ex))).To(Equal(want), k.about2(ex, plain,
				"untagged=true on page %d keeps exactly the untagged pages of the same page without it, in order", pn))
			all = append(all, readsItems(plain)...)
			afterSlices = append(afterSlices, want)
		}
		// The check told the two readings apart only if filtering first
		// would have given other slices.
		before := readsUntaggedKeys(all)
		for i, slice := range afterSlices {
			from := min(i*size, len(before))
			if strings.Join(before[from:min(from+size, len(before))], "\x00") != strings.Join(slice, "\x00") {
				return
			}
		}
		framework.NotChecked("%s", k.lacking("no tagged page listed before an untagged one, so filtering before or after "+
			"pagination gives the same slices"))
	}, framework.Case("every page of a walk, every type"))

	t.It("PAGE-LIST-TOTAL-IGNORES-UNTAGGED", func(ctx SpecContext) {
		inv, _ := k.everything(ctx, readsAllTypes())
		tagged := 0
		for _, it := range inv {
			if readsTagged(it) {
				tagged++
			}
		}
		if tagged == 0 {
			framework.NotChecked("%s", k.lacking("no tagged page, so untagged=true could not change the count"))
		}
		size := strconv.Itoa(readsSmallSize(len(inv)))
		for _, q := range []url.Values{readsAllTypes(), readsWith(readsAllTypes(), "numberOfItems", size, "pageNumber", "2")} {
			plain := k.list(ctx, q)
			ex := k.list(ctx, readsWith(q, "untagged", "true"))
			Expect(k.integer(ex, "meta.total")).To(Equal(k.integer(plain, "meta.total")), k.about2(ex, plain,
				"meta.total with untagged=true is the one without it (it counts the type filters only)"))
		}
	}, framework.Case("every type"))
}

// ---- 9.3 odd paging values ----

func (k readKit) badPagingSpecs() {
	for _, param := range []string{"numberOfItems", "pageNumber"} {
		for _, v := range []string{"abc", "", "2.5"} {
			name := param + "=" + v
			if v == "" {
				name = param + " empty"
			}
			k.t.It("PAGE-LIST-BAD-PAGING-NO-CRASH", func(ctx SpecContext) {
				ex := k.t.Read(ctx, readsListPath, url.Values{param: {v}})
				Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK, http.StatusBadRequest))
				Expect(ex.IsJSON()).To(BeTrue(), k.about(ex, "the body is JSON"))
				if ex.Status == http.StatusOK {
					// 200 means the value was read as a default: a list.
					Expect(ex).To(framework.BeSuccess(http.StatusOK))
					Expect(ex.Get("data").IsArray()).To(BeTrue(), k.about(ex, "a 200 answer is the page list: data is an array"))
				}
			}, framework.Case(name))
		}
	}
}

// ---- 4.2 single page ----

func (k readKit) getSpecs() {
	t := k.t
	t.It("PAGE-GET-OK", func(ctx SpecContext) {
		sample := k.singleReadSample(ctx)
		for _, it := range sample {
			key := it.Get("key").String()
			ex := t.Read(ctx, client.KeyPath("pages", key), nil)
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex.Get("data").IsObject()).To(BeTrue(), k.about(ex, "data is a page object"))
			Expect(ex.Get("data.key").String()).To(Equal(key), k.about(ex, "data.key is the key requested (%s)", key))
		}
	}, framework.Case("a page of each type found, a child page, a non-ASCII key"))

	t.It("PAGE-GET-404", func(ctx SpecContext) {
		ex := t.Read(ctx, client.KeyPath("pages", t.Marker("no-such-page")), nil)
		Expect(ex).To(framework.BeHandlerError(http.StatusNotFound))
	}, framework.Case("top-level key"))

	t.It("PAGE-GET-404", func(ctx SpecContext) {
		items := readsItems(k.list(ctx, readsAllTypes()))
		parent := ""
		for _, it := range items {
			if key := it.Get("key").String(); key != "" && !strings.Contains(key, "/") {
				parent = key
				break
			}
		}
		if parent == "" {
			framework.NotChecked("the first list page shows no top-level page to put a missing child key under")
		}
		ex := t.Read(ctx, client.KeyPath("pages", parent+"/"+t.Marker("no-such-child")), nil)
		Expect(ex).To(framework.BeHandlerError(http.StatusNotFound))
	}, framework.Case("missing child key under an existing page"))
}

func (k readKit) hierarchicalSpec() {
	t := k.t
	t.It("PAGE-GET-HIERARCHICAL", func(ctx SpecContext) {
		child := k.childPage(ctx)
		key := child.Get("key").String()
		ex := t.Read(ctx, client.KeyPath("pages", key), nil)
		Expect(ex).To(framework.BeSuccess(http.StatusOK))
		Expect(ex.Get("data.key").String()).To(Equal(key), k.about(ex, "GET of the child key %s reads the child page itself", key))
		if uuid := child.Get("uuid").String(); uuid != "" {
			Expect(ex.Get("data.uuid").String()).To(Equal(uuid),
				k.about(ex, "the page read is the child page listed with uuid %s", uuid))
		}
	})
}

// singleReadSample is the pages both single-read rules read one by one:
// one per type, a child and a non-ASCII key where the target has them.
func (k readKit) singleReadSample(ctx SpecContext) []gjson.Result {
	items, _ := k.everyPage(ctx)
	return readsSample(items)
}
