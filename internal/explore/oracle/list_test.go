package oracle

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// listCase is a page-list case with these parameters.
func listCase(q ...[2]string) gen.Case {
	c := gen.Case{Kind: gen.KindList, Endpoint: "pages"}
	for _, p := range q {
		c.Query = append(c.Query, gen.Param{Name: p[0], Value: p[1]})
	}
	return c
}

// site is the model of the lists below: seven published pages, two
// drafts, a static and a sticky page; the plugin's page size is 15.
var site = ListModel{Counts: map[string]int{"published": 7, "draft": 2, "static": 1, "sticky": 1}, DefaultSize: 15}

// pages are n page objects of type typ, numbered from first; tagged
// numbers get a tag.
func pages(typ string, first, n int, tagged ...int) []map[string]any {
	var out []map[string]any
	for i := first; i < first+n; i++ {
		change := map[string]any{}
		for _, k := range tagged {
			if k == i {
				change["tags"] = map[string]any{"salt": "Salt"}
			}
		}
		out = append(out, rulestest.Page(fmt.Sprintf("%s-%d", typ, i), typ, change))
	}
	return out
}

// listMeta is what a list answer says of itself.
type listMeta struct {
	size, total, page int
	hasMore           bool
	pageSize          *int // meta.pageSize when it differs from numberOfItems
}

// listReply is a page-list answer holding items, with meta m.
func listReply(t *testing.T, items []map[string]any, m listMeta) reply {
	t.Helper()
	ps := m.size
	if m.pageSize != nil {
		ps = *m.pageSize
	}
	data := items
	if data == nil {
		data = []map[string]any{}
	}
	return reply{status: http.StatusOK, body: jsonText(t, map[string]any{"status": "0", "message": "ok", "numberOfItems": m.size,
		"meta": map[string]any{"total": m.total, "pageNumber": m.page, "pageSize": ps, "hasMore": m.hasMore}, "data": data})}
}

