// Package framework is what every suite package stands on, and holds no
// rule of its own: the Fixture (the one client, the run's mode and marker,
// the ledger of what the run created), the rule-naming wrapper around
// ginkgo.It (which counts each spec's assertions: a spec that asserted
// nothing is not checked), the suite-wide nodes (registered once, by
// Install), groups of specs whose requests go out side by side and are
// judged in order (prepared.go; OnRead for a spec of one answer), the
// phases that order the run's containers, and the lifecycle of what a run
// creates (removal.go lists each kind and how it is removed), including
// writes that got no answer (inflight.go).
//
// Its subpackages hold one idea each: match (matchers whose failures carry
// the exchange and record their facts), verdicts (not checked, facts, could
// not finish), pagelist (listings read as streams), settingsguard (settings
// changed and restored exactly), probe (requests several suites build),
// crosscutting (the judge of every exchange with the checks suites add; the
// rules themselves are judged in internal/rules), coverkit (checks that fill
// the coverage map), counting (assertions counted) and ledger.
//
// There is no package-level state: a runner builds one Fixture, passes it to
// Install and to each suite's Register function, then calls RunSpecs. The
// one deliberate hook into another package's state is Install wrapping
// gomega.Default to count assertions into the Fixture (internal/framework/counting).
package framework

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework/counting"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/framework/ledger"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/marker"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/tripwire"
)

// Options is the part of the run's configuration that specs read.
type Options struct {
	// ReadOnly: no request that could change the target is sent.
	ReadOnly bool
	// SettingsWrites allows PUT /api/settings (changed values are restored).
	SettingsWrites bool
	// RunID distinguishes this run's resources; generated when empty.
	RunID string
	// Concurrency is how many requests of one batch (All), and how many
	// prepare functions of a group (Prepare), are under way at once; 0 or
	// 1 runs them one by one.
	Concurrency int
	// LatePause is how long a write that got no answer may still take to
	// land, counted from when the client stopped waiting for it: the run
	// checks the settings, and lists its pages, again that long after
	// (inflight.go). 0: as long as the client waited, plus 5s.
	LatePause time.Duration
}

// Fixture is one run as the specs see it: the client, the catalogue, the run's mode and marker, and the ledger of what the run created.
type Fixture struct {
	Client    *client.Client
	Catalogue *spec.Catalogue
	Options
	Ledger *ledger.Ledger
	// CrossCutting judges every exchange of the run with the checks the
	// suites add.
	CrossCutting *crosscutting.Watcher
	// Tripwire stops every write once the site is seen losing data; nil in
	// a run that cannot write (internal/tripwire).
	Tripwire *tripwire.Tripwire
	// Pages reads the page list and term views as streams, through the
	// run's page checks (internal/framework/pagelist).
	Pages *pagelist.Reader
	// Coverage collects the marks of the spec coverage map (coverage.go).
	Coverage *coverage.Recorder

	// assertions counts what the running spec evaluated (assertions.go).
	assertions counting.Counter
	// cover is the running spec's share of the coverage map (coverage.go).
	cover specCoverage

	// removal: what the run found out about removing what it creates
	// (removal.go).
	removal removal
	// atEnd: the work registered for the end of the run (end.go).
	atEnd endHooks
	// judged: the exchanges the running spec judges besides its own
	// requests (Judged); the runner's AfterEach shows them with the spec's
	// failure (batch.go).
	judged lockedList[*client.Exchange]

	background backgroundWork // tasks running beside the specs (background.go)
	prep       preparations   // groups of specs prepared together (prepared.go)
	names      atomic.Int64   // numbers the run's page slugs (PageFields)
	late       lateWrites     // the writes that got no answer, which may still land (inflight.go)
	runEnd     runEnd         // the listing of every page a spec read for the sweep (runend.go)

	mu           sync.Mutex
	bugs         []string
	registered   []RegisteredSpec // Registered
	observations []string
	report       *types.Report
}

// New builds the target for one run.
func New(c *client.Client, opts Options) *Fixture {
	if opts.RunID == "" {
		opts.RunID = marker.NewRunID(time.Now())
	}
	t := &Fixture{Client: c, Catalogue: spec.All(), Options: opts, Ledger: &ledger.Ledger{}, Coverage: coverage.NewRecorder()}
	t.Pages = pagelist.NewReader(c, opts.Concurrency, func(err error) {
		t.Observe("the pages of long listings are kept in memory, not in a temporary file (%v): a big site's run takes memory "+
			"in proportion (set TMPDIR to a writable directory)", err)
	})
	// The run's pages keep their content in the term views as a digest.
	runPrefix := strings.ToLower(marker.Of(opts.RunID, ""))
	t.Pages.DigestContentOf(func(key string) bool { return strings.HasPrefix(strings.ToLower(key), runPrefix) })
	t.CrossCutting = crosscutting.New(c.BaseURL())
	c.OnExchange(t.CrossCutting.Observe)
	if t.CanWrite() {
		t.Tripwire = tripwire.New()
		c.SetWriteGuard(t.Tripwire)
	}
	return t
}

// WritesStopped is why the run sends no further write (the tripwire
// tripped: the site lost data during the run), "" while it may write.
func (t *Fixture) WritesStopped() string {
	if t.Tripwire == nil {
		return ""
	}
	if trip := t.Tripwire.Tripped(); trip != nil {
		return "writes were stopped: the site lost data during the run (" + trip.Summary() + ")"
	}
	return ""
}

// Marker returns a slug for something this run creates:
// "conformance-<run-id>-<name>".
func (t *Fixture) Marker(name string) string { return marker.Of(t.RunID, name) }

// CanWrite reports whether the run may create, edit and delete pages.
func (t *Fixture) CanWrite() bool { return !t.ReadOnly && t.Client.HasAuth() }

// Observe records an informational observation: something the spec leaves
// open that a reader may want to know (never a failure).
func (t *Fixture) Observe(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.Client.Redactor().String(fmt.Sprintf(format, args...))
	for _, o := range t.observations {
		if o == s {
			return
		}
	}
	t.observations = append(t.observations, s)
}

// Observations returns what Observe recorded, then the responses the web
// server in front of the API gave itself (CrossCutting.Observations).
func (t *Fixture) Observations() []string {
	t.mu.Lock()
	own := append([]string(nil), t.observations...)
	t.mu.Unlock()
	for _, o := range t.CrossCutting.Observations() {
		own = append(own, t.Client.Redactor().String(o))
	}
	return match.Uniq(own)
}

// Bugs returns mistakes in how specs were registered (unknown rule IDs and
// the like). A runner that previews the specs refuses to start while there
// are any; Install's BeforeSuite fails any run that has some.
func (t *Fixture) Bugs() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.bugs...)
}

func (t *Fixture) recordBug(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.bugs = append(t.bugs, fmt.Sprintf(format, args...))
}

// Report returns the Ginkgo report stashed after the suite ran (nil before).
func (t *Fixture) Report() *types.Report {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.report
}

func (t *Fixture) setReport(r types.Report) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.report = &r
}

// IsRunMarked reports whether a page key was made by a conformance run. It
// is marker.IsRunMarked, kept here for suites/pages until that calls it.
func IsRunMarked(key string) bool { return marker.IsRunMarked(key) }

// HasRunMarker reports whether key's first segment carries this run's
// marker (ignoring case).
func (t *Fixture) HasRunMarker(key string) bool { return marker.HasRunMarker(key, t.RunID) }

// Close removes the temporary file of the run's long listings; no listing
// may read its pages after.
func (t *Fixture) Close() { t.Pages.Close() }
