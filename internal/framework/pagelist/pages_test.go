package pagelist

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
)

func TestQueryWithLeavesItsInputAlone(t *testing.T) {
	q := PageTypeQuery("draft")
	got := QueryWith(q, "numberOfItems", "2", "draft", "false")
	if q.Get("draft") != "true" || q.Has("numberOfItems") {
		t.Errorf("QueryWith changed its input: %v", q)
	}
	if got.Get("draft") != "false" || got.Get("numberOfItems") != "2" || got.Get("published") != "false" {
		t.Errorf("QueryWith(...) = %v", got)
	}
	for _, ty := range PageTypes() {
		if EveryTypeQuery().Get(ty) != "true" {
			t.Errorf("EveryTypeQuery leaves out %s", ty)
		}
	}
}

// pageList serves GET /api/pages from n pages: numberOfItems=-1 answers
// with at most capAll of them (all when capAll is 0), other sizes page
// normally. Each page's key is p<i> with a description of pad bytes, so
// that a large page size can exceed a client's read limit.
func pageList(t *testing.T, n, capAll, pad int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size, _ := strconv.Atoi(r.URL.Query().Get("numberOfItems"))
		num, _ := strconv.Atoi(r.URL.Query().Get("pageNumber"))
		num = max(num, 1)
		from, to := 0, n
		switch {
		case size == -1 && capAll > 0:
			to = min(n, capAll)
		case size > 0:
			from, to = min(n, (num-1)*size), min(n, num*size)
		}
		data := []map[string]any{}
		for i := from; i < to; i++ {
			data = append(data, map[string]any{"key": fmt.Sprintf("p%d", i), "description": strings.Repeat("x", pad)})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "0", "data": data,
			"meta": map[string]any{"total": n, "hasMore": to < n}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func fixtureFor(t *testing.T, baseURL string, maxBody int64, maxStream ...int64) *Reader {
	t.Helper()
	cfg := client.Config{BaseURL: baseURL, Token: "tok-en-value", MaxBody: maxBody}
	if len(maxStream) > 0 {
		cfg.MaxStream = maxStream[0]
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return NewReader(c, 0, nil)
}

func TestListAllPagesGathersEveryPage(t *testing.T) {
	want := make([]string, 0, 30)
	for i := range 30 {
		want = append(want, fmt.Sprintf("p%d", i))
	}
	for _, c := range []struct {
		name         string
		capAll, pad  int
		maxBody      int64
		maxStream    int64
		wantRequests int
	}{
		{"numberOfItems=-1 answers all", 0, 0, 0, 0, 1},
		{"numberOfItems=-1 capped: one page of meta.total", 15, 0, 0, 0, 2},
		// 30 pages of 1 kB do not fit 8 kB, but each page does: the
		// answer is read whole, as a stream.
		{"larger than the read limit: read whole as a stream", 0, 1000, 8 << 10, 0, 1},
		// Past the whole stream's bound too: pages of 100 and 25 do not
		// fit 8 kB either, pages of 6 do (five of them).
		{"past the bound of a stream: walked", 0, 1000, 8 << 10, 16 << 10, 1 + 1 + 1 + 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := fixtureFor(t, pageList(t, 30, c.capAll, c.pad).URL, c.maxBody, c.maxStream)
			all := f.ListAll(context.Background(), url.Values{})
			if all.Problem != "" {
				t.Fatal(all.Problem)
			}
			if got := all.Pages.Keys(); !slices.Equal(got, want) {
				t.Errorf("keys %v, want %v", got, want)
			}
			if n := len(f.c.Exchanges()); n != c.wantRequests {
				t.Errorf("%d requests, want %d", n, c.wantRequests)
			}
		})
	}
}

func TestListAllPagesSaysWhyItHasNoListing(t *testing.T) {
	// numberOfItems=-1 gives 10 of 30, and so does every other size.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, `{"status":"0","data":[{"key":"a"}],"meta":{"total":30}}`)
	}))
	t.Cleanup(srv.Close)
	all := fixtureFor(t, srv.URL, 0).ListAll(context.Background(), url.Values{})
	if all.Pages.Len() != 0 || all.Problem == "" {
		t.Errorf("ListAllPages = %d items, problem %q; want none and a reason", all.Pages.Len(), all.Problem)
	}
}

