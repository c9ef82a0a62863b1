package framework

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"
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

// TestGroupsStartByPhase: the groups of a phase start together at the
// first spec of their phase (those of the writes already at the first spec
// of the probes), each once, with only its selected, ungated members; a
// group of a later phase starts nothing while an earlier phase runs. Of
// two groups of the same specs (Ginkgo builds the tree for the preview,
// then again for the run) only the later one starts. A group of
// PhaseReadsSetUp starts only at its own first spec.
func TestGroupsStartByPhase(t *testing.T) {
	url, _ := slowServer(t, 0)
	f := fixtureOn(t, url, Options{Concurrency: 2, ReadOnly: true})
	ran := make(chan string, 16)
	build := func(tree string, phase ginkgo.SpecPriority) (read, write *prepared) {
		g := f.NewGroup(phase)
		member := func(name string, def specDef) *prepared {
			m := &prepared{key: fmt.Sprint(phase, name), def: def, done: make(chan struct{}),
				run: func(context.Context) any { ran <- fmt.Sprint(tree, " ", phase, " ", name); return name }}
			g.members = append(g.members, m)
			return m
		}
		read = member("read", specDef{})
		write = member("write", specDef{writes: true}) // gated: a read-only run
		return read, write
	}
	previewRead, _ := build("preview", PhaseWrites)
	setUp, _ := build("run", PhaseReadsSetUp) // starts at its own first spec only
	f.specBegins(int(PhaseReadsSetUp))
	reads, _ := build("run", PhaseReads)
	probes, _ := build("run", PhaseProbes)
	read, write := build("run", PhaseWrites)
	settings, _ := build("run", PhaseSettingsWrites)

	wait := func(m *prepared, what string) {
		t.Helper()
		select {
		case <-m.done:
		case <-time.After(time.Second):
			t.Fatalf("%s did not start", what)
		}
	}
	f.specBegins(int(PhaseReads))
	wait(reads, "the reads group, at the first read spec")
	f.specBegins(int(PhaseReads))
	select {
	case name := <-ran:
		if name != "run 400 read" {
			t.Fatalf("%s was prepared while the reads ran", name)
		}
	case <-time.After(50 * time.Millisecond):
		t.Fatal("the reads group's prepare did not run")
	}
	select {
	case name := <-ran:
		t.Fatalf("%s was prepared while the reads ran", name)
	case <-time.After(50 * time.Millisecond):
	}
	f.specBegins(int(PhaseProbes))
	wait(probes, "the probes group, at the first spec of the probes")
	wait(read, "the writes group, at the first spec of the probes")
	f.specBegins(int(PhaseWrites))
	if settings.started {
		t.Error("the settings group started before its phase")
	}
	f.specBegins(int(PhaseSettingsWrites))
	wait(settings, "the settings group, at the first spec of its phase")
	f.stopBackground()
	if setUp.started {
		t.Error("a group of PhaseReadsSetUp started before its own first spec (its BeforeAll makes what it reads)")
	}
	if !read.started || read.value != "read" || write.started || previewRead.started {
		t.Errorf("started: read %v (value %v), write %v, the preview's read %v; want the run's read only",
			read.started, read.value, write.started, previewRead.started)
	}
	if n := len(ran); n != 3 { // probes, writes, settings (the reads' one was taken)
		t.Errorf("%d more prepares ran, want 3", n)
	}
}
