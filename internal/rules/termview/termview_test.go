package termview

import (
	"fmt"
	"iter"
	"strings"
	"testing"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
)

// view is the View of a single term's data, its pages read from
// data.pages (as an answer read whole gives them).
func view(tag bool, data string) View {
	d := gjson.Parse(data)
	return View{Tag: tag, Term: d, Pages: ArrayPages(d.Get("pages"))}
}

// judged is what a table row expects of a judgement: it holds, it is
// skipped, or its problem holds every one of want.
type judged struct {
	skip bool
	want []string // the problem's parts; none: it conforms
}

func expect(t *testing.T, name string, got rules.Judgement, want judged) {
	t.Helper()
	switch {
	case got.Skip != want.skip:
		t.Errorf("%s: skip %t, want %t (%q)", name, got.Skip, want.skip, got.Problem)
	case len(want.want) == 0 && got.Problem != "":
		t.Errorf("%s: %q, want no problem", name, got.Problem)
	case len(want.want) > 0 && got.Problem == "":
		t.Errorf("%s: no problem, want one naming %q", name, want.want)
	}
	for _, w := range want.want {
		if !strings.Contains(got.Problem, w) {
			t.Errorf("%s: %q does not say %q", name, got.Problem, w)
		}
	}
}

// TestPagesMatchList: TAG-PAGES-MATCH-LIST, CAT-PAGES-MATCH-LIST: the keys
// of pages are those list names, as multisets, in any order.
func TestPagesMatchList(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       judged
	}{
		{"the same keys", `{"list":["a","b"],"pages":[{"key":"a"},{"key":"b"}]}`, judged{}},
		{"in another order", `{"list":["a","b"],"pages":[{"key":"b"},{"key":"a"}]}`, judged{}},
		{"no page", `{"list":[],"pages":[]}`, judged{}},
		{"a page lacking", `{"list":["a","b"],"pages":[{"key":"a"}]}`, judged{want: []string{`lacks page "b"`}}},
		{"a page list does not name", `{"list":["a"],"pages":[{"key":"a"},{"key":"c"}]}`,
			judged{want: []string{`holds page "c"`}}},
		{"a page twice", `{"list":["a"],"pages":[{"key":"a"},{"key":"a"}]}`, judged{want: []string{`holds page "a"`}}},
		{"a key twice in list", `{"list":["a","a"],"pages":[{"key":"a"}]}`, judged{want: []string{`lacks page "a"`}}},
		{"an old key in list, the page left out", `{"list":["old","b"],"pages":[{"key":"b"}]}`,
			judged{want: []string{`lacks page "old"`}}},
		{"a page without key", `{"list":["a"],"pages":[{"title":"x"}]}`,
			judged{want: []string{`holds page missing`, `lacks page "a"`}}},
		{"no list: GET-SHAPE's", `{"pages":[{"key":"a"}]}`, judged{skip: true}},
		{"list no array", `{"list":"a","pages":[{"key":"a"}]}`, judged{skip: true}},
	} {
		for _, tag := range []bool{true, false} {
			expect(t, c.name, PagesMatchList(view(tag, c.data)), c.want)
		}
	}
}

// TestPagesCarryTerm: TAG-LIST-CONSISTENT, CAT-LIST-CONSISTENT on the
// term's pages: each carries it.
func TestPagesCarryTerm(t *testing.T) {
	for _, c := range []struct {
		name string
		tag  bool
		data string
		want judged
	}{
		{"tag carried", true, `{"key":"news","pages":[{"key":"a","tags":{"news":"News","x":"X"}}]}`, judged{}},
		{"tag not carried", true, `{"key":"news","pages":[{"key":"a","tags":{"x":"X"}}]}`,
			judged{want: []string{`page "a"`, `lacks "news"`}}},
		{"a tag key with a dot", true, `{"key":"v1.2","pages":[{"key":"a","tags":{"v1.2":"V"}}]}`, judged{}},
		{"tags no object: the shape rules'", true, `{"key":"news","pages":[{"key":"a","tags":"news"}]}`, judged{skip: true}},
		{"no page", true, `{"key":"news","pages":[]}`, judged{skip: true}},
		{"no key", true, `{"pages":[{"key":"a","tags":{}}]}`, judged{skip: true}},
		{"category carried", false, `{"key":"music","pages":[{"key":"a","category":"music"}]}`, judged{}},
		{"category another", false, `{"key":"music","pages":[{"key":"a","category":"general"},{"key":"b","category":"music"}]}`,
			judged{want: []string{`page "a"`, `category "general"`}}},
		{"category false: the shape rules'", false, `{"key":"music","pages":[{"key":"a","category":false}]}`, judged{skip: true}},
	} {
		expect(t, c.name, PagesCarryTerm(view(c.tag, c.data)), c.want)
	}
}

