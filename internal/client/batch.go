package client

import (
	"context"
	"sync"
)

// DoAll sends reqs with at most n in flight (n < 1 counts as 1), under the
// same --rps limit as every other request, and returns their exchanges in
// the order of reqs. The requests start in that order and are recorded in
// it, whenever each answer arrives: sequence numbers, and so reports, are
// the same from run to run and the same as sending them one by one with
// Do, which is what n = 1 does.
//
// The requests of one batch must not depend on each other: a read beside a
// write may see the target before or after it. Reads repeated within the
// batch are sent once: the later ones wait for the first and, as in
// sequence, replay its answer when the read cache is on (Config.ReadCache).
func (c *Client) DoAll(ctx context.Context, reqs []Request, n int) []*Exchange {
	ps := make([]*pending, len(reqs))
	for i, r := range reqs {
		ps[i] = c.prepare(ctx, r)
	}
	// settled[i] closes once request i is recorded (and its answer, when
	// kept, is in the read cache); executed[i] once its answer stands.
	settled := make([]chan struct{}, len(ps))
	executed := make([]chan struct{}, len(ps))
	for i := range ps {
		settled[i], executed[i] = make(chan struct{}), make(chan struct{})
	}
	// A read repeated in the batch waits for its first occurrence.
	first := map[string]int{}
	after := make([]int, len(ps))
	for i, p := range ps {
		after[i] = -1
		if p.key == "" || p.r.Fresh {
			continue
		}
		if j, ok := first[p.key]; ok {
			after[i] = j
		} else {
			first[p.key] = i
		}
	}

	slots := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	if c.guard != nil && !onHeldWire(ctx) {
		// The guard's check, when one is due, rides along with the batch:
		// a lead, so that it and the batch go before the writes waiting.
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.guard.Beside(ctx, c.leadRead(ctx))
		}()
	}
	wg.Add(1)
	go func() {
		// Hand out the slots in submission order: request i starts no
		// later than request i+1.
		defer wg.Done()
		for i, p := range ps {
			slots <- struct{}{}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-slots }()
				defer close(executed[i])
				if j := after[i]; j >= 0 {
					<-settled[j]
				}
				c.exec(ctx, p)
			}()
		}
	}()
	out := make([]*Exchange, len(ps))
	for i, p := range ps {
		<-executed[i]
		c.settle(ctx, p)
		close(settled[i])
		out[i] = p.ex
	}
	wg.Wait()
	return out
}
