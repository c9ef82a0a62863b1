package reference

import (
	"net/http"
	"time"
)

// What a request works on, and where it lives between requests: in memory
// under the server's mutex (the default), or in index files read and
// rewritten like the host's (Options.StorageDir; see disk.go).

// indexes is what the host keeps in its JSON index files: the pages (every
// field, the hidden custom fields included), the tags, the categories and
// the settings. seq is the last creation order given; the file mode
// derives it from the pages it reads.
type indexes struct {
	pages    map[string]*page
	tags     map[string]*term
	cats     map[string]*term
	settings dict
	seq      int64
}

func newIndexes() *indexes {
	return &indexes{pages: map[string]*page{}, tags: map[string]*term{}, cats: map[string]*term{}}
}

// uploads is what the host keeps as files of their own, one file per
// upload in the page's folder: the files of every page (by page uuid), the
// stored image paths, and the upload order. Each upload writes its own
// file once, so uploads do not share the indexes' lost-update hazard; both
// modes keep them in memory, under the server's mutex.
type uploads struct {
	files     map[string][]*fileRec
	images    map[string]bool
	uploadSeq int64
}

// view is what one request works on: the server (options, mutants, the
// users) and the indexes and uploads it reads. Handlers are methods of
// view, named s like the Server's methods, so that s.pages is the
// request's pages whichever mode holds them.
type view struct {
	*Server
	*indexes
	*uploads
}

// nextSeq returns the next creation order.
func (s *view) nextSeq() int64 {
	s.seq++
	return s.seq
}

// nextUploadSeq returns the next upload order.
func (s *view) nextUploadSeq() int64 {
	s.uploadSeq++
	return s.uploadSeq
}

// IsWrite reports whether a request of this method may change what the
// server stores: anything but GET, HEAD and OPTIONS (the methods
// client.Alone keeps alone on the wire; the client's tests import
// testkit, which imports this package, so neither can import the other).
func IsWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// transact runs fn, the handling of one request routed to rt, on the state
// it reads. In memory the whole request holds the mutex, so requests never
// see each other half done. In files, the request reads every index at its
// start without a lock; a write request then takes its work time, and
// fn's changes are saved by rewriting the index files it touched (see
// disk.save). The mutex guards only the uploads and the volatile counters
// while fn runs: nothing makes the read, the work and the rewrite one step.
func (s *Server) transact(r *http.Request, rt route, fn func(v *view) response) response {
	if s.disk == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		return fn(&view{s, s.mem, s.up})
	}
	idx := s.disk.load()
	write := IsWrite(rt.method)
	var before encodedIndexes
	if write {
		before = idx.encode()
		pause(s.workTime)
	}
	if s.afterRead != nil && r != nil {
		s.afterRead(r)
	}
	resp := s.locked(func() response { return fn(&view{s, idx, s.up}) })
	if !write {
		return resp
	}
	after := idx.encode()
	ok := resp.kind == kindSuccess && resp.code < http.StatusMultipleChoices
	content := after.contentDiffers(before) || (ok && rt.endpoint == "pages")
	settings := after.settingsDiffer(before) || (ok && rt.endpoint == "settings")
	if err := s.disk.save(after, content, settings); err != nil {
		return failure(http.StatusInternalServerError, "Internal server error.")
	}
	return resp
}

// locked runs fn holding the mutex.
func (s *Server) locked(fn func() response) response {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn()
}

// pause sleeps for d, when d is positive.
func pause(d time.Duration) {
	if d > 0 {
		time.Sleep(d)
	}
}
