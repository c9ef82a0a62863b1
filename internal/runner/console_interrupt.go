package runner

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/conformance-suite/conformance/internal/report"
)

// This file says, in the suite's words, what happens when a run is
// interrupted. Ginkgo receives the same signals and acts on them: the
// first stops starting specs and interrupts the running one, then runs the
// cleanup nodes (the framework's deletes and settings restores) and the
// report nodes; the second skips the cleanup as well; the third abandons
// everything at once.

// The words printed at each interrupt.
var (
	firstInterruptWords = []string{
		"%s: no further check starts, and the one under way stops.",
		"Cleanup runs now: the pages this run created are deleted and the settings it changed are restored; then the reports are written.",
		"Press Ctrl-C again to skip the cleanup.",
	}
	secondInterruptWords = []string{
		"%s again: the cleanup is skipped. Pages this run created may stay on the target (`conformance cleanup` deletes them later),",
		"and settings it changed are not restored. The reports are still written. A third Ctrl-C stops at once.",
	}
	thirdInterruptWords = []string{"%s a third time: stopping at once; the reports will not have the results."}
)

// ReasonInterrupted is why a rule whose specs an interrupt kept from
// running was not checked.
const ReasonInterrupted = "the run was interrupted (Ctrl-C) before this rule was checked"

// interrupts counts the interrupts of a run and says what each one does.
type interrupts struct {
	mu    sync.Mutex
	count int
	stop  func()
}

// watchInterrupts listens for SIGINT and SIGTERM while the specs run and
// tells the console what each one does. stop ends the watch.
func watchInterrupts(p *progress) *interrupts {
	in := &interrupts{}
	signals := make(chan os.Signal, 3)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	stop := forEach(signals, func(sig os.Signal) {
		in.mu.Lock()
		in.count++
		n := in.count
		in.mu.Unlock()
		in.say(p, n, sig)
	})
	in.stop = func() {
		signal.Stop(signals)
		stop()
	}
	return in
}

func (in *interrupts) say(p *progress, n int, sig os.Signal) {
	what := "Interrupted (Ctrl-C)"
	if sig == syscall.SIGTERM {
		what = "Terminated (SIGTERM)"
	}
	var words []string
	switch n {
	case 1:
		words = firstInterruptWords
		p.setStopping("interrupted: cleaning up (Ctrl-C again skips it)")
	case 2:
		words = secondInterruptWords
		p.setStopping("interrupted: writing the reports, cleanup skipped")
	case 3:
		words = thirdInterruptWords
		p.setStopping("interrupted: stopping")
	default:
		return
	}
	lines := append([]string{""}, words...)
	lines[1] = strings.Replace(lines[1], "%s", what, 1)
	p.say(lines...)
}

// interrupted reports whether the run got an interrupt.
func (in *interrupts) interrupted() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.count > 0
}

// markInterrupted replaces, in an interrupted run, the generic reason of a
// spec Ginkgo skipped (an earlier step failed, or --fail-fast) with the
// interrupt, as Ginkgo records all of these skips alike, and says in the
// verdict that the run was interrupted.
func markInterrupted(run *report.Run) {
	c := run.Counts
	if c.Failed > 0 {
		run.Verdict += " The run was interrupted (Ctrl-C) before every rule was checked."
	} else {
		run.Verdict = fmt.Sprintf("INCOMPLETE: the run was interrupted (Ctrl-C) before every rule was checked; %d passed, %d not checked.", c.Passed, c.NotChecked+c.Errored)
	}
	for i, s := range run.Specs {
		if s.Status == report.NotChecked && s.Message == report.ReasonSkipped {
			run.Specs[i].Message = ReasonInterrupted
		}
	}
	for i, rr := range run.Rules {
		if rr.Status == report.NotChecked && strings.Contains(rr.Reason, report.ReasonSkipped) {
			run.Rules[i].Reason = strings.ReplaceAll(rr.Reason, report.ReasonSkipped, ReasonInterrupted)
		}
	}
}
