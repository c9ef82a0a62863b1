package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
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
// match is set, its failing spec's message (and recorded requests) say so.
type sign struct {
	rule  string
	match func(message, requests string) bool
}

// symptom is one behaviour of the releases before the spec's (section 9.3,
// and what the previous release 3.21.1 was observed to do).
type symptom struct {
	name   string
	status bool // about HTTP status codes, the defining trait
	signs  []sign
}

var (
	keyOnlyData    = regexp.MustCompile(`"data"\s*:\s*\{\s*"key"\s*:\s*"(?:[^"\\]|\\.)*"\s*\}`)
	gotHTTP        = regexp.MustCompile(`(?m)^Got: HTTP (\d{3})\b`)
	responseStatus = regexp.MustCompile(`(?m)^response:\s+(\d{3})\b`)
	metaMissing    = regexp.MustCompile(`(?m)\bmeta\b[^\n]*(?:missing|required|absent)|(?:missing|no)[^\n]*\bmeta\b`)
	tagsString     = regexp.MustCompile(`(?m)\btags\b[^\n]*(?:expected object, got string|is "[^\n]*not an object)`)
	doubleEncoded  = regexp.MustCompile(`&amp;(?:amp|lt|gt|quot|#0?39);`)
	scheduled      = regexp.MustCompile(`(?i)\bscheduled\b`)
)

// answered reports whether the failure message says the target answered
// HTTP code: the matchers write "Got: HTTP 200"; other checks print the
// exchange, whose first response line carries the code.
func answered(code string) func(string, string) bool {
	return func(msg, _ string) bool {
		if m := gotHTTP.FindStringSubmatch(msg); m != nil {
			return m[1] == code
		}
		m := responseStatus.FindStringSubmatch(msg)
		return m != nil && m[1] == code
	}
}

func inMessage(re *regexp.Regexp) func(string, string) bool {
	return func(msg, _ string) bool { return re.MatchString(msg) }
}

// inExchanges also looks at the spec's recorded requests: a body shape
// (data holding only key) may be in an exchange the message does not print.
func inExchanges(re *regexp.Regexp) func(string, string) bool {
	return func(msg, req string) bool { return re.MatchString(msg) || re.MatchString(req) }
}

// legacySymptoms is the table the diagnosis is decided from.
func legacySymptoms() []symptom {
	handler200 := answered("200")
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
			{"PAGE-CREATE-201", inExchanges(keyOnlyData)},
			{"PAGE-CREATE-FIELDS", inExchanges(keyOnlyData)},
			{"PAGE-EDIT-OK", inExchanges(keyOnlyData)},
		}},
		{name: "no meta on the page list", signs: []sign{
			{"PAGE-LIST-SHAPE", inMessage(metaMissing)},
			{"PAGE-LIST-META-CONSISTENT", inMessage(metaMissing)},
			{"PAGE-LIST-PAST-END", inMessage(metaMissing)},
		}},
		{name: "no scheduled filter on the page list", signs: []sign{
			{"PAGE-LIST-TYPE-FILTERS", inMessage(scheduled)},
		}},
		{name: "form input HTML-encoded twice", signs: []sign{
			{"GEN-FORM-SANITISED-ONCE", nil},
			{"PAGE-TITLE-ENCODED", inExchanges(doubleEncoded)},
		}},
		{name: "odd paging values crash or empty the list", signs: []sign{
			{"PAGE-LIST-BAD-PAGING-NO-CRASH", nil},
			{"PAGE-LIST-NONPOSITIVE-SIZE", nil},
			{"PAGE-LIST-PAGENUMBER-BELOW-1", nil},
		}},
		{name: "page tags a string of names, not a map", signs: []sign{
			{"PAGE-TAGS-MAP", inMessage(tagsString)},
			{"PAGE-OBJECT-SHAPE", inMessage(tagsString)},
		}},
	}
}

// Diagnose decides from the failed rules and their messages whether the
// target behaves like a release before the spec's (spec section 9.3). It
// returns nil when the failures do not show that pattern.
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

func anySpec(specs []SpecResult, match func(string, string) bool) bool {
	for _, s := range specs {
		if match(s.Message, s.Requests) {
			return true
		}
	}
	return false
}
