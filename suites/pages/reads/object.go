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
	"github.com/onsi/gomega/types"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/pageobj"
	"github.com/conformance-suite/conformance/internal/rules/single"
)

func (k kit) objectSpecs() {
	t := k.t
	framework.Prepare(k.g, "PAGE-OBJECT-SHAPE", k.every, func(_ SpecContext, l listing) {
		_, ex := k.everyPage(l)
		Expect(ex).To(shapeOfEveryPage(l, "every list item matches schema page.json (the 17 fields of section 2.1)"))
	}, framework.Case("list items, every type"))

	framework.Prepare(k.g, "PAGE-OBJECT-SHAPE", k.readSampled, func(_ SpecContext, s sampled) {
		k.eachSampled(s, func(_ string, ex *client.Exchange) {
			Expect(ex).To(match.HaveHTTPStatus(http.StatusOK))
			Expect(ex).To(match.Holds("data matches schema page.json (the 17 fields of section 2.1)", func(ex *client.Exchange) []string {
				return pageobj.Problems(ex.Get("data"))
			}))
		})
	}, framework.Case("single reads, a page of each type found"))

	framework.Prepare(k.g, "PAGE-PERMALINK-ABSOLUTE", k.every, func(_ SpecContext, l listing) {
		items, ex := k.everyPage(l)
		Expect(ex).To(eachPage("every page's permalink is an absolute http(s) URL", items, func(it gjson.Result) string {
			return absoluteURLProblem(it.Get("permalink"))
		}))
	}, framework.Case("list items, every type"))

	framework.Prepare(k.g, "PAGE-PERMALINK-ABSOLUTE", func(ctx context.Context) (r firstRead) {
		r.first = t.Read(ctx, pagelist.PagesPath, pagelist.EveryTypeQuery())
		if items := pagelist.PageItems(r.first); isList(r.first) && items.Len() > 0 {
			r.ex = t.Read(ctx, pagelist.PagePath(items.At(0).Get("key").String()), nil)
		}
		return r
	}, func(_ SpecContext, r firstRead) {
		expectList(1, r.first)
		if pagelist.PageItems(r.first).Len() == 0 {
			verdicts.NotChecked("the target has no page at all")
		}
		Expect(r.ex).To(match.HaveHTTPStatus(http.StatusOK))
		Expect(r.ex).To(match.Holds("data.permalink is an absolute http(s) URL", func(ex *client.Exchange) []string {
			if p := absoluteURLProblem(ex.Get("data.permalink")); p != "" {
				return []string{"data.permalink: " + p}
			}
			return nil
		}))
	}, framework.Case("single read"))

	framework.Prepare(k.g, "PAGE-UUID-UNIQUE", k.every, func(_ SpecContext, l listing) {
		items, ex := k.everyPage(l)
		// Counted as hashes first (pagelist.KeySet: a big site has many
		// pages); only the pages of a uuid seen twice are named.
		counts, withUUID := pagelist.NewKeySet(), 0
		for _, it := range items.Scan {
			// A uuid that is not a string is PAGE-OBJECT-SHAPE's concern.
			if u := it.Get("uuid"); u.Type == gjson.String {
				counts.Add(u.Str)
				withUUID++
			}
		}
		byUUID := map[string][]string{}
		var uuids []string
		for _, it := range items.Scan {
			if u := it.Get("uuid"); u.Type == gjson.String && counts.Count(u.Str) > 1 {
				uuid := strings.Clone(u.Str) // not a part of the page's text, which it would keep
				byUUID[uuid] = append(byUUID[uuid], strings.Clone(match.Show(it.Get("key"))))
				uuids = append(uuids, uuid)
			}
		}
		if withUUID < 2 {
			verdicts.NotChecked("%s", k.lacking(count(withUUID, "page")+" with a uuid, so no two could share one"))
		}
		Expect(ex).To(match.Holds("no two pages of the every-type listing share a uuid", func(*client.Exchange) []string {
			var shared []string
			for _, u := range match.Uniq(uuids) {
				if keys := byUUID[u]; len(keys) > 1 {
					shared = append(shared, "uuid "+strconv.Quote(u)+" is that of pages "+strings.Join(keys, ", "))
				}
			}
			return shared
		}))
	}, framework.Case("every type, children included"))

	framework.Prepare(k.g, "PAGE-COVER-IMAGE-ABSOLUTE", k.every, func(_ SpecContext, l listing) {
		items, ex := k.everyPage(l)
		// false means no cover image; any other kind is PAGE-OBJECT-SHAPE's concern.
		covered := func(it gjson.Result) bool { return it.Get("coverImage").Type == gjson.String }
		if !items.Any(covered) {
			verdicts.NotChecked("no page of the every-type listing has a cover image (the pages writes check one it " +
				"creates when the run may write)")
		}
		Expect(ex).To(eachPage("every cover image is an absolute http(s) URL", items, func(it gjson.Result) string {
			if !covered(it) {
				return ""
			}
			return absoluteURLProblem(it.Get("coverImage"))
		}))
	}, framework.Case("list items with a cover image, every type"))
}

