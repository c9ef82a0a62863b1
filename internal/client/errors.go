package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Transport error kinds, for sentences that name the cause.
const (
	KindRefused     = "refused"      // nothing listens on the port
	KindTimeout     = "timeout"      // no (complete) answer within --request-timeout
	KindRunDeadline = "run-deadline" // the run's --timeout cut the request
	KindCancelled   = "cancelled"    // the run was interrupted (Ctrl-C, suite timeout)
	KindTLS         = "tls"          // certificate not trusted, handshake failed
	KindDNS         = "dns"          // the host name does not resolve
	KindClosed      = "closed"       // the connection closed or reset before a complete answer
	KindProtocol    = "protocol"     // the answer is not HTTP
	KindOther       = "other"
)

// TransportError is a request that got no (complete) answer. Its message
// is redacted and never carries the request URL (url.Error would print the
// query string, tokens included).
type TransportError struct {
	Kind  string
	Cause string // one phrase, e.g. "no answer within the request timeout (10s)"; redacted
	Err   error  // the underlying error; its message is redacted in Error()
	msg   string
	// bodyCut: the status and headers arrived, then the connection closed.
	bodyCut bool
}

func (e *TransportError) Error() string { return e.msg }

// ErrBodyCut matches (errors.Is) the TransportError of an answer whose
// status line and headers arrived but whose connection closed or was reset
// before the whole body did (Exchange.BodyCut).
var ErrBodyCut = errors.New("the connection closed before the whole response body arrived")

// Is makes errors.Is(err, ErrBodyCut) true for a cut body.
func (e *TransportError) Is(target error) bool { return target == ErrBodyCut && e.bodyCut }

// Unwrap gives errors.Is/As access to the underlying error.
func (e *TransportError) Unwrap() error { return e.Err }

// Cause returns the one-phrase cause of a request failure: the Cause of a
// TransportError, else the error's message.
func Cause(err error) string {
	var te *TransportError
	if errors.As(err, &te) {
		return te.Cause
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

// FailureKind returns the Kind of a TransportError ("" for other errors).
func FailureKind(err error) string {
	var te *TransportError
	if errors.As(err, &te) {
		return te.Kind
	}
	return ""
}

type phase int

const (
	phaseLimit   phase = iota // before sending (rate limit, retry wait)
	phaseHeaders              // sending, waiting for the status line and headers
	phaseBody                 // reading the body
	phaseStream               // reading a streamed body, which may take as long as it keeps coming
)

// transportError names why a request failed. runCtx is the caller's
// context bounded by the run's deadline; attemptCtx adds --request-timeout.
func (c *Client) transportError(runCtx, attemptCtx context.Context, err error, ph phase) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // Op and URL are in the exchange already; the URL holds tokens
	}
	te := &TransportError{Kind: KindOther, Err: err}
	var netErr net.Error
	var dnsErr *net.DNSError
	msg := err.Error()
	runDeadline := !c.cfg.Deadline.IsZero() && !time.Now().Before(c.cfg.Deadline)
	switch {
	case ph == phaseLimit && runCtx.Err() == nil:
		te.Kind, te.Cause = KindRunDeadline, "not sent: waiting for the --rps rate limit would pass the time limit"
	case ph == phaseLimit && runDeadline:
		te.Kind, te.Cause = KindRunDeadline, "not sent: the run's time limit (--timeout) was reached"
	case ph == phaseLimit && errors.Is(runCtx.Err(), context.DeadlineExceeded):
		te.Kind, te.Cause = KindRunDeadline, "not sent: the spec's or run's time limit was reached"
	case ph == phaseLimit:
		te.Kind, te.Cause = KindCancelled, "not sent: the run was interrupted"
	case runCtx.Err() != nil && runDeadline:
		te.Kind, te.Cause = KindRunDeadline, "the run's time limit (--timeout) was reached before the target answered"
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		te.Kind, te.Cause = KindRunDeadline, "the spec's or run's time limit was reached before the target answered"
	case runCtx.Err() != nil:
		te.Kind, te.Cause = KindCancelled, "the run was interrupted before the target answered"
	case attemptCtx != nil && attemptCtx.Err() != nil, errors.As(err, &netErr) && netErr.Timeout():
		te.Kind = KindTimeout
		switch ph {
		case phaseBody:
			te.Cause = fmt.Sprintf("the response body did not arrive in full within the request timeout (%s, --request-timeout)", c.cfg.RequestTimeout)
		case phaseStream:
			te.Cause = fmt.Sprintf("the response body stopped coming: nothing more arrived within the request timeout (%s, --request-timeout)", c.cfg.RequestTimeout)
		default:
			te.Cause = fmt.Sprintf("no answer within the request timeout (%s, --request-timeout)", c.cfg.RequestTimeout)
		}
	case errors.Is(err, syscall.ECONNREFUSED):
		te.Kind, te.Cause = KindRefused, "the connection was refused"
	case errors.As(err, &dnsErr):
		te.Kind, te.Cause = KindDNS, fmt.Sprintf("the host name %q does not resolve", dnsErr.Name)
	case strings.Contains(msg, "x509:") || strings.Contains(msg, "tls:") || strings.Contains(msg, "certificate"):
		te.Kind, te.Cause = KindTLS, "the TLS handshake failed: "+lastPart(msg)
	case strings.Contains(msg, "HTTP response to HTTPS client"):
		te.Kind, te.Cause = KindTLS, "the server answers plain HTTP, not HTTPS: use an http:// --base-url"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), strings.Contains(msg, "server closed"), strings.Contains(msg, "connection reset"):
		if ph == phaseBody || ph == phaseStream {
			te.Kind, te.Cause, te.bodyCut = KindClosed, ErrBodyCut.Error(), true
		} else {
			te.Kind, te.Cause = KindClosed, "the connection closed without an answer"
		}
	case strings.Contains(msg, "malformed HTTP") || strings.Contains(msg, "malformed chunked") || strings.Contains(msg, "invalid"):
		te.Kind, te.Cause = KindProtocol, "the answer is not valid HTTP: "+lastPart(msg)
	case strings.Contains(msg, "transport connection broken"):
		// net/http's wording when the server sent bytes nobody asked for.
		te.Kind, te.Cause = KindProtocol, "the connection broke before a valid HTTP answer arrived"
	default:
		te.Cause = lastPart(msg)
	}
	// Cause is printed on its own too (preflight, verdicts): redact both.
	te.Cause = c.redactor.String(te.Cause)
	te.msg = te.Cause + " (" + c.redactor.String(msg) + ")"
	return te
}

// lastPart is the innermost part of a wrapped error message.
func lastPart(msg string) string {
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		return msg[i+2:]
	}
	return msg
}
