// Package envelope judges the status code of an answer and the two error
// bodies of spec section 7: a handler error (status "1" and a message
// string: ENV-HANDLER-ERROR-SHAPE, and every rule whose refusal is "a
// handler-error body", e.g. PAGE-GET-404, TAG-GET-404, PAGE-EDIT-404,
// PAGE-CREATE-INVALID-TYPE) and an early error (a message and no status:
// ENV-EARLY-ERROR-SHAPE, AUTH-MISSING-TOKEN-400, AUTH-INVALID-TOKEN-401).
// The bodies are judged against the schemas named here, which the
// protocol suite's error-body specs match whole; conformance explore's
// oracles judge with these functions. (The framework's BeHandlerError and
// BeEarlyError judge the same two shapes field by field.)
package envelope

import (
	"fmt"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
)

// The schemas of the two error bodies of section 7.
const (
	HandlerErrorSchema = "error-handler.json"
	EarlyErrorSchema   = "error-early.json"
)

// What each body is, in words, for a finding's expectation.
const (
	HandlerErrorShape = `a handler error: {"status":"1","message":…}`
	EarlyErrorShape   = `an early error: {"message":…}, no status`
)

// Status judges ex's status code against the codes a rule allows; the
// problem is the answer's outcome (Outcome).
func Status(ex *client.Exchange, codes ...int) rules.Judgement {
	for _, c := range codes {
		if ex.Status == c {
			return rules.Conforms()
		}
	}
	return rules.Violation("%s", Outcome(ex))
}

// Codes words the codes a rule allows: "HTTP 404 or 400".
func Codes(codes ...int) string {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = fmt.Sprint(c)
	}
	return "HTTP " + strings.Join(s, " or ")
}

// HandlerError judges the body of ex as a handler error (7, body shape 1).
func HandlerError(ex *client.Exchange) rules.Judgement {
	return rules.Schema(HandlerErrorSchema, ex.Body())
}

// EarlyError judges the body of ex as an early error (7, body shape 2).
func EarlyError(ex *client.Exchange) rules.Judgement {
	return rules.Schema(EarlyErrorSchema, ex.Body())
}

// EitherError judges the body of ex as one of the two error bodies: the
// one its status field says (a handler error when it has one, an early
// error when not), for a refusal the spec ties to neither
// (FILES-TRAVERSAL-400).
func EitherError(ex *client.Exchange) rules.Judgement {
	if ex.IsJSON() && ex.Get("status").Exists() {
		return HandlerError(ex)
	}
	return EarlyError(ex)
}

// Outcome words what ex got: its status and message, or why there was
// no answer.
func Outcome(ex *client.Exchange) string {
	if ex.Status == 0 {
		if ex.Err != nil {
			return "no answer: " + ex.Err.Error()
		}
		return "no answer"
	}
	s := fmt.Sprintf("HTTP %d", ex.Status)
	if m := ex.Get("message"); m.Exists() {
		s += fmt.Sprintf(" %q", shorten(m.String(), 80))
	}
	return s
}

// shorten cuts s to n runes, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
