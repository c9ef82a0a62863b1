package pagelist

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// A listing whose slim copies pass spillAt is kept on disk: what it holds
// in memory is a few bytes a page, and every page reads back whole and in
// order, through All, At and the helpers, as many times as asked.
func TestLongListingIsKeptOnDisk(t *testing.T) {
	const n, pad = 3000, 900 // about 2.8 MB of slim copies: 11 times spillAt
	srv := pageList(t, n, 0, pad)
	f := fixtureFor(t, srv.URL, 64<<20)
	want := make([]string, n)
	for i := range want {
		want[i] = fmt.Sprintf("p%d", i)
	}

	before := liveHeap()
	l := f.ListAll(context.Background(), EveryTypeQuery())
	f.c = nil   // the read cache's copy of the listing goes too
	srv.Close() // and the server's, once its handler has returned
	after := liveHeap()
	if l.Problem != "" {
		t.Fatal(l.Problem)
	}
	if l.Pages.store == nil {
		t.Fatalf("%d pages of %d bytes each were kept in memory, not on disk", n, pad)
	}
	if held := after - before; held > 512<<10 {
		t.Errorf("the listing of %d pages holds %d bytes of memory; want under 512 KiB (its copies weigh %d)", n, held, n*pad)
	}
	for pass := range 2 {
		if got := l.Pages.Keys(); !slices.Equal(got, want) {
			t.Fatalf("pass %d: %d keys read back, first %v", pass, len(got), got[:min(3, len(got))])
		}
	}
	if p := l.Pages.At(2999); p.Get("key").Str != "p2999" || len(p.Get("description").Str) != pad {
		t.Errorf("At(2999) = %.80s", p.Raw)
	}
	if first, ok := l.Pages.First(func(p gjson.Result) bool { return p.Get("key").Str == "p1500" }); !ok || first.Get("key").Str != "p1500" {
		t.Errorf("First(p1500) = %.40s, %v", first.Raw, ok)
	}
	// A pass of the helpers over the pages on disk makes no garbage (one
	// buffer for all): a big site's rules pass over its listing often.
	// AllocsPerRun counts the whole process's allocations: the least of a
	// few measures leaves out what goroutines of earlier tests still do.
	allocs := testing.AllocsPerRun(3, func() { l.Pages.CountOfType("draft") })
	for range 4 {
		allocs = min(allocs, testing.AllocsPerRun(3, func() { l.Pages.CountOfType("draft") }))
	}
	if allocs > 20 {
		t.Errorf("counting %d pages on disk made %.0f allocations; want a few", n, allocs)
	}
	if l.Pages.Len() != n || l.Pages.Any(IsChildPage) {
		t.Errorf("Len %d, a child page: %v", l.Pages.Len(), l.Pages.Any(IsChildPage))
	}
	runtime.KeepAlive(l)
}

// A short listing stays in memory (no file for a few pages).
func TestShortListingStaysInMemory(t *testing.T) {
	f := fixtureFor(t, pageList(t, 20, 0, 10).URL, 64<<20)
	l := f.ListAll(context.Background(), EveryTypeQuery())
	if l.Problem != "" || l.Pages.store != nil || l.Pages.Len() != 20 {
		t.Fatalf("problem %q, on disk %v, %d pages", l.Problem, l.Pages.store != nil, l.Pages.Len())
	}
	if got := l.Pages.Slice(); len(got) != 20 || got[19].Get("key").Str != "p19" {
		t.Errorf("Slice: %d pages", len(got))
	}
}

// The keys a list gives are strings of their own: holding them does not
// hold the pages they came from.
func TestKeysDoNotHoldThePages(t *testing.T) {
	const n, pad = 2000, 2000
	pages := make([]gjson.Result, n)
	for i := range pages {
		pages[i] = gjson.Parse(fmt.Sprintf(`{"key":"p%d","type":"draft","description":%q}`, i, fmt.Sprint(make([]byte, pad))))
	}
	keys := PageListOf(pages).KeysWhere(OfType("draft"))
	before := liveHeap()
	runtime.KeepAlive(pages) // live until here
	if freed := before - liveHeap(); freed < n*pad/2 {
		t.Errorf("dropping the pages freed %d bytes while their keys are held; want about %d", freed, n*pad)
	}
	runtime.KeepAlive(keys)
}

