package match

import (
	"fmt"
	"regexp"
	"strings"
	"text/template"

	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/envelope"
	"github.com/conformance-suite/conformance/internal/verdict"
	"github.com/conformance-suite/conformance/schemas"
)

// Matchers on *client.Exchange. Each failure names the expectation and
// what was seen instead, prints the whole exchange (request, status,
// headers, body excerpt, curl line), already redacted by the client, and is
// recorded as a verdict.Fact for the report.

// exchangeCheck is an expectation on one exchange, in two parts: what
// arrives before the body (the status line and headers) and the body.
// Either may be nil. The parts are kept apart because a body can be lost
// while the status is not: a body longer than the run's read limit
// (Truncated) or cut by the connection closing (BodyCut) leaves an
// expectation on the body not checked, never failed, while the status and
// headers that arrived are still judged.
type exchangeCheck struct {
	// expect is the expectation in words.
	expect string
	// field is the JSON path judged; "" when the response is judged whole.
	field string
	// status returns what is wrong with the status and headers, "" when
	// nothing is.
	status func(ex *client.Exchange) (problem string)
	// body returns what is wrong with the body, "" when nothing is.
	body func(ex *client.Exchange) (problem string)
	// seen says what a negated expectation saw (optional).
	seen func(ex *client.Exchange) string
	// facts, when set, splits a failure into one fact per offending field
	// (schema violations), so that a report can group failures by field;
	// nil facts fall back to one fact for the whole problem.
	facts func(ex *client.Exchange) []verdict.Fact
}

// exchangeMatcher expects check to find no problem with an exchange's
// body.
func exchangeMatcher(expect string, check func(ex *client.Exchange) (problem string)) types.GomegaMatcher {
	return exchangeCheck{expect: expect, body: check}.matcher()
}

// problem is what is wrong with ex: its status first, then its body.
func (c exchangeCheck) problem(ex *client.Exchange) string {
	if c.status != nil {
		if p := c.status(ex); p != "" {
			return p
		}
	}
	if c.body == nil {
		return ""
	}
	if p := transportProblem(ex); p != "" {
		return p
	}
	return c.body(ex)
}

// checkMatcher is the Gomega matcher of an exchangeCheck, which it keeps
// for the package's tests.
type checkMatcher struct {
	types.GomegaMatcher
	check exchangeCheck
}

func (c exchangeCheck) matcher() types.GomegaMatcher {
	return checkMatcher{check: c, GomegaMatcher: c.gomegaMatcher()}
}

// exchangeTemplate is the failure message of every exchangeCheck, parsed
// once: a run makes hundreds of these matchers, and parsing the template
// for each was a tenth of a run's CPU. A parsed template is only read
// (executed) after, which is safe from goroutines side by side.
var exchangeTemplate = MessageTemplate("{{if .Failure}}Expected: {{.Data.Expect}}\nGot: {{call .Data.Problem .Actual}}" +
	"{{else}}Expected no {{.Data.Expect}}{{call .Data.Seen .Actual}}{{end}}\n\n{{call .Data.Render .Actual}}")

// MessageTemplate parses a gcustom matcher's message template, for a
// package-level variable that each matcher made after uses
// (WithPrecompiledTemplate); it panics on a template that does not parse.
func MessageTemplate(text string) *template.Template {
	t, err := gcustom.ParseTemplate(text)
	if err != nil {
		panic(err)
	}
	return t
}

