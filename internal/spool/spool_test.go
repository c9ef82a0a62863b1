package spool

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func records(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = bytes.Repeat([]byte(fmt.Sprintf("record %d;", i)), i%7)
	}
	return out
}

func TestRecordsReadBackInOrderAndAtRandom(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := records(5000)
	for _, r := range want {
		s.Append(string(r))
	}
	if err := s.Seal(); err != nil {
		t.Fatal(err)
	}
	if s.Len() != len(want) {
		t.Fatalf("Len %d, want %d", s.Len(), len(want))
	}
	seen := 0
	for i, b := range s.All() {
		if i != seen || !bytes.Equal(b, want[i]) {
			t.Fatalf("record %d (the %dth yielded): %q, want %q", i, seen, b, want[i])
		}
		seen++
	}
	if seen != len(want) {
		t.Fatalf("All yielded %d records, want %d", seen, len(want))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < len(want); i += 97 {
				if got := s.At(i); !bytes.Equal(got, want[i]) {
					t.Errorf("At(%d) = %q, want %q", i, got, want[i])
				}
			}
		})
	}
	wg.Wait()
	for i := range s.All() {
		if i == 3 {
			break // stopping early is allowed
		}
	}
}

// The records are on disk, not in memory: a spool of 20 MB of records
// holds a few bytes a record.
func TestMemoryIsFourBytesARecord(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	record := strings.Repeat("x", 2000)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10_000 {
		s.Append(record)
	}
	if err := s.Seal(); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 1<<20 {
		t.Fatalf("20 MB of records took %d bytes of heap; want under 1 MiB", grew)
	}
	if s.InMemory() > 100_000 {
		t.Fatalf("InMemory %d for 10,000 records", s.InMemory())
	}
	runtime.KeepAlive(s)
}

// Nothing is left in the directory: the file is removed at once where the
// system allows, else when the spool is closed or collected.
func TestNoFileLeftBehind(t *testing.T) {
	dir := t.TempDir()
	s, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Append("a")
	_ = s.Seal()
	s.Close()
	func() {
		s2, err := New(dir)
		if err != nil {
			t.Fatal(err)
		}
		s2.Append("b")
		_ = s2.Seal()
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

// A write that fails leaves the spool empty and says why; reading a
// closed spool panics with ErrRead.
func TestFailuresAreSaid(t *testing.T) {
	s, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s.Append("kept")
	_ = s.file.f.Close() // the disk goes away under the run
	s.Append(strings.Repeat("y", 128<<10))
	if err := s.Seal(); err == nil || s.Len() != 0 {
		t.Fatalf("Seal after a failed write: %v, Len %d", err, s.Len())
	}

	s2, err := New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s2.Append("kept")
	_ = s2.Seal()
	s2.Close()
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, ErrRead) {
			t.Fatalf("At on a closed spool: recovered %v, want ErrRead", err)
		}
	}()
	s2.At(0)
	t.Fatal("At on a closed spool did not panic")
}
