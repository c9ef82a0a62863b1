package pagelist

import (
	"hash/maphash"
	"iter"
	"strings"
	"sync"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/spool"
)

// PageList is the page objects an answer of the page list (or a term's
// view) showed, in order, as a listing kept them: in memory when they are
// few, else on disk (the run's pageStore), so that what a run holds in
// memory does not grow with the site: a listing of 10,000 pages keeps 160
// KB of them in memory, not 7 MB. Read it with All (in order, one page at
// a time), At, Len, and the helpers below. Each page read from disk is a
// fresh value: keep what you need of it, cloned (strings.Clone), never the
// page, or a part of its text (which keeps all of it).
type PageList struct {
	mem   []gjson.Result
	store *spool.Spool
	refs  []spool.Ref // where each page is in store
}

// PageListOf is a list of pages held in memory (an answer read whole).
func PageListOf(pages []gjson.Result) PageList { return PageList{mem: pages} }

// spillAt is the size of its kept pages past which a listing keeps them on
// disk: a list page of a few pages stays in memory, a page of a walk
// (tens of pages) or a whole site does not.
const spillAt = 4 << 10

// pageStore is where a fixture's listings keep their pages once they are
// long: one temporary file for the run, made when first needed (none when
// it cannot be made: the pages then stay in memory, and noted says so).
type pageStore struct {
	once  sync.Once
	sp    *spool.Spool
	noted func(error)
}

func (s *pageStore) get() *spool.Spool {
	if s == nil {
		return nil
	}
	s.once.Do(func() {
		var err error
		if s.sp, err = spool.New(""); err != nil && s.noted != nil {
			s.noted(err)
		}
	})
	return s.sp
}

// close removes the store's file; no listing may read its pages after.
func (s *pageStore) close() {
	s.once.Do(func() {}) // none is made from here on
	if s.sp != nil {
		s.sp.Close()
	}
}

// Close lets go of what the run keeps outside memory (the file of long
// listings' pages; on Unix it is gone already, elsewhere it goes now):
// call it once the run and its reports are done.
func (r *Reader) Close() { r.store.close() }

// Len is the number of pages.
func (l PageList) Len() int {
	if l.store != nil {
		return len(l.refs)
	}
	return len(l.mem)
}

// At is page i.
func (l PageList) At(i int) gjson.Result {
	if l.store != nil {
		return parseOwned(l.store.Read(l.refs[i]))
	}
	return l.mem[i]
}

// All yields the pages in order, with their index.
func (l PageList) All() iter.Seq2[int, gjson.Result] {
	if l.store == nil {
		return func(yield func(int, gjson.Result) bool) {
			for i, p := range l.mem {
				if !yield(i, p) {
					return
				}
			}
		}
	}
	return func(yield func(int, gjson.Result) bool) {
		for i, r := range l.refs {
			if !yield(i, parseOwned(l.store.Read(r))) {
				return
			}
		}
	}
}

// Scan hands each page and its index, in order, to yield until it returns
// false. Unlike All it makes no garbage: a page read from disk is read into
// one buffer for all, so it is valid during the call only, and yield keeps
// nothing of it but copies (strings.Clone): not a member's text, nor a map
// key made of it (assigning to a map stores the key given, even over an
// equal one). The helpers below read with it, and so do the predicates
// given to them.
func (l PageList) Scan(yield func(i int, p gjson.Result) bool) {
	if l.store == nil {
		for i, p := range l.mem {
			if !yield(i, p) {
				return
			}
		}
		return
	}
	var buf []byte
	for i, r := range l.refs {
		buf = l.store.ReadInto(r, buf)
		if !yield(i, parseOwned(buf)) {
			return
		}
	}
}

// Keys are the pages' keys, in order.
func (l PageList) Keys() []string {
	return l.KeysWhere(func(gjson.Result) bool { return true })
}

// KeysWhere are the keys of the pages for which ok holds, in order. Each
// is a string of its own: a part of a page's text would keep the whole
// page in memory. Like every predicate given to a PageList helper, ok
// keeps nothing of the page it is given (Scan).
func (l PageList) KeysWhere(ok func(gjson.Result) bool) []string {
	var keys []string
	l.Scan(func(_ int, p gjson.Result) bool {
		if ok(p) {
			keys = append(keys, strings.Clone(p.Get("key").String()))
		}
		return true
	})
	return keys
}

// PageKey is page p's key.
func PageKey(p gjson.Result) string { return p.Get("key").String() }

