package explore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"pgregory.net/rapid"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/explore/oracle"
)

// property is one kind of case, explored by rapid: it draws cases from
// its generator, sends each and judges it, and fails on a finding, which
// rapid then shrinks.
type property struct {
	kind   gen.Kind
	weight int // its share of the search budget
	gen    func(*gen.Site) *rapid.Generator[gen.Case]
	// writes: needs page writes; settings: needs settings writes.
	writes, settings bool
}

// properties in the order they run: reads first, writes after, the
// settings last.
var properties = []property{
	{kind: gen.KindList, weight: 3, gen: func(*gen.Site) *rapid.Generator[gen.Case] { return gen.List() }},
	{kind: gen.KindRead, weight: 2, gen: gen.Read},
	{kind: gen.KindToken, weight: 1, gen: gen.Tokens},
	{kind: gen.KindBody, weight: 1, gen: gen.Body},
	{kind: gen.KindCreate, weight: 4, gen: gen.Create, writes: true},
	{kind: gen.KindEdit, weight: 4, gen: gen.Edit, writes: true},
	{kind: gen.KindRefused, weight: 2, gen: gen.Refused},
	{kind: gen.KindSettings, weight: 2, gen: gen.Settings, writes: true, settings: true},
}

// Record is a finding with the smallest case that still shows it.
type Record struct {
	Kind    gen.Kind       `json:"kind"`
	Case    gen.Case       `json:"case"`
	Finding oracle.Finding `json:"finding"`
	// Exchanges are the requests of the last sending of the case, the
	// finding's evidence.
	Exchanges []*client.Exchange `json:"-"`
	// Hits counts the sendings that showed the finding: the first, the
	// same case sent again to confirm it, and each case sent while
	// shrinking that showed it (a case judged from the cache is no
	// sending).
	Hits int `json:"hits"`
	// FirstSize is the size of the first case that showed it, before
	// shrinking (Case.Size: fields and characters).
	FirstSize [2]int `json:"firstSize"`
	// File is the replay file the finding was saved to.
	File string `json:"-"`
	// ShrinkCut says the budget ended the shrinking: a smaller case
	// might still fail.
	ShrinkCut bool `json:"shrinkCut,omitempty"`
	// Found says when the search first saw it: after how many requests
	// and cases, how long into the exploration; Shrink what shrinking it
	// spent (requests).
	Found  Progress `json:"found"`
	Shrink int      `json:"shrinkRequests"`
}

// Progress is how far an exploration had got.
type Progress struct {
	Requests int           `json:"requests"`
	Cases    int           `json:"cases"`
	After    time.Duration `json:"after"`
}

// explore searches until the budget is spent or the search has stopped
// finding anything new, in turns: each turn gives one property (a kind of
// case) a rapid check of up to turnCases cases. The next turn goes to the
// property that has had least of the search for its weight, its weight
// raised by how much new behaviour its last turn showed (a new status,
// message, answer shape, finding or field class: behaviour.go), so the
// search goes where the target still surprises it. A property whose last
// quietLimit cases in a row showed nothing new is done; when every one is,
// the exploration stops (stopSaturated). A finding ends its turn: rapid
// shrinks it within the shrink window, and the next turns of the property
// look for others.
func (s *session) explore(ctx context.Context, active []property) {
	lanes := make([]*lane, len(active))
	for i, p := range active {
		lanes[i] = &lane{p: p, index: i, excluded: map[string]bool{}, cache: map[string]outcome{}}
	}
	for {
		if why := s.stopReason(ctx); why != "" {
			s.stop = why
			return
		}
		l := nextLane(lanes)
		if l == nil {
			s.stop = fmt.Sprintf(stopSaturated, quietLimit)
			return
		}
		s.turn(ctx, l)
	}
}

// Turns and the stop rule.
const (
	// turnCases is how many cases one turn draws (fewer when the budget
	// ends it, or a finding).
	turnCases = 20
	// quietLimit is how many cases in a row a property draws without new
	// behaviour before it is done.
	quietLimit = 150
)

