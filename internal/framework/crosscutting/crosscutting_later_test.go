package crosscutting

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Jobs are queued while others wait for the queue to drain (Observe beside
// Tally): every wait returns once the jobs queued before it are judged, and
// queueing beside a wait is allowed (a WaitGroup's Add may not race its
// Wait with the count at zero).
func TestLaterQueueWaitBesideEnqueue(t *testing.T) {
	var q laterQueue
	var judged atomic.Int64
	run := func(laterJob) { judged.Add(1) }
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range 500 {
				q.enqueue(laterJob{}, run)
			}
		}()
		go func() {
			defer wg.Done()
			for range 200 {
				q.wait()
			}
		}()
	}
	wg.Wait()
	for range 100 {
		q.enqueue(laterJob{}, run)
	}
	q.wait()
	if got := judged.Load(); got != 8*500+100 {
		t.Errorf("judged %d jobs once the queue drained, want %d", got, 8*500+100)
	}
}
