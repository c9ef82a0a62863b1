package spool

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func record(i int) string { return strings.Repeat(fmt.Sprintf("record %d;", i), i%7) }

// Records appended from several goroutines read back whole, while others
// are still being appended, and again later, side by side.
func TestRecordsReadBack(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const writers, each = 4, 2000
	refs := make([][]Ref, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				n := w*each + i
				r, err := s.Append(record(n))
				if err != nil {
					t.Error(err)
					return
				}
				refs[w] = append(refs[w], r)
				if got := string(s.Read(r)); got != record(n) { // read at once: still in the writer's buffer
					t.Errorf("record %d read back at once as %q", n, got)
					return
				}
			}
		})
	}
	wg.Wait()
	for w := range writers {
		wg.Go(func() {
			for i, r := range refs[w] {
				if got := string(s.Read(r)); got != record(w*each+i) {
					t.Errorf("record %d: %q", w*each+i, got)
					return
				}
			}
		})
	}
	wg.Wait()
}

// The records are on disk, not in memory: 20 MB of records hold the
// 16-byte refs and a buffer.
func TestRecordsAreNotInMemory(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := strings.Repeat("x", 2000)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	refs := make([]Ref, 0, 10_000)
	for range 10_000 {
		r, err := s.Append(rec)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, r)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 1<<20 {
		t.Fatalf("20 MB of records took %d bytes of heap; want under 1 MiB", grew)
	}
	if s.Size() != 20_000_000 || string(s.Read(refs[9999])) != rec {
		t.Fatalf("size %d", s.Size())
	}
}

// Nothing is left in the directory: the file is removed at once where the
// system allows, else when the spool is closed or collected.
func TestNoFileLeftBehind(t *testing.T) {
	dir := t.TempDir()
	s, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = s.Append("a")
	s.Close()
	func() {
		s2, err := New(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = s2.Append("b")
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		left, _ := filepath.Glob(filepath.Join(dir, "*"))
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("left behind: %v", left)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestNoDirectoryIsAnError(t *testing.T) {
	if _, err := New(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("New in a missing directory: no error")
	}
}

// A write that fails (a full disk) loses no record already taken, and
// makes every later Append fail; reading a record whose file is gone
// panics with ErrRead.
func TestFailuresAreSaid(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := s.Append("kept")
	_ = s.file.f.Close() // the disk goes away under the run
	big, _ := s.Append(strings.Repeat("y", 2*bufferSize))
	if _, err := s.Append("z"); err == nil {
		t.Fatal("Append after a failed write: no error")
	}
	if got := string(s.Read(kept)); got != "kept" {
		t.Errorf("a record taken before the failed write reads %q", got)
	}
	if got := s.Read(big); len(got) != 2*bufferSize {
		t.Errorf("the record whose write failed reads %d bytes", len(got))
	}

	s2, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	written, _ := s2.Append(strings.Repeat("w", bufferSize)) // written out at once
	s2.Close()
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, ErrRead) {
			t.Fatalf("Read on a closed file: recovered %v, want ErrRead", err)
		}
	}()
	s2.Read(written)
	t.Fatal("Read on a closed file did not panic")
}
