package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// Diagnosis is a pattern the failures of a run match, said in one line at
// the top of every report so that a reader sees the cause before the
// dozens of failures it produced.
type Diagnosis struct {
	// Line is the whole diagnosis with its evidence in one line, for the
	// text formats.
	Line string `json:"line"`
	// Headline is the diagnosis without the evidence, for formats that
	// list the evidence below it (HTML).
	Headline string     `json:"headline"`
	Evidence []Evidence `json:"evidence"`
}

// Evidence is one symptom of the pattern and the failed rules that show it.
type Evidence struct {
	Symptom string   `json:"symptom"`
	Rules   []string `json:"rules"`
}

// LegacyLine starts the diagnosis of a target that behaves like the
// releases before the one the spec describes (spec section 9.3).
const LegacyLine = "This target behaves like a release before real status codes were introduced"

// A legacy diagnosis needs this many distinct symptoms, at least one of
// them about status codes: one symptom alone is an ordinary bug (a single
// handler answering 200), while several of the earlier release's traits
// together are the earlier release.
const legacyMinSymptoms = 3

// sign is one way a failed rule shows a symptom: the rule failed and, when
// match is set, what its failing spec recorded as data (verdict.Fact,
// verdict.Exchange, verdict.Case) shows it.
type sign struct {
	rule  string
	match func(SpecResult) bool
}

// symptom is one behaviour of the releases before the spec's (section 9.3,
// and what the previous release 3.21.1 was observed to do).
type symptom struct {
	name   string
	status bool // about HTTP status codes, the defining trait
	signs  []sign
}

// answered reports whether the spec's failure was about a response with
// HTTP status code: the response its failed expectations recorded (a
// framework matcher's Fact), or, for a failure that recorded none about a
// response (a plain Gomega assertion), the last response the spec
// received, which is what such assertions judge: a spec asserts on what it
// has just read.
func answered(code int) func(SpecResult) bool {
	return func(s SpecResult) bool {
		judged := false // a fact about a response (a plain Gomega fact is not)
		for _, f := range s.Facts {
			if f.Status == code {
				return true
			}
			judged = judged || f.Seq != 0 || f.Status != 0
		}
		if judged {
			return false
		}
		for i := len(s.Exchanges) - 1; i >= 0; i-- {
			if s.Exchanges[i].Status != 0 {
				return s.Exchanges[i].Status == code
			}
		}
		return false
	}
}

// anyBody reports whether a response the spec received has a whole JSON
// body for which has holds.
func anyBody(has func(body gjson.Result, ex verdict.Exchange) bool) func(SpecResult) bool {
	return func(s SpecResult) bool {
		for _, ex := range s.Exchanges {
			if !ex.Cut && gjson.Valid(ex.Body) && has(gjson.Parse(ex.Body), ex) {
				return true
			}
		}
		return false
	}
}

// keyOnlyData: data is an object holding key and nothing else (what the
// earlier releases answered a create or an edit with).
var keyOnlyData = anyBody(func(body gjson.Result, _ verdict.Exchange) bool {
	data := body.Get("data")
	if !data.IsObject() {
		return false
	}
	m := data.Map()
	key, ok := m["key"]
	return ok && len(m) == 1 && key.Type == gjson.String
})

// listWithoutMeta: an answer of the page list with no meta.
var listWithoutMeta = anyBody(func(body gjson.Result, ex verdict.Exchange) bool {
	return ex.Method == "GET" && strings.HasSuffix(ex.Path, "/api/pages") && body.IsObject() && !body.Get("meta").Exists()
})

// tagsString: a page object, alone or in a list, whose tags are a string
// of names.
var tagsString = anyBody(func(body gjson.Result, _ verdict.Exchange) bool {
	data := body.Get("data")
	if data.Get("tags").Type == gjson.String {
		return true
	}
	for _, p := range data.Array() {
		if p.Get("tags").Type == gjson.String {
			return true
		}
	}
	return false
})

// doubleEncodings are what an HTML entity turns into when encoded again.
var doubleEncodings = []string{"&amp;amp;", "&amp;lt;", "&amp;gt;", "&amp;quot;", "&amp;#39;", "&amp;#039;"}

// encodedTwice: a response holds text HTML-encoded twice.
func encodedTwice(s SpecResult) bool {
	for _, ex := range s.Exchanges {
		for _, d := range doubleEncodings {
			if strings.Contains(ex.Body, d) {
				return true
			}
		}
	}
	return false
}

