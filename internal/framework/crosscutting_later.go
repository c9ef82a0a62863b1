package framework

import (
	"sync"

	"github.com/conformance-suite/conformance/internal/client"
)

// Checks judged later: a cross-cutting check whose work is heavy (holding a
// body against a JSON Schema) judges a copy of each body on a goroutine of
// its own, in the order the exchanges were observed, instead of on the one
// that recorded them: that one is a spec's, and the run's next phase waits
// for its specs. Tally waits until every body queued has been judged, so
// the verdicts are those a check judged at once would give.

// laterJob is one exchange for the checks judged later.
type laterJob struct {
	check   ExchangeCheck
	ex      *client.Exchange
	body    []byte
	request string
}

// laterQueue runs the jobs in order, one at a time, on a goroutine that
// lives while there are jobs.
type laterQueue struct {
	mu      sync.Mutex
	jobs    []laterJob
	running bool
	pending sync.WaitGroup
}

// enqueue adds a job and starts the goroutine when none runs; run judges
// one job.
func (q *laterQueue) enqueue(j laterJob, run func(laterJob)) {
	q.pending.Add(1)
	q.mu.Lock()
	q.jobs = append(q.jobs, j)
	start := !q.running
	q.running = true
	q.mu.Unlock()
	if start {
		go q.drain(run)
	}
}

func (q *laterQueue) drain(run func(laterJob)) {
	for {
		q.mu.Lock()
		if len(q.jobs) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		j := q.jobs[0]
		q.jobs = q.jobs[1:]
		q.mu.Unlock()
		run(j)
		q.pending.Done()
	}
}

// wait returns once every job queued so far has been judged.
func (q *laterQueue) wait() { q.pending.Wait() }

// queueLater queues ex for check, which judges it later (check.Later):
// check.Check, when set, first says at once whether ex is one to judge. The
// caller holds p.mu.
func (p *CrossCutting) queueLater(check ExchangeCheck, ex *client.Exchange, request string) {
	if check.Check != nil && check.Check(ex).Skip {
		return
	}
	body := append([]byte(nil), ex.Body()...) // the exchange releases a large body when its spec ends
	p.later.enqueue(laterJob{check: check, ex: ex, body: body, request: request}, p.judgeLater)
}

// judgeLater adds the verdict of a job to the tallies.
func (p *CrossCutting) judgeLater(j laterJob) {
	v := j.check.Later(j.ex, j.body)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tallyVerdict(p.tallies, j.check.Rule, v, j.request, j.ex)
}
