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
}

// searchShare is the part of the budget spent searching; the rest is
// kept for shrinking what the search finds.
const searchShare = 0.6

// budget is an exploration's limits, in requests and in time.
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

// window is the part of the budget one phase may spend: up to a request
// number and a time.
type window struct {
	seq int
	end time.Time
}

// share is the search window of a property of weight w among the
// remaining weight left.
func (b *budget) share(w, left int) window {
	r, t := b.used()
	reqs := max(int(float64(b.requests)*searchShare)-r, 0) * w / max(left, 1)
	dur := max(time.Duration(float64(b.time)*searchShare)-t, 0) * time.Duration(w) / time.Duration(max(left, 1))
	return window{seq: b.seq() + max(reqs, 8), end: time.Now().Add(max(dur, 200*time.Millisecond))}
}

// shrinkWindow is what shrinking one finding may spend: what the search
// left of the budget, four tenths of it at most.
func (b *budget) shrinkWindow() window {
	r, t := b.used()
	reqs := min(max(b.requests-r, 0), b.requests*4/10)
	dur := min(max(b.time-t, 0), b.time*4/10)
	return window{seq: b.seq() + reqs, end: time.Now().Add(dur)}
}

// open reports whether w still allows a case.
func (w window) open(seq int) bool { return seq < w.seq && time.Now().Before(w.end) }

// explore runs one property until its share of the budget is spent,
// one rapid check per finding: each finding found is shrunk, recorded,
// and left out of the next round, which looks for another.
func (s *session) explore(ctx context.Context, p property, index, weightLeft int) {
	search := s.budget.share(p.weight, weightLeft)
	excluded := map[string]bool{}
	// cache keeps the outcome of each case sent: a case drawn again
	// (rapid runs the failing case again before shrinking, and shrinking
	// tries many that differ only in what they do not use) is judged
	// without sending it again. Only a sending counts as a hit.
	cache := map[string]outcome{}
	for round := 0; search.open(s.c.Seq()) && !s.stopped(ctx) && !s.failedFast(); round++ {
		var (
			target string
			best   Record
			shrink window
		)
		prop := func(t *rapid.T) {
			limit := search
			if target != "" {
				limit = shrink
			}
			if !limit.open(s.c.Seq()) || s.stopped(ctx) || s.budget.spent() {
				return // out of budget: nothing drawn, nothing sent
			}
			c := p.gen(&s.site).Draw(t, "case")
			key := string(jsonText(c))
			out, seen := cache[key]
			if !seen {
				out = s.run(ctx, c)
				cache[key] = out
				if target == "" {
					s.cases[p.kind]++
				}
			}
			f, ok := pick(out.judge.Findings, target, excluded)
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
				cache[key] = again
				g, shown := pick(again.judge.Findings, f.Signature(), nil)
				if !shown {
					s.noteFlaky(Record{Kind: p.kind, Case: c, Finding: f, Exchanges: out.exchanges, Hits: hits, FirstSize: first})
					return
				}
				f, out, hits = g, again, hits+1
				target, shrink = f.Signature(), s.budget.shrinkWindow()
				best.FirstSize = first
			}
			best = Record{Kind: p.kind, Case: c, Finding: f, Exchanges: out.exchanges, Hits: hits, FirstSize: best.FirstSize}
			t.Fatalf("%s", target) // the same failure every time: rapid keeps shrinking it
		}
		checks := max(search.seq-s.c.Seq(), 1)
		logs := check(string(p.kind), checkSettings{seed: s.seed(index, round), checks: checks}, prop)
		if target == "" {
			s.debug(logs)
			return
		}
		excluded[target] = true
		s.dropFlaky(target)
		s.records = append(s.records, best)
	}
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
