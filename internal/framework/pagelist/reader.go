// Package pagelist reads the page list and the term views as streams, as a
// run needs them on any size of site: each page object goes through the
// run's page checks as it arrives and is kept slim (or brief, or on disk
// once a listing is long), so that what a run holds does not grow with the
// site. PageList is the pages kept, Listing a whole listing with what the
// checks found, Reader the requests that make them.
package pagelist

import (
	"context"

	"github.com/conformance-suite/conformance/internal/client"
)

// Reader sends a run's listing requests and keeps what they share: the
// page checks every whole page object goes through (Check) and the
// temporary file long listings keep their pages in (Close removes it).
type Reader struct {
	c           *client.Client
	concurrency int
	checks      pageCheckList
	store       pageStore
	contentOf   func(key string) bool // see DigestContentOf
}

// DigestContentOf makes the pages of the term views read as streams
// (StreamedRequest) whose key keep says keep a digest of their content
// (DigestMember): the run's own pages, whose every view PAGE-VIEWS-AGREE
// compares after their writes, and not the site's others, whose digests
// would cost memory in proportion. Call it before the first read.
func (r *Reader) DigestContentOf(keep func(key string) bool) { r.contentOf = keep }

// NewReader reads listings through c, at most concurrency side by side;
// noted hears why long listings had to stay in memory (no temporary file
// could be made).
func NewReader(c *client.Client, concurrency int, noted func(error)) *Reader {
	return &Reader{c: c, concurrency: concurrency, store: pageStore{noted: noted}}
}

// all sends reqs side by side, as the fixture's All does.
func (r *Reader) all(ctx context.Context, reqs ...client.Request) []*client.Exchange {
	return r.c.DoAll(ctx, reqs, r.concurrency)
}
