package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// countFold keeps the key of every item and counts them.
type countFold struct{ keys []string }

func (f *countFold) Item(raw []byte)     { f.keys = append(f.keys, gjson.GetBytes(raw, "key").String()) }
func (f *countFold) Value() (any, int64) { return f.keys, int64(len(f.keys) * 16) }

func keysStream(name string) *Stream {
	return &Stream{Path: "data", Name: name, New: func() Fold { return &countFold{} }}
}

// listing is a page-list answer of n items of pad bytes each.
func listing(n, pad int) string {
	var b strings.Builder
	b.WriteString(`{"status":"0","message":"List of pages","meta":{"total":` + fmt.Sprint(n) + `,"hasMore":false},"data":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"key":"page-%d","content":"%s"}`, i, strings.Repeat("x", pad))
	}
	b.WriteString(`],"numberOfItems":-1}`)
	return b.String()
}

// TestStreamReadsAListingLargerThanMaxBody checks that a streamed read
// hands every item of an answer far larger than --max-body to its fold,
// keeps the envelope (the skeleton) and the start as received, and judges
// the whole answer as JSON; a second identical read is a replay with the
// fold's value.
func TestStreamReadsAListingLargerThanMaxBody(t *testing.T) {
	body := listing(2000, 1000) // about 2 MB
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	})
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.MaxBody = 64 << 10; cfg.ReadCache = true })
	ex := c.Do(context.Background(), Request{Path: "/api/pages", Stream: keysStream("keys")})
	keys, _ := ex.Folded().([]string)
	if ex.Err != nil || ex.Truncated || !ex.IsJSON() || len(keys) != 2000 || keys[1999] != "page-1999" {
		t.Fatalf("err %v truncated %v json %v, %d keys", ex.Err, ex.Truncated, ex.IsJSON(), len(keys))
	}
	if ex.Streamed == nil || ex.Streamed.Items != 2000 || ex.BodySize() != len(body) {
		t.Errorf("streamed %+v, size %d; want 2000 items, %d bytes", ex.Streamed, ex.BodySize(), len(body))
	}
	if got := ex.Get("meta.total").Int(); got != 2000 || !ex.Get("data").IsArray() || len(ex.Get("data").Array()) != 0 ||
		ex.Get("numberOfItems").Int() != -1 {
		t.Errorf("skeleton %s: want the envelope with data empty", ex.Body())
	}
	if !strings.HasPrefix(ex.BodyExcerpt(), body[:100]) {
		t.Errorf("excerpt %q: want the start as received", ex.BodyExcerpt()[:100])
	}
	again := c.Do(context.Background(), Request{Path: "/api/pages", Stream: keysStream("keys")})
	if k, _ := again.Folded().([]string); !again.Replayed || len(k) != 2000 || rec.count() != 1 {
		t.Errorf("second read: replayed %v, %d keys, %d requests; want a replay of the fold's value", again.Replayed, len(k), rec.count())
	}
	other := c.Do(context.Background(), Request{Path: "/api/pages", Stream: keysStream("another fold")})
	if other.Replayed {
		t.Error("a read naming another fold must not be answered with this one's value")
	}
}

// TestStreamBounds checks the bounds of a streamed read: one item larger
// than --max-body, or an answer larger than MaxStream, stops the read
// (Truncated, no value), and memory stays far below the answer's size.
func TestStreamBounds(t *testing.T) {
	const huge = 50 << 20
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/one-item" {
			_, _ = io.WriteString(w, `{"status":"0","data":[{"key":"`)
			chunk := strings.Repeat("y", 64<<10)
			for range huge / len(chunk) {
				if _, err := io.WriteString(w, chunk); err != nil {
					return
				}
			}
			_, _ = io.WriteString(w, `"}]}`)
			return
		}
		// 60 MB of small items, written as they are made.
		_, _ = io.WriteString(w, `{"status":"0","data":[`)
		item := `{"key":"p","content":"` + strings.Repeat("z", 3000) + `"}`
		for i := range 20000 {
			if i > 0 {
				_, _ = io.WriteString(w, ",")
			}
			if _, err := io.WriteString(w, item); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, `]}`)
	})
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.MaxBody = 1 << 20; cfg.MaxStream = 8 << 20 })
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, path := range []string{"/one-item", "/many"} {
		ex := c.Do(context.Background(), Request{Path: path, Stream: keysStream("")})
		if !ex.Truncated || ex.IsJSON() || ex.Folded() != nil {
			t.Errorf("%s: truncated %v json %v value %v; want cut at a bound with nothing kept", path, ex.Truncated, ex.IsJSON(), ex.Folded() != nil)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grown := int64(after.TotalAlloc) - int64(before.TotalAlloc); grown > 40<<20 {
		t.Errorf("reading two bounded streams of 50 and 60 MB allocated %d MB", grown>>20)
	}
}

// TestStreamOfAnswerThatIsNoJSON checks that an HTML answer to a streamed
// read is kept as its body, judged not JSON, with no value.
func TestStreamOfAnswerThatIsNoJSON(t *testing.T) {
	const page = "<html><body>Page not found</body></html>"
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, page)
	})
	c := newClient(t, rec.URL, nil)
	ex := c.Do(context.Background(), Request{Path: "/api/pages", Stream: keysStream("")})
	if ex.Status != http.StatusNotFound || string(ex.Body()) != page || ex.IsJSON() || ex.Folded() != nil || ex.Streamed != nil {
		t.Errorf("status %d body %q json %v value %v streamed %v", ex.Status, ex.Body(), ex.IsJSON(), ex.Folded(), ex.Streamed)
	}
}

