package runner

import (
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/report"
)

func TestTimedOut(t *testing.T) {
	spent := newClock(time.Now().Add(-time.Hour), 10*time.Second)
	live := newClock(time.Now(), time.Hour)
	timeout := &report.Run{SuiteErrors: []string{"Suite Timeout Elapsed"}}
	if !timedOut(timeout, spent) {
		t.Error("a spent budget and Ginkgo's suite timeout: not timed out")
	}
	if timedOut(&report.Run{}, spent) {
		t.Error("specs that ended in time (cleanup ran into the reserve) counted as timed out")
	}
	if timedOut(timeout, live) {
		t.Error("timed out with budget left")
	}
}

func TestClock(t *testing.T) {
	if k := newClock(time.Now(), 0); !k.hard.IsZero() || k.suiteTimeout() != 0 || k.expired() {
		t.Errorf("no --timeout: %+v", k)
	}
	start := time.Now()
	k := newClock(start, 10*time.Second)
	if !k.hard.Equal(start.Add(10 * time.Second)) {
		t.Errorf("hard deadline %v", k.hard)
	}
	if st := k.suiteTimeout(); st > 9*time.Second || st < 8*time.Second {
		t.Errorf("specs get %s of 10s, want about 9s (a tenth kept for cleanup)", st)
	}
	if g := k.gracePeriod(); g < time.Second || g > 10*time.Second {
		t.Errorf("grace period %s", g)
	}
	if k.expired() {
		t.Error("expired at the start")
	}
	if long := newClock(start, time.Hour); long.reserve != maxCleanupReserve {
		t.Errorf("reserve of a 1h run is %s, want the cap %s", long.reserve, maxCleanupReserve)
	}
	if past := newClock(start.Add(-time.Minute), 10*time.Second); !past.expired() || past.suiteTimeout() <= 0 {
		t.Errorf("a spent budget: expired %v, suite timeout %s (must stay positive for Ginkgo)", past.expired(), past.suiteTimeout())
	}
}
