package runner

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/report"
)

// This file decides the verdict on a target that stops answering in the
// middle of a run, below the rule level, and adds the run's retries to its
// report.

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
// so, with the number of requests it answered, and the exit code is
// ExitUnusable: rule failures after that point say nothing about the spec.
// If only the run's time limit was reached, the verdict says that
// (ExitFail).
func assessHealth(exs []*client.Exchange, k clock, deadlineHit bool, run *report.Run) *health {
	// In the order their answers came (or failed to): requests that went
	// side by side are recorded in the order their specs judged them, and
	// an answer recorded after a request that got none would hide the
	// outage or shift where it began.
	exs = slices.SortedStableFunc(slices.Values(exs), func(a, b *client.Exchange) int {
		return a.Started.Add(a.Duration).Compare(b.Started.Add(b.Duration))
	})
	// Exchanges that tell something: sent, and not cut short by the end of
	// the run (those say nothing about the target).
	var telling []*client.Exchange
	// served counts the answered requests: the target stopped after them
	// (none: it never served, which is not stopping).
	// Requests that went side by side may fail before one beside them is
	// answered; those failures are not requests the target served.
	served := 0
	streak := 0
	for _, ex := range exs {
		if !ex.Sent {
			continue
		}
		switch classify(ex, deadlineHit) {
		case answered:
			streak = 0
			served++
			telling = append(telling, ex)
		case notServing:
			streak++
			telling = append(telling, ex)
		}
	}
	window := telling[max(0, len(telling)-healthWindow):]
	failures := 0
	for _, ex := range window {
		if classify(ex, deadlineHit) == notServing {
			failures++
		}
	}
	stopped := served > 0 && streak > 0 &&
		((streak >= minStreak && 2*failures >= len(window)) || deadlineHit)
	c := run.Counts
	if h := largeShareUnanswered(telling, served, c); !stopped && h != nil {
		return h
	}
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
			verb, served, streak, what, c.Passed, c.Failed, c.NotChecked)}
	}
	if deadlineHit {
		return &health{Exit: ExitFail, Sentence: fmt.Sprintf(
			"INCOMPLETE: the run's time limit (--timeout %s) was reached after %d requests: %d rule(s) passed, %d failed, %d not checked.",
			k.timeout, len(exs), c.Passed, c.Failed, c.NotChecked)}
	}
	return nil
}

// Outages that come and go: a run where at least minUnanswered requests,
// and at least one in outageShare of those that tell, got no answer
// stopped answering, wherever the outages fell.
const (
	minUnanswered = 5
	outageShare   = 5
)

// largeShareUnanswered is the verdict on a run whose target went
// unanswered for a large share of its requests, nil when it did not.
func largeShareUnanswered(telling []*client.Exchange, served int, c report.Counts) *health {
	unanswered := len(telling) - served
	if served == 0 || unanswered < minUnanswered || outageShare*unanswered < len(telling) {
		return nil
	}
	return &health{Exit: ExitUnusable, Sentence: fmt.Sprintf(
		"UNUSABLE: the target stopped answering during the run: %d of %d requests got no answer from the API (the network, or "+
			"the server in front answered for it); rule results say little about the spec (%d passed, %d failed, %d could not finish, %d not checked).",
		unanswered, len(telling), c.Passed, c.Failed, c.CouldNotFinish, c.NotChecked)}
}

// Classes of exchanges for assessHealth.
const (
	answered     = iota // the target answered (whatever it said)
	notServing          // no answer, or 429/503 still after the retries
	inconclusive        // cut short by the end of the run, or refused locally
)

// classify sorts an exchange for assessHealth. A request cut by the run's
// end counts as unanswered only if it had waited long on the wire: a
// healthy target answers well within longWait. Its wait for its turn
// does not count: a read that waited seconds behind writes and went out
// just before the time limit says nothing of the target.
func classify(ex *client.Exchange, deadlineHit bool) int {
	// A cut body is an answer: its status and headers arrived (StatusErr).
	if ex.StatusErr() == nil {
		if ex.Status != http.StatusTooManyRequests && ex.Status != http.StatusServiceUnavailable && ex.Fault() == "" {
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
		if from, to := ex.WireSpan(); deadlineHit && to.Sub(from) >= longWait {
			return notServing
		}
		return inconclusive
	case "":
		return inconclusive // refused locally, not the target's doing
	}
	return notServing
}

// maxRetryNotes bounds the retries and cut answers listed one by one in a
// report.
const maxRetryNotes = 20

// retryNotes lists, one line each (redacted request line and what
// happened), for the report: the reads retried after 429/503, the
// requests sent again after a cut connection, and the answers whose body
// the connection cut (their status was judged, their body was not).
func retryNotes(c *client.Client) []string { return transportNotes(c.Exchanges()) }

func transportNotes(exs []*client.Exchange) []string {
	var notes []string
	more := 0
	note := func(format string, args ...any) {
		if len(notes) == maxRetryNotes {
			more++
			return
		}
		notes = append(notes, fmt.Sprintf(format, args...))
	}
	for _, ex := range exs {
		for _, r := range ex.Retries {
			note("retry: %s was answered %s", ex.RequestLine(), r)
		}
		if ex.TransportRetry != "" {
			note("retry: %s was sent again once after its first try failed: %s", ex.RequestLine(), ex.TransportRetry)
		}
		if ex.BodyCut {
			note("cut: the connection closed before the whole answer to %s arrived (HTTP %d after %d bytes of body); "+
				"its status and headers were judged, its body was not", ex.RequestLine(), ex.Status, ex.BodySize())
		}
	}
	if more > 0 {
		notes = append(notes, fmt.Sprintf("retry: and %d more retries or cut answers", more))
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
