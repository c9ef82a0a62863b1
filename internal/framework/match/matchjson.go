package match

import (
	"fmt"
	"strings"

	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/text"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// Expectations on what an exchange's body holds, and on decoded JSON
// values.

// HaveJSON expects the body to be JSON with a value at path (gjson syntax)
// that every one of ms matches. ms see the value decoded: nil, bool,
// float64, string, []any or map[string]any. Without ms, only presence is
// expected (JSON null counts as present).
func HaveJSON(path string, ms ...types.GomegaMatcher) types.GomegaMatcher {
	expect := path + " in the body"
	if len(ms) > 0 {
		expect += ", matching the expectation below"
	}
	return exchangeCheck{expect: expect, field: path,
		body: func(ex *client.Exchange) string {
			if !ex.IsJSON() {
				return "the body is not a JSON document"
			}
			r := ex.Get(path)
			if !r.Exists() {
				return path + " is missing"
			}
			for _, m := range ms {
				ok, err := m.Match(r.Value())
				switch {
				case err != nil:
					return fmt.Sprintf("%s is %s: %v", path, r.Raw, err)
				case !ok:
					return fmt.Sprintf("%s is %s:\n%s", path, r.Raw, Indent(m.FailureMessage(r.Value()), "    "))
				}
			}
			return ""
		},
		seen: func(ex *client.Exchange) string { return path + " is " + Show(ex.Get(path)) },
		facts: func(ex *client.Exchange) []verdict.Fact {
			// A value of another kind than a matcher wants (OfKind) is
			// told as such, so that a report groups it with the same
			// field's kind wherever else it shows.
			r := ex.Get(path)
			for _, m := range ms {
				if k, ok := m.(kinded); ok && r.Exists() && jsonKind(r.Value()) != withArticle(k.kind) {
					f := verdicts.FactOf(ex, expect, fmt.Sprintf("expected %s, got %s", k.kind, strings.TrimPrefix(strings.TrimPrefix(jsonKind(r.Value()), "an "), "a ")), path)
					f.Want = k.kind
					return []verdict.Fact{f}
				}
			}
			return nil
		},
	}.matcher()
}

// OfKind is m for a value that must be of the JSON kind given ("object",
// "array", "string"): HaveJSON tells a value of another kind as a field of
// the wrong kind, not as a wrong value.
func OfKind(kind string, m types.GomegaMatcher) types.GomegaMatcher {
	return kinded{GomegaMatcher: m, kind: kind}
}

type kinded struct {
	types.GomegaMatcher
	kind string
}

func withArticle(kind string) string {
	if strings.IndexByte("aeiou", kind[0]) >= 0 {
		return "an " + kind
	}
	return "a " + kind
}

// Holds expects problems to find nothing wrong with the exchange; each
// problem it returns is one line of the failure. expect says in words what
// holds when there is none ("each key of data is the username of its
// profile").
func Holds(expect string, problems func(ex *client.Exchange) []string) types.GomegaMatcher {
	return exchangeMatcher(expect, func(ex *client.Exchange) string {
		if found := problems(ex); len(found) > 0 {
			return "\n  " + strings.Join(firstProblems(found), "\n  ")
		}
		return ""
	})
}

// maxProblemsShown bounds the problems a failure lists: on a big site one
// broken field is a problem on every page, and a failure message of ten
// thousand lines would be copied into every report.
const maxProblemsShown = 50

// firstProblems is the first maxProblemsShown of problems, and how many
// more there were.
func firstProblems(problems []string) []string {
	if len(problems) <= maxProblemsShown {
		return problems
	}
	return append(problems[:maxProblemsShown:maxProblemsShown], fmt.Sprintf("and %d more", len(problems)-maxProblemsShown))
}

// FieldProblem is what is wrong with the value at Field of an answer (a
// JSON path as schemas writes it: data[3].tags); Want, when set, is the
// kind of value the spec allows there, and Got the kind it is instead.
type FieldProblem struct{ Field, Problem, Want, Got string }

// HoldsFields is Hold with each problem about a field: a report groups such
// failures by field, as it groups schema violations.
func HoldsFields(expect string, problems func(ex *client.Exchange) []FieldProblem) types.GomegaMatcher {
	return exchangeCheck{expect: expect, body: func(ex *client.Exchange) string {
		var found []string
		for _, p := range problems(ex) {
			found = append(found, p.Problem)
		}
		if len(found) > 0 {
			return "\n  " + strings.Join(firstProblems(found), "\n  ")
		}
		return ""
	}, facts: func(ex *client.Exchange) []verdict.Fact {
		var facts []verdict.Fact
		all := problems(ex)
		for _, p := range all[:min(len(all), maxProblemsShown)] {
			f := verdicts.FactOf(ex, expect, p.Problem, p.Field)
			if p.Want != "" {
				f.Want, f.Found = p.Want, p.Got
			}
			facts = append(facts, f)
		}
		return facts
	}}.matcher()
}

// Evidence is the description of an assertion on a value derived from ex
// (Expect(v).To(m, match.Evidence(ex, "why"))), for when no matcher on
// the exchange fits: the failure shows the text and the exchange, and is
// recorded as a verdict.Fact. It is rendered only when the assertion fails.
func Evidence(ex *client.Exchange, format string, args ...any) func() string {
	return func() string {
		text := fmt.Sprintf(format, args...)
		verdicts.RecordFact(verdicts.FactOf(ex, text, "", ""))
		if ex == nil {
			return text
		}
		return text + "\n\n" + ex.String()
	}
}

// BeJSONObject expects a decoded JSON value to be an object.
func BeJSONObject() types.GomegaMatcher { return beJSONKind("an object") }

// BeJSONArray expects a decoded JSON value to be an array.
func BeJSONArray() types.GomegaMatcher { return beJSONKind("an array") }

// BeJSONString expects a decoded JSON value to be a string.
func BeJSONString() types.GomegaMatcher { return beJSONKind("a string") }

// The messages of the matchers below, parsed once (see exchangeTemplate).
var (
	jsonKindTemplate    = MessageTemplate("Expected {{.Data.Kind}}, got {{call .Data.KindOf .Actual}}")
	encodedOnceTemplate = MessageTemplate("Expected {{.Data.Sent}} HTML-encoded exactly once (e.g. {{.Data.Once}}), got {{call .Data.Words .Actual}}")
	decodesToTemplate   = MessageTemplate("Expected {{.Data.Sent}}, as sent or HTML-encoded any number of times, got {{call .Data.Words .Actual}}")
)

func beJSONKind(kind string) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(v any) (bool, error) { return jsonKind(v) == kind, nil }).
		WithPrecompiledTemplate(jsonKindTemplate, map[string]any{
			"Kind":   kind,
			"KindOf": jsonKind,
		})
}