// KeySet is a set of page keys held as 64-bit hashes: what a rule
// comparing the keys of whole listings keeps of them, 8 bytes a page
// instead of the key. Two keys of one hash (about one chance in 10^11 for
// two listings of 10,000 pages) would read as one: a listing that lacks
// one of them would not show it.
type KeySet struct {
	seed maphash.Seed
	m    map[uint64]int32
}

// NewKeySet is an empty set.
func NewKeySet() *KeySet { return &KeySet{seed: maphash.MakeSeed(), m: map[uint64]int32{}} }

// Add adds a key (counted: Count).
func (s *KeySet) Add(key string) { s.m[maphash.String(s.seed, key)]++ }

// Has reports whether key was added.
func (s *KeySet) Has(key string) bool { return s.m[maphash.String(s.seed, key)] > 0 }

// Count is how many times key was added.
func (s *KeySet) Count(key string) int { return int(s.m[maphash.String(s.seed, key)]) }

// KeySet is the set of the keys of the pages for which ok holds (every
// page when ok is nil).
func (l PageList) KeySet(ok func(gjson.Result) bool) *KeySet {
	s := NewKeySet()
	l.Scan(func(_ int, p gjson.Result) bool {
		if ok == nil || ok(p) {
			s.Add(PageKey(p))
		}
		return true
	})
	return s
}

// RepeatedKeys are the keys listed more than once, each once, in order.
func (l PageList) RepeatedKeys() []string {
	seen := l.KeySet(nil)
	shown := NewKeySet()
	return l.KeysWhere(func(p gjson.Result) bool {
		key := PageKey(p)
		if seen.Count(key) < 2 || shown.Has(key) {
			return false
		}
		shown.Add(key)
		return true
	})
}

// CountOfType is the number of pages of type ty.
func (l PageList) CountOfType(ty string) int {
	n := 0
	l.Scan(func(_ int, p gjson.Result) bool {
		if p.Get("type").String() == ty {
			n++
		}
		return true
	})
	return n
}

// First is the first page for which ok holds (a copy of its own).
func (l PageList) First(ok func(gjson.Result) bool) (gjson.Result, bool) {
	var first gjson.Result
	found := false
	l.Scan(func(_ int, p gjson.Result) bool {
		if ok(p) {
			first, found = gjson.Parse(strings.Clone(p.Raw)), true
		}
		return !found
	})
	return first, found
}

// Any reports whether ok holds for a page.
func (l PageList) Any(ok func(gjson.Result) bool) bool {
	_, found := l.First(ok)
	return found
}

// OfType is whether page p is of type ty.
func OfType(ty string) func(gjson.Result) bool {
	return func(p gjson.Result) bool { return p.Get("type").String() == ty }
}

// IsChildPage is whether page p's key is hierarchical (parent/child).
func IsChildPage(p gjson.Result) bool { return strings.Contains(p.Get("key").String(), "/") }

// JoinPages is the pages of lists, one after the other (the pages of a
// walk): on disk, without a copy of the pages already there, when any of
// the lists is (the others' pages join them there).
func JoinPages(lists ...PageList) PageList {
	var store *spool.Spool
	for _, l := range lists {
		if l.store != nil {
			store = l.store
			break
		}
	}
	out := PageList{store: store}
	for _, l := range lists {
		if store != nil && l.store == store {
			out.refs = append(out.refs, l.refs...)
			continue
		}
		for _, p := range l.All() {
			if store == nil {
				out.mem = append(out.mem, p)
				continue
			}
			r, err := store.Append(p.Raw)
			if err != nil { // the disk failed: all in memory
				var all []gjson.Result
				for _, l := range lists {
					all = append(all, l.Slice()...)
				}
				return PageListOf(all)
			}
			out.refs = append(out.refs, r)
		}
	}
	return out
}

// Slice is every page in memory: for a list known to be small (a page of
// a walk), or a test.
func (l PageList) Slice() []gjson.Result {
	if l.store == nil {
		return l.mem
	}
	out := make([]gjson.Result, 0, l.Len())
	for _, p := range l.All() {
		out = append(out, p)
	}
	return out
}

// parseOwned parses a page read back from disk without copying it: b is
// a fresh buffer nobody writes.
func parseOwned(b []byte) gjson.Result {
	if len(b) == 0 {
		return gjson.Result{}
	}
	return gjson.Parse(unsafe.String(unsafe.SliceData(b), len(b)))
}
