package explore

import (
	"context"

	"pgregory.net/rapid"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/explore/oracle"
)

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
	tn := &turning{s: s, l: l}
	logs := check(string(l.p.kind), checkSettings{seed: s.seed(l.index, l.turns), checks: turnCases},
		func(t *rapid.T) { tn.step(ctx, t) })
	s.shrinking = ""
	l.turns++
	l.recent = float64(tn.novel) / float64(max(tn.drawn, 1))
	if tn.target == "" {
		s.debug(logs)
		return
	}
	tn.best.ShrinkCut = !tn.shrink.open(s.c.Seq())
	tn.best.Shrink = s.c.Seq() - tn.shrinkFrom
	l.excluded[tn.target] = true
	l.quiet = 0 // a finding is new behaviour
	s.dropFlaky(tn.target)
	s.records = append(s.records, tn.best)
}

// turning is one turn under way: what it drew, and the finding it is
// shrinking (target, "" while it searches).
type turning struct {
	s            *session
	l            *lane
	drawn, novel int
	target       string
	best         Record
	shrink       window
	shrinkFrom   int
	found        Progress
}

// step is rapid's property: it draws a case, sends it (or takes its
// outcome from the cache) and fails on the finding it searches for or
// shrinks, which rapid then shrinks.
func (tn *turning) step(ctx context.Context, t *rapid.T) {
	s, l := tn.s, tn.l
	if tn.target == "" && (tn.drawn >= turnCases || s.stopReason(ctx) != "") {
		return // the turn is over: nothing drawn, nothing sent
	}
	if tn.target != "" && (!tn.shrink.open(s.c.Seq()) || s.stopped(ctx) || s.budget.spent()) {
		return // out of budget for shrinking
	}
	c := l.p.gen(&s.site).Draw(t, "case")
	key := string(jsonText(c))
	out, seen := l.cache[key]
	if !seen {
		out = s.run(ctx, c)
		l.cache[key] = out
	}
	if tn.target == "" {
		tn.account(c, out, seen)
	}
	f, ok := pick(out.judge.Findings, tn.target, l.excluded)
	if !ok {
		return
	}
	hits := tn.best.Hits
	if !seen {
		hits++
	}
	if tn.target == "" {
		if f, out, ok = tn.confirm(ctx, c, key, f, out); !ok {
			return
		}
		hits = 2 // the sending that showed it, and the one that confirmed it
	}
	tn.best = Record{Kind: l.p.kind, Case: c, Finding: f, Exchanges: out.exchanges, Hits: hits, FirstSize: tn.best.FirstSize, Found: tn.found}
	t.Fatalf("%s", tn.target) // the same failure every time: rapid keeps shrinking it
}

// account counts a case drawn while searching, and whether it showed new
// behaviour.
func (tn *turning) account(c gen.Case, out outcome, seen bool) {
	tn.drawn++
	tn.l.drawn++
	if !seen && !out.skipped {
		tn.s.cases[tn.l.p.kind]++
	}
	if n := tn.s.behaviour.add(c, out); n > 0 && !seen && !out.skipped {
		tn.novel++
		tn.l.quiet = 0
	} else {
		tn.l.quiet++
	}
}

// confirm sends a case that showed a new finding once more, past the
// cache. One that does not show again is flaky (a one-off 500, a race of
// the site's): recorded as an observation, and the search goes on (ok
// false). One that does is the turn's target from then on: shrinking
// starts, within its window.
func (tn *turning) confirm(ctx context.Context, c gen.Case, key string, f oracle.Finding, out outcome) (oracle.Finding, outcome, bool) {
	s := tn.s
	fields, chars := c.Size()
	first := [2]int{fields, chars}
	again := s.run(ctx, c)
	tn.l.cache[key] = again
	g, shown := pick(again.judge.Findings, f.Signature(), nil)
	if !shown {
		s.noteFlaky(Record{Kind: tn.l.p.kind, Case: c, Finding: f, Exchanges: out.exchanges, Hits: 1, FirstSize: first})
		return f, out, false
	}
	tn.target, tn.shrink = g.Signature(), s.budget.shrinkWindow()
	s.shrinking = tn.target
	tn.best.FirstSize = first
	used, after := s.budget.used()
	tn.found, tn.shrinkFrom = Progress{Requests: used, Cases: s.totalCases(), After: after}, s.c.Seq()
	return g, again, true
}