func join(lists ...[]map[string]any) []map[string]any {
	var out []map[string]any
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func intp(n int) *int { return &n }

// TestList: the page list's oracle fires on an answer that breaks the
// type filters, meta or the number of pages served, and accepts every
// answer 4.1 and 8 allow: the plugin's own default size, -1 reported as
// -1 or as the count, odd paging values answered with anything but a
// crash, an untagged slice shorter than the page size.
func TestList(t *testing.T) {
	pub := pages("published", 1, 7)
	for _, c := range []struct {
		name  string
		q     [][2]string
		r     reply
		model *ListModel
		open  bool // an outcome the spec leaves open: recorded, not judged
		want  []string
	}{
		{name: "the default list", r: listReply(t, pub, listMeta{15, 7, 1, false, nil})},
		{name: "another default size (a plugin setting)", model: &ListModel{Counts: site.Counts, DefaultSize: 5},
			r: listReply(t, pub[:5], listMeta{5, 7, 1, true, nil})},
		{name: "published by default beside another filter", q: [][2]string{{"draft", "true"}},
			r: listReply(t, join(pub, pages("draft", 1, 2)), listMeta{15, 9, 1, false, nil})},
		{name: "drafts only", q: [][2]string{{"draft", "true"}, {"published", "false"}},
			r: listReply(t, pages("draft", 1, 2), listMeta{15, 2, 1, false, nil})},
		{name: "a smaller page", q: [][2]string{{"numberOfItems", "2"}}, r: listReply(t, pub[:2], listMeta{2, 7, 1, true, nil})},
		{name: "the last page", q: [][2]string{{"numberOfItems", "2"}, {"pageNumber", "4"}}, r: listReply(t, pub[6:], listMeta{2, 7, 4, false, nil})},
		{name: "past the end", q: [][2]string{{"numberOfItems", "2"}, {"pageNumber", "5"}}, r: listReply(t, nil, listMeta{2, 7, 5, false, nil})},
		{name: "all as -1", q: [][2]string{{"numberOfItems", "-1"}}, r: listReply(t, pub, listMeta{-1, 7, 1, false, nil})},
		{name: "all as the count", q: [][2]string{{"numberOfItems", "-1"}}, r: listReply(t, pub, listMeta{7, 7, 1, false, nil})},
		{name: "0 falls back to the default", q: [][2]string{{"numberOfItems", "0"}}, r: listReply(t, pub, listMeta{15, 7, 1, false, nil})},
		{name: "-5 falls back to the default", q: [][2]string{{"numberOfItems", "-5"}, {"pageNumber", "1"}}, r: listReply(t, pub, listMeta{15, 7, 1, false, nil})},
		{name: "page 0 is page 1", q: [][2]string{{"numberOfItems", "3"}, {"pageNumber", "0"}}, r: listReply(t, pub[:3], listMeta{3, 7, 1, true, nil})},
		{name: "odd paging answered with a list", q: [][2]string{{"numberOfItems", "abc"}}, r: listReply(t, pub[:1], listMeta{15, 7, 1, false, nil})},
		{name: "odd paging refused with 400", q: [][2]string{{"pageNumber", "2.5"}}, r: handlerError(400), open: true},
		{name: "odd paging refused with 422", q: [][2]string{{"numberOfItems", ""}}, r: handlerError(422), open: true},
		{name: "a 500 is Every's to judge", q: [][2]string{{"numberOfItems", "1"}}, r: handlerError(500)},

		{name: "a total of other types", r: listReply(t, pub, listMeta{15, 9, 1, false, nil}), want: []string{"PAGE-LIST-DEFAULT-FILTER"}},
		{name: "a draft in the default list", r: listReply(t, join(pub[:6], pages("draft", 1, 1)), listMeta{15, 7, 1, false, nil}),
			want: []string{"PAGE-LIST-DEFAULT-FILTER"}},
		{name: "a published page among drafts", q: [][2]string{{"draft", "true"}, {"published", "false"}},
			r: listReply(t, join(pages("draft", 1, 1), pub[:1]), listMeta{15, 2, 1, false, nil}), want: []string{"PAGE-LIST-TYPE-FILTERS"}},
		{name: "more pages than the size", q: [][2]string{{"numberOfItems", "2"}}, r: listReply(t, pub[:3], listMeta{2, 7, 1, true, nil}),
			want: []string{"PAGE-LIST-META-CONSISTENT"}},
		{name: "hasMore false before the last page", q: [][2]string{{"numberOfItems", "2"}}, r: listReply(t, pub[:2], listMeta{2, 7, 1, false, nil}),
			want: []string{"PAGE-LIST-META-CONSISTENT"}},
		{name: "pageSize other than numberOfItems", q: [][2]string{{"numberOfItems", "2"}}, r: listReply(t, pub[:2], listMeta{2, 7, 1, true, intp(3)}),
			want: []string{"PAGE-LIST-META-CONSISTENT"}},
		{name: "the wrong page number", q: [][2]string{{"numberOfItems", "2"}, {"pageNumber", "3"}}, r: listReply(t, pub[4:6], listMeta{2, 7, 2, true, nil}),
			want: []string{"PAGE-LIST-META-CONSISTENT"}},
		{name: "a full page past the end", q: [][2]string{{"numberOfItems", "2"}, {"pageNumber", "5"}}, r: listReply(t, pub[:2], listMeta{2, 7, 5, false, nil}),
			want: []string{"PAGE-LIST-PAST-END"}},
		{name: "hasMore past the end", q: [][2]string{{"numberOfItems", "2"}, {"pageNumber", "9"}}, r: listReply(t, nil, listMeta{2, 7, 9, true, nil}),
			want: []string{"PAGE-LIST-PAST-END"}},
		{name: "past the end refused", q: [][2]string{{"numberOfItems", "2"}, {"pageNumber", "9"}}, r: handlerError(404), want: []string{"PAGE-LIST-PAST-END"}},
		{name: "-1 short of all", q: [][2]string{{"numberOfItems", "-1"}}, r: listReply(t, pub[:6], listMeta{-1, 7, 1, false, nil}), want: []string{"PAGE-LIST-ALL"}},
		{name: "-1 with hasMore", q: [][2]string{{"numberOfItems", "-1"}}, r: listReply(t, pub, listMeta{-1, 7, 1, true, nil}), want: []string{"PAGE-LIST-ALL"}},
		{name: "-1 reported as the default size", q: [][2]string{{"numberOfItems", "-1"}}, r: listReply(t, pub, listMeta{15, 7, 1, false, nil}), want: []string{"PAGE-LIST-ALL"}},
		{name: "-1 refused", q: [][2]string{{"numberOfItems", "-1"}}, r: handlerError(400), want: []string{"PAGE-LIST-ALL"}},
		{name: "0 reported as the size", q: [][2]string{{"numberOfItems", "0"}}, r: listReply(t, pub, listMeta{0, 7, 1, false, nil}),
			want: []string{"PAGE-LIST-NONPOSITIVE-SIZE"}},
		{name: "0 refused", q: [][2]string{{"numberOfItems", "0"}}, r: handlerError(400), want: []string{"PAGE-LIST-NONPOSITIVE-SIZE"}},
		{name: "page 0 reported as page 0 (the shape's minimum)", q: [][2]string{{"numberOfItems", "3"}, {"pageNumber", "0"}}, r: listReply(t, pub[:3], listMeta{3, 7, 0, true, nil}),
			want: []string{"PAGE-LIST-SHAPE"}},
		{name: "page 0 served as page 2", q: [][2]string{{"numberOfItems", "3"}, {"pageNumber", "0"}}, r: listReply(t, pub[3:6], listMeta{3, 7, 2, true, nil}),
			want: []string{"PAGE-LIST-PAGENUMBER-BELOW-1"}},
		{name: "page -1 refused", q: [][2]string{{"pageNumber", "-1"}}, r: handlerError(400), want: []string{"PAGE-LIST-PAGENUMBER-BELOW-1"}},
		{name: "a size above 100 refused", q: [][2]string{{"numberOfItems", "101"}}, r: handlerError(400), want: []string{"PAGE-LIST-SHAPE"}},
		{name: "odd paging answered 200 without a list", q: [][2]string{{"numberOfItems", "1e3"}}, r: ok(`{}`), want: []string{"PAGE-LIST-BAD-PAGING-NO-CRASH"}},
		{name: "no meta", r: ok(jsonText(t, pub)), want: []string{"PAGE-LIST-SHAPE"}},
		// A page that breaks page.json breaks the list's shape too, as the
		// normal run judges it (page-list.json's items are page objects).
		{name: "a page without its uuid", r: listReply(t, join(pub[:6], []map[string]any{rulestest.Page("p", "published", map[string]any{"uuid": nil})}), listMeta{15, 7, 1, false, nil}),
			want: []string{"PAGE-LIST-SHAPE", "PAGE-OBJECT-SHAPE"}},
	} {
		model := site
		if c.model != nil {
			model = *c.model
		}
		lc := listCase(c.q...)
		ex := send(t, "", c.r)
		j := NewJudge()
		j.List(lc, ex, nil, model)
		wantRules(t, c.name, j, c.want...)
		switch {
		case c.open && len(j.Observed) != 1:
			t.Errorf("%s: the outcome seen was not recorded: %q", c.name, j.Observed)
		case !c.open && len(c.want) == 0 && len(j.Checked) == 0 && c.r.status < 500:
			t.Errorf("%s: nothing was checked", c.name)
		}
	}
}

// TestListUntagged: untagged=true keeps the untagged pages of the slice
// the same request without it serves (4.1: after pagination), and
// meta.total does not count it.
func TestListUntagged(t *testing.T) {
	q := [][2]string{{"untagged", "true"}, {"numberOfItems", "3"}}
	pub := pages("published", 1, 7, 2, 5)                         // pages 2 and 5 are tagged
	sliced := listReply(t, pub[:3], listMeta{3, 7, 1, true, nil}) // the slice without untagged
	for _, c := range []struct {
		name  string
		items []map[string]any
		m     listMeta
		want  []string
	}{
		{name: "the untagged of the slice", items: []map[string]any{pub[0], pub[2]}, m: listMeta{3, 7, 1, true, nil}},
		{name: "a tagged page", items: pub[:3], m: listMeta{3, 7, 1, true, nil}, want: []string{"PAGE-LIST-UNTAGGED-AFTER-PAGINATION"}},
		{name: "untagged before pagination", items: []map[string]any{pub[0], pub[2], pub[3]}, m: listMeta{3, 7, 1, true, nil},
			want: []string{"PAGE-LIST-UNTAGGED-AFTER-PAGINATION"}},
		{name: "one missing", items: []map[string]any{pub[0]}, m: listMeta{3, 7, 1, true, nil}, want: []string{"PAGE-LIST-UNTAGGED-AFTER-PAGINATION"}},
		{name: "a total of untagged pages", items: []map[string]any{pub[0], pub[2]}, m: listMeta{3, 5, 1, true, nil},
			want: []string{"PAGE-LIST-TOTAL-IGNORES-UNTAGGED"}},
	} {
		ex := send(t, "", listReply(t, c.items, c.m))
		paired := send(t, "", sliced)
		j := NewJudge()
		j.List(listCase(q...), ex, paired, site)
		wantRules(t, c.name, j, c.want...)
		if j.Checked["PAGE-LIST-UNTAGGED-AFTER-PAGINATION"] == 0 {
			t.Errorf("%s: untagged was not judged", c.name)
		}
	}
}

// TestListSpelledFilters: a boolean filter spelled otherwise than true or
// false (gen.ClassSpelling) is read both ways: an answer that holds for
// either reading passes, with the reading recorded; one that holds for
// neither fails.
func TestListSpelledFilters(t *testing.T) {
	spelled := func(q ...[2]string) gen.Case {
		c := listCase(q...)
		for i := range c.Query {
			if _, canonical := gen.SpelledBool(c.Query[i].Value); !canonical {
				c.Query[i].Class = gen.ClassSpelling
			}
		}
		return c
	}
	pub, drafts := pages("published", 1, 7), pages("draft", 1, 2)
	for _, c := range []struct {
		name string
		c    gen.Case
		r    reply
		want []string
	}{
		{name: "draft=1 read as true", c: spelled([2]string{"draft", "1"}), r: listReply(t, join(pub, drafts), listMeta{15, 9, 1, false, nil})},
		{name: "draft=1 read as false", c: spelled([2]string{"draft", "1"}), r: listReply(t, pub, listMeta{15, 7, 1, false, nil})},
		{name: "published=yes read as false beside draft=true", c: spelled([2]string{"published", "yes"}, [2]string{"draft", "true"}),
			r: listReply(t, drafts, listMeta{15, 2, 1, false, nil})},
		{name: "draft=1 neither way", c: spelled([2]string{"draft", "1"}), r: listReply(t, pub, listMeta{15, 8, 1, false, nil}),
			want: []string{"PAGE-LIST-TYPE-FILTERS"}},
		{name: "the same answer to draft spelled true", c: listCase([2]string{"draft", "true"}), r: listReply(t, pub, listMeta{15, 7, 1, false, nil}),
			want: []string{"PAGE-LIST-META-CONSISTENT", "PAGE-LIST-TYPE-FILTERS"}},
	} {
		j := NewJudge()
		j.List(c.c, send(t, "", c.r), nil, site)
		wantRules(t, c.name, j, c.want...)
		if len(c.want) == 0 && c.c.Query[0].Class == gen.ClassSpelling && len(j.Observed) == 0 {
			t.Errorf("%s: the reading was not recorded", c.name)
		}
	}
}
