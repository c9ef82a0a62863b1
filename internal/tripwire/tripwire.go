// Package tripwire notices a site losing content while a run writes to it,
// and stops the run's writes at once.
//
// The host keeps its content in flat files without transactions: a request
// that overlaps a write can empty the page, tag and category indexes
// (shared observations, host storage). The run itself never overlaps a
// write (internal/client, the wire), but the site may have other writers,
// and a broken server may lose data on its own. A site losing data must get
// no further write, cleanup writes included: every write may save the
// damage for good.
//
// Before the run's first write the tripwire knows which pages the site
// lists (the baseline: an every-type listing the run read anyway, or one
// read of its own). During the writes it follows the run's own creates and
// deletes from their answers, and at a few moments checks that the listing
// still holds what it should: every baseline page the run did not write
// to, and about as many new pages as the run created and did not delete.
// A check is one small read (meta.total of a one-item listing), sent with
// a batch of reads the run sends anyway once CheckEvery writes have gone
// out (when no batch comes: ahead of a write after half as many more,
// taking the reads that wait for the wire along, and with the wire held
// after twice as many), and only when that falls short
// a listing of every key and a read of a few missing
// pages, so that a listing that merely misbehaves (a mutant the rules will
// catch) is not taken for lost data. Every complete every-type listing the
// run reads anyway counts as a check too.
package tripwire

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/conformance-suite/conformance/internal/client"
)

// DefaultCheckEvery is how many writes may go out between two checks.
const DefaultCheckEvery = 10

// Tripwire is a client.WriteGuard. Create it with New and install it with
// client.SetWriteGuard before the run's first request.
type Tripwire struct {
	// CheckEvery is how many writes may go out between two checks (0:
	// DefaultCheckEvery).
	CheckEvery int
	// MayRemove, when set, names baseline pages the run may delete (the
	// cleanup command's run-marked leftovers): their going is no loss.
	MayRemove func(key string) bool

	mu sync.Mutex
	// baseline is the keys listed before the first write; nil until then.
	// baselineTried: BeforeWrite tried to list them (once only).
	baseline      map[string]bool
	baselineTried bool
	// touched are baseline keys the run wrote to (or under): whatever
	// happens to them is the run's doing, not a loss.
	touched map[string]bool
	// created counts the pages the run's creates made, less those its
	// deletes removed; unsure counts the writes whose effect on the page
	// count is not known (no answer, a server error, a refused write a
	// broken server may have applied). own are the keys of the pages the
	// run made and did not delete, as its answers named them (a child
	// whose parent was renamed keeps its old key here).
	created, unsure int
	own             map[string]bool
	// writes counts the writes let through; sinceCheck those since the
	// last check. suspect: an answer hinted at a loss, check before the
	// next write.
	writes, sinceCheck int
	suspect            bool
	// ahead: a check Ahead sent is on its way. askedAhead: BeforeWrite
	// asked for one (ErrCheckAhead) since the last check.
	ahead, askedAhead bool
	checks            int
	tripped           *Trip
	notes             []string
}

// Trip is what the tripwire saw when it stopped the writes.
type Trip struct {
	// Missing are baseline pages no longer listed (and, read one by one,
	// gone: 404), sorted; MissingMore counts those not named.
	Missing     []string
	MissingMore int
	// Shrink, when set, says how the listing shrank beyond what the run's
	// own deletes explain; OwnMissing names pages of the run that are gone
	// although it never deleted them.
	Shrink     string
	OwnMissing []string
	// AfterWrites is how many writes had gone out.
	AfterWrites int
}

// New returns a tripwire with no baseline yet.
func New() *Tripwire { return &Tripwire{touched: map[string]bool{}, own: map[string]bool{}} }

// Tripped returns what stopped the writes, nil while they go on.
func (tw *Tripwire) Tripped() *Trip {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	return tw.tripped
}

// Stats is how much the tripwire did: writes let through, checks made.
func (tw *Tripwire) Stats() (writes, checks int) {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	return tw.writes, tw.checks
}

// Notes are observations made on the way (a listing that left out pages
// that still read fine), for the run's report.
func (tw *Tripwire) Notes() []string {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	return slices.Clone(tw.notes)
}

// Stopped is the error of every write after the trip.
type Stopped struct{ Trip *Trip }

func (e *Stopped) Error() string {
	return client.ErrWritesStopped.Error() + ": the site lost data during the run (" + e.Trip.Summary() + ")"
}

// Unwrap lets errors.Is find client.ErrWritesStopped.
func (e *Stopped) Unwrap() error { return client.ErrWritesStopped }

// Sentence is the verdict of a run the tripwire stopped: the site lost
// data during what (the run, the exploration, cleanup), writes were
// stopped, restore from a backup; and, when the run's own pages left are
// known, how to remove them once the site is restored.
func (t *Trip) Sentence(during string, left []string, baseURL string) string {
	s := fmt.Sprintf("The site lost data during %s: %s. Writes were stopped at once (after %d), cleanup writes included; restore the site from a backup.",
		during, t.Summary(), t.AfterWrites)
	if len(left) > 0 {
		s += fmt.Sprintf(" The run's own pages may still be on it: %s; once it is restored, remove them with `conformance cleanup --base-url %s`.",
			strings.Join(left, ", "), baseURL)
	}
	return s
}