// firstRead is a first list page of every type and the single read of a
// page it names (nil when it names none).
type firstRead struct{ first, ex *client.Exchange }

// childRead is the listing of every type and the single read of the first
// child page it holds (nil when it holds none).
type childRead struct {
	inv listing
	ex  *client.Exchange
}

// readChild reads the first child page of the listing of every type.
func (k kit) readChild(ctx context.Context) (r childRead) {
	r.inv = k.every(ctx)
	if child, ok := r.inv.items.First(pagelist.IsChildPage); ok && r.inv.problem == "" {
		r.ex = k.t.Read(ctx, pagelist.PagePath(child.Get("key").String()), nil)
	}
	return r
}

func (k kit) slugSpecs() {
	framework.Prepare(k.g, "PAGE-SLUG-LAST-SEGMENT", k.every, func(_ SpecContext, l listing) {
		items, ex := k.everyPage(l)
		Expect(ex).To(eachPage("every page's slug is the last segment of its key", items, slugProblem))
	}, framework.Case("list items, every type"))

	framework.Prepare(k.g, "PAGE-SLUG-LAST-SEGMENT", k.readChild, func(_ SpecContext, r childRead) {
		k.childPage(r.inv)
		Expect(r.ex).To(match.HaveHTTPStatus(http.StatusOK))
		Expect(r.ex).To(match.Holds("data.slug is the last segment of data.key", func(ex *client.Exchange) []string {
			if p := slugProblem(ex.Get("data")); p != "" {
				return []string{p}
			}
			return nil
		}))
	}, framework.Case("single read of a child page"))
}

func (k kit) getSpecs() {
	t := k.t
	framework.Prepare(k.g, "PAGE-GET-OK", k.readSampled, func(_ SpecContext, s sampled) {
		k.eachSampled(s, func(key string, ex *client.Exchange) {
			Expect(ex).To(match.BeSuccess(http.StatusOK))
			Expect(ex).To(match.HaveJSON("data", match.BeJSONObject()), "data is a page object")
			Expect(ex).To(match.HoldsFields("data.key is the key requested", func(ex *client.Exchange) []match.FieldProblem {
				if j := single.Named("pages", ex.Get("data"), key); !j.Holds() {
					return []match.FieldProblem{{Field: "data.key", Problem: j.Problem}}
				}
				return nil
			}))
		})
	}, framework.Case("a page of each type found, a child page, a non-ASCII key"))

	k.g.OnRead("PAGE-GET-404", pagelist.PagePath(t.Marker("no-such-page")), nil, func(ex *client.Exchange) {
		Expect(ex).To(match.HaveHTTPStatus(http.StatusNotFound))
		Expect(ex).To(match.Holds(single.MissingExpect, rules.ProblemsOf(single.Missing)))
	}, framework.Case("top-level key"))

	framework.Prepare(k.g, "PAGE-GET-404", func(ctx context.Context) (r firstRead) {
		r.first = t.Read(ctx, pagelist.PagesPath, pagelist.EveryTypeQuery())
		if parent := topLevelKey(pagelist.PageItems(r.first)); isList(r.first) && parent != "" {
			r.ex = t.Read(ctx, pagelist.PagePath(parent+"/"+t.Marker("no-such-child")), nil)
		}
		return r
	}, func(_ SpecContext, r firstRead) {
		expectList(1, r.first)
		if topLevelKey(pagelist.PageItems(r.first)) == "" {
			verdicts.NotChecked("the first list page shows no top-level page to put a missing child key under")
		}
		Expect(r.ex).To(match.HaveHTTPStatus(http.StatusNotFound))
		Expect(r.ex).To(match.Holds(single.MissingExpect, rules.ProblemsOf(single.Missing)))
	}, framework.Case("missing child key under an existing page"))
}

