package writes

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// made is a fixture value for the tests.
type made struct {
	trail
	n int
}

// TestFixtureMadeOnce: however many specs ask at once, the chain is made
// once and every one of them gets what it brought.
func TestFixtureMadeOnce(t *testing.T) {
	var runs atomic.Int32
	f := newFixture(func(context.Context) *made {
		time.Sleep(10 * time.Millisecond) // others ask while it is being made
		return &made{n: int(runs.Add(1))}
	})
	var wg sync.WaitGroup
	got := make([]*made, 8)
	for i := range got {
		wg.Go(func() { got[i] = f.get(context.Background()) })
	}
	wg.Wait()
	if runs.Load() != 1 {
		t.Errorf("made %d times, want once", runs.Load())
	}
	for i, v := range got {
		if v == nil || v.n != 1 {
			t.Errorf("caller %d got %v, want the one value made", i, v)
		}
	}
}

// TestFixtureWaitEndsWithContext: a spec waiting for a fixture another one
// is making stops waiting when its own context ends (an interrupt).
func TestFixtureWaitEndsWithContext(t *testing.T) {
	release := make(chan struct{})
	f := newFixture(func(context.Context) *made { <-release; return &made{n: 1} })
	defer close(release)
	go f.get(context.Background()) // the lead, making it
	for {                          // until the lead has started
		f.mu.Lock()
		started := f.started
		f.mu.Unlock()
		if started {
			break
		}
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	done := make(chan *made)
	go func() { done <- f.get(ctx) }()
	select {
	case v := <-done:
		if v != nil {
			t.Errorf("got %v after the context ended, want the zero value", v)
		}
	case <-time.After(time.Second):
		t.Fatal("still waiting a second after its context ended")
	}
}

// TestFixturePanicReachesEverySpec: a panic while the fixture is made is
// raised again in each spec that asks for it, saying where it came from.
func TestFixturePanicReachesEverySpec(t *testing.T) {
	f := newFixture(func(context.Context) *made { panic("no page") })
	for i := range 2 {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, "no page") || !strings.Contains(s, "raised while making the fixture") {
					t.Errorf("call %d: recovered %v, want the panic with where it was raised", i, r)
				}
			}()
			f.get(context.Background())
			t.Errorf("call %d: no panic", i)
		}()
	}
}
