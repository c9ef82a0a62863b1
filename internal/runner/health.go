package runner

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/marker"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/spec"
)

// This file holds what the runner does about targets that misbehave below
// the rule level: the run's clock (a global --timeout always wins), the
// report of a target that cannot be checked at all, and the verdict of a
// target that stops answering in the middle of a run.

// clock is the time budget of one run.
type clock struct {
	timeout time.Duration
	// hard is when every request is cut and no new one is sent (zero: no
	// limit).
	hard time.Time
	// reserve is the end of the budget kept for cleanup, which still gets
	// to try to delete what the specs created.
	reserve time.Duration
}

// maxCleanupReserve caps the part of --timeout kept for cleanup.
const maxCleanupReserve = 30 * time.Second

func newClock(started time.Time, timeout time.Duration) clock {
	if timeout <= 0 {
		return clock{}
	}
	return clock{timeout: timeout, hard: started.Add(timeout), reserve: min(timeout/10, maxCleanupReserve)}
}

// suiteTimeout is Ginkgo's timeout for the specs, from now (0: none).
func (k clock) suiteTimeout() time.Duration {
	if k.hard.IsZero() {
		return 0
	}
	return max(time.Until(k.hard.Add(-k.reserve)), time.Millisecond)
}

// gracePeriod is how long Ginkgo waits for an interrupted node to return
// (its default, 30s, would let a stuck node outlive --timeout).
func (k clock) gracePeriod() time.Duration {
	return max(k.reserve, time.Second)
}

// expired reports whether the specs' share of the budget is spent.
func (k clock) expired() bool {
	return !k.hard.IsZero() && !time.Now().Before(k.hard.Add(-k.reserve))
}

// unusableRun is the report of a run that stopped at preflight: every rule
// not checked, with the reason, so a report file still says what happened.
func unusableRun(cfg Config, c *client.Client, started time.Time, sentence string) *report.Run {
	runID := cfg.RunID
	if runID == "" {
		runID = marker.NewRunID(started)
	}
	meta := report.Meta{SuiteVersion: cfg.SuiteVersion, Target: c.BaseURL(), RunID: runID, Mode: cfg.Mode(),
		LabelFilter: cfg.LabelFilter, Focus: cfg.Focus, Skip: cfg.Skip, Started: started,
		Duration: report.Duration(time.Since(started)), Requests: c.Seq(), Retries: c.Retries()}
	run := report.Build(nil, spec.All(), meta, report.Extras{Observations: retryNotes(c)})
	for i := range run.Rules {
		if run.Rules[i].Status == report.NotChecked {
			run.Rules[i].Reason = "the target cannot be checked (preflight)"
		}
	}
	run.Verdict = "The target cannot be checked: " + sentence
	return run
}

// health is the verdict on a target that failed below the rule level during
// the specs, overriding the rule-count verdict.
type health struct {
	Sentence string
	Exit     int
}

// Thresholds of assessHealth.
const (
	// healthWindow is how many of the last exchanges are looked at.
	healthWindow = 10
	// minStreak is the number of trailing failures that, with most of the
	// window failing, means the target stopped.
	minStreak = 2
	// longWait is how long a request cut by the run's end must have waited
	// to count as unanswered (a healthy target answers well within it).
	longWait = time.Second
)

