package runner

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/report"
)

// A progress report as Ginkgo prints it when the run's time limit
// interrupts a spec (no-colour mode).
const progressReport = `------------------------------
• [TIMEDOUT] [0.221 seconds]
4.4 PUT /api/pages/{key} [It] [PAGE-UUID-STABLE] uuid does not change
  [TIMEDOUT] A suite timeout occurred
  In [It] at: suites/pages/writes.go:286

  This is the Progress Report generated when the suite timeout occurred:
    4.4 PUT /api/pages/{key} [PAGE-UUID-STABLE] (Spec Runtime: 114ms)
      suites/pages/writes.go:286
      In [It] (Node Runtime: 114ms)
        suites/pages/writes.go:286

      Spec Goroutine
      goroutine 119 [select]
        net/http.(*persistConn).roundTrip(0x35e0a9286640, 0x35e0a9404cd0)
          /usr/local/go/src/net/http/transport.go:2911
      > github.com/x/internal/framework.(*Target).Read(...)
          internal/framework/requests.go:17
            | func (t *Target) Read(ctx context.Context) *client.Exchange {
            > 	return t.Client.Do(ctx, client.Request{})

      Goroutines of Interest
      goroutine 7 [chan receive]
        main.main()
          main.go:3

  [FAILED] A suite timeout occurred and then the following failure was recorded:
  reading page back
------------------------------
SSSS
`

func TestDropGoroutineDumps(t *testing.T) {
	for _, chunk := range []int{1, 3, 17, len(progressReport)} {
		var out bytes.Buffer
		w := dropGoroutineDumps(&out)
		for s := progressReport; s != ""; {
			n := min(chunk, len(s))
			if _, err := w.Write([]byte(s[:n])); err != nil {
				t.Fatal(err)
			}
			s = s[n:]
		}
		got := out.String()
		for _, gone := range []string{"goroutine 119", "goroutine 7", "persistConn", "transport.go", "> github.com", "main.main", "| func"} {
			if strings.Contains(got, gone) {
				t.Errorf("chunks of %d: %q reached the console:\n%s", chunk, gone, got)
			}
		}
		for _, kept := range []string{"[TIMEDOUT] A suite timeout occurred", "(Spec Runtime: 114ms)", "      (Spec Goroutine: Go stack traces omitted)",
			"(Goroutines of Interest: Go stack traces omitted)", "  [FAILED] A suite timeout occurred", "reading page back", "SSSS\n"} {
			if !strings.Contains(got, kept) {
				t.Errorf("chunks of %d: %q was dropped:\n%s", chunk, kept, got)
			}
		}
	}
}

// TestDropGoroutineDumpsStreams checks that output without a newline
// (Ginkgo's progress dots) is not held back.
func TestDropGoroutineDumpsStreams(t *testing.T) {
	var out bytes.Buffer
	w := dropGoroutineDumps(&out)
	_, _ = w.Write([]byte("[123] Suite - 10/10 specs "))
	_, _ = w.Write([]byte("•"))
	if out.String() != "[123] Suite - 10/10 specs •" {
		t.Errorf("held back: %q", out.String())
	}
	// A line that may be a section header is held until it is known.
	_, _ = w.Write([]byte("\n  Spec Gor"))
	if strings.Contains(out.String(), "Spec Gor") {
		t.Error("a possible header was written before it was known")
	}
	_, _ = w.Write([]byte("outine is not a header here\n"))
	if !strings.Contains(out.String(), "  Spec Goroutine is not a header here\n") {
		t.Errorf("a line that is no header was lost: %q", out.String())
	}
}

func refused() error {
	return &client.TransportError{Kind: client.KindRefused, Cause: "the connection was refused"}
}

func ok(method string) *client.Exchange {
	return &client.Exchange{Method: method, Sent: true, Status: http.StatusOK}
}

