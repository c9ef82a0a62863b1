// Package spool keeps records on disk instead of in memory: a run against
// a site of many pages keeps every page its listings showed (a slim copy
// of each, to compare with other views), and those copies, a few hundred
// bytes a page, would otherwise make the run's memory grow with the site.
// What a record costs in memory is its Ref (16 bytes); the records
// themselves are in one temporary file, appended to by any goroutine and
// read back as often as a rule needs them.
//
// The file is removed as soon as it is made where the system allows it
// (Unix: it lives on while open, and nothing is left behind even if the
// process is killed), else when the spool is closed or collected.
package spool

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
)

// Spool is an append-only store of records in a temporary file, safe for
// use by any number of goroutines. Records are gathered in memory and
// written out a buffer at a time; those not written yet are read from
// memory, so that a write that fails (a full disk) loses no record already
// taken: the spool then takes no more.
type Spool struct {
	mu      sync.Mutex
	file    *file
	pending []byte // the records not written out yet, from offset flushed
	flushed uint64 // bytes in the file
	err     error  // the first write error: the spool takes nothing after it
}

// bufferSize is how much a spool gathers before it writes it out.
const bufferSize = 64 << 10

// Ref is where one record is: what a holder of records keeps in memory.
type Ref struct {
	off uint64
	n   uint32
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

// New makes an empty spool in dir (os.TempDir() when ""). It fails only
// when no temporary file can be made there.
func New(dir string) (*Spool, error) {
	f, err := os.CreateTemp(dir, "conformance-spool-*")
	if err != nil {
		return nil, err
	}
	fl := &file{f: f, removed: os.Remove(f.Name()) == nil}
	s := &Spool{file: fl, pending: make([]byte, 0, bufferSize)}
	runtime.AddCleanup(s, func(fl *file) { fl.close() }, fl)
	return s, nil
}

// maxRecord bounds one record: its length is 32 bits.
const maxRecord = math.MaxUint32

// Append adds one record (a copy of rec) and says where it is. After a
// failed write the spool takes nothing more: every later Append fails
// with the same error (the records taken before stay readable).
func (s *Spool) Append(rec string) (Ref, error) {
	if uint64(len(rec)) > maxRecord {
		return Ref{}, fmt.Errorf("spool: a record of %d bytes", len(rec))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return Ref{}, s.err
	}
	r := Ref{off: s.flushed + uint64(len(s.pending)), n: uint32(len(rec))}
	s.pending = append(s.pending, rec...)
	if len(s.pending) >= bufferSize {
		s.flushLocked()
	}
	return r, nil
}

// flushLocked writes the pending records out; on failure they stay in
// memory and the spool takes no more.
func (s *Spool) flushLocked() {
	if len(s.pending) == 0 || s.err != nil {
		return
	}
	if _, err := s.file.f.WriteAt(s.pending, int64(s.flushed)); err != nil {
		s.err = err
		return
	}
	s.flushed += uint64(len(s.pending))
	if cap(s.pending) > 4*bufferSize { // a record larger than the buffer passed through
		s.pending = make([]byte, 0, bufferSize)
	} else {
		s.pending = s.pending[:0]
	}
}

// ErrRead wraps a failure to read records back.
var ErrRead = errors.New("spool: the records kept on disk could not be read back")

// Read returns the record at r (a fresh copy). It panics when the file
// cannot be read: what it holds was written by this process, and a disk
// that fails under a run is no verdict on the target.
func (s *Spool) Read(r Ref) []byte { return s.ReadInto(r, nil) }

// ReadInto is Read into buf when it is large enough (else a fresh
// buffer): what a scan of many records reads them with, one buffer for
// all, so that a pass over a site's pages makes no garbage.
func (s *Spool) ReadInto(r Ref, buf []byte) []byte {
	b := buf[:0]
	if cap(b) < int(r.n) {
		b = make([]byte, r.n)
	}
	b = b[:r.n]
	if r.n == 0 {
		return b
	}
	s.mu.Lock()
	if r.off >= s.flushed { // not written out yet: a record is pending whole or written whole
		copy(b, s.pending[r.off-s.flushed:])
		s.mu.Unlock()
		return b
	}
	s.mu.Unlock()
	if _, err := s.file.f.ReadAt(b, int64(r.off)); err != nil {
		panic(fmt.Errorf("%w: %v", ErrRead, err))
	}
	runtime.KeepAlive(s)
	return b
}

// Size is the bytes appended so far: what the spool holds on disk.
func (s *Spool) Size() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.flushed + uint64(len(s.pending))
}

// Close closes and removes the file now: reading the spool afterwards
// panics, appending fails. Spools nobody closes are closed once collected.
func (s *Spool) Close() {
	s.mu.Lock()
	if s.err == nil {
		s.err = errors.New("spool: closed")
	}
	s.mu.Unlock()
	s.file.close()
}