// TestTagNames: TAG-NAME-IN-PAGES on a tag's pages: the name the pages
// give it is its name, or, where they spell it differently, one of their
// spellings.
func TestTagNames(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       judged
	}{
		{"the same name", `{"key":"news","name":"News","pages":[{"key":"a","tags":{"news":"News"}},{"key":"b","tags":{"news":"News"}}]}`, judged{}},
		{"another name", `{"key":"news","name":"news","pages":[{"key":"a","tags":{"news":"News"}}]}`,
			judged{want: []string{`page "a"`, `"News"`, `"news"`}}},
		{"spellings, the tag's among them", `{"key":"news","name":"NEWS","pages":[{"key":"a","tags":{"news":"News"}},{"key":"b","tags":{"news":"NEWS"}}]}`,
			judged{}},
		{"spellings, the tag's none of them", `{"key":"news","name":"nEwS","pages":[{"key":"a","tags":{"news":"News"}},{"key":"b","tags":{"news":"NEWS"}}]}`,
			judged{want: []string{`"News", "NEWS"`, `none of them`}}},
		{"no page names it", `{"key":"news","name":"News","pages":[{"key":"a","tags":{}}]}`, judged{skip: true}},
		{"no name", `{"key":"news","pages":[{"key":"a","tags":{"news":"News"}}]}`, judged{skip: true}},
	} {
		expect(t, c.name, TagNames(view(true, c.data)), c.want)
	}
}

// TestChecks: each rule judges the answers of its endpoint only, and none
// the answers view cannot read.
func TestChecks(t *testing.T) {
	bad := `{"key":"k","name":"N","list":["a"],"pages":[{"key":"b","tags":{"x":"X"},"category":"other"}]}`
	for _, c := range []struct {
		tag, ok bool
		broken  []string // the rules that find a problem; the others are skipped
	}{
		{true, true, []string{"TAG-PAGES-MATCH-LIST", "TAG-LIST-CONSISTENT"}},
		{false, true, []string{"CAT-PAGES-MATCH-LIST", "CAT-LIST-CONSISTENT"}},
		{true, false, nil},
	} {
		read := func(*client.Exchange) (View, bool) { return view(c.tag, bad), c.ok }
		for _, check := range Checks(read) {
			j := check.Judge(&client.Exchange{})
			want := false
			for _, r := range c.broken {
				want = want || r == check.Rule
			}
			if want != (j.Problem != "") || (!want && !j.Skip) {
				t.Errorf("tag %t, read %t: %s judged %+v", c.tag, c.ok, check.Rule, j)
			}
		}
	}
}

// reused yields the pages as a long stream's do (pagelist.PageList.Scan):
// each parsed from one buffer, which the next page overwrites.
func reused(raws []string) iter.Seq[gjson.Result] {
	return func(yield func(gjson.Result) bool) {
		var buf []byte
		for _, raw := range raws {
			buf = append(buf[:0], raw...)
			if !yield(gjson.Parse(unsafe.String(unsafe.SliceData(buf), len(buf)))) {
				return
			}
		}
	}
}

// TestPagesValidDuringTheirTurnOnly: a judgement keeps nothing of a page
// past its turn, so pages that share one buffer are judged as pages of
// their own (a big category's view, whose pages are read back from disk).
func TestPagesValidDuringTheirTurnOnly(t *testing.T) {
	var list, pages []string
	for i := range 40 {
		key := fmt.Sprintf("page-%03d", i)
		list = append(list, fmt.Sprintf("%q", key))
		pages = append(pages, fmt.Sprintf(`{"key":%q,"category":"c","tags":{"c":"Name %03d"}}`, key, i%2))
	}
	term := gjson.Parse(`{"key":"c","name":"Name 000","list":[` + strings.Join(list, ",") + `]}`)
	for _, tag := range []bool{true, false} {
		v := View{Tag: tag, Term: term, Pages: reused(pages)}
		expect(t, "pages match", PagesMatchList(v), judged{})
		expect(t, "pages carry", PagesCarryTerm(v), judged{})
	}
	// Two spellings, the tag's among them; then the tag's none of them,
	// the spellings named as the pages gave them.
	expect(t, "names", TagNames(View{Tag: true, Term: term, Pages: reused(pages)}), judged{})
	other := gjson.Parse(`{"key":"c","name":"Other"}`)
	expect(t, "names", TagNames(View{Tag: true, Term: other, Pages: reused(pages)}),
		judged{want: []string{`"Name 000", "Name 001"`}})
	expect(t, "a name", TagNames(View{Tag: true, Term: other, Pages: reused(pages[:1])}),
		judged{want: []string{`page "page-000" gives tag "c" the name "Name 000"`}})
}