func TestAssessHealth(t *testing.T) {
	answered := func(n int) []*client.Exchange {
		var exs []*client.Exchange
		for i := 0; i < n; i++ {
			exs = append(exs, ok(http.MethodGet))
		}
		return exs
	}
	failed := func(n int, err error) []*client.Exchange {
		var exs []*client.Exchange
		for i := 0; i < n; i++ {
			exs = append(exs, &client.Exchange{Method: http.MethodGet, Sent: true, Err: err})
		}
		return exs
	}
	join := func(parts ...[]*client.Exchange) []*client.Exchange {
		var out []*client.Exchange
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	live := newClock(time.Now(), time.Hour)
	spent := newClock(time.Now().Add(-time.Hour), 10*time.Second)
	cut := &client.Exchange{Method: http.MethodGet, Sent: true, Duration: 3 * time.Second,
		Err: &client.TransportError{Kind: client.KindCancelled, Cause: "the run was interrupted before the target answered"}}
	quickCut := &client.Exchange{Method: http.MethodDelete, Sent: true, Duration: 50 * time.Millisecond,
		Err: &client.TransportError{Kind: client.KindRunDeadline, Cause: "the run's time limit (--timeout) was reached"}}
	notSent := &client.Exchange{Method: http.MethodDelete, Err: client.ErrRunDeadline}
	unavailable := &client.Exchange{Method: http.MethodGet, Sent: true, Status: http.StatusServiceUnavailable, Retries: []string{"503", "503"}}
	writeRefused := &client.Exchange{Method: http.MethodDelete, Sent: true, Status: http.StatusServiceUnavailable}
	timeout := &client.TransportError{Kind: client.KindTimeout, Cause: "no answer within the request timeout (10s, --request-timeout)"}

	cases := []struct {
		name    string
		exs     []*client.Exchange
		k       clock
		hit     bool // the specs were cut by the time limit
		exit    int  // 0: no verdict of its own
		verdict string
	}{
		{"healthy", answered(50), live, false, 0, ""},
		{"one slow request at the end of a long run", join(answered(50), failed(1, timeout)), live, false, 0, ""},
		{"a few timeouts among many answers", join(answered(20), failed(1, timeout), answered(5), failed(1, timeout)), live, false, 0, ""},
		{"goes down after 30 requests", join(answered(30), failed(12, refused())), live, false, ExitUnusable,
			"UNUSABLE: the target stopped answering after 30 requests: the last 12 got no answer (the connection was refused)"},
		{"two refusals after two answers", join(answered(2), failed(2, refused())), live, false, ExitUnusable,
			"stopped answering after 2 requests: the last 2 got no answer"},
		{"cleanup not sent after the outage does not hide it", join(answered(30), failed(5, refused()), []*client.Exchange{notSent, notSent}), live, false, ExitUnusable,
			"stopped answering after 30 requests: the last 5"},
		{"reads answered 503 even after retries", join(answered(30), []*client.Exchange{unavailable, unavailable, unavailable, unavailable, unavailable}), live, false, ExitUnusable,
			"UNUSABLE: the target stopped serving requests after 30 requests: the last 5 were answered 503 Service Unavailable even after retries"},
		{"three failures at the end of a long run are not most of the last ten", join(answered(30), failed(3, refused())), live, false, 0, ""},
		{"writes answered 503 are no outage", join(answered(30), []*client.Exchange{writeRefused, writeRefused, writeRefused}), live, false, 0, ""},
		{"hangs until the time limit", join(answered(20), []*client.Exchange{cut, quickCut, notSent}), spent, true, ExitUnusable,
			"stopped answering after 20 requests: the last 1 got no answer (the run was interrupted before the target answered)"},
		{"time limit while the target answers", join(answered(20), []*client.Exchange{quickCut, notSent}), spent, true, ExitFail,
			"INCOMPLETE: the run's time limit (--timeout 10s) was reached after 22 requests"},
		{"read-only refusals are not the target's doing", join(answered(10), failed(3, client.ErrReadOnly)), live, false, 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := assessHealth(tc.exs, tc.k, tc.hit, &report.Run{})
			switch {
			case tc.exit == 0 && h != nil:
				t.Errorf("verdict %q, want none", h.Sentence)
			case tc.exit != 0 && h == nil:
				t.Errorf("no verdict, want %q", tc.verdict)
			case h != nil && (h.Exit != tc.exit || !strings.Contains(h.Sentence, tc.verdict)):
				t.Errorf("exit %d %q, want %d %q", h.Exit, h.Sentence, tc.exit, tc.verdict)
			}
		})
	}
}

func TestTimedOut(t *testing.T) {
	spent := newClock(time.Now().Add(-time.Hour), 10*time.Second)
	live := newClock(time.Now(), time.Hour)
	timeout := &report.Run{SuiteErrors: []string{"Suite Timeout Elapsed"}}
	if !timedOut(timeout, spent) {
		t.Error("a spent budget and Ginkgo's suite timeout: not timed out")
	}
	if timedOut(&report.Run{}, spent) {
		t.Error("specs that ended in time (cleanup ran into the reserve) counted as timed out")
	}
	if timedOut(timeout, live) {
		t.Error("timed out with budget left")
	}
}

func TestClock(t *testing.T) {
	if k := newClock(time.Now(), 0); !k.hard.IsZero() || k.suiteTimeout() != 0 || k.expired() {
		t.Errorf("no --timeout: %+v", k)
	}
	start := time.Now()
	k := newClock(start, 10*time.Second)
	if !k.hard.Equal(start.Add(10 * time.Second)) {
		t.Errorf("hard deadline %v", k.hard)
	}
	if st := k.suiteTimeout(); st > 9*time.Second || st < 8*time.Second {
		t.Errorf("specs get %s of 10s, want about 9s (a tenth kept for cleanup)", st)
	}
	if g := k.gracePeriod(); g < time.Second || g > 10*time.Second {
		t.Errorf("grace period %s", g)
	}
	if k.expired() {
		t.Error("expired at the start")
	}
	if long := newClock(start, time.Hour); long.reserve != maxCleanupReserve {
		t.Errorf("reserve of a 1h run is %s, want the cap %s", long.reserve, maxCleanupReserve)
	}
	if past := newClock(start.Add(-time.Minute), 10*time.Second); !past.expired() || past.suiteTimeout() <= 0 {
		t.Errorf("a spent budget: expired %v, suite timeout %s (must stay positive for Ginkgo)", past.expired(), past.suiteTimeout())
	}
}

func TestUnusableRun(t *testing.T) {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "tok-tok-tok"})
	if err != nil {
		t.Fatal(err)
	}
	run := unusableRun(Config{SuiteVersion: "v9", RunID: "r1"}, c, time.Now(), "Cannot reach it.")
	if run.Verdict != "The target cannot be checked: Cannot reach it." || run.Meta.RunID != "r1" || run.Meta.Target != "http://127.0.0.1:9" {
		t.Errorf("verdict %q meta %+v", run.Verdict, run.Meta)
	}
	if run.Counts.Passed+run.Counts.Failed != 0 || len(run.Rules) == 0 {
		t.Errorf("counts %+v, %d rules", run.Counts, len(run.Rules))
	}
	for _, rr := range run.Rules {
		if rr.Status == report.NotChecked && rr.Reason != "the target cannot be checked (preflight)" {
			t.Errorf("rule %s: reason %q", rr.ID, rr.Reason)
		}
	}
}
