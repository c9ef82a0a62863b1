package client

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// DefaultReadCacheBytes bounds the bodies the read cache keeps
// (Config.ReadCacheBytes): far more than the listings a run repeats, far
// less than would hurt memory.
const DefaultReadCacheBytes = 32 << 20

// readCache answers a read repeated within a run with the answer the
// target gave the first time (Config.ReadCache), as long as nothing that
// could change the target was sent since. It is deliberately conservative:
//
//   - only GET requests without a body are answered or kept, keyed by
//     method, URL (query and tokens included) and every request header (the
//     tokens in header mode, and any header a probe sets);
//   - only complete answers with a status are kept: no transport error, no
//     cut or truncated body, no 429 or 503 (a busy server's answer says
//     nothing about the next one);
//   - any other request that is sent, refused or not, successful or not,
//     empties the cache when it starts and again when it ends: a write the
//     target refused may still have had an effect, which is exactly what
//     AUTH-REFUSED-WRITE-NO-EFFECT looks for; only HEAD, OPTIONS and a GET
//     with a body, safe by definition (RFC 9110), leave it as it is;
//   - a read that overlapped any such request is not kept, since its answer
//     may predate the write's effect (batches: Client.DoAll).
//
// It keeps the body of each kept answer, within a total bound (the oldest
// entries make room for new ones), and its replays share that body: bodies
// are never written once read (Exchange.Body), so one copy serves the
// answer, the cache and every replay, whatever the exchanges' releases do.
type readCache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
	order   []string // keys, oldest first
	bytes   int64    // sum of the kept bodies
	limit   int64
	// generation changes whenever the cache is emptied by a write; writing
	// counts the writes in flight. A read is kept only if neither changed
	// while it was on its way.
	generation uint64
	writing    int
	// claims are the cacheable reads on their way, by key: an identical
	// read waits for the first one's answer instead of going out beside it
	// (prepared fixtures running side by side read the same listing).
	claims map[string]chan struct{}
}

// cacheEntry is one kept answer: the exchange that got it, and its body,
// which outlives the exchange's release (Exchange.BodyReleased).
type cacheEntry struct {
	original *Exchange
	body     []byte
	// value is what the fold of a streamed read kept (Exchange.Folded),
	// size what it weighs.
	value any
	size  int64
}

// readTicket is what a request that may touch the cache carries while it
// is on its way: what it is and the cache generation it started in.
type readTicket struct {
	key        string // non-empty for a cacheable read
	write      bool   // a request that empties the cache
	generation uint64
	clean      bool // no write was in flight when it started
}

// cacheKey is the key of a request the cache may answer, or "" when it may
// not: anything but a GET without a body.
func cacheKey(b *built) string {
	if b.req.Method != http.MethodGet || len(b.body) > 0 {
		return ""
	}
	var sb strings.Builder
	sb.WriteString(b.req.Method + " " + b.req.URL.String())
	for _, name := range slices.Sorted(maps.Keys(b.req.Header)) {
		for _, v := range b.req.Header[name] {
			sb.WriteString("\n" + name + ": " + v)
		}
	}
	return sb.String()
}

// lookupOrClaim returns the kept answer to key; else, when an identical
// read is on its way, a channel closed once it has settled (then look
// again); else nil and nil, and the caller's read is the one on its way
// until unclaim.
func (rc *readCache) lookupOrClaim(key string) (*cacheEntry, <-chan struct{}) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if e := rc.entries[key]; e != nil {
		return e, nil
	}
	if wait, ok := rc.claims[key]; ok {
		return nil, wait
	}
	if rc.claims == nil {
		rc.claims = map[string]chan struct{}{}
	}
	rc.claims[key] = make(chan struct{})
	return nil, nil
}

// unclaim ends the claim of a read on its way (lookupOrClaim).
func (rc *readCache) unclaim(key string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if wait, ok := rc.claims[key]; ok {
		close(wait)
		delete(rc.claims, key)
	}
}

// begin is called before a request is sent. A write empties the cache
// and counts as in flight until end.
func (rc *readCache) begin(key string) readTicket {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if key == "" {
		rc.clearLocked()
		rc.writing++
		return readTicket{write: true}
	}
	return readTicket{key: key, generation: rc.generation, clean: rc.writing == 0}
}

// end is called once the request's answer stands: a write empties the
// cache again (its effect may have landed at any moment of its way); a
// read's answer is kept when it is complete and no write overlapped it.
func (rc *readCache) end(t readTicket, ex *Exchange) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if t.write {
		rc.writing--
		rc.clearLocked()
		return
	}
	if !t.clean || t.generation != rc.generation || !keepable(ex) {
		return
	}
	body := ex.Body()
	size := int64(len(body))
	var value any
	if ex.Streamed != nil {
		if value = ex.Folded(); value == nil {
			return
		}
		size += ex.foldedSize
	}
	if size > rc.limit {
		return
	}
	if old, ok := rc.entries[t.key]; ok {
		rc.bytes -= old.size
		rc.order = slices.DeleteFunc(rc.order, func(k string) bool { return k == t.key })
	}
	for rc.bytes+size > rc.limit && len(rc.order) > 0 {
		oldest := rc.order[0]
		rc.bytes -= rc.entries[oldest].size
		delete(rc.entries, oldest)
		rc.order = rc.order[1:]
	}
	if rc.entries == nil {
		rc.entries = map[string]*cacheEntry{}
	}
	rc.entries[t.key] = &cacheEntry{original: ex, body: body, value: value, size: size}
	rc.order = append(rc.order, t.key)
	rc.bytes += size
}

// keepable: a complete answer a later identical read may be given.
func keepable(ex *Exchange) bool {
	// A stream its fold stopped is what the same answer would give again.
	stopped := ex.Streamed != nil && ex.Streamed.Full
	return ex.Err == nil && ex.Sent && ex.Status != 0 && (!ex.Truncated || stopped) && !ex.BodyCut &&
		ex.Status != http.StatusTooManyRequests && ex.Status != http.StatusServiceUnavailable
}

func (rc *readCache) clearLocked() {
	rc.entries, rc.order, rc.bytes = nil, nil, 0
	rc.generation++
}

// replay is the exchange of a read answered from the cache: the request as
// built now (p.ex), with the kept answer. It is recorded (Exchange.Replayed)
// but sent to no one and counted as no request.
func replay(p *pending, e *cacheEntry) {
	ex, o := p.ex, e.original
	ex.Replayed, ex.replayOf = true, o
	ex.Sent, ex.FinalURL, ex.Redirect = o.Sent, o.FinalURL, o.Redirect
	ex.Status, ex.Header = o.Status, o.Header.Clone()
	// A stream its fold stopped is kept truncated: the replay says so too.
	ex.Truncated, ex.BodyCut = o.Truncated, o.BodyCut
	ex.Duration, ex.OnWire, ex.OffWire = o.Duration, o.OnWire, o.OffWire
	ex.setBody(e.body, len(e.body)) // shared: bodies are never written
	if o.Streamed != nil {
		// A fold's value is read, never changed: shared as it is.
		o.mu.Lock()
		valid := o.valid
		o.mu.Unlock()
		ex.mu.Lock()
		ex.Streamed, ex.folded, ex.bodySize, ex.head = o.Streamed, e.value, o.BodySize(), o.head
		ex.valid = valid
		ex.mu.Unlock()
	}
}