// liveHeap is the heap in use once garbage is collected: the least of a
// few collections, as a connection's goroutine may still let go of what
// it read a moment after the answer.
func liveHeap() int64 {
	least := int64(-1)
	for range 5 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if least < 0 || int64(m.HeapAlloc) < least {
			least = int64(m.HeapAlloc)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return least
}

// Joined lists read as one, in order: in memory, or on disk without a
// copy of the pages.
func TestJoinPages(t *testing.T) {
	mem := func(keys ...string) PageList {
		var pages []gjson.Result
		for _, k := range keys {
			pages = append(pages, gjson.Parse(fmt.Sprintf(`{"key":%q}`, k)))
		}
		return PageListOf(pages)
	}
	if got := JoinPages(mem("a", "b"), PageList{}, mem("c")).Keys(); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("in memory: %v", got)
	}
	srv := pageList(t, 3000, 0, 100)
	f := fixtureFor(t, srv.URL, 64<<20)
	first := PageItems(f.all(context.Background(), f.ListRequest(QueryWith(EveryTypeQuery(), "numberOfItems", "100", "pageNumber", "1")))[0])
	second := PageItems(f.all(context.Background(), f.ListRequest(QueryWith(EveryTypeQuery(), "numberOfItems", "100", "pageNumber", "2")))[0])
	joined := JoinPages(first, second)
	if first.store == nil || joined.store != first.store || joined.mem != nil || joined.Len() != 200 {
		t.Fatalf("two walk pages on disk joined: on disk %v, %d pages", joined.store != nil, joined.Len())
	}
	if k := joined.Keys(); k[0] != "p0" || k[100] != "p100" || k[199] != "p199" {
		t.Errorf("joined keys: %v … %v", k[:2], k[198:])
	}
	for _, j := range []PageList{JoinPages(first, mem("x")), JoinPages(mem("x"), first)} {
		if got := j.Keys(); j.store != first.store || len(got) != 101 || !slices.Contains(got, "x") || !slices.Contains(got, "p99") {
			t.Errorf("disk and memory joined: on disk %v, %d keys", j.store != nil, len(got))
		}
	}
}

// Where no temporary file can be made, long listings stay in memory and
// the reader says why (the fixture observes it).
func TestNoTemporaryDirectoryIsObserved(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	f := fixtureFor(t, pageList(t, 300, 0, 100).URL, 64<<20)
	var noted error
	f.store.noted = func(err error) { noted = err }
	l := f.ListAll(context.Background(), EveryTypeQuery())
	if l.Problem != "" || l.Pages.Len() != 300 || l.Pages.store != nil {
		t.Fatalf("problem %q, %d pages, on disk %v", l.Problem, l.Pages.Len(), l.Pages.store != nil)
	}
	if noted == nil {
		t.Error("the reader did not say why the pages stay in memory")
	}
}

// Close removes the run's file of pages now (where the system kept it
// until then), and makes none after.
func TestCloseRemovesThePages(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	f := fixtureFor(t, pageList(t, 300, 0, 100).URL, 64<<20)
	if l := f.ListAll(context.Background(), EveryTypeQuery()); l.Pages.store == nil {
		t.Fatal("300 pages were not kept on disk")
	}
	f.Close()
	f.Close() // twice is fine
	if f.store.get() != nil && f.store.sp.Size() > 0 {
		if _, err := f.store.sp.Append("x"); err == nil {
			t.Error("the closed store still takes pages")
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "conformance-spool-*")); len(left) > 0 {
		t.Errorf("left behind after Close: %v", left)
	}
	g := fixtureFor(t, pageList(t, 300, 0, 100).URL, 64<<20)
	g.Close() // before any listing: no file is made afterwards
	if l := g.ListAll(context.Background(), EveryTypeQuery()); l.Pages.store != nil || l.Pages.Len() != 300 {
		t.Errorf("after Close: on disk %v, %d pages", l.Pages.store != nil, l.Pages.Len())
	}
}
