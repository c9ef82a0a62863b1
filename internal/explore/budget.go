package explore

import "time"

// budget is an exploration's limits, in requests and in time. The search
// may spend nine tenths of it (searchSpent): the last tenth is kept, so
// that a finding the search makes late can still be shrunk. Shrinking a
// finding may spend what is left, four tenths of the whole at most
// (shrinkWindow).
type budget struct {
	requests int
	time     time.Duration
	start    time.Time
	from     int
	seq      func() int
}

// used is what the exploration spent so far.
func (b *budget) used() (int, time.Duration) { return b.seq() - b.from, time.Since(b.start) }

// spent reports whether the whole budget is spent.
func (b *budget) spent() bool {
	r, t := b.used()
	return r >= b.requests || t >= b.time
}

// searchShare is the part of the budget the search may spend.
const searchShare = 0.9

// searchSpent reports whether the search has spent its part of the
// budget, and which limit it reached ("requests" or "time").
func (b *budget) searchSpent() (bool, string) {
	r, t := b.used()
	switch {
	case r >= int(float64(b.requests)*searchShare):
		return true, "requests"
	case t >= time.Duration(float64(b.time)*searchShare):
		return true, "time"
	}
	return false, ""
}

// window is the part of the budget one phase may spend: up to a request
// number and a time.
type window struct {
	seq int
	end time.Time
}

// shrinkWindow is what shrinking one finding may spend: what is left of
// the budget, four tenths of it at most.
func (b *budget) shrinkWindow() window {
	r, t := b.used()
	reqs := min(max(b.requests-r, 0), b.requests*4/10)
	dur := min(max(b.time-t, 0), b.time*4/10)
	return window{seq: b.seq() + reqs, end: time.Now().Add(dur)}
}

// open reports whether w still allows a case.
func (w window) open(seq int) bool { return seq < w.seq && time.Now().Before(w.end) }