func (c exchangeCheck) gomegaMatcher() types.GomegaMatcher {
	return gcustom.MakeMatcher(func(ex *client.Exchange) (bool, error) {
		if ex == nil {
			return false, fmt.Errorf("no exchange to check")
		}
		ok, notChecked := c.judge(ex)
		if notChecked != "" {
			verdicts.NotChecked("%s", notChecked)
		}
		return ok, nil
	}).WithPrecompiledTemplate(exchangeTemplate,
		map[string]any{
			"Expect": c.expect,
			"Problem": func(a any) string {
				ex := a.(*client.Exchange)
				problem := c.problem(ex)
				facts := []verdict.Fact{verdicts.FactOf(ex, c.expect, problem, c.field)}
				if c.facts != nil {
					if split := c.facts(ex); len(split) > 0 {
						facts = split
					}
				}
				for _, f := range facts {
					verdicts.RecordFact(f)
				}
				return problem
			},
			"Seen": func(a any) string {
				ex := a.(*client.Exchange)
				seen := c.expect
				if c.seen != nil {
					seen = c.seen(ex)
				}
				verdicts.RecordFact(verdicts.FactOf(ex, "no "+c.expect, seen, c.field))
				if c.seen == nil {
					return ""
				}
				return "\nGot: " + seen
			},
			"Render": func(a any) string { return a.(*client.Exchange).String() },
		})
}

// judge tells whether ex meets the expectation, or why it cannot be told
// (notChecked): the body the expectation is about did not arrive whole.
// A wrong status is judged even then.
func (c exchangeCheck) judge(ex *client.Exchange) (ok bool, notChecked string) {
	if c.body != nil && (ex.Truncated || ex.BodyCut) {
		if c.status != nil && c.status(ex) != "" {
			return false, ""
		}
		return false, LostBody(ex)
	}
	return c.problem(ex) == "", ""
}

// LostBody says why the body of ex cannot be judged: the run's own read
// limit cut it (a huge listing on a big site is no violation of the spec),
// or the connection closed before all of it arrived (a server that answers
// a refused write and hangs up, behind a proxy: the status stands, the
// body is not a verdict).
func LostBody(ex *client.Exchange) string {
	if ex.Truncated {
		return fmt.Sprintf("the answer to %s is larger than the read limit of this run (--max-body); raise it to check this rule", ex.RequestLine())
	}
	return fmt.Sprintf("the connection closed before the whole answer to %s arrived (HTTP %d, %d bytes of body): "+
		"the body cannot be judged", ex.RequestLine(), ex.Status, ex.BodySize())
}

// transportProblem is why the body of ex cannot be judged at all: the
// request got no whole answer.
func transportProblem(ex *client.Exchange) string {
	if ex.Err != nil {
		return "the request got no whole answer: " + client.Cause(ex.Err)
	}
	return ""
}

// statusProblem is why the status of ex is not code (one of codes): the
// request got no answer (a cut body still has its status: StatusErr), or
// another status.
func statusProblem(ex *client.Exchange, codes ...int) string {
	if err := ex.StatusErr(); err != nil {
		return "the request got no answer: " + client.Cause(err)
	}
	for _, c := range codes {
		if ex.Status == c {
			return ""
		}
	}
	return fmt.Sprintf("HTTP %d", ex.Status)
}

// HaveHTTPStatus expects one of the given HTTP status codes.
func HaveHTTPStatus(codes ...int) types.GomegaMatcher {
	return exchangeCheck{expect: "HTTP " + joinCodes(codes),
		status: func(ex *client.Exchange) string { return statusProblem(ex, codes...) }}.matcher()
}

// BeSuccess expects the HTTP code and a success envelope: a JSON object with
// status "0" and a message string (spec section 1).
func BeSuccess(code int) types.GomegaMatcher {
	return exchangeCheck{expect: fmt.Sprintf(`HTTP %d with a success envelope (status "0", message a string)`, code),
		status: func(ex *client.Exchange) string { return statusProblem(ex, code) },
		body: func(ex *client.Exchange) string {
			if p := objectProblem(ex); p != "" {
				return p
			}
			if st := ex.Get("status"); st.Type != gjson.String || st.Str != "0" {
				return "status is " + Show(st) + `, want "0"`
			}
			return messageProblem(ex)
		}}.matcher()
}

// BeHandlerError expects the HTTP code and a handler-error body: status "1"
// and a message string (spec section 7, body shape 1: envelope.HandlerError).
func BeHandlerError(code int) types.GomegaMatcher {
	return exchangeCheck{expect: fmt.Sprintf(`HTTP %d with a handler-error body (status "1", message a string)`, code),
		status: func(ex *client.Exchange) string { return statusProblem(ex, code) },
		body:   func(ex *client.Exchange) string { return envelope.HandlerError(ex).Problem }}.matcher()
}

