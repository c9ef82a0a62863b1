package framework

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestStopBackgroundEndsTasks: the sweep's stopBackground cancels the
// background context and returns only once all work beside the specs
// (a group's prepares) has returned.
func TestStopBackgroundEndsTasks(t *testing.T) {
	url, _ := slowServer(t, 0)
	f := fixtureOn(t, url, Options{})
	var returned bool
	var err error
	ctx := f.backgroundContext()
	f.background.wg.Go(func() {
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond)
		err = ctx.Err()
		returned = true
	})
	f.stopBackground()
	if !returned {
		t.Fatal("stopBackground returned before the work did")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("background context: %v", err)
	}
}

func TestSleepUntil(t *testing.T) {
	start := time.Now()
	if !SleepUntil(context.Background(), start.Add(30*time.Millisecond)) || time.Since(start) < 30*time.Millisecond {
		t.Error("SleepUntil returned early")
	}
	if !SleepUntil(context.Background(), start) {
		t.Error("a past time is reached at once")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if SleepUntil(ctx, time.Now().Add(time.Hour)) {
		t.Error("SleepUntil outlived its context")
	}
}

// TestStartAfterReads: a group marked StartAfterReads starts nothing while
// specs of the reads phase begin, starts its selected, ungated members at
// the first spec past it (once), and leaves a gated member alone. Of two
// groups of the same specs (Ginkgo builds the tree for the preview, then
// again for the run) only the later one starts.
func TestStartAfterReads(t *testing.T) {
	url, _ := slowServer(t, 0)
	f := fixtureOn(t, url, Options{Concurrency: 2, ReadOnly: true})
	ran := make(chan string, 8)
	build := func(tree string) (read, write *prepared) {
		g := f.NewGroup()
		member := func(name string, def specDef) *prepared {
			m := &prepared{key: name, def: def, done: make(chan struct{}),
				run: func(context.Context) any { ran <- tree + " " + name; return name }}
			g.members = append(g.members, m)
			return m
		}
		read = member("read", specDef{})
		write = member("write", specDef{writes: true}) // gated: a read-only run
		g.StartAfterReads()
		return read, write
	}
	previewRead, _ := build("preview")
	read, write := build("run")

	f.specBegins(int(PhaseReads))
	f.specBegins(int(PhaseReads) + 1)
	select {
	case name := <-ran:
		t.Fatalf("%s was prepared while the reads ran", name)
	case <-time.After(50 * time.Millisecond):
	}
	f.specBegins(int(PhaseProbes))
	select {
	case <-read.done:
	case <-time.After(time.Second):
		t.Fatal("the group did not start at the first spec past the reads")
	}
	f.specBegins(int(PhaseWrites))
	f.stopBackground()
	if !read.started || read.value != "read" || write.started || previewRead.started {
		t.Errorf("started: read %v (value %v), write %v, the preview's read %v; want the run's read only",
			read.started, read.value, write.started, previewRead.started)
	}
	if n := len(ran); n != 1 {
		t.Errorf("%d prepares ran, want 1", n)
	}
}
