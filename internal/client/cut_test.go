package client

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/conformance-suite/conformance/internal/testkit"
)

// How a test server treats one request.
type answer int

const (
	whole      answer = iota // a complete 401 with a JSON body
	cutBody                  // a 401 status line and headers, part of the body, then close
	resetFirst               // reset the connection before answering anything
)

// refusing answers 401 to every request, the i-th one as plan[i] says (the
// last entry for all later ones), as a server that refuses a write before
// reading its body does behind a reverse proxy. It counts the requests.
func refusing(t *testing.T, plan ...answer) (*recorder, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	const body = `{"status":"1","message":"Invalid authentication token."}`
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
		i := int(n.Add(1)) - 1
		how := plan[min(i, len(plan)-1)]
		if how == whole {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, body)
			return
		}
		if how == resetFirst {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			// Linger 0: close sends RST instead of FIN.
			_ = conn.(*net.TCPConn).SetLinger(0)
			_ = conn.Close()
			return
		}
		testkit.WriteCut(t, w, http.StatusUnauthorized,
			http.Header{"Content-Type": {"application/json"}, "X-Seen": {"yes"}}, []byte(body), 20)
	})
	return rec, &n
}

// TestCutBody checks that an answer whose body is cut keeps its status and
// headers, is marked BodyCut with an error distinguishable from no answer,
// and is not taken for JSON; and that a write is not sent twice.
func TestCutBody(t *testing.T) {
	rec, n := refusing(t, cutBody)
	c := newClient(t, rec.URL, nil)
	ex := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, JSON: map[string]any{"title": "T"}})
	if ex.Status != http.StatusUnauthorized || ex.Header.Get("X-Seen") != "yes" {
		t.Errorf("status %d, X-Seen %q: the status and headers that arrived must be kept", ex.Status, ex.Header.Get("X-Seen"))
	}
	if !ex.BodyCut || !errors.Is(ex.Err, ErrBodyCut) || FailureKind(ex.Err) != KindClosed {
		t.Errorf("BodyCut %v, err %v (kind %q): want a cut body", ex.BodyCut, ex.Err, FailureKind(ex.Err))
	}
	if ex.StatusErr() != nil {
		t.Errorf("StatusErr %v: the status arrived whole and can be judged", ex.StatusErr())
	}
	if ex.IsJSON() || ex.BodySize() != 20 {
		t.Errorf("IsJSON %v, size %d: a cut body is no JSON document (20 bytes arrived)", ex.IsJSON(), ex.BodySize())
	}
	if got := n.Load(); got != 1 || ex.TransportRetry != "" {
		t.Errorf("the write was sent %d times (retry note %q): a cut write may have happened, it is never repeated unmarked", got, ex.TransportRetry)
	}
	if s := ex.String(); !strings.Contains(s, "401 Unauthorized") || !strings.Contains(s, "[cut: the connection closed after 20 bytes]") {
		t.Errorf("the rendering does not show the status and the cut:\n%s", s)
	}
}

// TestResendAfterCut checks which requests are sent once more after a cut
// connection (GET, HEAD, OPTIONS, and writes marked SafeToRepeat), that
// this happens once only, that the exchange says so, and what is kept.
func TestResendAfterCut(t *testing.T) {
	cases := []struct {
		name       string
		req        Request
		plan       []answer
		wantSent   int64
		wantStatus int
		wantCut    bool
		wantErr    bool
	}{
		{"GET: a cut body, then a whole answer", Request{Path: "/api/pages"}, []answer{cutBody, whole}, 2, 401, false, false},
		{"GET: reset before any answer, then a whole answer", Request{Path: "/api/pages"}, []answer{resetFirst, whole}, 2, 401, false, false},
		{"GET: reset twice, no third try", Request{Path: "/api/pages"}, []answer{resetFirst}, 2, 0, false, true},
		{"GET: cut twice, no third try", Request{Path: "/api/pages"}, []answer{cutBody}, 2, 401, true, true},
		{"GET: a cut body, then a reset: the status that arrived is kept", Request{Path: "/api/pages"}, []answer{cutBody, resetFirst}, 2, 401, true, true},
		{"HEAD is safe to repeat", Request{Method: http.MethodHead, Path: "/api/pages"}, []answer{resetFirst, whole}, 2, 401, false, false},
		{"OPTIONS is safe to repeat", Request{Method: http.MethodOptions, Path: "/api/pages"}, []answer{resetFirst, whole}, 2, 401, false, false},
		{"POST marked SafeToRepeat", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens, SafeToRepeat: true}, []answer{cutBody, whole}, 2, 401, false, false},
		{"POST reset: not repeated", Request{Method: http.MethodPost, Path: "/api/pages", Credentials: BothTokens}, []answer{resetFirst, whole}, 1, 0, false, true},
		{"PUT cut: not repeated", Request{Method: http.MethodPut, Path: "/api/pages/x", Credentials: BothTokens}, []answer{cutBody, whole}, 1, 401, true, true},
		{"DELETE reset: not repeated", Request{Method: http.MethodDelete, Path: "/api/pages/x", Credentials: BothTokens}, []answer{resetFirst, whole}, 1, 0, false, true},
		{"a whole answer is not repeated", Request{Path: "/api/pages"}, []answer{whole}, 1, 401, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec, n := refusing(t, tc.plan...)
			c := newClient(t, rec.URL, nil)
			ex := c.Do(context.Background(), tc.req)
			if got := n.Load(); got != tc.wantSent {
				t.Errorf("sent %d times, want %d", got, tc.wantSent)
			}
			if ex.Status != tc.wantStatus || ex.BodyCut != tc.wantCut || (ex.Err != nil) != tc.wantErr {
				t.Errorf("status %d, cut %v, err %v; want %d, %v, error %v", ex.Status, ex.BodyCut, ex.Err, tc.wantStatus, tc.wantCut, tc.wantErr)
			}
			if resent := ex.TransportRetry != ""; resent != (tc.wantSent == 2) {
				t.Errorf("TransportRetry %q after %d sendings", ex.TransportRetry, n.Load())
			}
			if ex.TransportRetry != "" && !strings.Contains(ex.String(), "retried:  sent again once after its first try failed: the connection closed") {
				t.Errorf("the rendering does not say the request was sent again:\n%s", ex)
			}
			if ex.Err != nil && !ex.BodyCut && ex.StatusErr() == nil {
				t.Errorf("no answer, yet StatusErr is nil")
			}
			if c.Retries() != 0 {
				t.Errorf("Retries() = %d: it counts 429/503 retries only", c.Retries())
			}
			if len(c.Exchanges()) != 1 {
				t.Errorf("%d exchanges recorded, want 1: a resend is part of its exchange", len(c.Exchanges()))
			}
		})
	}
}
