package framework

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
)

// TestStartAndWait: a task runs beside the caller, its requests carry its
// own scope, and Wait gives its result.
func TestStartAndWait(t *testing.T) {
	url, _ := slowServer(t, 50*time.Millisecond)
	f := fixtureOn(t, url, Options{})
	f.Client.SetScope("the spec")
	k := Start(f, "upload", func(ctx context.Context) *client.Exchange {
		return f.Client.Do(ctx, client.Request{Path: "/upload"})
	})
	if !k.Finished().IsZero() {
		t.Fatal("Start waited for the task")
	}
	ex, ok := k.Wait(context.Background())
	if !ok || ex.Status != 200 || ex.Scope != "background: upload" {
		t.Fatalf("Wait: ok %v, %s, scope %q", ok, Outcome(ex), ex.Scope)
	}
	if k.Finished().IsZero() {
		t.Error("Finished is zero after Wait")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	slow := Start(f, "slow", func(ctx context.Context) int { time.Sleep(100 * time.Millisecond); return 1 })
	if _, ok := slow.Wait(ctx); ok {
		t.Error("Wait with an ended context waited for the task")
	}
	f.stopBackground()
}

// TestStopBackgroundEndsTasks: the sweep's stopBackground cancels the
// tasks' context and returns only once every task has returned.
func TestStopBackgroundEndsTasks(t *testing.T) {
	url, _ := slowServer(t, 0)
	f := fixtureOn(t, url, Options{})
	var returned bool
	k := Start(f, "stuck", func(ctx context.Context) error {
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond)
		returned = true
		return ctx.Err()
	})
	f.stopBackground()
	if !returned {
		t.Fatal("stopBackground returned before the task did")
	}
	if err, _ := k.Wait(context.Background()); !errors.Is(err, context.Canceled) {
		t.Errorf("task context: %v", err)
	}
}

// TestTaskPanicReachesWaiter: a task's panic is raised in the goroutine of
// the spec that waits, not in the task's (where it would kill the run).
func TestTaskPanicReachesWaiter(t *testing.T) {
	url, _ := slowServer(t, 0)
	f := fixtureOn(t, url, Options{})
	k := Start(f, "broken", func(context.Context) int { panic("boom") })
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the task's panic", r)
		}
	}()
	k.Wait(context.Background())
	t.Error("Wait returned")
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
