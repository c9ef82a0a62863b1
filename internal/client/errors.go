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
	f := &failure{
		c: c, runCtx: runCtx, attemptCtx: attemptCtx, err: err, msg: err.Error(), ph: ph,
		runDeadline: !c.cfg.Deadline.IsZero() && !time.Now().Before(c.cfg.Deadline),
	}
	te := &TransportError{Kind: KindOther, Err: err, Cause: lastPart(f.msg)}
	for _, r := range failureRules {
		if r.match(f) {
			te.Kind, te.Cause = r.kind, r.cause(f)
			break
		}
	}
	// Only a connection closed while the body was coming cuts a body: its
	// status and headers stand (Exchange.BodyCut).
	te.bodyCut = te.Kind == KindClosed && f.readingBody()
	// Cause is printed on its own too (preflight, verdicts): redact both.
	te.Cause = c.redactor.String(te.Cause)
	te.msg = te.Cause + " (" + c.redactor.String(f.msg) + ")"
	return te
}

// failure is what transportError knows of a request that failed.
type failure struct {
	c                  *Client
	runCtx, attemptCtx context.Context
	err                error
	msg                string
	ph                 phase
	// runDeadline: the run's --timeout has passed.
	runDeadline bool
}

// notSent: the request failed before it was sent.
func (f *failure) notSent() bool { return f.ph == phaseLimit }

// readingBody: the status and headers had arrived.
func (f *failure) readingBody() bool { return f.ph == phaseBody || f.ph == phaseStream }

// runEnded: the run's or spec's context ended (interrupted or out of time).
func (f *failure) runEnded() bool { return f.runCtx.Err() != nil }

// runTimedOut: the run's or spec's time limit ended its context.
func (f *failure) runTimedOut() bool { return errors.Is(f.runCtx.Err(), context.DeadlineExceeded) }

func (f *failure) mentions(parts ...string) bool {
	for _, p := range parts {
		if strings.Contains(f.msg, p) {
			return true
		}
	}
	return false
}

// failureRule is one kind of failure: the first rule (in failureRules'
// order) whose match holds names it.
type failureRule struct {
	kind  string
	match func(*failure) bool
	cause func(*failure) string
}

// fixed is a rule's cause that does not depend on the failure.
func fixed(cause string) func(*failure) string { return func(*failure) string { return cause } }

// failureRules classify a failure, first match wins: the run's own ends
// (its time limit, an interruption) come first, since they cause the
// network errors below them; then the request's own timeout; then what
// the network or the server did. A failure none matches is KindOther,
// named by the innermost part of its message.
var failureRules = []failureRule{
	// Not sent at all. A limiter that refuses to wait while the context
	// is alive does so because the wait would pass its deadline.
	{KindRunDeadline, func(f *failure) bool { return f.notSent() && !f.runEnded() },
		fixed("not sent: waiting for the --rps rate limit would pass the time limit")},
	{KindRunDeadline, func(f *failure) bool { return f.notSent() && f.runDeadline },
		fixed("not sent: the run's time limit (--timeout) was reached")},
	{KindRunDeadline, func(f *failure) bool { return f.notSent() && f.runTimedOut() },
		fixed("not sent: the spec's or run's time limit was reached")},
	{KindCancelled, (*failure).notSent, fixed("not sent: the run was interrupted")},

	// Sent, and the run ended before the answer came.
	{KindRunDeadline, func(f *failure) bool { return f.runEnded() && f.runDeadline },
		fixed("the run's time limit (--timeout) was reached before the target answered")},
	{KindRunDeadline, (*failure).runTimedOut,
		fixed("the spec's or run's time limit was reached before the target answered")},
	{KindCancelled, (*failure).runEnded, fixed("the run was interrupted before the target answered")},

	// --request-timeout.
	{KindTimeout, func(f *failure) bool {
		var netErr net.Error
		return (f.attemptCtx != nil && f.attemptCtx.Err() != nil) || (errors.As(f.err, &netErr) && netErr.Timeout())
	}, timeoutCause},

	// What the network and the server did.
	{KindRefused, func(f *failure) bool { return errors.Is(f.err, syscall.ECONNREFUSED) },
		fixed("the connection was refused")},
	{KindDNS, func(f *failure) bool { var dnsErr *net.DNSError; return errors.As(f.err, &dnsErr) },
		func(f *failure) string {
			var dnsErr *net.DNSError
			errors.As(f.err, &dnsErr)
			return fmt.Sprintf("the host name %q does not resolve", dnsErr.Name)
		}},
	{KindTLS, func(f *failure) bool { return f.mentions("x509:", "tls:", "certificate") },
		func(f *failure) string { return "the TLS handshake failed: " + lastPart(f.msg) }},
	{KindTLS, func(f *failure) bool { return f.mentions("HTTP response to HTTPS client") },
		fixed("the server answers plain HTTP, not HTTPS: use an http:// --base-url")},
	{KindClosed, func(f *failure) bool {
		return errors.Is(f.err, io.ErrUnexpectedEOF) || errors.Is(f.err, io.EOF) || errors.Is(f.err, syscall.ECONNRESET) ||
			errors.Is(f.err, syscall.EPIPE) || f.mentions("server closed", "connection reset")
	}, func(f *failure) string {
		if f.readingBody() {
			return ErrBodyCut.Error()
		}
		return "the connection closed without an answer"
	}},
	{KindProtocol, func(f *failure) bool { return f.mentions("malformed HTTP", "malformed chunked", "invalid") },
		func(f *failure) string { return "the answer is not valid HTTP: " + lastPart(f.msg) }},
	// net/http's wording when the server sent bytes nobody asked for.
	{KindProtocol, func(f *failure) bool { return f.mentions("transport connection broken") },
		fixed("the connection broke before a valid HTTP answer arrived")},
}

// timeoutCause says which part of the answer --request-timeout cut.
func timeoutCause(f *failure) string {
	switch f.ph {
	case phaseBody:
		return fmt.Sprintf("the response body did not arrive in full within the request timeout (%s, --request-timeout)", f.c.cfg.RequestTimeout)
	case phaseStream:
		return fmt.Sprintf("the response body stopped coming: nothing more arrived within the request timeout (%s, --request-timeout)", f.c.cfg.RequestTimeout)
	default:
		return fmt.Sprintf("no answer within the request timeout (%s, --request-timeout)", f.c.cfg.RequestTimeout)
	}
}

// lastPart is the innermost part of a wrapped error message.
func lastPart(msg string) string {
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		return msg[i+2:]
	}
	return msg
}
