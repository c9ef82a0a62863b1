package framework

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/verdict"
	"github.com/conformance-suite/conformance/schemas"
)

// Matchers on *client.Exchange. Each failure names the expectation and
// what was seen instead, prints the whole exchange (request, status,
// headers, body excerpt, curl line), already redacted by the client, and is
// recorded as a verdict.Fact for the report.

// exchangeCheck is an expectation on one exchange.
type exchangeCheck struct {
	// expect is the expectation in words.
	expect string
	// field is the JSON path judged; "" when the response is judged whole.
	field string
	// check returns what is wrong with the exchange, "" when nothing is.
	check func(ex *client.Exchange) (problem string)
	// seen says what a negated expectation saw (optional).
	seen func(ex *client.Exchange) string
	// facts, when set, splits a failure into one fact per offending field
	// (schema violations), so that a report can group failures by field;
	// nil facts fall back to one fact for the whole problem.
	facts func(ex *client.Exchange) []verdict.Fact
}

// exchangeMatcher expects check to find no problem with an exchange.
func exchangeMatcher(expect string, check func(ex *client.Exchange) (problem string)) types.GomegaMatcher {
	return exchangeCheck{expect: expect, check: check}.matcher()
}

func (c exchangeCheck) matcher() types.GomegaMatcher {
	return gcustom.MakeMatcher(func(ex *client.Exchange) (bool, error) {
		if ex == nil {
			return false, fmt.Errorf("no exchange to check")
		}
		if ex.Truncated {
			// The suite's own read limit cut the body: nothing can be said
			// about it, so the rule is not checked (a huge listing on a big
			// site is no violation of the spec).
			NotChecked("the answer to %s is larger than the read limit of this run (--max-body); raise it to check this rule", ex.RequestLine())
		}
		return c.check(ex) == "", nil
	}).WithTemplate(
		"{{if .Failure}}Expected: {{.Data.Expect}}\nGot: {{call .Data.Problem .Actual}}"+
			"{{else}}Expected no {{.Data.Expect}}{{call .Data.Seen .Actual}}{{end}}\n\n{{call .Data.Render .Actual}}",
		map[string]any{
			"Expect": c.expect,
			"Problem": func(a any) string {
				ex := a.(*client.Exchange)
				problem := c.check(ex)
				facts := []verdict.Fact{factOf(ex, c.expect, problem, c.field)}
				if c.facts != nil {
					if split := c.facts(ex); len(split) > 0 {
						facts = split
					}
				}
				for _, f := range facts {
					recordFact(f)
				}
				return problem
			},
			"Seen": func(a any) string {
				ex := a.(*client.Exchange)
				seen := c.expect
				if c.seen != nil {
					seen = c.seen(ex)
				}
				recordFact(factOf(ex, "no "+c.expect, seen, c.field))
				if c.seen == nil {
					return ""
				}
				return "\nGot: " + seen
			},
			"Render": func(a any) string { return a.(*client.Exchange).String() },
		})
}

func transportProblem(ex *client.Exchange) string {
	if ex.Err != nil {
		return "the request failed: " + ex.Err.Error()
	}
	return ""
}

// HaveHTTPStatus expects one of the given HTTP status codes.
func HaveHTTPStatus(codes ...int) types.GomegaMatcher {
	want := joinCodes(codes)
	return exchangeMatcher("HTTP "+want, func(ex *client.Exchange) string {
		if p := transportProblem(ex); p != "" {
			return p
		}
		for _, c := range codes {
			if ex.Status == c {
				return ""
			}
		}
		return fmt.Sprintf("HTTP %d", ex.Status)
	})
}

// BeSuccess expects the HTTP code and a success envelope: a JSON object with
// status "0" and a message string (spec section 1).
func BeSuccess(code int) types.GomegaMatcher {
	return beEnvelope(code, "success envelope", "0")
}

// BeHandlerError expects the HTTP code and a handler-error body: status "1"
// and a message string (spec section 7, body shape 1).
func BeHandlerError(code int) types.GomegaMatcher {
	return beEnvelope(code, "handler-error body", "1")
}

// beEnvelope expects the HTTP code and a JSON object whose status is the
// string status and whose message is a string.
func beEnvelope(code int, what, status string) types.GomegaMatcher {
	return exchangeMatcher(fmt.Sprintf(`HTTP %d with a %s (status %q, message a string)`, code, what, status),
		func(ex *client.Exchange) string {
			if p := statusAndObject(ex, code); p != "" {
				return p
			}
			if st := ex.Get("status"); st.Type != gjson.String || st.Str != status {
				return "status is " + Show(st) + fmt.Sprintf(", want %q", status)
			}
			return messageProblem(ex)
		})
}

// BeEarlyError expects the HTTP code and an early-error body: an object
// with a message string and no status field (spec section 7, body shape 2).
func BeEarlyError(code int) types.GomegaMatcher {
	return exchangeMatcher(fmt.Sprintf("HTTP %d with an early-error body (message a string, no status field)", code),
		func(ex *client.Exchange) string {
			if p := statusAndObject(ex, code); p != "" {
				return p
			}
			if st := ex.Get("status"); st.Exists() {
				return "the body has a status field (" + st.Raw + "); early errors carry only message"
			}
			return messageProblem(ex)
		})
}

// MatchSchema expects the body to validate against one of the embedded
// JSON Schemas (schemas/); violations name the JSON path.
func MatchSchema(name string) types.GomegaMatcher {
	expect := "a body matching schema " + name
	return exchangeCheck{expect: expect, check: func(ex *client.Exchange) string {
		if p := transportProblem(ex); p != "" {
			return p
		}
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
		problems, _ := schemas.Validate(name, ex.Body())
		var facts []verdict.Fact
		for _, p := range problems {
			// schemas.Validate words each violation "path: problem", and a
			// value of a kind the schema does not allow "expected K, got K".
			if path, problem, ok := strings.Cut(p, ": "); ok {
				f := factOf(ex, expect, problem, path)
				if m := wrongKind.FindStringSubmatch(problem); m != nil {
					f.Want = m[1]
				}
				facts = append(facts, f)
			}
		}
		return facts
	}}.matcher()
}

// wrongKind matches a schema violation about the kind of a value.
var wrongKind = regexp.MustCompile(`^expected ((?:object|array|string|integer|number|boolean|null|true|false)(?: or (?:object|array|string|integer|number|boolean|null|true|false))*), got (?:object|array|string|integer|number|boolean|null|true|false)$`)

func statusAndObject(ex *client.Exchange, code int) string {
	if p := transportProblem(ex); p != "" {
		return p
	}
	if ex.Status != code {
		return fmt.Sprintf("HTTP %d", ex.Status)
	}
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