// assessHealth looks at the exchanges of a run whose preflight passed. If
// the run ends with the target no longer serving (the last exchanges, the
// very last included, fail at the transport level or are answered 429/503
// even after retries, and they are most of the last few), the verdict says
// so, with the number of requests made before, and the exit code is
// ExitUnusable: rule failures after that point say nothing about the spec.
// If only the run's time limit was reached, the verdict says that
// (ExitFail).
func assessHealth(exs []*client.Exchange, k clock, deadlineHit bool, run *report.Run) *health {
	// Exchanges that tell something: sent, and not cut short by the end of
	// the run (those say nothing about the target).
	var telling []*client.Exchange
	var sent int
	first := -1 // index among sent exchanges of the first failure of the final streak
	streak := 0
	for _, ex := range exs {
		if !ex.Sent {
			continue
		}
		switch classify(ex, deadlineHit) {
		case answered:
			streak, first = 0, -1
			telling = append(telling, ex)
		case notServing:
			if streak == 0 {
				first = sent
			}
			streak++
			telling = append(telling, ex)
		}
		sent++
	}
	window := telling[max(0, len(telling)-healthWindow):]
	failures := 0
	for _, ex := range window {
		if classify(ex, deadlineHit) == notServing {
			failures++
		}
	}
	stopped := first > 0 && streak > 0 &&
		((streak >= minStreak && 2*failures >= len(window)) || deadlineHit)
	c := run.Counts
	if stopped {
		// The final streak is the end of telling (inconclusive exchanges
		// are not in it).
		firstEx := telling[len(telling)-streak]
		what := "got no answer (" + client.Cause(firstEx.Err) + ")"
		verb := "stopped answering"
		if firstEx.Err == nil {
			what = fmt.Sprintf("were answered %d %s even after retries", firstEx.Status, http.StatusText(firstEx.Status))
			verb = "stopped serving requests"
		}
		return &health{Exit: ExitUnusable, Sentence: fmt.Sprintf(
			"UNUSABLE: the target %s after %d requests: the last %d %s; rule results from then on say nothing about the spec (%d passed, %d failed, %d not checked).",
			verb, first, streak, what, c.Passed, c.Failed, c.NotChecked)}
	}
	if deadlineHit {
		return &health{Exit: ExitFail, Sentence: fmt.Sprintf(
			"INCOMPLETE: the run's time limit (--timeout %s) was reached after %d requests: %d rule(s) passed, %d failed, %d not checked.",
			k.timeout, len(exs), c.Passed, c.Failed, c.NotChecked)}
	}
	return nil
}

// Classes of exchanges for assessHealth.
const (
	answered     = iota // the target answered (whatever it said)
	notServing          // no answer, or 429/503 still after the retries
	inconclusive        // cut short by the end of the run, or refused locally
)

// classify sorts an exchange for assessHealth. A request cut by the run's
// end counts as unanswered only if it had waited long: a healthy target
// answers well within longWait.
func classify(ex *client.Exchange, deadlineHit bool) int {
	if ex.Err == nil {
		if ex.Status != http.StatusTooManyRequests && ex.Status != http.StatusServiceUnavailable {
			return answered
		}
		if ex.Method == http.MethodGet {
			return notServing // still refused after the retries
		}
		// A write refused with 429/503 (never retried) says the target is
		// up but not taking writes: the write rules fail, it is no outage.
		return inconclusive
	}
	switch client.FailureKind(ex.Err) {
	case client.KindCancelled, client.KindRunDeadline:
		if deadlineHit && ex.Duration >= longWait {
			return notServing
		}
		return inconclusive
	case "":
		return inconclusive // refused locally, not the target's doing
	}
	return notServing
}

// maxRetryNotes bounds the retries listed one by one in a report.
const maxRetryNotes = 20

// retryNotes lists the reads that were retried after 429/503, one line
// each (redacted request line and what happened), for the report.
func retryNotes(c *client.Client) []string {
	var notes []string
	more := 0
	for _, ex := range c.Exchanges() {
		for _, r := range ex.Retries {
			if len(notes) == maxRetryNotes {
				more++
				continue
			}
			notes = append(notes, fmt.Sprintf("retry: %s was answered %s", ex.RequestLine(), r))
		}
	}
	if more > 0 {
		notes = append(notes, fmt.Sprintf("retry: and %d more retries", more))
	}
	return notes
}

// afterSpecs adds the transport-level facts of the run to its report
// (retries, a target that stopped answering, the time limit) and returns
// the exit code they impose, or 0 to decide from the rules.
func afterSpecs(run *report.Run, c *client.Client, k clock) int {
	run.Meta.Retries = c.Retries()
	run.Observations = append(run.Observations, retryNotes(c)...)
	hit := timedOut(run, k)
	if hit {
		// Ginkgo skipped what it had no time for; say so instead of its
		// generic "an earlier step failed" reason.
		for i, rr := range run.Rules {
			if rr.Status == report.NotChecked && len(rr.Specs) > 0 && strings.HasPrefix(rr.Reason, report.ReasonSkipped) {
				run.Rules[i].Reason = fmt.Sprintf("the run's time limit (--timeout %s) was reached before this rule was checked", k.timeout)
			}
		}
	}
	if h := assessHealth(c.Exchanges(), k, hit, run); h != nil {
		run.Verdict = h.Sentence
		return h.Exit
	}
	return 0
}

