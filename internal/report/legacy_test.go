package report

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// failure is one failed rule: the message of its failing spec (what the
// golden reports show) and the data the framework recorded beside it (what
// the diagnosis reads).
type failure struct {
	rule, message string
	facts         []verdict.Fact
	exchanges     []verdict.Exchange
	specCase      verdict.Case
}

// matcherFailure is a failure of a framework matcher on one exchange: the
// message as the matcher renders it, its fact, and the exchange.
// fields are the paths the matcher found wrong (a schema's violations).
func matcherFailure(rule, expect, got, method, path string, status int, body string, fields ...string) failure {
	return failure{rule: rule,
		message:   "Expected: " + expect + "\nGot: " + got + "\n\n" + exchange(method, path, status, "OK", body),
		facts:     matcherFacts(verdict.Fact{Expected: expect, Got: got, Status: status, Seq: 1}, fields),
		exchanges: []verdict.Exchange{{Seq: 1, Method: method, Path: path, Status: status, Body: body}},
	}
}

// statusFailure is a failed status expectation on GET /api/x.
func statusFailure(rule, expect string, status int, body string) failure {
	return matcherFailure(rule, expect, "HTTP "+strconv.Itoa(status), "GET", "/api/x", status, body)
}

// matcherFacts are a matcher's facts: one, or, like MatchSchema's, one per
// field it found wrong, with that field's problem (its line of f.Got).
func matcherFacts(f verdict.Fact, fields []string) []verdict.Fact {
	if len(fields) == 0 {
		return []verdict.Fact{f}
	}
	var out []verdict.Fact
	for _, field := range fields {
		each := f
		each.Field = field
		for _, l := range strings.Split(f.Got, "\n") {
			if problem, ok := strings.CutPrefix(strings.TrimSpace(l), field+": "); ok {
				each.Got = problem
			}
		}
		out = append(out, each)
	}
	return out
}

// gomegaFact is what the framework records of a plain Gomega failure: the
// words for what Gomega rendered, and no response.
func gomegaFact(rendered, expected, got string) []verdict.Fact {
	return []verdict.Fact{{Expected: expected, Got: got, Rendered: rendered}}
}

func runOf(fails []failure, passed ...string) *Run {
	r := &Run{}
	for _, f := range fails {
		r.Specs = append(r.Specs, SpecResult{Name: "[" + f.rule + "]", Rules: []string{f.rule}, Status: Failed, Message: f.message,
			Facts: f.facts, Exchanges: f.exchanges, Case: f.specCase})
		r.Rules = append(r.Rules, RuleResult{ID: f.rule, Status: Failed, Specs: []int{len(r.Specs) - 1}})
	}
	for _, id := range passed {
		r.Specs = append(r.Specs, SpecResult{Name: "[" + id + "]", Rules: []string{id}, Status: Passed})
		r.Rules = append(r.Rules, RuleResult{ID: id, Status: Passed, Specs: []int{len(r.Specs) - 1}})
	}
	return r
}

const (
	handlerError404 = `HTTP 404 with a handler-error body (status "1", message a string)`
	tagsAsString    = `{"status":"0","data":{"tags":"news,PHP Tips"}}`
)

