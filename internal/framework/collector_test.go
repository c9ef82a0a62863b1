package framework

import (
	"slices"
	"sync"
	"testing"
)

// TestCollector: values added from many goroutines at once are all kept,
// each key's in the order added, and Of returns them key by key in the
// order asked, in a slice of its own. Run with -race to see the lock.
func TestCollector(t *testing.T) {
	var c Collector[string, int]
	if got := c.Of("a"); got != nil {
		t.Errorf("an empty collector gave %v", got)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				c.Add([]string{"even", "odd"}[g%2], g*10000+i)
			}
		})
	}
	wg.Wait()
	even, odd := c.Of("even"), c.Of("odd")
	if len(even) != 4000 || len(odd) != 4000 {
		t.Fatalf("kept %d even and %d odd values, want 4000 each", len(even), len(odd))
	}
	for _, vs := range [][]int{even, odd} {
		last := map[int]int{} // per goroutine, the last value seen
		for _, v := range vs {
			if prev, ok := last[v/10000]; ok && v <= prev {
				t.Fatalf("%d came after %d: a goroutine's values are out of the order added", v, prev)
			}
			last[v/10000] = v
		}
	}
	c.Add("x", 1)
	c.Add("y", 2)
	c.Add("x", 3)
	got := c.Of("y", "x", "missing")
	if !slices.Equal(got, []int{2, 1, 3}) {
		t.Errorf("Of(y, x, missing) = %v, want [2 1 3]", got)
	}
	got[0] = 99
	if again := c.Of("y"); again[0] != 2 {
		t.Errorf("changing what Of returned changed the collector: %v", again)
	}
}