// inCase reports whether the failing spec is the rule's case c.
func inCase(c verdict.Case) func(SpecResult) bool {
	return func(s SpecResult) bool { return s.Case == c }
}

// legacySymptoms is the table the diagnosis is decided from.
func legacySymptoms() []symptom {
	handler200 := answered(200)
	var handlerFailures []sign // rules whose handler must answer 4xx
	for _, id := range []string{"PAGE-GET-404", "TAG-GET-404", "CAT-GET-404", "USER-GET-404", "PAGE-EDIT-404",
		"PAGE-DELETE-404", "SETTINGS-CUSTOMFIELDS-400", "FILES-UPLOAD-REFUSED-400", "PAGE-CREATE-INVALID-TYPE",
		"PAGE-EDIT-INVALID-400"} {
		handlerFailures = append(handlerFailures, sign{id, handler200})
	}
	return []symptom{
		{name: "handler failures answered HTTP 200", status: true, signs: handlerFailures},
		{name: "create answered 200, not 201", status: true, signs: []sign{{"PAGE-CREATE-201", handler200}}},
		{name: "create or edit returned only the key", signs: []sign{
			{"PAGE-CREATE-201", keyOnlyData},
			{"PAGE-CREATE-FIELDS", keyOnlyData},
			{"PAGE-EDIT-OK", keyOnlyData},
		}},
		{name: "no meta on the page list", signs: []sign{
			{"PAGE-LIST-SHAPE", listWithoutMeta},
			{"PAGE-LIST-META-CONSISTENT", listWithoutMeta},
			{"PAGE-LIST-PAST-END", listWithoutMeta},
		}},
		{name: "no scheduled filter on the page list", signs: []sign{
			{"PAGE-LIST-TYPE-FILTERS", inCase("scheduled")},
		}},
		{name: "form input HTML-encoded twice", signs: []sign{
			{"GEN-FORM-SANITISED-ONCE", nil},
			{"PAGE-TITLE-ENCODED", encodedTwice},
		}},
		{name: "odd paging values crash or empty the list", signs: []sign{
			{"PAGE-LIST-BAD-PAGING-NO-CRASH", nil},
			{"PAGE-LIST-NONPOSITIVE-SIZE", nil},
			{"PAGE-LIST-PAGENUMBER-BELOW-1", nil},
		}},
		{name: "page tags a string of names, not a map", signs: []sign{
			{"PAGE-TAGS-MAP", tagsString},
			{"PAGE-OBJECT-SHAPE", tagsString},
		}},
	}
}

// Diagnose decides from the failed rules and the data their failing specs
// recorded (never their rendered messages) whether the target behaves like
// a release before the spec's (spec section 9.3). It returns nil when the
// failures do not show that pattern.
func Diagnose(run *Run) *Diagnosis {
	failed := map[string][]SpecResult{}
	for _, rr := range run.Rules {
		if rr.Status != Failed {
			continue
		}
		var specs []SpecResult
		for _, i := range rr.Specs {
			if i >= 0 && i < len(run.Specs) && run.Specs[i].Status == Failed {
				specs = append(specs, run.Specs[i])
			}
		}
		failed[rr.ID] = specs
	}
	var evidence []Evidence
	statusSeen := false
	for _, sy := range legacySymptoms() {
		var rules []string
		for _, sg := range sy.signs {
			specs, ok := failed[sg.rule]
			if !ok || slices.Contains(rules, sg.rule) {
				continue
			}
			if sg.match == nil || anySpec(specs, sg.match) {
				rules = append(rules, sg.rule)
			}
		}
		if len(rules) > 0 {
			evidence = append(evidence, Evidence{Symptom: sy.name, Rules: rules})
			statusSeen = statusSeen || sy.status
		}
	}
	if !statusSeen || len(evidence) < legacyMinSymptoms {
		return nil
	}
	parts := make([]string, len(evidence))
	for i, e := range evidence {
		parts[i] = fmt.Sprintf("%s: %s", e.Symptom, strings.Join(e.Rules, ", "))
	}
	return &Diagnosis{
		Line:     fmt.Sprintf("%s (spec §9.3; evidence: %s).", LegacyLine, strings.Join(parts, "; ")),
		Headline: LegacyLine + " (spec §9.3): the failures below are what the release the spec describes changed.",
		Evidence: evidence,
	}
}

func anySpec(specs []SpecResult, match func(SpecResult) bool) bool {
	for _, s := range specs {
		if match(s) {
			return true
		}
	}
	return false
}
