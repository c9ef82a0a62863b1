package testkit

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/conformance-suite/conformance/internal/reference"
)

// WireWatch is a handler wrapper that watches, at the server, which
// requests were in flight together: what the host's flat-file storage
// cannot bear is a write (anything but GET, HEAD, OPTIONS) in flight beside
// any other request. A request is in flight from when its handler starts
// until it returns.
type WireWatch struct {
	mu       sync.Mutex
	start    time.Time
	onWire   map[int]string // in flight now: id -> "METHOD path"
	writing  int            // writes in flight now
	next     int
	requests int
	writes   int
	overlaps []string // one line per write that met another request
	peak     int
	timeline []string // with KeepTimeline: every start and end
	// KeepTimeline keeps every start and end, for a test's failure message.
	KeepTimeline bool
}

// NewWireWatch returns an empty watch.
func NewWireWatch() *WireWatch {
	return &WireWatch{start: time.Now(), onWire: map[int]string{}}
}

// Wrap returns h watched by w.
func (w *WireWatch) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		id := w.begin(r.Method, r.URL.Path+queryWithoutTokens(r))
		defer w.end(id, r.Method)
		h.ServeHTTP(rw, r)
	})
}

// queryWithoutTokens is r's query, for the timeline, without the tokens.
func queryWithoutTokens(r *http.Request) string {
	q := r.URL.Query()
	q.Del("token")
	q.Del("authentication")
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

func (w *WireWatch) begin(method, path string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	id := w.next
	w.next++
	w.requests++
	label := method + " " + path
	write := reference.IsWrite(method)
	if write {
		w.writes++
	}
	if (write && len(w.onWire) > 0) || w.writing > 0 {
		var others []string
		for _, l := range w.onWire {
			others = append(others, l)
		}
		w.overlaps = append(w.overlaps, fmt.Sprintf("%s began while in flight: %s", label, strings.Join(others, "; ")))
	}
	if write {
		w.writing++
	}
	w.onWire[id] = label
	w.peak = max(w.peak, len(w.onWire))
	if w.KeepTimeline {
		w.timeline = append(w.timeline, fmt.Sprintf("%8.3fs + %s", time.Since(w.start).Seconds(), label))
	}
	return id
}

func (w *WireWatch) end(id int, method string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.KeepTimeline {
		w.timeline = append(w.timeline, fmt.Sprintf("%8.3fs - %s", time.Since(w.start).Seconds(), w.onWire[id]))
	}
	delete(w.onWire, id)
	if reference.IsWrite(method) {
		w.writing--
	}
}

// WireSeen is what a WireWatch saw.
type WireSeen struct {
	Requests, Writes, Peak int
	// Overlaps: one line per request that began while a write was in
	// flight, or write that began while any request was.
	Overlaps []string
	Timeline []string
}

// Seen reports what w saw so far.
func (w *WireWatch) Seen() WireSeen {
	w.mu.Lock()
	defer w.mu.Unlock()
	return WireSeen{Requests: w.requests, Writes: w.writes, Peak: w.peak,
		Overlaps: append([]string(nil), w.overlaps...), Timeline: append([]string(nil), w.timeline...)}
}
