package fleet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func sitesNamed(names ...string) []Site {
	out := make([]Site, len(names))
	for i, n := range names {
		out[i] = Site{Index: i, Name: n}
	}
	return out
}

func names(sites []Site) []string {
	var out []string
	for _, s := range sites {
		out = append(out, s.Name)
	}
	return out
}

// TestShardsCoverEverySiteOnce: the shards of a fleet are disjoint, cover
// it, differ in size by one at most, and keep the file's order.
func TestShardsCoverEverySiteOnce(t *testing.T) {
	var all []string
	for i := range 103 {
		all = append(all, fmt.Sprintf("site-%03d", i))
	}
	sites := sitesNamed(all...)
	for _, total := range []int{1, 2, 3, 7, 103, 150} {
		seen := map[string]int{}
		smallest, largest := len(sites), 0
		for i := range total {
			picked := Shard{Index: i, Total: total}.Pick(sites)
			smallest, largest = min(smallest, len(picked)), max(largest, len(picked))
			if !slices.IsSortedFunc(picked, func(a, b Site) int { return a.Index - b.Index }) {
				t.Errorf("shard %d/%d is not in the file's order", i, total)
			}
			for _, s := range picked {
				seen[s.Name]++
			}
		}
		if len(seen) != len(sites) || largest-smallest > 1 {
			t.Errorf("%d shards: %d sites seen of %d, sizes %d to %d", total, len(seen), len(sites), smallest, largest)
		}
		for n, k := range seen {
			if k != 1 {
				t.Errorf("%d shards: %s in %d shards", total, n, k)
			}
		}
	}
}

// TestShardIsStableUnderReordering: a site's shard depends on the names,
// not on where the file lists them.
func TestShardIsStableUnderReordering(t *testing.T) {
	var all []string
	for i := range 40 {
		all = append(all, fmt.Sprintf("host-%d.example", i))
	}
	shuffled := slices.Clone(all)
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for i := range 3 {
		s := Shard{Index: i, Total: 3}
		a, b := names(s.Pick(sitesNamed(all...))), names(s.Pick(sitesNamed(shuffled...)))
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Errorf("shard %s: %v in one order, %v in another", s, a, b)
		}
	}
}

func TestShardOf(t *testing.T) {
	env := func(kv map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := kv[k]; return v, ok }
	}
	cases := []struct {
		flag    string
		total   int
		env     map[string]string
		want    Shard
		wantErr string
	}{
		{"", 0, nil, Shard{}, ""},
		{"1/3", 0, nil, Shard{1, 3}, ""},
		{"3/3", 0, nil, Shard{}, "0 <= I < N"},
		{"1-3", 0, nil, Shard{}, "want I/N"},
		{"", 4, map[string]string{EnvCompletionIndex: "2"}, Shard{2, 4}, ""},
		{"", 4, map[string]string{EnvCompletionIndex: "4"}, Shard{}, "from 0 to 3"},
		{"", 4, nil, Shard{}, "needs this shard's index"},
		{"0/2", 2, nil, Shard{}, "not both"},
	}
	for _, c := range cases {
		got, err := ShardOf(c.flag, c.total, env(c.env))
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("ShardOf(%q, %d, %v): %v, want an error saying %q", c.flag, c.total, c.env, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ShardOf(%q, %d, %v) = %v, %v; want %v", c.flag, c.total, c.env, got, err, c.want)
		}
	}
}
