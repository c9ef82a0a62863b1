package crosscutting

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
// lives while there are jobs. pending counts the jobs queued and not yet
// judged, under mu; idle is signalled when it falls to zero. (A
// sync.WaitGroup would not do: Observe may queue a job while Tally waits
// with the count at zero, and a WaitGroup's Add may not race its Wait.)
type laterQueue struct {
	mu      sync.Mutex
	jobs    []laterJob
	running bool
	pending int
	idle    *sync.Cond // on mu; made by the first use
}

// cond is the queue's condition, made on first use; the caller holds mu.
func (q *laterQueue) cond() *sync.Cond {
	if q.idle == nil {
		q.idle = sync.NewCond(&q.mu)
	}
	return q.idle
}

// enqueue adds a job and starts the goroutine when none runs; run judges
// one job.
func (q *laterQueue) enqueue(j laterJob, run func(laterJob)) {
	q.mu.Lock()
	q.pending++
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
		q.mu.Lock()
		if q.pending--; q.pending == 0 {
			q.cond().Broadcast()
		}
		q.mu.Unlock()
	}
}

// wait returns once every job queued so far has been judged (and any
// queued while it waits).
func (q *laterQueue) wait() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.pending > 0 {
		q.cond().Wait()
	}
}

// queueLater queues ex for check, which judges it later (check.Later):
// check.Check, when set, first says at once whether ex is one to judge. The
// caller holds p.mu.
func (p *Watcher) queueLater(check ExchangeCheck, ex *client.Exchange, request string) {
	if check.Check != nil && check.Check(ex).Skip {
		return
	}
	// Taken now: the exchange lets go of a large body when its spec ends.
	// No copy: a body is never written once read (client.Exchange.Body).
	body := ex.Body()
	p.later.enqueue(laterJob{check: check, ex: ex, body: body, request: request}, p.judgeLater)
}

// judgeLater adds the verdict of a job to the tallies.
func (p *Watcher) judgeLater(j laterJob) {
	v := j.check.Later(j.ex, j.body)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tallyVerdict(p.tallies, j.check.Rule, v, j.request, j.ex)
}