// Summary says in a few words what was lost.
func (t *Trip) Summary() string {
	var parts []string
	if len(t.Missing) > 0 {
		s := "these pages are no longer listed: " + strings.Join(t.Missing, ", ")
		if t.MissingMore > 0 {
			s += fmt.Sprintf(" and %d more", t.MissingMore)
		}
		parts = append(parts, s)
	}
	if t.Shrink != "" {
		parts = append(parts, t.Shrink+" (gone: "+strings.Join(t.OwnMissing, ", ")+")")
	}
	return strings.Join(parts, "; ")
}

// BeforeWrite implements client.WriteGuard: it takes the baseline before
// the first write, checks when a check is due, and refuses every write
// once tripped.
func (tw *Tripwire) BeforeWrite(ctx context.Context, read func(client.Request) *client.Exchange) error {
	tw.mu.Lock()
	defer tw.mu.Unlock()
	if tw.tripped != nil {
		return &Stopped{Trip: tw.tripped}
	}
	every := tw.every()
	mustRead := (tw.baseline == nil && !tw.baselineTried) || (tw.baseline != nil && (tw.suspect || tw.sinceCheck >= 2*every))
	if mustRead && read == nil {
		// The write shares the wire (--parallel-writes): a listing read
		// beside other writes would see them half done.
		return client.ErrNeedWireAlone
	}
	switch {
	case tw.baseline != nil && read != nil && !tw.suspect && !tw.askedAhead && !tw.ahead && tw.sinceCheck >= tw.aheadAfter():
		// The writes that waited for the wire since the check came due
		// passed Ahead before it was: this one gives the wire back for a
		// check that takes the waiting reads along.
		tw.askedAhead = true
		return client.ErrCheckAhead
	case tw.baseline == nil && !tw.baselineTried:
		// Tried once: a site whose listing fails gets no walk per write.
		tw.baselineTried = true
		if keys, ok := listKeys(ctx, read); ok {
			tw.baseline = keys
		} else {
			tw.notes = append(tw.notes, "no listing of every page could be read before the first write: the tripwire had nothing to compare with")
		}
	case tw.baseline != nil && (tw.suspect || tw.sinceCheck >= 2*every):
		// A read hinted at a loss, or the check Ahead asked for did not
		// come back in time: check now, with the wire held.
		tw.check(ctx, read)
		if tw.tripped != nil {
			return &Stopped{Trip: tw.tripped}
		}
	}
	tw.writes++
	tw.sinceCheck++
	return nil
}

// Ahead implements client.WriteGuard: when a check is overdue (no batch
// of reads took it along, Beside) it reads meta.total of every type before
// the write waits for the wire, so that the read goes out beside other
// reads instead of on a wire held alone; Answered takes the answer as the
// check (or as a hint to look closer before the next write).
func (tw *Tripwire) Ahead(_ context.Context, read func(client.Request) *client.Exchange) {
	tw.checkBeside(read, tw.aheadAfter())
}

// aheadAfter is how many writes pass without a check before one goes
// ahead of a write rather than beside a batch of reads.
func (tw *Tripwire) aheadAfter() int { return tw.every() + tw.every()/2 }

// Beside implements client.WriteGuard: a check that is due goes out with
// a batch of reads the run sends anyway, costing no round trip of its own.
func (tw *Tripwire) Beside(_ context.Context, read func(client.Request) *client.Exchange) {
	tw.checkBeside(read, tw.every())
}

// checkBeside reads meta.total of every type, the check Answered judges,
// once since writes passed since the last one (and none is on its way).
func (tw *Tripwire) checkBeside(read func(client.Request) *client.Exchange, since int) {
	tw.mu.Lock()
	due := tw.baseline != nil && tw.tripped == nil && !tw.ahead && tw.sinceCheck >= since
	tw.ahead = tw.ahead || due
	tw.mu.Unlock()
	if !due {
		return
	}
	read(client.Request{Method: http.MethodGet, Path: "/api/pages", Query: totalQuery(), Fresh: true})
	tw.mu.Lock()
	tw.ahead = false
	tw.checks++
	tw.mu.Unlock()
}

// checked starts the count of writes to the next check afresh. The
// caller holds tw.mu.
func (tw *Tripwire) checked() { tw.sinceCheck, tw.askedAhead = 0, false }

// every is CheckEvery or its default.
func (tw *Tripwire) every() int {
	if tw.CheckEvery > 0 {
		return tw.CheckEvery
	}
	return DefaultCheckEvery
}

