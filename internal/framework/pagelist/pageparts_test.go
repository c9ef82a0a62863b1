package pagelist

import (
	"context"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// A listing read with Reader.ListRequest naming keys keeps those pages whole
// and no other, and reads whole however large it is (beyond MaxBody in
// all); one page object over MaxBody cuts it, and Unread says so.
func TestPageListRequestKeepsNamedPagesWhole(t *testing.T) {
	srv := pageList(t, 40, 0, 300)
	f := fixtureFor(t, srv.URL, 4096)
	q := QueryWith(EveryTypeQuery(), "numberOfItems", "-1")
	ex := f.all(context.Background(), f.ListRequest(q, "p3"))[0]
	if why := Unread(ex); why != "" || ex.Err != nil {
		t.Fatalf("a listing of small pages, 14 KB in all, was not read whole: %s %v", why, ex.Err)
	}
	items := PageItems(ex)
	if items.Len() != 1 || items.At(0).Get("key").Str != "p3" || !items.At(0).Get("description").Exists() {
		t.Fatalf("PageItems gave %d pages (%v), want p3 alone, whole", items.Len(), items.Keys())
	}
	if brief := PageItems(f.all(context.Background(), f.ListRequest(q))[0]); brief.Len() != 40 || brief.At(3).Get("description").Exists() {
		t.Errorf("naming no key: %d pages, want the 40, brief", brief.Len())
	}

	big := pageList(t, 3, 0, 100_000)
	f = fixtureFor(t, big.URL, 4096)
	ex = f.all(context.Background(), f.ListRequest(q))[0]
	if why := Unread(ex); !ex.Truncated || !strings.Contains(why, "--max-body") {
		t.Errorf("a page object over MaxBody: Truncated %v, Unread %q; want it cut, said so", ex.Truncated, why)
	}
}

// A view that digests the content of some pages only (DigestContentOf)
// keeps the digest of those and makes none of the others'.
func TestDigestsOfNamedPagesOnly(t *testing.T) {
	pv := newPageView("slim pages", nil, slimMembers, digestMembers)
	pv.digestIf = func(key string) bool { return key == "mine" }
	mine := gjson.Parse(pv.slim([]byte(`{"key":"mine","title":"T","content":"<p>x</p>","contentRaw":"x"}`)))
	if got := mine.Get(gjson.Escape(DigestMember("content"))).Str; got != ContentDigest(gjson.Parse(`"<p>x</p>"`)) {
		t.Errorf("the page named keeps content digest %q", got)
	}
	other := pv.slim([]byte(`{"key":"other","title":"T","content":"<p>x</p>"}`))
	if strings.Contains(other, "#sha256") || !gjson.Get(other, "title").Exists() {
		t.Errorf("another page: %s, want its slim members and no digest", other)
	}
}