// topLevelKey is the key of the first page of items that is not a child
// page ("" when there is none).
func topLevelKey(items pagelist.PageList) string {
	for _, it := range items.All() {
		if key := it.Get("key").String(); key != "" && !strings.Contains(key, "/") {
			return key
		}
	}
	return ""
}

func (k kit) hierarchicalSpec() {
	framework.Prepare(k.g, "PAGE-GET-HIERARCHICAL", k.readChild, func(_ SpecContext, r childRead) {
		child := k.childPage(r.inv)
		key := child.Get("key").String()
		Expect(r.ex).To(match.BeSuccess(http.StatusOK))
		Expect(r.ex).To(match.HoldsFields("GET of the child key reads the child page itself", func(ex *client.Exchange) []match.FieldProblem {
			if j := single.Named("pages", ex.Get("data"), key); !j.Holds() {
				return []match.FieldProblem{{Field: "data.key", Problem: j.Problem}}
			}
			return nil
		}))
		if uuid := child.Get("uuid"); uuid.Type == gjson.String && uuid.Str != "" {
			Expect(r.ex).To(match.HaveJSON("data.uuid", Equal(uuid.Str)), "the page read is the child page the list shows with this uuid")
		}
	})
}

// sampled is the listing of every type and the single reads of the pages
// both single-read rules look at (sample), in the order of picked.
type sampled struct {
	inv    listing
	picked []gjson.Result
	reads  []*client.Exchange
}

// readSampled reads the pages sample picks from the listing of every type,
// side by side.
func (k kit) readSampled(ctx context.Context) (s sampled) {
	s.inv = k.every(ctx)
	if s.inv.problem != "" {
		return s
	}
	s.picked = sample(s.inv.items)
	reqs := make([]client.Request, len(s.picked))
	for i, it := range s.picked {
		reqs[i] = client.Request{Method: http.MethodGet, Path: pagelist.PagePath(it.Get("key").String())}
	}
	s.reads = k.t.All(ctx, reqs...)
	return s
}

// eachSampled hands check each single read of s with the key it asked
// for, in order; a target with no page at all leaves the rule not checked.
func (k kit) eachSampled(s sampled, check func(key string, ex *client.Exchange)) {
	k.everyPage(s.inv)
	for i, ex := range s.reads {
		check(s.picked[i].Get("key").String(), ex)
	}
}

// sample picks pages to read singly: the first page of each type,
// the first child page and the first page whose key is not plain ASCII.
func sample(items pagelist.PageList) []gjson.Result {
	var out []gjson.Result
	seen := map[string]bool{}
	add := func(it gjson.Result) {
		key := it.Get("key").String()
		if key != "" && !seen[key] {
			seen[key] = true
			out = append(out, it)
		}
	}
	for _, ty := range pagelist.PageTypes() {
		if first, ok := items.First(pagelist.OfType(ty)); ok {
			add(first)
		}
	}
	if child, ok := items.First(pagelist.IsChildPage); ok {
		add(child)
	}
	for _, it := range items.All() {
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

// shapeOfEveryPage expects every page object of a listing to have
// matched page.json as the listing streamed by (pageShape).
func shapeOfEveryPage(l listing, expect string) types.GomegaMatcher {
	return pagelist.PassCheckOnListing(l.all, pageShape.Name, expect)
}

// slugProblem says how a page object's slug is not the last segment of its
// key ("" when it is).
func slugProblem(page gjson.Result) string {
	key, slug := page.Get("key").String(), page.Get("slug")
	if slug.Type != gjson.String || slug.Str != lastSegment(key) {
		return fmt.Sprintf("slug is %s, want %q", match.Show(slug), lastSegment(key))
	}
	return ""
}

// absoluteURLProblem says why a JSON value is not an absolute http(s) URL
// ("" when it is).
func absoluteURLProblem(r gjson.Result) string {
	if r.Type != gjson.String {
		return match.Show(r) + " is not a string"
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
