package har

import (
	"bytes"
	"io"
	"sync"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/redact"
)

// Bounds of what goes into a log.
const (
	// DefaultBodyLimit bounds the text of each body in a log: all of any
	// answer worth reading in a browser's tools, and a log of thousands
	// of entries still opens.
	DefaultBodyLimit = 64 << 10
	// DefaultKeptBytes bounds the bodies a Recorder keeps over a whole
	// run; past it, large bodies get the client's 4 KiB excerpt.
	DefaultKeptBytes = 32 << 20
)

// clientKeeps is the size up to which the client keeps a body whole for
// the whole run (client.Exchange): a Recorder keeps only larger ones,
// which the client releases when their spec ends.
const clientKeeps = 4 << 10

// Limits bound what a Recorder keeps.
type Limits struct {
	Body  int // of each body, in bytes (0: DefaultBodyLimit)
	Total int // of all the bodies it keeps (0: DefaultKeptBytes)
}

// Recorder keeps, for a log written at the end of a run, up to
// Limits.Body of each response body larger than the client keeps (the
// client releases those when their spec ends), redacted, and no more than
// Limits.Total in all. Attach it before the client's first request.
type Recorder struct {
	c      *client.Client
	red    *redact.Redactor
	limits Limits

	mu    sync.Mutex
	kept  map[int]*keptBody // by exchange number
	total int
}

// keptBody is what a Recorder kept of one body.
type keptBody struct {
	text  []byte // redacted, at most Limits.Body bytes
	whole bool   // text is all the client held of the body
	held  int    // how many bytes the client held
	// overBudget: the body came after Limits.Total was spent (budget),
	// so nothing of it was kept.
	overBudget bool
	budget     int
}

// Record attaches a Recorder to c.
func Record(c *client.Client, l Limits) *Recorder {
	if l.Body <= 0 {
		l.Body = DefaultBodyLimit
	}
	if l.Total <= 0 {
		l.Total = DefaultKeptBytes
	}
	r := &Recorder{c: c, red: c.Redactor(), limits: l, kept: map[int]*keptBody{}}
	c.OnExchange(r.keep)
	return r
}

// keep is the client's observer: it sees each exchange sent (not the
// replays, whose answers it saw as the exchanges they repeat) as it is
// recorded, before the client can release its body.
func (r *Recorder) keep(ex *client.Exchange) {
	b := ex.Body()
	if len(b) <= clientKeeps {
		return
	}
	text, whole := clip(r.red, b, r.limits.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.total+len(text) > r.limits.Total {
		r.kept[ex.Seq] = &keptBody{overBudget: true, budget: r.limits.Total}
		return
	}
	r.total += len(text)
	r.kept[ex.Seq] = &keptBody{text: bytes.Clone(text), whole: whole, held: len(b)}
}

func (r *Recorder) lookup(seq int) *keptBody {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.kept[seq]
}

// Build makes the log of exs (see Build) with the bodies r kept.
func (r *Recorder) Build(exs []*client.Exchange, o Options) *HAR {
	return collect(o, entries(exs, r.red, r.limits.Body, r.lookup))
}

// Write writes the log of every exchange the client recorded so far,
// the read cache's replays included, with the bodies r kept, one entry at
// a time.
func (r *Recorder) Write(w io.Writer, o Options) error {
	return encode(w, head(o), entries(r.c.Since(0), r.red, r.limits.Body, r.lookup))
}
