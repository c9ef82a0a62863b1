package paging

import (
	"net/url"
	"testing"
)

// TestReadAs: a non-positive numberOfItems other than -1 is read as none
// sent, a pageNumber below 1 as page 1; the rest is kept as sent.
func TestReadAs(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"draft=true&numberOfItems=0", "draft=true"},
		{"numberOfItems=-5&pageNumber=2", "pageNumber=2"},
		{"numberOfItems=-1", "numberOfItems=-1"},
		{"numberOfItems=2&pageNumber=0", "numberOfItems=2&pageNumber=1"},
		{"numberOfItems=2&pageNumber=-1", "numberOfItems=2&pageNumber=1"},
		{"numberOfItems=2&pageNumber=3", "numberOfItems=2&pageNumber=3"},
		{"", ""},
	} {
		q, _ := url.ParseQuery(c.q)
		if got := ReadAsQuery(q).Encode(); got != c.want {
			t.Errorf("ReadAsQuery(%s) = %s, want %s", c.q, got, c.want)
		}
	}
	if r := ReadQuery(url.Values{"numberOfItems": {"2.5"}}); !r.Odd {
		t.Errorf("2.5 is not read as odd: %+v", r)
	}
}

// TestSlice: the pages a slice holds, hasMore, and which pages are past
// the end (page 2 of an empty listing is; page 1 never is).
func TestSlice(t *testing.T) {
	for _, c := range []struct {
		s         Slice
		n         int
		more, end bool
	}{
		{Slice{7, 2, 1}, 2, true, false},
		{Slice{7, 2, 4}, 1, false, false},
		{Slice{7, 2, 5}, 0, false, true},
		{Slice{0, 2, 1}, 0, false, false},
		{Slice{0, 2, 2}, 0, false, true},
	} {
		if c.s.Len() != c.n || c.s.HasMore() != c.more || c.s.PastEnd() != c.end {
			t.Errorf("%+v: Len %d, HasMore %t, PastEnd %t; want %d, %t, %t", c.s, c.s.Len(), c.s.HasMore(), c.s.PastEnd(), c.n, c.more, c.end)
		}
	}
	for _, c := range []struct {
		q    string
		want string
	}{
		{"numberOfItems=-1", "PAGE-LIST-ALL"},
		{"numberOfItems=0", "PAGE-LIST-NONPOSITIVE-SIZE"},
		{"pageNumber=0", "PAGE-LIST-PAGENUMBER-BELOW-1"},
		{"numberOfItems=2&pageNumber=9", "PAGE-LIST-PAST-END"},
		{"numberOfItems=2&pageNumber=4", "PAGE-LIST-SHAPE"},
	} {
		q, _ := url.ParseQuery(c.q)
		if got := StatusRule(ReadQuery(q), 7, 15); got != c.want {
			t.Errorf("StatusRule(%s) = %s, want %s", c.q, got, c.want)
		}
	}
}
