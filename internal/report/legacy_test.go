package report

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// failure is one failed rule and the message of its failing spec.
type failure struct{ rule, message string }

// got renders a matcher failure the way internal/framework does.
func got(expect string, status int, body string) string {
	return "Expected: " + expect + "\nGot: HTTP " + strconv.Itoa(status) + "\n\n" +
		exchange("GET", "/api/x", status, "OK", body)
}

func runOf(fails []failure, passed ...string) *Run {
	r := &Run{}
	for _, f := range fails {
		r.Specs = append(r.Specs, SpecResult{Name: "[" + f.rule + "]", Rules: []string{f.rule}, Status: Failed, Message: f.message})
		r.Rules = append(r.Rules, RuleResult{ID: f.rule, Status: Failed, Specs: []int{len(r.Specs) - 1}})
	}
	for _, id := range passed {
		r.Specs = append(r.Specs, SpecResult{Name: "[" + id + "]", Rules: []string{id}, Status: Passed})
		r.Rules = append(r.Rules, RuleResult{ID: id, Status: Passed, Specs: []int{len(r.Specs) - 1}})
	}
	return r
}

var (
	notFound200 = func(id string) failure {
		return failure{id, got(`HTTP 404 with a handler-error body (status "1", message a string)`, 200, `{"status":"1","message":"Page not found."}`)}
	}
	create200    = failure{"PAGE-CREATE-201", got(`HTTP 201 with a success envelope (status "0", message a string)`, 200, `{"status":"0","message":"Page created.","data":{"key":"conformance-x-a"}}`)}
	createFields = failure{"PAGE-CREATE-FIELDS", "Expected: a body matching schema page-response.json\nGot: \n  data.title: required property is missing\n\n" +
		exchange("POST", "/api/pages", 200, "OK", `{"status":"0","message":"Page created.","data":{"key":"conformance-x-b"}}`)}
	noMeta = failure{"PAGE-LIST-SHAPE", "Expected: a body matching schema page-list.json\nGot: \n  meta: required property is missing\n  numberOfItems: expected integer, got string\n\n" +
		exchange("GET", "/api/pages", 200, "OK", `{"status":"0","message":"List of pages","numberOfItems":"15","data":[]}`)}
	doubleForm = failure{"GEN-FORM-SANITISED-ONCE", "title reads back double-encoded\nrequest:  POST " + fixtureBase + "/api/pages\n" +
		"response: 201 Created (1ms)\n          body: {\"data\":{\"title\":\"Salt &amp;amp; Pepper\"}}\nreproduce: curl -sS -i -X POST \"" + fixtureBase + "/api/pages\"\n" +
		"Expected\n    <string>: Salt &amp;amp; Pepper\nto equal\n    <string>: Salt &amp; Pepper"}
	zeroSize  = failure{"PAGE-LIST-NONPOSITIVE-SIZE", "Expected\n    <int>: 0\nto be >\n    <int>: 0"}
	badPaging = failure{"PAGE-LIST-BAD-PAGING-NO-CRASH", got("HTTP 200", 500, "")}
	tagsStr   = failure{"PAGE-TAGS-MAP", "Expected: a body matching schema page-response.json\nGot: \n  data.tags: expected object, got string\n\n" +
		exchange("GET", "/api/pages/alpha", 200, "OK", `{"status":"0","data":{"tags":"news,PHP Tips"}}`)}
	tagsStr2 = failure{"PAGE-TAGS-MAP", `the page read back: data.tags is "news,PHP Tips": it is not an object of tag key to tag name` + "\n\n" +
		exchange("GET", "/api/pages/alpha", 200, "OK", `{"status":"0","data":{"tags":"news,PHP Tips"}}`)}
	// Gomega's own message after an exchange description: the first
	// response line carries the code.
	gomega200 = failure{"USER-GET-404", exchange("GET", "/api/users/nobody", 200, "OK", `{"status":"1","message":"User not found"}`) +
		"Expected\n    <int>: 200\nto equal\n    <int>: 404"}
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
			name:     "a status code read from the exchange when the message is Gomega's",
			fails:    []failure{gomega200, noMeta, tagsStr},
			symptoms: []string{"handler failures answered HTTP 200", "no meta on the page list", "page tags a string of names, not a map"},
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
			fails: []failure{noMeta, zeroSize, tagsStr, {"PAGE-GET-404", got("HTTP 404", 500, "")}},
		},
		{
			name: "404 rules failing for their body, not their code",
			fails: []failure{
				{"PAGE-GET-404", got(`HTTP 404 with a handler-error body`, 404, `{"message":"Page not found."}`)},
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
	r.Verdict = verdict(r)
	r.Diagnosis = Diagnose(r)
	return r
}
