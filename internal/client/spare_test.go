package client

import (
	"context"
	"testing"
	"time"
)

// TestSpareReadGoesBesideARound: a read in the spare room does not take an
// idle wire, nor a place while a round of reads comes back; it goes beside
// a round of reads as that round goes out, with room left in it.
func TestSpareReadGoesBesideARound(t *testing.T) {
	ctx := context.Background()
	w := newWire(8, false)
	needed := make(chan struct{})
	got := make(chan string, 2)
	go func() {
		w.acquire(ctx, claim{spare: true, needed: needed})
		got <- "spare"
	}()
	queued(t, w, 1, 0)
	select {
	case name := <-got:
		t.Fatalf("the %s read took an idle wire", name)
	case <-time.After(30 * time.Millisecond):
	}
	if !w.acquire(ctx, claim{}) {
		t.Fatal("an idle wire was not granted")
	}
	if name := granted(t, got); name != "spare" {
		t.Fatalf("granted %s, want the spare read beside the read going out", name)
	}
	w.release(claim{})
	w.release(claim{spare: true})
}

// TestSpareReadWaitsForTheNextRound: a round's answers coming back are no
// round to join: the spare read waits for the next one.
func TestSpareReadWaitsForTheNextRound(t *testing.T) {
	ctx := context.Background()
	w := newWire(8, false)
	if !w.acquire(ctx, claim{}) {
		t.Fatal("an idle wire was not granted")
	}
	time.Sleep(2 * spareJoin) // the round is on its way back
	got := make(chan string, 1)
	go func() {
		w.acquire(ctx, claim{spare: true, needed: make(chan struct{})})
		got <- "spare"
	}()
	queued(t, w, 1, 0)
	w.release(claim{})
	select {
	case name := <-got:
		t.Fatalf("the %s read went out as the round came back", name)
	case <-time.After(30 * time.Millisecond):
	}
	if !w.acquire(ctx, claim{}) {
		t.Fatal("the next round was not granted")
	}
	if name := granted(t, got); name != "spare" {
		t.Fatalf("granted %s, want the spare read with the next round", name)
	}
}

// TestSpareReadNeededGoesAsAnyRead: once the spec that judges it waits
// for it (needed closed), a spare read goes on an idle wire as any read.
func TestSpareReadNeededGoesAsAnyRead(t *testing.T) {
	w := newWire(8, false)
	needed := make(chan struct{})
	got := make(chan string, 1)
	go func() {
		w.acquire(context.Background(), claim{spare: true, needed: needed})
		got <- "spare"
	}()
	queued(t, w, 1, 0)
	close(needed)
	if name := granted(t, got); name != "spare" {
		t.Fatalf("granted %s", name)
	}
}
