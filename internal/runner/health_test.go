package runner

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/report"
)

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
	// A read that waited 3 s for its turn (a spare read, behind writes),
	// then was cut 50 ms after it went out.
	queuedAt := time.Now()
	queuedCut := &client.Exchange{Method: http.MethodGet, Sent: true, Started: queuedAt, Duration: 3*time.Second + 50*time.Millisecond,
		OnWire: queuedAt.Add(3 * time.Second), OffWire: queuedAt.Add(3*time.Second + 50*time.Millisecond),
		Err: &client.TransportError{Kind: client.KindRunDeadline, Cause: "the run's time limit (--timeout) was reached"}}
	notSent := &client.Exchange{Method: http.MethodDelete, Err: client.ErrRunDeadline}
	unavailable := &client.Exchange{Method: http.MethodGet, Sent: true, Status: http.StatusServiceUnavailable, Retries: []string{"503", "503"}}
	writeRefused := &client.Exchange{Method: http.MethodDelete, Sent: true, Status: http.StatusServiceUnavailable}
	timeout := &client.TransportError{Kind: client.KindTimeout, Cause: "no answer within the request timeout (10s, --request-timeout)"}
	cutBody := &client.Exchange{Method: http.MethodPost, Sent: true, Status: http.StatusUnauthorized, BodyCut: true,
		Err: &client.TransportError{Kind: client.KindClosed, Cause: "the connection closed before the whole response body arrived"}}

	// sentAt gives exs the start times of requests sent one after the
	// other from at, in their order.
	sentAt := func(at time.Time, exs []*client.Exchange) []*client.Exchange {
		for i, ex := range exs {
			ex.Started = at.Add(time.Duration(i) * time.Millisecond)
		}
		return exs
	}
	t0 := time.Now()
	early, late := sentAt(t0, answered(12)), sentAt(t0.Add(time.Second), answered(8))
	hung := sentAt(t0.Add(2*time.Second), failed(5, refused()))
	// Requests in flight together reach the target in an order of their
	// own: two of a wave started before answered ones got no answer.
	wave := sentAt(t0, join(answered(15), failed(1, refused()), answered(4), failed(1, refused()), answered(1), failed(6, refused())))

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
		{"an answer beside requests that already failed", join(answered(15), failed(2, refused()), answered(1), failed(8, refused())),
			live, false, ExitUnusable, "stopped answering after 16 requests: the last 8 got no answer"},
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
		{"time limit on a read that waited long for the wire, not on it", join(answered(20), []*client.Exchange{queuedCut, notSent}), spent, true, ExitFail,
			"INCOMPLETE: the run's time limit (--timeout 10s) was reached after 22 requests"},
		{"time limit while the target answers", join(answered(20), []*client.Exchange{quickCut, notSent}), spent, true, ExitFail,
			"INCOMPLETE: the run's time limit (--timeout 10s) was reached after 22 requests"},
		{"refused writes whose body the connection cuts were answered", join(answered(5), []*client.Exchange{cutBody, cutBody, cutBody, cutBody, cutBody, cutBody}), live, false, 0, ""},
		{"recorded in another order than sent (prepared fixtures)", join(early, hung[:3], late, hung[3:]), live, false, ExitUnusable,
			"stopped answering after 20 requests: the last 5 got no answer"},
		{"a wave in flight when the target stopped", wave, live, false, ExitUnusable,
			"stopped answering after 20 requests: the last 6 got no answer"},
		{"read-only refusals are not the target's doing", join(answered(10), failed(3, client.ErrReadOnly)), live, false, 0, ""},
		// A target that answered nothing did not stop answering: no
		// "stopped after 0 requests" (an unreachable target is the
		// preflight's verdict).
		{"no answer at all after writes refused 503", join([]*client.Exchange{writeRefused, writeRefused}, failed(12, refused())), live, false, 0, ""},
		// Requests that went side by side are recorded in the order their
		// specs judged them: an answer recorded after a request the target
		// never answered still came before the outage.
		// Outages that come and go: one request in five or more left
		// unanswered, wherever they fell, is a target that stopped
		// answering; a few among many is not.
		{"outages that come and go", join(answered(6), failed(2, timeout), answered(6), failed(2, refused()), answered(6), failed(2, timeout),
			answered(6), failed(2, refused()), answered(6)), live, false, ExitUnusable,
			"UNUSABLE: the target stopped answering during the run: 8 of 38 requests got no answer from the API"},
		{"a few outages among many answers", join(answered(30), failed(2, timeout), answered(30), failed(2, refused()), answered(30)), live, false, 0, ""},
		{"the front's own 502s count as unanswered", join(answered(6), front502(3), answered(6), front502(3), answered(6)), live, false, ExitUnusable,
			"6 of 24 requests got no answer"},
		{"an answer recorded after the first request left unanswered", judgedLate(), spent, true, ExitUnusable,
			"stopped answering after 20 requests: the last 4 got no answer (the run was interrupted before the target answered)"},
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

