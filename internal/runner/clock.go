package runner

import (
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/report"
)

// This file holds the run's clock: a global --timeout always wins, and
// part of it is kept for cleanup.

// clock is the time budget of one run.
type clock struct {
	timeout time.Duration
	// hard is when every request is cut and no new one is sent (zero: no
	// limit).
	hard time.Time
	// reserve is the end of the budget kept for cleanup, which still gets
	// to try to delete what the specs created.
	reserve time.Duration
}

// maxCleanupReserve caps the part of --timeout kept for cleanup.
const maxCleanupReserve = 30 * time.Second

func newClock(started time.Time, timeout time.Duration) clock {
	if timeout <= 0 {
		return clock{}
	}
	return clock{timeout: timeout, hard: started.Add(timeout), reserve: min(timeout/10, maxCleanupReserve)}
}

// suiteTimeout is Ginkgo's timeout for the specs, from now (0: none).
func (k clock) suiteTimeout() time.Duration {
	if k.hard.IsZero() {
		return 0
	}
	return max(time.Until(k.hard.Add(-k.reserve)), time.Millisecond)
}

// gracePeriod is how long Ginkgo waits for an interrupted node to return
// (its default, 30s, would let a stuck node outlive --timeout).
func (k clock) gracePeriod() time.Duration {
	return max(k.reserve, time.Second)
}

// expired reports whether the specs' share of the budget is spent.
func (k clock) expired() bool {
	return !k.hard.IsZero() && !time.Now().Before(k.hard.Add(-k.reserve))
}

// timedOut reports whether the specs were cut by the run's time limit:
// their share of the budget is spent and Ginkgo says its suite timeout
// elapsed (a run whose specs all ended in time, and whose cleanup ran into
// the reserve, did not time out).
func timedOut(run *report.Run, k clock) bool {
	if !k.expired() {
		return false
	}
	for _, e := range run.SuiteErrors {
		if strings.Contains(strings.ToLower(e), "timeout") {
			return true
		}
	}
	return false
}

// applyClock gives Ginkgo the specs' share of the run's budget.
func applyClock(sc *types.SuiteConfig, k clock) {
	if k.hard.IsZero() {
		return
	}
	sc.Timeout = k.suiteTimeout()
	sc.GracePeriod = k.gracePeriod()
}
