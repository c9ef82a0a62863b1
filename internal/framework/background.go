package framework

import (
	"context"
	"sync"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
)

// This file runs slow work beside the specs: a fixture that must wait
// (FILES-NEWEST-FIRST needs two uploads more than a second apart) starts
// early and is waited for by the spec that judges it, so the run does
// something useful in the meantime.

// backgroundWork is the fixture's tasks: their context, which ends when
// the specs end (before the sweep, so no background request lands after
// it), and the group the sweep waits for.
type backgroundWork struct {
	mu     sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Task is work started with Start: Wait gives its result.
type Task[T any] struct {
	done     chan struct{}
	value    T
	panicked any // a panic of fn, raised again by Wait
	finished time.Time
}

// Start runs fn in a goroutine of its own and returns at once. fn's
// requests are recorded under the scope "background: <name>" (the spec
// that judges them names them with Judged). fn's context ends when the
// run's specs end, before the final sweep; it is not the calling spec's
// context, which ends with that spec.
//
// fn must not fail a spec (no Expect, Fail, NotChecked: a goroutine has no
// spec): it returns what it got, and the spec that calls Wait judges it.
// Anything fn creates goes into the Ledger before the request that creates
// it is sent, so an interrupted run still reports or removes it.
func Start[T any](t *Fixture, name string, fn func(ctx context.Context) T) *Task[T] {
	ctx := client.WithScope(t.backgroundContext(), "background: "+name)
	k := &Task[T]{done: make(chan struct{})}
	t.background.wg.Go(func() {
		defer close(k.done)
		defer func() {
			k.panicked = recover()
			k.finished = time.Now()
		}()
		k.value = fn(ctx)
	})
	return k
}

// Wait returns the task's result once it is done, or ok false when ctx
// ends first. A panic of the task is raised again here, in the waiting
// spec's goroutine, where Ginkgo reports it against that spec.
func (k *Task[T]) Wait(ctx context.Context) (value T, ok bool) {
	select {
	case <-k.done:
	case <-ctx.Done():
		return value, false
	}
	if k.panicked != nil {
		panic(k.panicked)
	}
	return k.value, true
}

// Finished is when the task ended; zero while it runs.
func (k *Task[T]) Finished() time.Time {
	select {
	case <-k.done:
		return k.finished
	default:
		return time.Time{}
	}
}

// SleepUntil waits until at, or less if ctx ends first; it reports whether
// at was reached. A gap the spec needs (FILES-NEWEST-FIRST's second since
// the first upload) costs only what is left of it.
func SleepUntil(ctx context.Context, at time.Time) bool {
	if time.Until(at) <= 0 {
		return ctx.Err() == nil
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(time.Until(at)):
		return true
	}
}

// backgroundContext is the context of background tasks, made at the first
// Start.
func (t *Fixture) backgroundContext() context.Context {
	b := &t.background
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ctx == nil {
		b.ctx, b.cancel = context.WithCancel(context.Background())
	}
	return b.ctx
}

// stopBackground ends the tasks' context and waits until every task has
// returned: after it, no background request is on its way. Install's
// AfterSuite calls it before the sweep.
func (t *Fixture) stopBackground() {
	b := &t.background
	b.mu.Lock()
	if b.cancel != nil {
		b.cancel()
	}
	b.mu.Unlock()
	b.wg.Wait()
}