// Why an exploration stopped.
const (
	stopSaturated   = "every kind of case went %d cases in a row without new behaviour (no new status, message, answer shape, finding or field class)"
	stopRequests    = "its request budget was spent (%d requests: nine tenths searching, the last tenth kept for shrinking)"
	stopTime        = "its time budget was spent (%s: nine tenths searching, the last tenth kept for shrinking)"
	stopInterrupted = "it was interrupted"
	stopTripwire    = "the tripwire saw the site lose data"
	stopFailFast    = "--fail-fast: it stopped at the first finding"
)

// stopReason says why the search must not go on ("" when it may).
func (s *session) stopReason(ctx context.Context) string {
	spent, limit := s.budget.searchSpent()
	switch {
	case ctx.Err() != nil:
		return stopInterrupted
	case s.fx.Tripwire != nil && s.fx.Tripwire.Tripped() != nil:
		return stopTripwire
	case s.failedFast():
		return stopFailFast
	case spent && limit == "requests":
		return fmt.Sprintf(stopRequests, s.budget.requests)
	case spent:
		return fmt.Sprintf(stopTime, s.budget.time)
	}
	return ""
}

// noteFlaky keeps a finding that did not show when its case was sent a
// second time (once a signature).
func (s *session) noteFlaky(r Record) {
	sig := r.Finding.Signature()
	if !slices.ContainsFunc(s.flaky, func(f Record) bool { return f.Finding.Signature() == sig }) {
		s.flaky = append(s.flaky, r)
	}
}

// dropFlaky forgets a flaky finding another case showed twice: it is a
// finding.
func (s *session) dropFlaky(sig string) {
	s.flaky = slices.DeleteFunc(s.flaky, func(f Record) bool { return f.Finding.Signature() == sig })
}

// pick chooses the finding a case fails on: the one being shrunk, or
// else the first that is not found yet.
func pick(fs []oracle.Finding, target string, excluded map[string]bool) (oracle.Finding, bool) {
	for _, f := range fs {
		sig := f.Signature()
		if (target != "" && sig == target) || (target == "" && !excluded[sig]) {
			return f, true
		}
	}
	return oracle.Finding{}, false
}

// seed is the rapid seed of a property's round: the exploration's seed
// decides every case of every property.
func (s *session) seed(index, round int) uint64 {
	return s.cfg.Seed*1_000_003 + uint64(index)*7_919 + uint64(round)*104_729 + 1
}

// stopped reports whether the exploration must send nothing more: the
// run was interrupted or its tripwire saw the site lose data.
func (s *session) stopped(ctx context.Context) bool {
	return ctx.Err() != nil || (s.fx.Tripwire != nil && s.fx.Tripwire.Tripped() != nil)
}

// failedFast reports whether --fail-fast ends the exploration: it has a
// finding.
func (s *session) failedFast() bool { return s.cfg.FailFast && len(s.records) > 0 }

// outcome is what one sending of a case gave.
type outcome struct {
	judge     *oracle.Judge
	exchanges []*client.Exchange
	skipped   bool // not sent: this target could not undo it
}

// run sends a case and judges it; a case this target could not undo is
// not sent (cannotUndo), and its outcome says so.
func (s *session) run(ctx context.Context, c gen.Case) outcome {
	j := oracle.NewJudge()
	if why := s.cannotUndo(ctx, c); why != "" {
		s.skip(c, why)
		return outcome{judge: j, skipped: true}
	}
	s.c.SetScope("explore: " + string(c.Kind))
	from := s.c.Seq()
	switch c.Kind {
	case gen.KindList:
		s.list(ctx, c, j)
	case gen.KindRead:
		s.read(ctx, c, j)
	case gen.KindToken:
		s.token(ctx, c, j)
	case gen.KindBody:
		s.rawBody(ctx, c, j)
	case gen.KindCreate:
		s.create(ctx, c, j)
	case gen.KindEdit:
		s.edit(ctx, c, j)
	case gen.KindRefused:
		s.refused(ctx, c, j)
	case gen.KindSettings:
		s.settingsCase(ctx, c, j)
	}
	s.tally.Add(j)
	s.noteChildLeft()
	return outcome{judge: j, exchanges: slices.Clone(s.c.Since(from))}
}

// debug writes rapid's own messages when --verbose asks for them.
func (s *session) debug(logs []string) {
	if !s.cfg.Verbose {
		return
	}
	for _, l := range logs {
		fmt.Fprintln(s.out, "rapid: "+l)
	}
}
