package reads

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

// listOf is a listing of pages in order, "t" a tagged page and "u" an
// untagged one.
func listOf(layout string) pagelist.PageList {
	var pages []gjson.Result
	for i, c := range layout {
		tags := `{}`
		if c == 't' {
			tags = `{"news":"News"}`
		}
		pages = append(pages, gjson.Parse(fmt.Sprintf(`{"key":"p%d","tags":%s}`, i, tags)))
	}
	return pagelist.PageListOf(pages)
}

// TestUntaggedLayoutDecides checks which list pages (of 5) tell filtering
// the untagged pages before pagination from filtering after it.
func TestUntaggedLayoutDecides(t *testing.T) {
	for _, c := range []struct {
		name, pages string
		decides     []int
	}{
		{"every page untagged", "uuuuu uuuuu uu", nil},
		{"tagged pages only at the end", "uuuuu uuttt tt", nil},
		{"no untagged page", "ttttt tt", nil},
		{"a tagged page before untagged ones", "tuuuu uuuuu u", []int{1, 2, 3}},
		{"an all-tagged page, then untagged ones", "ttttt uu", []int{1, 2}},
		{"one tagged page ahead of the last untagged ones", "tuu", nil},
		{"untagged pages only far down", "ttttt ttttt ttttt uuttt", []int{1, 4}},
	} {
		l := untaggedLayoutOf(listOf(strings.ReplaceAll(c.pages, " ", "")), 5)
		var got []int
		for pn := 1; pn <= len(l.perPage); pn++ {
			if l.decides(pn) {
				got = append(got, pn)
			}
		}
		if !slices.Equal(got, c.decides) {
			t.Errorf("%s (%s): pages %v decide, want %v", c.name, c.pages, got, c.decides)
		}
	}
}

// TestUntaggedVisitFindsADecidingPage checks the pages
// PAGE-LIST-UNTAGGED-AFTER-PAGINATION visits: the first maxWalk, and a
// page past them that decides when none of them does.
func TestUntaggedVisitFindsADecidingPage(t *testing.T) {
	first := func(n int) []int {
		var out []int
		for pn := 1; pn <= n; pn++ {
			out = append(out, pn)
		}
		return out
	}
	for _, c := range []struct {
		name, pages string
		want        []int
	}{
		{"decided in the first pages", strings.Repeat("tu", 100), first(maxWalk)},
		{"a small site", "tuuuu uu", []int{1, 2}},
		// Page 1 of the untagged pages alone is not empty: page 1 decides.
		{"the first 80 pages tagged", strings.Repeat("t", 80) + "uuttt" + strings.Repeat("u", 20), first(maxWalk)},
		{"the first tagged page far down", strings.Repeat("u", 61) + "tuuu" + strings.Repeat("u", 20), append(first(maxWalk), 13)},
		{"never decided", strings.Repeat("u", 80) + strings.Repeat("t", 30), first(maxWalk)},
	} {
		if got := untaggedVisit(listOf(strings.ReplaceAll(c.pages, " ", ""))); !slices.Equal(got, c.want) {
			t.Errorf("%s: visits %v, want %v", c.name, got, c.want)
		}
	}
}