// BeEarlyError expects the HTTP code and an early-error body: an object
// with a message string and no status field (spec section 7, body shape 2:
// envelope.EarlyError).
func BeEarlyError(code int) types.GomegaMatcher {
	return exchangeCheck{expect: fmt.Sprintf("HTTP %d with an early-error body (message a string, no status field)", code),
		status: func(ex *client.Exchange) string { return statusProblem(ex, code) },
		body:   func(ex *client.Exchange) string { return envelope.EarlyError(ex).Problem }}.matcher()
}

// MatchSchema expects the body to validate against one of the embedded
// JSON Schemas (schemas/); violations name the JSON path.
func MatchSchema(name string) types.GomegaMatcher {
	expect := "a body matching schema " + name
	return exchangeCheck{expect: expect, body: func(ex *client.Exchange) string {
		problems, err := schemas.Validate(name, ex.Body())
		if err != nil {
			return err.Error()
		}
		if len(problems) > 0 {
			return "\n  " + strings.Join(problems, "\n  ")
		}
		return ""
	}, facts: func(ex *client.Exchange) []verdict.Fact {
		if ex.Err != nil {
			return nil
		}
		violations, _ := schemas.Violations(name, ex.Body())
		var facts []verdict.Fact
		for _, v := range violations {
			f := verdicts.FactOf(ex, expect, v.Problem, v.Path)
			// schemas words a value of a kind the schema does not allow
			// "expected K, got K".
			if m := wrongKind.FindStringSubmatch(v.Problem); m != nil {
				f.Want = m[1]
			}
			facts = append(facts, f)
		}
		return facts
	}}.matcher()
}

// wrongKind matches a schema violation about the kind of a value.
var wrongKind = regexp.MustCompile(`^expected ((?:object|array|string|integer|number|boolean|null|true|false)(?: or (?:object|array|string|integer|number|boolean|null|true|false))*), got (?:object|array|string|integer|number|boolean|null|true|false)$`)

func objectProblem(ex *client.Exchange) string {
	if !ex.IsJSON() || !ex.JSON().IsObject() {
		return "the body is not a JSON object"
	}
	return ""
}

func messageProblem(ex *client.Exchange) string {
	if m := ex.Get("message"); m.Type != gjson.String {
		return "message is " + Show(m) + ", want a string"
	}
	return ""
}

func joinCodes(codes []int) string {
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprint(c)
	}
	return strings.Join(parts, " or ")
}

// BodyCheck is an expectation on an exchange's body that a package of its
// own words (a listing's page checks): Problem says what is wrong, ""
// when nothing is; Facts, when set, splits a failure into one fact per
// field. A body that did not arrive whole leaves it not checked.
type BodyCheck struct {
	Expect  string
	Problem func(ex *client.Exchange) string
	Facts   func(ex *client.Exchange) []verdict.Fact
}

// Matcher is the Gomega matcher of c.
func (c BodyCheck) Matcher() types.GomegaMatcher {
	return exchangeCheck{expect: c.Expect, body: c.Problem, facts: c.Facts}.matcher()
}

// gotKind reads the kind a schema violation found ("expected object, got
// string").
var gotKind = regexp.MustCompile(`, got (object|array|string|integer|number|boolean|null|true|false)$`)

// AddKinds fills in f's wanted and found kinds when problem is a schema
// violation about the kind of a value.
func AddKinds(f *verdict.Fact, problem string) {
	m := wrongKind.FindStringSubmatch(problem)
	if m == nil {
		return
	}
	f.Want = m[1]
	if g := gotKind.FindStringSubmatch(problem); g != nil {
		f.Found = map[string]string{"integer": "number", "true": "boolean", "false": "boolean"}[g[1]]
		if f.Found == "" {
			f.Found = g[1]
		}
	}
}
