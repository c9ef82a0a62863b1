package reads

// The page object (2.1) and single-page reads (4.2).

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/schemas"
)

func (k kit) objectSpecs() {
	t := k.t
	t.It("PAGE-OBJECT-SHAPE", func(ctx SpecContext) {
		items, ex := k.everyPage(ctx)
		Expect(ex).To(eachPage("every list item matches schema page.json (the 17 fields of section 2.1)", items,
			func(it gjson.Result) string { return strings.Join(pageSchemaProblems(it), "; ") }))
	}, framework.Case("list items, every type"))

	t.It("PAGE-OBJECT-SHAPE", func(ctx SpecContext) {
		k.readEachSampled(ctx, func(_ string, ex *client.Exchange) {
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			Expect(ex).To(framework.Hold("data matches schema page.json (the 17 fields of section 2.1)", func(ex *client.Exchange) []string {
				return pageSchemaProblems(ex.Get("data"))
			}))
		})
	}, framework.Case("single reads, a page of each type found"))

	t.It("PAGE-PERMALINK-ABSOLUTE", func(ctx SpecContext) {
		items, ex := k.everyPage(ctx)
		Expect(ex).To(eachPage("every page's permalink is an absolute http(s) URL", items, func(it gjson.Result) string {
			return absoluteURLProblem(it.Get("permalink"))
		}))
	}, framework.Case("list items, every type"))

	t.It("PAGE-PERMALINK-ABSOLUTE", func(ctx SpecContext) {
		first := k.list(ctx, framework.EveryTypeQuery())
		items := framework.PageItems(first)
		if len(items) == 0 {
			framework.NotChecked("the target has no page at all")
		}
		ex := t.Read(ctx, framework.PagePath(items[0].Get("key").String()), nil)
		Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		Expect(ex).To(framework.Hold("data.permalink is an absolute http(s) URL", func(ex *client.Exchange) []string {
			if p := absoluteURLProblem(ex.Get("data.permalink")); p != "" {
				return []string{"data.permalink: " + p}
			}
			return nil
		}))
	}, framework.Case("single read"))

	t.It("PAGE-UUID-UNIQUE", func(ctx SpecContext) {
		items, ex := k.everyPage(ctx)
		byUUID := map[string][]string{}
		var uuids []string
		for _, it := range items {
			// A uuid that is not a string is PAGE-OBJECT-SHAPE's concern.
			if u := it.Get("uuid"); u.Type == gjson.String {
				byUUID[u.Str] = append(byUUID[u.Str], framework.Show(it.Get("key")))
				uuids = append(uuids, u.Str)
			}
		}
		if len(uuids) < 2 {
			framework.NotChecked("%s", k.lacking(count(len(uuids), "page")+" with a uuid, so no two could share one"))
		}
		Expect(ex).To(framework.Hold("no two pages of the every-type listing share a uuid", func(*client.Exchange) []string {
			var shared []string
			for _, u := range framework.Uniq(uuids) {
				if keys := byUUID[u]; len(keys) > 1 {
					shared = append(shared, "uuid "+strconv.Quote(u)+" is that of pages "+strings.Join(keys, ", "))
				}
			}
			return shared
		}))
	}, framework.Case("every type, children included"))

	t.It("PAGE-COVER-IMAGE-ABSOLUTE", func(ctx SpecContext) {
		items, ex := k.everyPage(ctx)
		var covered []gjson.Result
		for _, it := range items {
			// false means no cover image; any other kind is PAGE-OBJECT-SHAPE's concern.
			if it.Get("coverImage").Type == gjson.String {
				covered = append(covered, it)
			}
		}
		if len(covered) == 0 {
			framework.NotChecked("no page of the every-type listing has a cover image (the pages writes check one it " +
				"creates when the run may write)")
		}
		Expect(ex).To(eachPage("every cover image is an absolute http(s) URL", covered, func(it gjson.Result) string {
			return absoluteURLProblem(it.Get("coverImage"))
		}))
	}, framework.Case("list items with a cover image, every type"))
}

func (k kit) slugSpecs() {
	t := k.t
	t.It("PAGE-SLUG-LAST-SEGMENT", func(ctx SpecContext) {
		items, ex := k.everyPage(ctx)
		Expect(ex).To(eachPage("every page's slug is the last segment of its key", items, slugProblem))
	}, framework.Case("list items, every type"))

	t.It("PAGE-SLUG-LAST-SEGMENT", func(ctx SpecContext) {
		child := k.childPage(ctx)
		ex := t.Read(ctx, framework.PagePath(child.Get("key").String()), nil)
		Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		Expect(ex).To(framework.Hold("data.slug is the last segment of data.key", func(ex *client.Exchange) []string {
			if p := slugProblem(ex.Get("data")); p != "" {
				return []string{p}
			}
			return nil
		}))
	}, framework.Case("single read of a child page"))
}

