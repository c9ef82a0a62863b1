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

// lane is one property's part of the search.
type lane struct {
	p     property
	index int
	// drawn counts the cases drawn while searching (sent, skipped or
	// judged from the cache), turns the turns, quiet the cases in a row
	// that showed nothing new, recent the share of its last turn's cases
	// that did.
	drawn, turns, quiet int
	recent              float64
	// excluded are the signatures of the findings found already: the
	// next turns look for others.
	excluded map[string]bool
	// cache keeps the outcome of each case sent: a case drawn again
	// (rapid runs the failing case again before shrinking, and shrinking
	// tries many that differ only in what they do not use) is judged
	// without sending it again. Only a sending counts as a hit.
	cache map[string]outcome
}

// nextLane is the lane the next turn goes to: of those not done, the one
// with the fewest cases drawn for its weight, the weight raised by up to
// three times by the new behaviour of its last turn (nil when all are
// done).
func nextLane(lanes []*lane) *lane {
	var best *lane
	score := func(l *lane) float64 { return float64(l.drawn) / (float64(l.p.weight) * (1 + 2*l.recent)) }
	for _, l := range lanes {
		if l.quiet >= quietLimit {
			continue
		}
		if best == nil || score(l) < score(best) {
			best = l
		}
	}
	return best
}

// turn is one rapid check of l's property: up to turnCases cases, or
// fewer and a shrunk finding.
func (s *session) turn(ctx context.Context, l *lane) {
	var (
		target string
		best   Record
		shrink window
	)
	drawn, novel := 0, 0
	var found Progress
	shrinkFrom := 0
	prop := func(t *rapid.T) {
		if target == "" && (drawn >= turnCases || s.stopReason(ctx) != "") {
			return // the turn is over: nothing drawn, nothing sent
		}
		if target != "" && (!shrink.open(s.c.Seq()) || s.stopped(ctx) || s.budget.spent()) {
			return // out of budget for shrinking
		}
		c := l.p.gen(&s.site).Draw(t, "case")
		key := string(jsonText(c))
		out, seen := l.cache[key]
		if !seen {
			out = s.run(ctx, c)
			l.cache[key] = out
		}
		if target == "" {
			drawn++
			l.drawn++
			if !seen && !out.skipped {
				s.cases[l.p.kind]++
			}
			if n := s.behaviour.add(c, out); n > 0 && !seen && !out.skipped {
				novel++
				l.quiet = 0
			} else {
				l.quiet++
			}
		}
		f, ok := pick(out.judge.Findings, target, l.excluded)
		if !ok {
			return
		}
		hits := best.Hits
		if !seen {
			hits++
		}
		if target == "" {
			hits = 1 // the sending that showed it (now or before)
			// A new finding: the same case is sent once more, past
			// the cache. One that does not show again is flaky (a
			// one-off 500, a race of the site's): recorded as an
			// observation, and the search goes on.
			fields, chars := c.Size()
			first := [2]int{fields, chars}
			again := s.run(ctx, c)
			l.cache[key] = again
			g, shown := pick(again.judge.Findings, f.Signature(), nil)
			if !shown {
				s.noteFlaky(Record{Kind: l.p.kind, Case: c, Finding: f, Exchanges: out.exchanges, Hits: hits, FirstSize: first})
				return
			}
			f, out, hits = g, again, hits+1
			target, shrink = f.Signature(), s.budget.shrinkWindow()
			s.shrinking = target
			best.FirstSize = first
			used, after := s.budget.used()
			found, shrinkFrom = Progress{Requests: used, Cases: s.totalCases(), After: after}, s.c.Seq()
		}
		best = Record{Kind: l.p.kind, Case: c, Finding: f, Exchanges: out.exchanges, Hits: hits, FirstSize: best.FirstSize, Found: found}
		t.Fatalf("%s", target) // the same failure every time: rapid keeps shrinking it
	}
	logs := check(string(l.p.kind), checkSettings{seed: s.seed(l.index, l.turns), checks: turnCases}, prop)
	s.shrinking = ""
	l.turns++
	l.recent = float64(novel) / float64(max(drawn, 1))
	if target == "" {
		s.debug(logs)
		return
	}
	best.ShrinkCut = !shrink.open(s.c.Seq())
	best.Shrink = s.c.Seq() - shrinkFrom
	l.excluded[target] = true
	l.quiet = 0 // a finding is new behaviour
	s.dropFlaky(target)
	s.records = append(s.records, best)
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
