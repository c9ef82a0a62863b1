package match

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/matchers"
	"github.com/onsi/gomega/types"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// A plain Gomega assertion in a suite (Expect(problems).To(BeEmpty(), why))
// fails with Gomega's rendering of the values, Go types included:
// "Expected\n    <[]string | len:13, cap:16>: [...]\nto be empty". Gomega
// always writes the type (format.Object), so no format setting removes it.
// The counting wrapper (assertions.go) wraps each such matcher in a
// factMatcher instead, which records what was expected and got in words as
// a verdict.Fact, with the message it stands for; the reports show the
// words in its place, and the message itself reaches Ginkgo unchanged.

// WithFacts wraps m so that its failure is recorded as a Fact, unless m is
// one of the suite's own matchers, whose messages are words already and
// which record their own facts.
func WithFacts(m types.GomegaMatcher) types.GomegaMatcher {
	switch m.(type) {
	case nil, checkMatcher, gcustom.CustomGomegaMatcher, factMatcher:
		return m
	}
	return factMatcher{m}
}

// factMatcher is a Gomega matcher whose failures are recorded as facts.
type factMatcher struct{ inner types.GomegaMatcher }

func (f factMatcher) Match(actual any) (bool, error) { return f.inner.Match(actual) }

func (f factMatcher) FailureMessage(actual any) string {
	msg := f.inner.FailureMessage(actual)
	verdicts.RecordFact(verdict.Fact{Expected: "it " + phrase(f.inner, false), Got: words(actual), Rendered: msg})
	return msg
}

func (f factMatcher) NegatedFailureMessage(actual any) string {
	msg := f.inner.NegatedFailureMessage(actual)
	verdicts.RecordFact(verdict.Fact{Expected: "it " + phrase(f.inner, true), Got: words(actual), Rendered: msg})
	return msg
}

// MatchMayChangeInTheFuture lets Eventually stop early when the inner
// matcher says so, as it would without the wrapper.
func (f factMatcher) MatchMayChangeInTheFuture(actual any) bool {
	return types.MatchMayChangeInTheFuture(f.inner, actual)
}

// phrase says what m expects, in words ("to be empty", "not to equal 3").
func phrase(m types.GomegaMatcher, negated bool) string {
	not := map[bool]string{true: "not ", false: ""}[negated]
	switch m := m.(type) {
	case *matchers.NotMatcher:
		return phrase(m.Matcher, !negated)
	case *matchers.BeEmptyMatcher:
		return not + "to be empty"
	case *matchers.EqualMatcher:
		return not + "to equal " + words(m.Expected)
	case *matchers.BeTrueMatcher:
		return not + "to be true" + reason(m.Reason)
	case *matchers.BeFalseMatcher:
		return not + "to be false" + reason(m.Reason)
	case *matchers.HaveLenMatcher:
		return fmt.Sprintf("%sto have %d items", not, m.Count)
	case *matchers.BeNumericallyMatcher:
		var to []string
		for _, v := range m.CompareTo {
			to = append(to, words(v))
		}
		return not + "to be " + m.Comparator + " " + strings.Join(to, " within ")
	case *matchers.ContainSubstringMatcher:
		return not + "to contain " + strconv.Quote(fmt.Sprintf(m.Substr, m.Args...))
	case *matchers.ConsistOfMatcher:
		return not + "to consist of " + words(m.Elements)
	case *matchers.OrMatcher:
		var each []string
		for _, inner := range m.Matchers {
			each = append(each, phrase(inner, false))
		}
		return not + strings.Join(each, ", or ")
	case *matchers.AndMatcher:
		var each []string
		for _, inner := range m.Matchers {
			each = append(each, phrase(inner, false))
		}
		return not + strings.Join(each, ", and ")
	}
	return not + "to meet the expectation at the line named below"
}

func reason(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}

// words renders a value the way a reader of the report wants it: strings
// quoted, a list of strings one item a line, a list of anything else by
// its length (the exchange shows it better), never Go's type names.
func words(v any) string {
	switch v := v.(type) {
	case nil:
		return "nothing (nil)"
	case string:
		if v == "" {
			return `"" (empty)`
		}
		return strconv.Quote(v)
	case []string:
		if len(v) == 0 {
			return "no items"
		}
		return fmt.Sprintf("%d items:\n  - %s", len(v), strings.Join(v, "\n  - "))
	case gjson.Type:
		return gjsonTypes[v]
	case gjson.Result:
		return Show(v)
	case error:
		return v.Error()
	case fmt.Stringer:
		return v.String()
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		items := make([]string, rv.Len())
		for i := range items {
			if items[i] = words(rv.Index(i).Interface()); strings.Contains(items[i], "\n") || len(items[i]) > 80 {
				return fmt.Sprintf("%d items (see the response)", rv.Len())
			}
		}
		return "[" + strings.Join(items, ", ") + "]"
	case reflect.Map, reflect.Struct:
		return fmt.Sprintf("%v", v)
	case reflect.Pointer:
		if rv.IsNil() {
			return "nothing (nil)"
		}
		return words(rv.Elem().Interface())
	}
	return fmt.Sprint(v)
}

// gjsonTypes names the values of gjson.Type.
var gjsonTypes = map[gjson.Type]string{gjson.Null: "null or missing", gjson.False: "false", gjson.Number: "a number",
	gjson.String: "a string", gjson.True: "true", gjson.JSON: "an object or array"}