// Final checks once more after the run's last write (the cleanup's
// deletes included), with the wire held as a write holds it, so that a
// loss the last writes made is reported too. Nothing is read when no write
// went out or a listing read since showed nothing lost.
func (tw *Tripwire) Final(ctx context.Context, c *client.Client) {
	c.WithWireAlone(ctx, func(read func(client.Request) *client.Exchange) {
		tw.mu.Lock()
		defer tw.mu.Unlock()
		if tw.baseline == nil || tw.tripped != nil || (tw.sinceCheck == 0 && !tw.suspect) {
			return
		}
		tw.check(ctx, read)
	})
}

// check reads how many pages the site lists and, when that is fewer than
// it should be, which ones are gone; it trips when baseline pages the run
// never wrote to are gone, or the run's own pages are fewer than its
// creates and deletes explain. The caller holds tw.mu.
func (tw *Tripwire) check(ctx context.Context, read func(client.Request) *client.Exchange) {
	tw.checks++
	tw.checked()
	tw.suspect = false
	ex := read(client.Request{Method: http.MethodGet, Path: "/api/pages", Query: totalQuery(), Fresh: true})
	if total, ok := listedTotal(ex); ok && total >= tw.expected() {
		return
	}
	keys, ok := listKeys(ctx, read)
	if !ok {
		return // no listing to judge by: no verdict either way
	}
	tw.judge(keys, func(key string) bool {
		ex := read(client.Request{Method: http.MethodGet, Path: client.KeyPath("pages", key), Fresh: true})
		return ex.Err == nil && ex.Status == http.StatusNotFound
	})
}

// expected is how many pages the site lists now when nothing was lost and
// every write whose outcome is unsure did nothing (the usual case: a
// refused write): the baseline pages the run never wrote to, and the
// pages it created and did not delete. A listing that counts fewer is
// looked at key by key. The caller holds tw.mu.
func (tw *Tripwire) expected() int {
	n := 0
	for k := range tw.baseline {
		if !tw.mayGo(k) {
			n++
		}
	}
	return n + tw.created
}

// mayGo reports whether a baseline page's absence is explained by the run.
func (tw *Tripwire) mayGo(key string) bool {
	return tw.touched[key] || (tw.MayRemove != nil && tw.MayRemove(key))
}

// confirmAtMost bounds the single-page reads that confirm a loss.
const confirmAtMost = 3

// judge compares a listing of every key with what should be there; gone
// reads one missing page and reports whether it is gone (404). The caller
// holds tw.mu.
func (tw *Tripwire) judge(listed map[string]bool, gone func(key string) bool) {
	var missing []string
	for k := range tw.baseline {
		if !listed[k] && !tw.mayGo(k) {
			missing = append(missing, k)
		}
	}
	slices.Sort(missing)
	newOnes := 0
	for k := range listed {
		if !tw.baseline[k] {
			newOnes++
		}
	}
	trip := &Trip{AfterWrites: tw.writes}
	// A listing may leave out pages that are still there (a broken page
	// list, or a page of a type the filters do not name: mutants the rules
	// will report): only pages that read 404 too are lost.
	if len(missing) > 0 {
		if k, ok := allGone(missing, gone); !ok {
			tw.note("the every-type page list left out %d page(s) that were listed before the run's first write, but %s still reads as a page: no data loss assumed", len(missing), k)
		} else {
			const named = 20
			trip.Missing, trip.MissingMore = missing[:min(named, len(missing))], max(len(missing)-named, 0)
		}
	}
	if want := tw.created - tw.unsure; newOnes < want {
		var unlisted []string
		for k := range tw.own {
			if !listed[k] {
				unlisted = append(unlisted, k)
			}
		}
		slices.Sort(unlisted)
		k, ok := allGone(unlisted, gone)
		switch {
		case len(unlisted) == 0:
			tw.note("the every-type page list holds %d page(s) that were not there before the run, fewer than the %d the run created, but every page the run made is still listed: no data loss assumed", newOnes, want)
		case !ok:
			tw.note("the every-type page list holds %d page(s) that were not there before the run, fewer than the %d the run created, but %s still reads as a page: no data loss assumed", newOnes, want, k)
		default:
			trip.Shrink = fmt.Sprintf("the site lists %d page(s) that were not there before the run, fewer than the %d the run created and did not delete", newOnes, want)
			trip.OwnMissing = unlisted[:min(confirmAtMost, len(unlisted))]
		}
	}
	if len(trip.Missing) > 0 || trip.Shrink != "" {
		tw.tripped = trip
	}
}

// allGone reads up to confirmAtMost of keys; ok is false, with the key,
// when one of them still reads as a page.
func allGone(keys []string, gone func(string) bool) (string, bool) {
	for _, k := range keys[:min(confirmAtMost, len(keys))] {
		if !gone(k) {
			return k, false
		}
	}
	return "", true
}

// note records an observation once. The caller holds tw.mu.
func (tw *Tripwire) note(format string, args ...any) {
	n := "tripwire: " + fmt.Sprintf(format, args...)
	if !slices.Contains(tw.notes, n) {
		tw.notes = append(tw.notes, n)
	}
}

// IsStopped reports whether err is a write stopped by a tripwire.
func IsStopped(err error) bool { return errors.Is(err, client.ErrWritesStopped) }
