// Package verdict is the vocabulary the framework writes into a Ginkgo
// report and internal/report reads back: the names of the labels and report
// entries they share, the typed "not checked" outcome with its reason, the
// number of assertions a spec evaluated, and the facts a failed expectation
// saw (and Uniq, with which both fold repeated labels and reasons). It
// imports neither Ginkgo nor any other package of the suite, so both sides
// can share it without depending on each other.
package verdict

import "github.com/tidwall/gjson"

// LabelCrossCutting marks the specs that judge every recorded exchange
// (--rerun-failed selects by it).
const LabelCrossCutting = "cross-cutting"

// Names of the report entries the framework adds to a spec.
const (
	// EntryRequests carries a failing spec's exchanges, rendered and
	// redacted (a string), for people.
	EntryRequests = "requests"
	// EntryExchanges carries the same exchanges as data ([]Exchange).
	EntryExchanges = "exchanges"
	// EntryFact carries what one failed expectation saw (Fact).
	EntryFact = "fact"
	// EntryNotChecked carries why a spec could not check its rule
	// (NotChecked).
	EntryNotChecked = "not-checked"
	// EntryCase carries the Case that tells a spec apart from the others of
	// its rule (Case).
	EntryCase = "case"
	// EntryAssertions carries how many assertions a spec evaluated
	// (Assertions).
	EntryAssertions = "assertions"
)

// NotCheckedPrefix starts the text a not-checked spec shows where only text
// goes (the console, JUnit's skipped message).
const NotCheckedPrefix = "not checked: "

// NotChecked is the outcome of a spec that could not check its rule: no
// assertion that could have failed ran on real data.
type NotChecked struct {
	Reason string `json:"reason"`
	// NoAssertion: the spec ran to its end without evaluating a single
	// assertion, so its pass would have been vacuous (see NoAssertion).
	NoAssertion bool `json:"noAssertion,omitempty"`
	// WritesStopped: the spec failed only because the run stopped its
	// writes (the site lost data during the run): its verdict is this, not
	// the failure.
	WritesStopped bool `json:"writesStopped,omitempty"`
	// CouldNotFinish: a request the spec's verdict rested on got no answer
	// from the API (the network lost it, or the server in front answered
	// for it), so its rule could not be finished: neither failed nor
	// passed. Reason then starts with CouldNotFinishPrefix and gives the
	// cause.
	CouldNotFinish bool `json:"couldNotFinish,omitempty"`
}

// CouldNotFinishPrefix starts the reason of a spec that could not finish.
const CouldNotFinishPrefix = "could not finish: "

// ReasonNoAssertion is why a spec that ran to its end without evaluating an
// assertion is not checked.
const ReasonNoAssertion = "no assertion ran: nothing this rule could judge was found"

// NoAssertion is the outcome of a spec that ran to its end without
// evaluating an assertion: nothing could have failed, so its rule is not
// checked rather than passed.
func NoAssertion() NotChecked { return NotChecked{Reason: ReasonNoAssertion, NoAssertion: true} }

// Assertions counts the assertions a spec evaluated: each Gomega
// assertion (Expect/Eventually/Consistently ... To, ToNot, Should, ...)
// whose matcher ran, and, for a cross-cutting rule's spec, each response
// the rule judged.
type Assertions int

// String is the reason with NotCheckedPrefix.
func (n NotChecked) String() string { return NotCheckedPrefix + n.Reason }

// Case tells a spec apart from the other specs of its rule ("scheduled",
// "GET /api/tags").
type Case string

// Fact is what one failed expectation saw, as data, so that whoever reads
// the report (the legacy diagnosis) never parses the rendered message.
type Fact struct {
	// Expected is the expectation in words.
	Expected string `json:"expected"`
	// Got is what was seen instead, in words.
	Got string `json:"got,omitempty"`
	// Field is the JSON path of the value judged; "" when the response was
	// judged as a whole (its status, its schema).
	Field string `json:"field,omitempty"`
	// Rendered is the failure message a plain Gomega matcher wrote, with
	// Go's types in it; the reports show Expected and Got in its place.
	// Empty for the suite's own matchers, whose messages are words already.
	Rendered string `json:"rendered,omitempty"`
	// Want, when set, is the kind of JSON value the spec allows at Field
	// ("object", "string or false"): the value there was of another kind,
	// not a value of the right kind that is wrong.
	Want string `json:"want,omitempty"`
	// Found, with Want, is the kind of value that was at Field, where the
	// answer kept no longer shows it: a page object judged as a listing
	// streamed by ("string").
	Found string `json:"found,omitempty"`
	// Status is the HTTP status of the response judged; 0 when there was
	// none (the request failed, or no exchange was judged).
	Status int `json:"status,omitempty"`
	// Seq numbers the exchange judged within the run (Exchange.Seq); 0 when
	// none.
	Seq int `json:"seq,omitempty"`
}

// MaxBody bounds the response body an Exchange keeps.
const MaxBody = 64 << 10

// Exchange is one request of a failing spec and its answer, as data.
type Exchange struct {
	Seq    int    `json:"seq"`
	Method string `json:"method"`
	// Path is the URL's path, escaped, without the query.
	Path  string `json:"path"`
	Query string `json:"query,omitempty"`
	// Status is the HTTP status; 0 when the request got no answer.
	Status int `json:"status"`
	// Body is the response body, redacted, cut at MaxBody bytes (Cut).
	Body string `json:"body,omitempty"`
	// Cut: Body is not the whole body (cut at MaxBody, at the run's read
	// limit, or by the connection closing).
	Cut bool `json:"cut,omitempty"`
}

// Uniq returns in without repeats, in the order of first appearance.
func Uniq[T comparable](in []T) []T {
	seen := map[T]bool{}
	var out []T
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// KindOf names the kind of a JSON value as Fact.Found and the reports do
// ("missing" when there is none).
func KindOf(v gjson.Result) string {
	switch {
	case !v.Exists():
		return "missing"
	case v.Type == gjson.Null:
		return "null"
	case v.Type == gjson.True || v.Type == gjson.False:
		return "boolean"
	case v.Type == gjson.Number:
		return "number"
	case v.Type == gjson.String:
		return "string"
	case v.IsArray():
		return "array"
	}
	return "object"
}
