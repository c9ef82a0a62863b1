package client

import (
	"net/http"
	"strings"
	"testing"
)

// TestFault: an exchange is a fault of the network or the front when a
// sent request got no status, or a 429/502/503/504 without the API's
// envelope; never when the run itself did not send or cut it.
func TestFault(t *testing.T) {
	withBody := func(ex *Exchange, body string) *Exchange { ex.setBody([]byte(body), len(body)); return ex }
	terr := func(kind, cause string) error { return &TransportError{Kind: kind, Cause: cause, msg: cause} }
	cases := []struct {
		name string
		ex   *Exchange
		want string // a part of the fault; "" for none
	}{
		{"answered", withBody(&Exchange{Sent: true, Status: 404}, `{"status":"1","message":"Page not found."}`), ""},
		{"not sent", &Exchange{Err: ErrReadOnly}, ""},
		{"reset", &Exchange{Sent: true, Err: terr(KindClosed, "the connection closed without an answer")}, "no answer: the connection closed"},
		{"timeout", &Exchange{Sent: true, Err: terr(KindTimeout, "no answer within the request timeout (1s, --request-timeout)")}, "no answer: no answer within"},
		{"interrupted by the run", &Exchange{Sent: true, Err: terr(KindCancelled, "the run was interrupted")}, ""},
		{"cut by the run's time limit", &Exchange{Sent: true, Err: terr(KindRunDeadline, "the run's time limit")}, ""},
		{"refused", &Exchange{Sent: true, Err: terr(KindRefused, "the connection was refused")}, "no answer: the connection was refused"},
		{"an answer that is not HTTP", &Exchange{Sent: true, Err: terr(KindProtocol, "the connection broke before a valid HTTP answer arrived")}, ""},
		{"the front's 503 page", withBody(&Exchange{Sent: true, Status: 503}, "<html><body><h1>503</h1></body></html>"), "HTTP 503 Service Unavailable not from the API"},
		{"the front's empty 502", &Exchange{Sent: true, Status: 502}, "HTTP 502 Bad Gateway not from the API"},
		{"the API's own 503", withBody(&Exchange{Sent: true, Status: 503}, `{"status":"1","message":"Busy."}`), ""},
		{"the API's early 429", withBody(&Exchange{Sent: true, Status: 429}, `{"message":"Slow down."}`), ""},
		{"a 500 is the API's however it looks", withBody(&Exchange{Sent: true, Status: 500}, "<html>oops</html>"), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.ex.Fault()
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("Fault() = %q, want %q", got, tc.want)
			}
		})
	}
	if (*Exchange)(nil).Fault() != "" || (&Exchange{Sent: true, Status: http.StatusOK}).Fault() != "" {
		t.Error("a nil or plain exchange has a fault")
	}
}