func TestFirstChildPageOfAList(t *testing.T) {
	f := fixtureFor(t, pageList(t, 0, 0, 0).URL, 0)
	ex := f.c.Do(context.Background(), client.Request{Method: http.MethodGet, Path: PagesPath})
	if _, ok := PageItems(ex).First(IsChildPage); ok {
		t.Error("an empty list has no child page")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, `{"status":"0","data":[{"key":"a"},{"key":"a/b"},{"key":"a/c"}]}`)
	}))
	t.Cleanup(srv.Close)
	ex = fixtureFor(t, srv.URL, 0).c.Do(context.Background(), client.Request{Method: http.MethodGet, Path: PagesPath})
	if child, ok := PageItems(ex).First(IsChildPage); !ok || child.Get("key").String() != "a/b" {
		t.Errorf("First(IsChildPage) = %s, %v; want a/b", child.Raw, ok)
	}
}

// TestWalkFetchesLaterPagesSideBySide: on a site too large for one
// numberOfItems=-1 answer (past the bounds of a streamed answer), the
// pages after the first go out together (as
// many as its meta.total says), and the walk still ends where the list
// does when meta.total says too few or too many.
func TestWalkFetchesLaterPagesSideBySide(t *testing.T) {
	for _, c := range []struct {
		name          string
		reportedTotal int // meta.total the server sends; the site has 30 pages
		wantRequests  int // -1 (cut), then pages of 100 (cut), 25 (cut), 6
	}{
		{"meta.total right", 30, 3 + 5},
		// Told 13: pages 2 and 3 together, then 4 and 5 one at a time.
		{"meta.total too small", 13, 3 + 5},
		// Told 60: ten pages of 6 asked at once; the walk ends with the
		// fifth, the last one (hasMore false), and drops the rest.
		{"meta.total too large", 60, 3 + 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			var inFlight, most atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := inFlight.Add(1)
				defer inFlight.Add(-1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(20 * time.Millisecond)
				size, _ := strconv.Atoi(r.URL.Query().Get("numberOfItems"))
				num, _ := strconv.Atoi(r.URL.Query().Get("pageNumber"))
				from, to := 0, 30
				if size > 0 {
					from, to = min(30, (max(num, 1)-1)*size), min(30, max(num, 1)*size)
				}
				data := []map[string]any{}
				for i := from; i < to; i++ {
					data = append(data, map[string]any{"key": fmt.Sprintf("p%d", i), "description": strings.Repeat("x", 1000)})
				}
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(map[string]any{"status": "0", "data": data,
					"meta": map[string]any{"total": c.reportedTotal, "hasMore": to < 30}})
			}))
			t.Cleanup(srv.Close)
			// The -1 answer is read as a stream, cut here at a whole-answer
			// bound of 16 KiB; the walk's pages are bounded by --max-body.
			cl, err := client.New(client.Config{BaseURL: srv.URL, Token: "tok-en-value", MaxBody: 8 << 10, MaxStream: 16 << 10})
			if err != nil {
				t.Fatal(err)
			}
			f := NewReader(cl, 8, nil)
			all := f.ListAll(context.Background(), url.Values{})
			if all.Problem != "" {
				t.Fatal(all.Problem)
			}
			if got := all.Pages.Keys(); len(got) != 30 || got[0] != "p0" || got[29] != "p29" || len(slices.Compact(slices.Clone(got))) != 30 {
				t.Errorf("keys %v, want p0 to p29 once each", got)
			}
			if n := len(f.c.Exchanges()); n != c.wantRequests {
				t.Errorf("%d requests, want %d", n, c.wantRequests)
			}
			if most.Load() < 2 {
				t.Errorf("at most %d request in flight: the later pages went one by one", most.Load())
			}
		})
	}
}
