package reads

// The page object (2.1) and single-page reads (4.2).

import (
	"context"
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
		problems, ex := k.eachListed(ctx, func(i int, it gjson.Result) (out []string) {
			ps, err := schemas.Validate("page.json", []byte(it.Raw))
			Expect(err).NotTo(HaveOccurred())
			for _, p := range ps {
				out = append(out, "data["+strconv.Itoa(i)+"] (key "+it.Get("key").String()+"): "+p)
			}
			return out
		})
		Expect(problems).To(BeEmpty(), k.about(ex, "every list item matches schema page.json (the 17 fields of section 2.1)"))
	}, framework.Case("list items, every type"))

	t.It("PAGE-OBJECT-SHAPE", func(ctx SpecContext) {
		k.readEachSampled(ctx, func(key string, ex *client.Exchange) {
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
			ps, err := schemas.Validate("page.json", []byte(ex.Get("data").Raw))
			Expect(err).NotTo(HaveOccurred(), k.about(ex, "data is one JSON value"))
			Expect(ps).To(BeEmpty(), k.about(ex, "data of GET /api/pages/%s matches schema page.json", key))
		})
	}, framework.Case("single reads, a page of each type found"))

	t.It("PAGE-PERMALINK-ABSOLUTE", func(ctx SpecContext) {
		wrong, ex := k.eachListed(ctx, func(_ int, it gjson.Result) []string {
			if p := absoluteURLProblem(it.Get("permalink").String()); p != "" || it.Get("permalink").Type != gjson.String {
				return []string{"key " + it.Get("key").String() + ": permalink " + framework.JSONText(it.Get("permalink")) + " (" + p + ")"}
			}
			return nil
		})
		Expect(wrong).To(BeEmpty(), k.about(ex, "every page's permalink is an absolute http(s) URL"))
	}, framework.Case("list items, every type"))

	t.It("PAGE-PERMALINK-ABSOLUTE", func(ctx SpecContext) {
		first := k.list(ctx, framework.EveryTypeQuery())
		items := framework.PageItems(first)
		if len(items) == 0 {
			framework.NotChecked("the target has no page at all")
		}
		key := items[0].Get("key").String()
		ex := t.Read(ctx, framework.PagePath(key), nil)
		Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		link := ex.Get("data.permalink")
		Expect(link.Type).To(Equal(gjson.String), k.about(ex, "data.permalink is a string"))
		Expect(absoluteURLProblem(link.Str)).To(BeEmpty(), k.about(ex, "data.permalink %q is an absolute http(s) URL", link.Str))
	}, framework.Case("single read"))
}

func (k kit) slugSpecs() {
	t := k.t
	t.It("PAGE-SLUG-LAST-SEGMENT", func(ctx SpecContext) {
		wrong, ex := k.eachListed(ctx, func(_ int, it gjson.Result) []string {
			key, slug := it.Get("key").String(), it.Get("slug")
			if slug.Type != gjson.String || slug.Str != lastSegment(key) {
				return []string{"key " + key + ": slug " + framework.JSONText(slug)}
			}
			return nil
		})
		Expect(wrong).To(BeEmpty(), k.about(ex, "every page's slug is the last segment of its key"))
	}, framework.Case("list items, every type"))

	t.It("PAGE-SLUG-LAST-SEGMENT", func(ctx SpecContext) {
		child := k.childPage(ctx)
		key := child.Get("key").String()
		ex := t.Read(ctx, framework.PagePath(key), nil)
		Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK))
		got := ex.Get("data.key").String()
		slug := ex.Get("data.slug")
		Expect(slug.Type == gjson.String && slug.Str == lastSegment(got)).To(BeTrue(),
			k.about(ex, "the slug of page %s is %q, the last segment of its key; it is %s", got, lastSegment(got), framework.JSONText(slug)))
	}, framework.Case("single read of a child page"))
}

func (k kit) getSpecs() {
	t := k.t
	t.It("PAGE-GET-OK", func(ctx SpecContext) {
		k.readEachSampled(ctx, func(key string, ex *client.Exchange) {
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex.Get("data").IsObject()).To(BeTrue(), k.about(ex, "data is a page object"))
			Expect(ex.Get("data.key").String()).To(Equal(key), k.about(ex, "data.key is the key requested (%s)", key))
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
		Expect(ex.Get("data.key").String()).To(Equal(key), k.about(ex, "GET of the child key %s reads the child page itself", key))
		if uuid := child.Get("uuid").String(); uuid != "" {
			Expect(ex.Get("data.uuid").String()).To(Equal(uuid),
				k.about(ex, "the page read is the child page listed with uuid %s", uuid))
		}
	})
}

// eachListed runs problems on every page of the every-type listing and
// returns all it found wrong, with the listing's exchange.
func (k kit) eachListed(ctx context.Context, problems func(i int, it gjson.Result) []string) ([]string, *client.Exchange) {
	items, ex := k.everyPage(ctx)
	var wrong []string
	for i, it := range items {
		wrong = append(wrong, problems(i, it)...)
	}
	return wrong, ex
}

// readEachSampled reads one by one the pages both single-read rules look
// at (one per type, a child and a non-ASCII key where the target has them)
// and hands each answer to check.
func (k kit) readEachSampled(ctx context.Context, check func(key string, ex *client.Exchange)) {
	items, _ := k.everyPage(ctx)
	for _, it := range sample(items) {
		key := it.Get("key").String()
		check(key, k.t.Read(ctx, framework.PagePath(key), nil))
	}
}

// sample picks pages to read one by one: the first page of each type,
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

// absoluteURLProblem reports why s is not an absolute http(s) URL ("" when it is).
func absoluteURLProblem(s string) string {
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