// front502 is n reads the server in front answered 502 for the API.
func front502(n int) []*client.Exchange {
	var exs []*client.Exchange
	for range n {
		exs = append(exs, &client.Exchange{Method: http.MethodGet, Sent: true, Status: http.StatusBadGateway})
	}
	return exs
}

// judgedLate is a run whose target answered 20 requests and then none,
// recorded out of that order: the 20th answer after the first request that
// got none (prepared fixtures are recorded when their spec judges them).
func judgedLate() []*client.Exchange {
	start := time.Now().Add(-time.Hour)
	var exs []*client.Exchange
	at := func(i int, d time.Duration, err error) *client.Exchange {
		ex := &client.Exchange{Method: http.MethodGet, Sent: true, Started: start.Add(time.Duration(i) * time.Millisecond), Duration: d, Err: err}
		if err == nil {
			ex.Status = http.StatusOK
		}
		return ex
	}
	cut := &client.TransportError{Kind: client.KindCancelled, Cause: "the run was interrupted before the target answered"}
	for i := range 19 {
		exs = append(exs, at(i, time.Millisecond, nil))
	}
	exs = append(exs, at(19, 5*time.Second, cut), at(20, time.Millisecond, nil))
	for i := 21; i < 24; i++ {
		exs = append(exs, at(i, 5*time.Second, cut))
	}
	return exs
}

// TestTransportNotes: retries, requests sent again after a cut connection
// and cut bodies each get a line in the report's observations.
func TestTransportNotes(t *testing.T) {
	exs := []*client.Exchange{
		ok(http.MethodGet),
		{Method: http.MethodGet, URL: "http://h/api/tags", Sent: true, Status: 200, Retries: []string{"503 Service Unavailable, retried after 1s"}},
		{Method: http.MethodGet, URL: "http://h/api/pages", Sent: true, Status: 200, TransportRetry: "the connection closed"},
		{Method: http.MethodPost, URL: "http://h/api/pages", Sent: true, Status: 401, BodyCut: true},
	}
	got := strings.Join(transportNotes(exs), "\n")
	for _, want := range []string{
		"retry: GET http://h/api/tags was answered 503 Service Unavailable",
		"retry: GET http://h/api/pages was sent again once after its first try failed: the connection closed",
		"cut: the connection closed before the whole answer to POST http://h/api/pages arrived (HTTP 401 after 0 bytes of body)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the notes lack %q:\n%s", want, got)
		}
	}
	var many []*client.Exchange
	for i := 0; i < maxRetryNotes+3; i++ {
		many = append(many, &client.Exchange{Method: http.MethodPost, Status: 401, BodyCut: true})
	}
	if notes := transportNotes(many); len(notes) != maxRetryNotes+1 || !strings.Contains(notes[maxRetryNotes], "3 more") {
		t.Errorf("%d notes, last %q: want %d and a count of the rest", len(notes), notes[len(notes)-1], maxRetryNotes+1)
	}
}