// timedOut reports whether the specs were cut by the run's time limit:
// their share of the budget is spent and Ginkgo says its suite timeout
// elapsed (a run whose specs all ended in time, and whose cleanup ran into
// the reserve, did not time out).
func timedOut(run *report.Run, k clock) bool {
	if !k.expired() {
		return false
	}
	for _, e := range run.SuiteErrors {
		if strings.Contains(strings.ToLower(e), "timeout") {
			return true
		}
	}
	return false
}

// applyClock gives Ginkgo the specs' share of the run's budget.
func applyClock(sc *types.SuiteConfig, k clock) {
	if k.hard.IsZero() {
		return
	}
	sc.Timeout = k.suiteTimeout()
	sc.GracePeriod = k.gracePeriod()
}

// goroutineHeaders start the sections of Ginkgo's progress reports (printed
// when a spec is interrupted by the run's time limit or Ctrl-C) and of a
// panicking spec's failure that hold Go stack traces.
var goroutineHeaders = []string{"Spec Goroutine", "Goroutines of Interest", "Other Goroutines", "Full Stack Trace"}

// ansiCode matches a colour code.
var ansiCode = regexp.MustCompile("\x1b\\[[0-9;]*m")

// dropGoroutineDumps wraps the console so that no Go stack trace reaches
// the user: each section under one of goroutineHeaders becomes a one-line
// note. Everything else passes
// through as it comes, partial lines included (progress dots).
func dropGoroutineDumps(w io.Writer) io.Writer { return &dumpFilter{w: w} }

type dumpFilter struct {
	w        io.Writer
	mu       sync.Mutex
	line     []byte // the current line, held while it might be a header
	passing  bool   // the current line is forwarded as it comes
	dropping bool   // the current line is dropped
	skipping bool   // inside a stack-trace section
	indent   int    // the section header's indentation
}

func (f *dumpFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		chunk := p
		eol := false
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			chunk, eol = p[:i+1], true
		}
		p = p[len(chunk):]
		if err := f.feed(chunk, eol); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func (f *dumpFilter) feed(chunk []byte, eol bool) error {
	switch {
	case f.passing:
		f.passing = !eol
		_, err := f.w.Write(chunk)
		return err
	case f.dropping:
		f.dropping = !eol
		return nil
	}
	f.line = append(f.line, chunk...)
	text := strings.TrimRight(ansiCode.ReplaceAllString(string(f.line), ""), "\r\n")
	trimmed := strings.TrimLeft(text, " \t")
	indent := len(text) - len(trimmed)
	if trimmed == "" && !eol {
		return nil // not yet known what this line is
	}
	if f.skipping {
		// A dump is "goroutine N [state]" and "> highlighted frame" lines at
		// the header's indentation, and everything indented deeper.
		atIndent := indent == f.indent
		dump := trimmed == "" || indent > f.indent ||
			(atIndent && (strings.HasPrefix(trimmed, "goroutine ") || strings.HasPrefix(trimmed, "> ")))
		if !dump && !eol && atIndent && (strings.HasPrefix("goroutine ", trimmed) || strings.HasPrefix("> ", trimmed)) {
			return nil // not yet known
		}
		if dump {
			f.line, f.dropping = f.line[:0], !eol
			return nil
		}
		f.skipping = false
	}
	for _, h := range goroutineHeaders {
		if !eol && strings.HasPrefix(h, trimmed) {
			return nil // might be a header: wait for the rest of the line
		}
		if eol && trimmed == h {
			f.skipping, f.indent, f.line = true, indent, f.line[:0]
			_, err := fmt.Fprintf(f.w, "%s(%s: Go stack traces omitted)\n", strings.Repeat(" ", indent), h)
			return err
		}
	}
	out := f.line
	f.line, f.passing = f.line[:0], !eol
	_, err := f.w.Write(out)
	return err
}
