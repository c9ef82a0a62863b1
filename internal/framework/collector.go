package framework

import "sync"

// Collector gathers values by key, from whatever goroutine finds them: an
// observer of the run's exchanges (Client.OnExchange calls it from the
// goroutine that made the request, side by side with others), prepares
// side by side. The zero value is ready to use. Suites keep what they
// collect this way rather than under a lock of their own.
type Collector[K comparable, V any] struct {
	mu     sync.Mutex
	values map[K][]V
}

// Add appends v to the values of key k.
func (c *Collector[K, V]) Add(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.values == nil {
		c.values = map[K][]V{}
	}
	c.values[k] = append(c.values[k], v)
}

// Of returns the values of the keys given, key by key in that order, each
// key's in the order added; a fresh slice, which the caller may keep.
func (c *Collector[K, V]) Of(keys ...K) []V {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []V
	for _, k := range keys {
		out = append(out, c.values[k]...)
	}
	return out
}
