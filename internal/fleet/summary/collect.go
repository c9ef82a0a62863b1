package summary

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/spool"
)

// Collector gathers the sites' lines as they finish, in any order, from
// any goroutine. Each line goes to a spool file at once; memory keeps
// 24 bytes a site (where its line is) and the tallies of the rules.
type Collector struct {
	mu    sync.Mutex
	head  Fleet
	rules map[string]int // rule ID -> index in head.Rules
	sp    *spool.Spool
	lines []line
	exit  int
}

type line struct {
	index int
	ref   spool.Ref
}

// NewCollector starts a summary of the rules given (in their order; rules
// a site reports that are not among them are added after), its spool in
// dir (the system's temporary folder when "").
func NewCollector(head Fleet, rules []Rule, dir string) (*Collector, error) {
	sp, err := spool.New(dir)
	if err != nil {
		return nil, fmt.Errorf("the fleet summary's spool file: %w", err)
	}
	head.FormatVersion, head.Kind = FormatVersion, Kind
	head.Rules, head.Counts = nil, Counts{}
	c := &Collector{head: head, rules: map[string]int{}, sp: sp}
	for _, r := range rules {
		c.rule(Rule{ID: r.ID, Section: r.Section, Level: r.Level, Area: r.Area, Text: r.Text})
	}
	return c, nil
}

// rule returns the tally of r.ID, adding r when it is new.
func (c *Collector) rule(r Rule) *Rule {
	i, ok := c.rules[r.ID]
	if !ok {
		i = len(c.head.Rules)
		c.rules[r.ID] = i
		c.head.Rules = append(c.head.Rules, r)
	}
	return &c.head.Rules[i]
}

// Add takes one site's line.
func (c *Collector) Add(s Site) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ref, err := c.sp.Append(string(b))
	if err != nil {
		return fmt.Errorf("the fleet summary's spool file: %w", err)
	}
	c.lines = append(c.lines, line{s.Index, ref})
	c.head.Counts.add(s.Outcome)
	c.exit = Worst(c.exit, s.Outcome.Exit())
	for _, id := range sortedKeys(s.Rules) {
		c.rule(Rule{ID: id}).tally(s, s.Rules[id])
	}
	return nil
}

func sortedKeys(m map[string]report.Status) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Finish ends the collection: the summary of the sites taken, in the
// targets file's order, with its exit code and verdict. The Collector
// must take no more; Close the summary when done with it.
func (c *Collector) Finish(duration time.Duration) *Summary {
	c.mu.Lock()
	defer c.mu.Unlock()
	slices.SortFunc(c.lines, func(a, b line) int { return a.index - b.index })
	head := c.head
	head.Duration = report.Duration(duration)
	head.Exit = c.exit
	if head.Shards != nil && len(head.Shards.Missing()) > 0 && head.Targets.Sites > head.Counts.Sites {
		head.Exit = Worst(head.Exit, Incomplete.Exit()) // sites of the targets went unchecked
	}
	head.Verdict = head.verdict()
	return &Summary{Fleet: head, sp: c.sp, lines: c.lines}
}

// Summary is a finished fleet summary: its head in memory, its sites'
// lines on disk.
type Summary struct {
	Fleet
	sp    *spool.Spool
	lines []line
}

// Each calls f with every site's line, in the targets file's order,
// until f returns an error.
func (s *Summary) Each(f func(Site) error) error {
	var buf []byte
	for _, l := range s.lines {
		buf = s.sp.ReadInto(l.ref, buf)
		var site Site
		if err := json.Unmarshal(buf, &site); err != nil {
			return fmt.Errorf("the fleet summary's spool file: %w", err)
		}
		if err := f(site); err != nil {
			return err
		}
	}
	return nil
}

// Close removes the summary's spool file.
func (s *Summary) Close() { s.sp.Close() }