var (
	notFound200 = func(id string) failure {
		return statusFailure(id, handlerError404, 200, `{"status":"1","message":"Page not found."}`)
	}
	create200    = statusFailure("PAGE-CREATE-201", `HTTP 201 with a success envelope (status "0", message a string)`, 200, `{"status":"0","message":"Page created.","data":{"key":"conformance-x-a"}}`)
	createFields = matcherFailure("PAGE-CREATE-FIELDS", "a body matching schema page-response.json", "\n  data.title: required property is missing",
		"POST", "/api/pages", 200, `{"status":"0","message":"Page created.","data":{"key":"conformance-x-b"}}`, "data.title")
	noMeta = matcherFailure("PAGE-LIST-SHAPE", "a body matching schema page-list.json", "\n  meta: required property is missing\n  numberOfItems: expected integer, got string",
		"GET", "/api/pages", 200, `{"status":"0","message":"List of pages","numberOfItems":"15","data":[]}`, "meta", "numberOfItems")
	// A hand-built message (no fact): the diagnosis reads the exchange.
	doubleForm = failure{rule: "GEN-FORM-SANITISED-ONCE", message: "title reads back double-encoded\nrequest:  POST " + fixtureBase + "/api/pages\n" +
		"response: 201 Created (1ms)\n          body: {\"data\":{\"title\":\"Salt &amp;amp; Pepper\"}}\nreproduce: curl -sS -i -X POST \"" + fixtureBase + "/api/pages\"\n" +
		"Expected\n    <string>: Salt &amp;amp; Pepper\nto equal\n    <string>: Salt &amp; Pepper",
		facts: gomegaFact("Expected\n    <string>: Salt &amp;amp; Pepper\nto equal\n    <string>: Salt &amp; Pepper",
			`it to equal "Salt &amp; Pepper"`, `"Salt &amp;amp; Pepper"`),
		exchanges: []verdict.Exchange{{Seq: 3, Method: "POST", Path: "/api/pages", Status: 201, Body: `{"data":{"title":"Salt &amp;amp; Pepper"}}`}}}
	titleTwice = failure{rule: "PAGE-TITLE-ENCODED", message: "title is not encoded once",
		exchanges: []verdict.Exchange{{Seq: 4, Method: "GET", Path: "/api/pages/x", Status: 200, Body: `{"data":{"title":"Salt &amp;lt;b&amp;gt;"}}`}}}
	zeroSize = failure{rule: "PAGE-LIST-NONPOSITIVE-SIZE", message: "Expected\n    <int>: 0\nto be >\n    <int>: 0",
		facts: gomegaFact("Expected\n    <int>: 0\nto be >\n    <int>: 0", "it to be > 0", "0")}
	badPaging = statusFailure("PAGE-LIST-BAD-PAGING-NO-CRASH", "HTTP 200", 500, "")
	tagsStr   = matcherFailure("PAGE-TAGS-MAP", "a body matching schema page-response.json", "\n  data.tags: expected object, got string",
		"GET", "/api/pages/alpha", 200, tagsAsString, "data.tags")
	// The same symptom, where the failing expectation is not on the exchange
	// that shows it: a page list item with tags a string.
	tagsStr2 = failure{rule: "PAGE-TAGS-MAP", message: `the page read back: data.tags is "news,PHP Tips": it is not an object of tag key to tag name`,
		exchanges: []verdict.Exchange{{Seq: 9, Method: "GET", Path: "/api/pages", Status: 200, Body: `{"meta":{},"data":[{"key":"a","tags":"news"}]}`}}}
	// A plain Gomega assertion on a response the spec read last: its fact
	// names no response, the status is that of the spec's last answer.
	gomega200 = failure{rule: "PAGE-CREATE-INVALID-TYPE", message: "Expected\n    <string>: bogus\nto be one of the five types",
		facts:     gomegaFact("Expected\n    <string>: bogus\nto be one of the five types", "it to be one of the five types", `"bogus"`),
		exchanges: []verdict.Exchange{{Seq: 5, Method: "POST", Path: "/api/pages", Status: 200}, {Seq: 6, Method: "GET", Path: "/api/pages/x", Status: 200}}}
	gomega404 = failure{rule: "PAGE-CREATE-INVALID-TYPE", message: "Expected\n    <string>: bogus\nto be one of the five types",
		facts:     gomegaFact("Expected\n    <string>: bogus\nto be one of the five types", "it to be one of the five types", `"bogus"`),
		exchanges: []verdict.Exchange{{Seq: 5, Method: "POST", Path: "/api/pages", Status: 200}, {Seq: 6, Method: "GET", Path: "/api/pages/x", Status: 404}}}
	noScheduled = failure{rule: "PAGE-LIST-TYPE-FILTERS", message: "with only scheduled=true the list holds every scheduled page", specCase: "scheduled"}
	noDraft     = failure{rule: "PAGE-LIST-TYPE-FILTERS", message: "with only draft=true the list holds every draft page (scheduled pages are missing)", specCase: "draft"}
)

func legacyFailures() []failure {
	return []failure{notFound200("PAGE-GET-404"), notFound200("TAG-GET-404"), notFound200("USER-GET-404"),
		notFound200("PAGE-EDIT-404"), create200, createFields, noMeta, doubleForm, zeroSize, badPaging, tagsStr}
}