func (k kit) getSpecs() {
	t := k.t
	t.It("PAGE-GET-OK", func(ctx SpecContext) {
		k.readEachSampled(ctx, func(key string, ex *client.Exchange) {
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex).To(framework.HaveJSON("data", framework.BeJSONObject()), "data is a page object")
			Expect(ex).To(framework.HaveJSON("data.key", Equal(key)), "data.key is the key requested")
		})
	}, framework.Case("a page of each type found, a child page, a non-ASCII key"))

	t.It("PAGE-GET-404", func(ctx SpecContext) {
		ex := t.Read(ctx, framework.PagePath(t.Marker("no-such-page")), nil)
		Expect(ex).To(framework.BeHandlerError(http.StatusNotFound))
	}, framework.Case("top-level key"))

	t.It("PAGE-GET-404", func(ctx SpecContext) {
		items := framework.PageItems(k.list(ctx, framework.EveryTypeQuery()))
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
		ex := t.Read(ctx, framework.PagePath(parent+"/"+t.Marker("no-such-child")), nil)
		Expect(ex).To(framework.BeHandlerError(http.StatusNotFound))
	}, framework.Case("missing child key under an existing page"))
}

func (k kit) hierarchicalSpec() {
	t := k.t
	t.It("PAGE-GET-HIERARCHICAL", func(ctx SpecContext) {
		child := k.childPage(ctx)
		key := child.Get("key").String()
		ex := t.Read(ctx, framework.PagePath(key), nil)
		Expect(ex).To(framework.BeSuccess(http.StatusOK))
		Expect(ex).To(framework.HaveJSON("data.key", Equal(key)), "GET of the child key reads the child page itself")
		if uuid := child.Get("uuid"); uuid.Type == gjson.String && uuid.Str != "" {
			Expect(ex).To(framework.HaveJSON("data.uuid", Equal(uuid.Str)), "the page read is the child page the list shows with this uuid")
		}
	})
}

// readEachSampled reads the pages both single-read rules look
// at (one per type, a child and a non-ASCII key where the target has them)
// and hands each answer to check.
func (k kit) readEachSampled(ctx context.Context, check func(key string, ex *client.Exchange)) {
	items, _ := k.everyPage(ctx)
	picked := sample(items)
	reqs := make([]client.Request, len(picked))
	for i, it := range picked {
		reqs[i] = client.Request{Method: http.MethodGet, Path: framework.PagePath(it.Get("key").String())}
	}
	// The reads are independent: side by side, judged in order.
	for i, ex := range k.t.All(ctx, reqs...) {
		check(picked[i].Get("key").String(), ex)
	}
}

// sample picks pages to read singly: the first page of each type,
// the first child page and the first page whose key is not plain ASCII.
func sample(items []gjson.Result) []gjson.Result {
	var out []gjson.Result
	seen := map[string]bool{}
	add := func(it gjson.Result) {
		key := it.Get("key").String()
		if key != "" && !seen[key] {
			seen[key] = true
			out = append(out, it)
		}
	}
	for _, ty := range framework.PageTypes() {
		if of := framework.PagesOfType(items, ty); len(of) > 0 {
			add(of[0])
		}
	}
	if child, ok := framework.FirstChildPage(items); ok {
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

// lastSegment is the part of a key after its last slash.
func lastSegment(key string) string {
	return key[strings.LastIndex(key, "/")+1:]
}

// pageSchemaProblems lists how a page object departs from schema page.json.
func pageSchemaProblems(page gjson.Result) []string {
	ps, err := schemas.Validate("page.json", []byte(page.Raw))
	if err != nil {
		return []string{err.Error()}
	}
	return ps
}

// slugProblem says how a page object's slug is not the last segment of its
// key ("" when it is).
func slugProblem(page gjson.Result) string {
	key, slug := page.Get("key").String(), page.Get("slug")
	if slug.Type != gjson.String || slug.Str != lastSegment(key) {
		return fmt.Sprintf("slug is %s, want %q", framework.Show(slug), lastSegment(key))
	}
	return ""
}

// absoluteURLProblem says why a JSON value is not an absolute http(s) URL
// ("" when it is).
func absoluteURLProblem(r gjson.Result) string {
	if r.Type != gjson.String {
		return framework.Show(r) + " is not a string"
	}
	u, err := url.Parse(r.Str)
	switch {
	case err != nil:
		return r.Raw + " is not a URL: " + err.Error()
	case u.Scheme != "http" && u.Scheme != "https":
		return r.Raw + " has no http or https scheme"
	case u.Host == "":
		return r.Raw + " has no host"
	}
	return ""
}
