package oracle

import (
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/rules/envelope"
	"github.com/conformance-suite/conformance/internal/rules/every"
)

// RuleNoCrash is the rule of a 5xx answer to a client's input
// (rules/every.NoCrash), when no more specific rule is named.
const RuleNoCrash = "GEN-NO-CRASH"

// Judgeable reports whether ex is an answer of the API at all: a request
// that got a status, to which the web server in front did not answer
// itself (crosscutting.AnsweredByFront: nginx's or Apache's own error page
// is no answer of the API's).
func Judgeable(ex *client.Exchange) bool {
	return ex != nil && ex.Sent && ex.StatusErr() == nil && ex.Status != 0 && !crosscutting.AnsweredByFront(ex, true).ByFront()
}

// Every judges what holds for every answer: JSON with the headers of 5.9
// and the envelope of sections 1 and 7 (status agreeing with the code), no
// 5xx for a client's input (crashRule names the rule: GEN-NO-CRASH, or a
// more specific one), and neither token anywhere in it. It reports
// whether the answer is an API answer the caller can judge further.
func (j *Judge) Every(ex *client.Exchange, crashRule string, tokens ...string) bool {
	if !Judgeable(ex) {
		return false
	}
	if crashRule == "" {
		crashRule = RuleNoCrash
	}
	j.Judged(crashRule, ex, "status", "an answer of the spec (4, 7): a client's input never gets a 5xx", every.NoCrash(ex))
	for _, c := range every.Checks() {
		if v := c.Judge(ex); !v.Skip {
			j.Check(c.Rule, v.Problem == "", ex, "every answer", "what every answer keeps (1, 5.9, 7)", v.Problem)
		}
	}
	j.tokens(ex, tokens)
	return true
}

// tokens checks that neither token is in ex's body or headers
// (AUTH-NO-TOKEN-IN-ANSWER: rules/every).
func (j *Judge) tokens(ex *client.Exchange, tokens []string) {
	for _, tok := range tokens {
		j.Judged("AUTH-NO-TOKEN-IN-ANSWER", ex, "token in answer", "no token of the request in the answer (2.4, 5)", every.NoTokenEcho(ex, tok))
	}
}

// describe renders a JSON value for a finding.
func describe(r gjson.Result) string {
	if !r.Exists() {
		return "missing"
	}
	return shorten(r.Raw, 120)
}

// HandlerError judges a handler error's body (7: status "1" and message;
// rules/envelope).
func (j *Judge) HandlerError(rule string, ex *client.Exchange) {
	j.Judged(rule, ex, "error body", envelope.HandlerErrorShape, envelope.HandlerError(ex))
}

// EarlyError judges an early error's body (7: only message, no status;
// rules/envelope).
func (j *Judge) EarlyError(ex *client.Exchange) {
	j.Judged("ENV-EARLY-ERROR-SHAPE", ex, "error body", envelope.EarlyErrorShape, envelope.EarlyError(ex))
}

// Status judges a status code against the ones the spec allows
// (rules/envelope).
func (j *Judge) Status(rule string, ex *client.Exchange, want ...int) bool {
	return j.Judged(rule, ex, "status", envelope.Codes(want...), envelope.Status(ex, want...))
}