func TestDiagnoseLegacy(t *testing.T) {
	for _, tc := range []struct {
		name     string
		fails    []failure
		passed   []string
		symptoms []string // nil: no diagnosis
	}{
		{
			name:  "the previous release, writes allowed",
			fails: legacyFailures(),
			symptoms: []string{"handler failures answered HTTP 200", "create answered 200, not 201",
				"create or edit returned only the key", "no meta on the page list", "form input HTML-encoded twice",
				"odd paging values crash or empty the list", "page tags a string of names, not a map"},
		},
		{
			name:     "the previous release, read-only run",
			fails:    []failure{notFound200("PAGE-GET-404"), notFound200("CAT-GET-404"), noMeta, zeroSize, tagsStr2},
			symptoms: []string{"handler failures answered HTTP 200", "no meta on the page list", "odd paging values crash or empty the list", "page tags a string of names, not a map"},
		},
		{
			name:     "a status read from the last answer when no fact was recorded",
			fails:    []failure{gomega200, noMeta, tagsStr},
			symptoms: []string{"handler failures answered HTTP 200", "no meta on the page list", "page tags a string of names, not a map"},
		},
		{
			name:  "the last answer, not any answer, of a failure without facts",
			fails: []failure{gomega404, noMeta, tagsStr},
		},
		{
			name:  "no scheduled filter: only the scheduled case counts",
			fails: []failure{notFound200("PAGE-GET-404"), noDraft, noScheduled, titleTwice},
			symptoms: []string{"handler failures answered HTTP 200", "no scheduled filter on the page list",
				"form input HTML-encoded twice"},
		},
		{
			name:  "a message that only mentions scheduled is no evidence",
			fails: []failure{notFound200("PAGE-GET-404"), noDraft, titleTwice},
		},
		{
			name:  "one bug: every handler failure answered 200 (mutant handler-errors-200)",
			fails: []failure{notFound200("PAGE-GET-404"), notFound200("TAG-GET-404"), notFound200("CAT-GET-404"), notFound200("USER-GET-404")},
		},
		{
			name:  "one bug: create returns only the key (mutant create-returns-key-only)",
			fails: []failure{create200, createFields},
		},
		{
			name:  "three old traits but real status codes: not the old release",
			fails: []failure{noMeta, zeroSize, tagsStr, statusFailure("PAGE-GET-404", "HTTP 404", 500, "")},
		},
		{
			name: "404 rules failing for their body, not their code",
			fails: []failure{
				matcherFailure("PAGE-GET-404", handlerError404, "the body has no status field", "GET", "/api/pages/x", 404, `{"message":"Page not found."}`),
				noMeta, zeroSize, badPaging},
		},
		{
			name:   "the same rules passing",
			passed: []string{"PAGE-GET-404", "PAGE-CREATE-201", "PAGE-LIST-SHAPE", "PAGE-LIST-NONPOSITIVE-SIZE"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Diagnose(runOf(tc.fails, tc.passed...))
			if tc.symptoms == nil {
				if d != nil {
					t.Fatalf("diagnosed %q", d.Line)
				}
				return
			}
			if d == nil {
				t.Fatal("not diagnosed")
			}
			var names []string
			for _, e := range d.Evidence {
				names = append(names, e.Symptom)
			}
			if !reflect.DeepEqual(names, tc.symptoms) {
				t.Fatalf("symptoms\n  %q\nwant\n  %q", names, tc.symptoms)
			}
			if !strings.HasPrefix(d.Line, LegacyLine+" (") || strings.Contains(d.Line, "\n") {
				t.Fatalf("line %q: want one line starting %q", d.Line, LegacyLine)
			}
			for _, e := range d.Evidence {
				for _, id := range e.Rules {
					if !strings.Contains(d.Line, id) {
						t.Errorf("line does not name evidence rule %s", id)
					}
				}
			}
		})
	}
}

func TestDiagnoseEvidenceNamesRules(t *testing.T) {
	d := Diagnose(runOf(legacyFailures()))
	if d == nil {
		t.Fatal("not diagnosed")
	}
	want := map[string][]string{
		"handler failures answered HTTP 200":   {"PAGE-GET-404", "TAG-GET-404", "USER-GET-404", "PAGE-EDIT-404"},
		"create answered 200, not 201":         {"PAGE-CREATE-201"},
		"create or edit returned only the key": {"PAGE-CREATE-201", "PAGE-CREATE-FIELDS"},
	}
	for _, e := range d.Evidence {
		if w, ok := want[e.Symptom]; ok && !reflect.DeepEqual(e.Rules, w) {
			t.Errorf("%s: rules %v, want %v", e.Symptom, e.Rules, w)
		}
	}
}

// legacyRun is a whole run of the previous release for the golden files.
func legacyRun(t *testing.T) *Run {
	t.Helper()
	r := runOf(legacyFailures(), "GEN-CORS-ANY-ORIGIN", "PAGE-LIST-PAST-END")
	for i := range r.Rules {
		r.Rules[i].Section, r.Rules[i].Level, r.Rules[i].Text = "4", "MUST", "rule text of "+r.Rules[i].ID
		r.Rules[i].Area = "pages"
		if strings.HasPrefix(r.Rules[i].ID, "GEN-") {
			r.Rules[i].Area = "protocol"
		}
		for _, j := range r.Rules[i].Specs {
			r.Specs[j].Area = r.Rules[i].Area
		}
		r.Counts.add(r.Rules[i].Status)
	}
	r.Meta = Meta{SuiteVersion: "v1.2.3", Target: "https://old.example.org", RunID: "20260314t0926-def456", Mode: "writes",
		Started: fixtureStart, Duration: Duration(2 * time.Second), Requests: 40}
	r.Verdict = verdictSentence(r)
	r.Diagnosis = Diagnose(r)
	return r
}
