// Package oracle judges what `conformance explore` receives: every check
// is a rule of the catalogue (internal/spec), and a failed check is a
// Finding naming that rule, what the spec expects and what came instead.
// Where the spec leaves an outcome open, every allowed outcome passes and
// the one seen is recorded as an observation. The package sends nothing:
// it reads exchanges.
package oracle

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
)

// Finding is one check that failed.
type Finding struct {
	Rule string `json:"rule"`
	// What names what was judged, in words that do not depend on the
	// input ("status", "data.category"): with Rule, the finding's
	// signature, which a shrunk input must keep.
	What     string `json:"what"`
	Expected string `json:"expected"`
	Got      string `json:"got"`
	// Seq numbers the exchange judged within the run (0: none).
	Seq int `json:"seq,omitempty"`
}

// Signature tells findings apart: the same rule broken in the same place.
func (f Finding) Signature() string { return f.Rule + ": " + f.What }

// Judge collects the findings of one case and counts, per rule, the
// checks that ran (a rule passes only when a check that could fail ran).
type Judge struct {
	Findings []Finding
	Checked  map[string]int
	// Observed are facts the spec leaves open (which allowed outcome a
	// server chose), in words.
	Observed []string
}

// NewJudge returns an empty judge.
func NewJudge() *Judge { return &Judge{Checked: map[string]int{}} }

// Check counts one check of rule on ex and records a finding when it
// failed.
func (j *Judge) Check(rule string, ok bool, ex *client.Exchange, what, expected, got string) bool {
	j.Checked[rule]++
	if !ok {
		seq := 0
		if ex != nil {
			seq = ex.Seq
		}
		j.Findings = append(j.Findings, Finding{Rule: rule, What: what, Expected: expected, Got: got, Seq: seq})
	}
	return ok
}

// Judged counts one check of rule on ex by a shared judgement (the
// rules packages) and records a finding when it failed: what was judged,
// what the spec expects, and the judgement's problem. A judgement that
// cannot judge ex counts nothing, and holds.
func (j *Judge) Judged(rule string, ex *client.Exchange, what, expected string, v rules.Judgement) bool {
	if v.Skip {
		return true
	}
	return j.Check(rule, v.Holds(), ex, what, expected, v.Problem)
}

// Observe records an outcome the spec leaves open.
func (j *Judge) Observe(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !slices.Contains(j.Observed, s) {
		j.Observed = append(j.Observed, s)
	}
}

// Tally adds up the checks of many cases, safe for concurrent use.
type Tally struct {
	mu       sync.Mutex
	checked  map[string]int
	observed []string
}

// Add counts the checks and observations of j.
func (t *Tally) Add(j *Judge) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.checked == nil {
		t.checked = map[string]int{}
	}
	for r, n := range j.Checked {
		t.checked[r] += n
	}
	for _, o := range j.Observed {
		if !slices.Contains(t.observed, o) && len(t.observed) < 40 {
			t.observed = append(t.observed, o)
		}
	}
}

// Checked returns how many checks of each rule ran.
func (t *Tally) Checked() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string]int{}
	for r, n := range t.checked {
		out[r] = n
	}
	return out
}

// Observed returns the observations, in order of first appearance.
func (t *Tally) Observed() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.observed)
}

// shorten cuts s to n runes, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// quote renders a value for a finding, shortened.
func quote(s string) string { return fmt.Sprintf("%q", shorten(s, 120)) }

// joinQuoted renders values for a finding.
func joinQuoted(vs []string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = quote(v)
	}
	return "[" + strings.Join(out, ", ") + "]"
}
