package fleet

import (
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Shard is one slice of a fleet's sites: Index of Total, Index from 0 (as
// a Kubernetes Indexed Job's JOB_COMPLETION_INDEX and GitHub Actions'
// strategy.job-index count). The zero Shard is the whole fleet.
type Shard struct {
	Index, Total int
}

// Whole reports whether the shard is the whole fleet.
func (s Shard) Whole() bool { return s.Total <= 1 }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Total) }

// EnvCompletionIndex is the variable a Kubernetes Indexed Job sets to the
// index of each of its pods.
const EnvCompletionIndex = "JOB_COMPLETION_INDEX"

// ParseShard reads --shard I/N.
func ParseShard(v string) (Shard, error) {
	i, n, ok := strings.Cut(strings.TrimSpace(v), "/")
	if !ok {
		return Shard{}, fmt.Errorf("--shard %q: want I/N, the shard I (from 0) of N", v)
	}
	index, err1 := strconv.Atoi(i)
	total, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil || total < 1 || index < 0 || index >= total {
		return Shard{}, fmt.Errorf("--shard %q: want I/N with 0 <= I < N (shards count from 0: 0/2 and 1/2)", v)
	}
	return Shard{Index: index, Total: total}, nil
}

// ShardOf picks the shard from the flags and the environment: --shard I/N
// as given, or --shards N with the index from JOB_COMPLETION_INDEX (a
// Kubernetes Indexed Job). Neither: the whole fleet.
func ShardOf(flag string, total int, lookup func(string) (string, bool)) (Shard, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	switch {
	case flag != "" && total > 0:
		return Shard{}, fmt.Errorf("give --shard I/N or --shards N, not both")
	case flag != "":
		return ParseShard(flag)
	case total < 0:
		return Shard{}, fmt.Errorf("--shards %d: want 1 or more", total)
	case total == 0:
		return Shard{}, nil
	}
	v, ok := lookup(EnvCompletionIndex)
	if !ok || strings.TrimSpace(v) == "" {
		return Shard{}, fmt.Errorf("--shards %d needs this shard's index: %s (set in each pod of a Kubernetes Indexed Job), or give --shard I/N", total, EnvCompletionIndex)
	}
	index, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || index < 0 || index >= total {
		return Shard{}, fmt.Errorf("%s=%q with --shards %d: want an index from 0 to %d (the Job's completions must equal --shards)", EnvCompletionIndex, v, total, total-1)
	}
	return Shard{Index: index, Total: total}, nil
}

// Pick returns the sites of the shard, in the targets file's order. The
// slice depends on the sites' names only, not on their order in the file:
// the sites are ranked by a hash of their name and dealt out in turn, so
// shards differ in size by one site at most, and every shard's machine,
// reading the same file, makes the same cut.
func (s Shard) Pick(sites []Site) []Site {
	if s.Whole() {
		return sites
	}
	type ranked struct {
		hash uint64
		name string
		i    int
	}
	order := make([]ranked, len(sites))
	for i, site := range sites {
		h := fnv.New64a()
		h.Write([]byte(site.Name))
		order[i] = ranked{h.Sum64(), site.Name, i}
	}
	slices.SortFunc(order, func(a, b ranked) int {
		if a.hash != b.hash {
			if a.hash < b.hash {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	var picked []int
	for rank, r := range order {
		if rank%s.Total == s.Index {
			picked = append(picked, r.i)
		}
	}
	slices.Sort(picked)
	out := make([]Site, len(picked))
	for k, i := range picked {
		out[k] = sites[i]
	}
	return out
}