// jsonKind names the kind of a decoded JSON value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// BeEncodedOnce expects a string that is sent HTML-encoded exactly once
// (spec 1, 2.1: input is sanitised once). The spec names no encoder, so any
// form passes: named or numeric references (&amp; or &#38;), and > or
// quotes left as they are. What is required: decoding the string once gives
// back what was sent (so &amp;amp; fails), no raw < remains, and every &
// starts a character reference (so text sent as is, not encoded, fails).
func BeEncodedOnce(sent string) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(got any) (bool, error) {
		s, ok := got.(string)
		return ok && encodedOnce(s, sent), nil
	}).WithPrecompiledTemplate(encodedOnceTemplate,
		map[string]any{"Sent": fmt.Sprintf("%q", sent), "Once": fmt.Sprintf("%q", encodeOnce(sent)), "Words": words})
}

// DecodeTo expects a string that gives back what was sent once HTML
// character references are decoded, however many times it was encoded:
// as sent, encoded once, or encoded twice or more. It judges that a value
// arrived, not how often it was encoded (BeEncodedOnce judges that).
func DecodeTo(sent string) types.GomegaMatcher {
	return gcustom.MakeMatcher(func(got any) (bool, error) {
		s, ok := got.(string)
		return ok && decodesTo(s, sent), nil
	}).WithPrecompiledTemplate(decodesToTemplate,
		map[string]any{"Sent": fmt.Sprintf("%q", sent), "Words": words})
}

// decodesTo reports whether got, HTML-decoded zero or more times (until it
// no longer changes), equals sent (text.DecodesTo).
func decodesTo(got, sent string) bool { return text.DecodesTo(got, sent) }

// encodeOnce HTML-encodes s once the common way (&, <, > and " as named
// entities): what failure messages show as the expected form
// (text.EncodeOnce).
func encodeOnce(s string) string { return text.EncodeOnce(s) }

// encodedOnce reports whether got is sent HTML-encoded exactly once
// (text.EncodedOnce: PAGE-TITLE-ENCODED's Reading).
func encodedOnce(got, sent string) bool { return text.EncodedOnce(got, sent) }