// TestStreamInvalidUTF8 checks that invalid UTF-8 inside an item makes the
// whole answer no JSON document, as a body read whole would be.
func TestStreamInvalidUTF8(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, "{\"data\":[{\"key\":\"a\xff\"}]}")
	})
	c := newClient(t, rec.URL, nil)
	if ex := c.Do(context.Background(), Request{Path: "/x", Stream: keysStream("")}); ex.IsJSON() || ex.Folded() != nil {
		t.Errorf("json %v value %v: invalid UTF-8 must make the answer no JSON", ex.IsJSON(), ex.Folded())
	}
}

// TestStreamTakesAsLongAsItKeepsComing checks the time bound of a streamed
// read: an answer that takes longer than --request-timeout in all but
// never stops coming for that long is read whole; one that stops coming is
// cut, saying so.
func TestStreamTakesAsLongAsItKeepsComing(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"0","data":[`)
		for i := range 8 {
			if i > 0 {
				_, _ = io.WriteString(w, ",")
			}
			fmt.Fprintf(w, `{"key":"p%d"}`, i)
			w.(http.Flusher).Flush()
			// Eight pauses of 150 ms take longer than the request
			// timeout in all; each is far below it, with room for a
			// loaded machine (CI runs packages side by side on 2 cores).
			pause := 150 * time.Millisecond
			if r.URL.Path == "/stalls" && i == 4 {
				pause = 2500 * time.Millisecond
			}
			time.Sleep(pause)
		}
		_, _ = io.WriteString(w, `]}`)
	})
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.RequestTimeout = time.Second })
	ex := c.Do(context.Background(), Request{Path: "/slow", Stream: keysStream("")})
	if keys, _ := ex.Folded().([]string); ex.Err != nil || len(keys) != 8 {
		t.Errorf("a slow answer that keeps coming: err %v, %d keys; want all 8", ex.Err, len(keys))
	}
	ex = c.Do(context.Background(), Request{Path: "/stalls", Stream: keysStream("")})
	if ex.Err == nil || !strings.Contains(ex.Err.Error(), "stopped coming") || ex.Folded() != nil {
		t.Errorf("an answer that stalls: err %v, value %v; want it cut, saying the body stopped coming", ex.Err, ex.Folded())
	}
}

// fullFold keeps the first n items' keys, then says it is full.
type fullFold struct {
	countFold
	n int
}

func (f *fullFold) Full() bool { return len(f.keys) >= f.n }

// TestReplayOfAStoppedStream: a stream its fold stopped is kept by the
// read cache, and its replay says what the first read said: truncated,
// and whether what was read is JSON.
func TestReplayOfAStoppedStream(t *testing.T) {
	body := listing(50, 10)
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	})
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.ReadCache = true })
	st := func() *Stream {
		return &Stream{Path: "data", Name: "first ten", New: func() Fold { return &fullFold{n: 10} }}
	}
	first := c.Do(context.Background(), Request{Path: "/api/pages", Stream: st()})
	again := c.Do(context.Background(), Request{Path: "/api/pages", Stream: st()})
	if first.Streamed == nil || !first.Streamed.Full || !again.Replayed {
		t.Fatalf("first: streamed %+v; again replayed %v: want a stopped stream, then its replay", first.Streamed, again.Replayed)
	}
	if again.Truncated != first.Truncated || again.IsJSON() != first.IsJSON() || again.BodyCut != first.BodyCut {
		t.Errorf("replay: truncated %v json %v cut %v; first read: truncated %v json %v cut %v",
			again.Truncated, again.IsJSON(), again.BodyCut, first.Truncated, first.IsJSON(), first.BodyCut)
	}
}

// TestStreamBoundsTheEnvelope: what is read of a streamed answer outside
// its array (a member of the envelope, or an answer that is one scalar)
// is bounded by --max-body as one value is, not only by MaxStream, and a
// cut answer keeps no body past the bound.
func TestStreamBoundsTheEnvelope(t *testing.T) {
	const huge = 50 << 20
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/envelope" {
			_, _ = io.WriteString(w, `{"status":"0","message":"`)
		} else {
			_, _ = io.WriteString(w, `"`)
		}
		chunk := strings.Repeat("m", 64<<10)
		for range huge / len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		if r.URL.Path == "/envelope" {
			_, _ = io.WriteString(w, `","data":[{"key":"a"}]}`)
		} else {
			_, _ = io.WriteString(w, `"`)
		}
	})
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.MaxBody = 1 << 20 })
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, path := range []string{"/envelope", "/scalar"} {
		ex := c.Do(context.Background(), Request{Path: path, Stream: keysStream("")})
		if !ex.Truncated || ex.IsJSON() || len(ex.Body()) > 1<<20 {
			t.Errorf("%s: truncated %v json %v body %d bytes; want cut at --max-body", path, ex.Truncated, ex.IsJSON(), len(ex.Body()))
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grown := int64(after.TotalAlloc) - int64(before.TotalAlloc); grown > 40<<20 {
		t.Errorf("reading two answers with a 50 MB value outside the array allocated %d MB", grown>>20)
	}
}

// TestStreamOfAnotherShapeIsReadWhole: an answer that has not the shape
// streamed (data a string, or an array where data.pages is streamed) is
// read as a body read whole: its JSON judged whole, the body kept, nothing
// folded; one larger than --max-body is cut, with little garbage made.
func TestStreamOfAnotherShapeIsReadWhole(t *testing.T) {
	const big = 20 << 20
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/string":
			_, _ = io.WriteString(w, `{"status":"0","message":"x","data":"no list"}`)
		case "/array":
			_, _ = io.WriteString(w, `{"status":"0","message":"x","data":[{"key":"a"},{"key":"b"}]}`)
		default: // an array of small objects where data.pages is streamed
			_, _ = io.WriteString(w, `{"status":"0","data":[`)
			item := strings.Repeat(`{"key":"filler","title":"Filler page"},`, 1000)
			for range big / len(item) {
				if _, err := io.WriteString(w, item); err != nil {
					return
				}
			}
			_, _ = io.WriteString(w, `{}]}`)
		}
	})
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.MaxBody = 1 << 20 })
	pages := func() *Stream { return &Stream{Path: "data.pages", New: func() Fold { return &countFold{} }} }
	for path, want := range map[string]string{"/string": "no list", "/array": "a"} {
		ex := c.Do(context.Background(), Request{Path: path, Stream: pages()})
		if ex.Truncated || !ex.IsJSON() || ex.Get("data").String() == "" || (path == "/string" && ex.Get("data").String() != want) ||
			(path == "/array" && ex.Get("data.0.key").String() != want) {
			t.Errorf("%s: truncated %v json %v body %s; want the whole answer as its body", path, ex.Truncated, ex.IsJSON(), ex.Body())
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ex := c.Do(context.Background(), Request{Path: "/big", Stream: pages()})
	runtime.ReadMemStats(&after)
	if !ex.Truncated || ex.IsJSON() {
		t.Errorf("/big: truncated %v json %v; want cut at --max-body", ex.Truncated, ex.IsJSON())
	}
	if grown := int64(after.TotalAlloc) - int64(before.TotalAlloc); grown > 16<<20 {
		t.Errorf("reading 1 MB of a 20 MB answer of another shape allocated %d MB", grown>>20)
	}
}

// A streamed read whose answer is not of the shape streamed, and is
// announced longer than --max-body, keeps no more than its excerpt while
// it reads (read whole, it would be cut to that anyway): an answer of
// garbage to every streamed read costs each read a little, not --max-body.
func TestStreamOfAnAnswerAnnouncedTooLongKeepsItsStart(t *testing.T) {
	// data is an object: not the array streamed (a term's view where the
	// page list is asked for, say), 8 MB of it.
	body := `{"status":"0","message":"not a list","data":{"pages":[` +
		strings.TrimSuffix(strings.Repeat(`{"key":"filler","title":"Filler page"},`, 8<<20/40), ",") + `]}}`
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = io.WriteString(w, body)
	})
	c := newClient(t, rec.URL, func(cfg *Config) { cfg.MaxBody = 4 << 20 })
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ex := c.Do(context.Background(), Request{Path: "/api/pages", Stream: keysStream("keys")})
	runtime.ReadMemStats(&after)
	if !ex.Truncated || ex.IsJSON() || !strings.HasPrefix(ex.BodyExcerpt(), `{"status":"0","message":"not a list"`) {
		t.Fatalf("truncated %v, json %v, excerpt %.60q", ex.Truncated, ex.IsJSON(), ex.BodyExcerpt())
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 2<<20 {
		t.Errorf("reading it allocated %.1f MiB; want well under --max-body (4 MiB)", float64(allocated)/(1<<20))
	}
}
