// Package spool keeps a list of records on disk instead of in memory: a
// run against a site of many pages keeps every page a listing showed (a
// slim copy of each, to compare with other views), and those copies, a few
// hundred bytes a page, would otherwise make the run's memory grow with
// the site. A spool holds, in memory, four bytes a record (where it
// starts); the records themselves are in a temporary file, written once,
// in order, and read back as often as a rule needs them, side by side.
//
// The file is removed as soon as it is made where the system allows it
// (Unix: it lives on while open, and nothing is left behind even if the
// process is killed), else when the spool is closed or collected.
package spool

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"os"
	"runtime"
	"sync"
)

// Spool is an append-only list of records kept in a temporary file. Append
// from one goroutine, then Seal; once sealed, it is read-only and safe for
// use by any number of goroutines.
type Spool struct {
	file   *file
	w      *bufio.Writer
	starts []uint32 // starts[i] is where record i begins; the last, where the next would
	sealed bool
	err    error // the first write error: the spool keeps nothing after it
}

// file is the open temporary file, closed (and removed, where that had to
// wait) when the spool is closed or garbage collected.
type file struct {
	once    sync.Once
	f       *os.File
	removed bool
}

func (f *file) close() {
	f.once.Do(func() {
		_ = f.f.Close()
		if !f.removed {
			_ = os.Remove(f.f.Name())
		}
	})
}

// maxBytes bounds what one spool holds: its offsets are 32 bits.
const maxBytes = math.MaxUint32

// New makes an empty spool in dir (os.TempDir() when ""). It fails only
// when no temporary file can be made there.
func New(dir string) (*Spool, error) {
	f, err := os.CreateTemp(dir, "conformance-spool-*")
	if err != nil {
		return nil, err
	}
	fl := &file{f: f, removed: os.Remove(f.Name()) == nil}
	s := &Spool{file: fl, w: bufio.NewWriterSize(f, 64<<10), starts: []uint32{0}}
	runtime.AddCleanup(s, func(fl *file) { fl.close() }, fl)
	return s, nil
}

// Append adds one record (a copy of b). A write that fails makes the spool
// fail (Err) and keep nothing more.
func (s *Spool) Append(b string) {
	if s.sealed {
		panic("spool: Append after Seal")
	}
	if s.err != nil {
		return
	}
	end := uint64(s.starts[len(s.starts)-1]) + uint64(len(b))
	if end > maxBytes {
		s.err = fmt.Errorf("more than %d bytes to keep", uint64(maxBytes))
		return
	}
	if _, err := s.w.WriteString(b); err != nil {
		s.err = err
		return
	}
	s.starts = append(s.starts, uint32(end))
}

// Seal ends the writing: what was appended can be read. It returns the
// first error of any write (and then the spool holds nothing readable).
func (s *Spool) Seal() error {
	if s.sealed {
		return s.err
	}
	s.sealed = true
	if s.err == nil {
		s.err = s.w.Flush()
	}
	s.w = nil
	if s.err != nil {
		s.starts = s.starts[:1]
		s.file.close()
	}
	s.starts = s.starts[:len(s.starts):len(s.starts)] // read-only from here
	return s.err
}

// Err is the first write error, if any.
func (s *Spool) Err() error { return s.err }

// Len is the number of records appended (0 after a write error, once
// sealed).
func (s *Spool) Len() int { return len(s.starts) - 1 }

// InMemory is about how many bytes of memory the spool holds.
func (s *Spool) InMemory() int64 { return int64(cap(s.starts))*4 + 64 }

// ErrRead wraps a failure to read records back.
var ErrRead = errors.New("spool: the records kept on disk could not be read back")

// At returns record i (a fresh copy). It panics when the file cannot be
// read: what it holds was written by this process, and a disk that fails
// under a run is no verdict on the target.
func (s *Spool) At(i int) []byte {
	s.mustBeSealed()
	b := make([]byte, s.starts[i+1]-s.starts[i])
	if _, err := s.file.f.ReadAt(b, int64(s.starts[i])); err != nil {
		panic(fmt.Errorf("%w: %v", ErrRead, err))
	}
	runtime.KeepAlive(s)
	return b
}

// All yields each record in order (each a fresh copy), reading the file
// sequentially through a small buffer. It panics as At does.
func (s *Spool) All() iter.Seq2[int, []byte] {
	s.mustBeSealed()
	return func(yield func(int, []byte) bool) {
		defer runtime.KeepAlive(s)
		n := s.Len()
		if n == 0 {
			return
		}
		r := bufio.NewReaderSize(io.NewSectionReader(s.file.f, 0, int64(s.starts[n])), 64<<10)
		for i := range n {
			b := make([]byte, s.starts[i+1]-s.starts[i])
			if _, err := io.ReadFull(r, b); err != nil {
				panic(fmt.Errorf("%w: %v", ErrRead, err))
			}
			if !yield(i, b) {
				return
			}
		}
	}
}

// Close closes and removes the file now: reading the spool afterwards
// panics. Spools nobody closes are closed once collected.
func (s *Spool) Close() { s.file.close() }

func (s *Spool) mustBeSealed() {
	if !s.sealed {
		panic("spool: read before Seal")
	}
}
