package report

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// failedRun is a run whose rules each failed with one spec.
type failedRun struct{ run *Run }

func newFailedRun() *failedRun { return &failedRun{run: &Run{}} }

// fail adds a failed rule whose one spec recorded facts and exchanges.
func (b *failedRun) fail(id string, exs []verdict.Exchange, facts ...verdict.Fact) *failedRun {
	b.run.Specs = append(b.run.Specs, SpecResult{Name: id + " spec", Rules: []string{id}, Status: Failed,
		Message: "Expected: something about " + id, Facts: facts, Exchanges: exs})
	b.run.Rules = append(b.run.Rules, RuleResult{ID: id, Section: "4", Area: "pages", Text: "rule text of " + id,
		Status: Failed, Specs: []int{len(b.run.Specs) - 1}})
	b.run.Counts.Failed++
	return b
}

func answer(seq int, method, path string, status int, body string) verdict.Exchange {
	return verdict.Exchange{Seq: seq, Method: method, Path: path, Status: status, Body: body}
}

// schemaFact is what match.MatchSchema records for one violation.
func schemaFact(ex verdict.Exchange, field, got, want string) verdict.Fact {
	return verdict.Fact{Expected: "a body matching schema x.json", Got: got, Field: field, Want: want, Status: ex.Status, Seq: ex.Seq}
}

func ruleSets(fs []Finding) [][]string {
	var out [][]string
	for _, f := range fs {
		out = append(out, f.Rules)
	}
	return out
}

// One field of the wrong kind behind rules on every endpoint that returns
// it is one finding, whatever the path (list items, one page, pages under
// a tag), and a rule that recorded no fact joins it when the answer it
// judged shows that field and nothing else known to be wrong.
func TestFindingsOneFieldManyRules(t *testing.T) {
	list := answer(1, "GET", "/api/pages", 200, `{"data":[{"key":"a","tags":"News"},{"key":"b","tags":"Music"}]}`)
	one := answer(2, "GET", "/api/pages/a", 200, `{"data":{"key":"a","tags":"News"}}`)
	tag := answer(3, "GET", "/api/tags/news", 200, `{"data":{"key":"news","pages":[{"key":"a","tags":"News"}]}}`)
	created := answer(4, "POST", "/api/pages", 201, `{"data":{"key":"c","tags":"One,Two"}}`)
	b := newFailedRun().
		fail("PAGE-LIST-SHAPE", []verdict.Exchange{list},
			schemaFact(list, "data[0].tags", "expected object, got string", "object"),
			schemaFact(list, "data[1].tags", "expected object, got string", "object")).
		fail("PAGE-GET-SHAPE", []verdict.Exchange{one}, schemaFact(one, "data.tags", "expected object, got string", "object")).
		fail("TAG-GET-SHAPE", []verdict.Exchange{tag}, schemaFact(tag, "data.pages[0].tags", "expected object, got string", "object")).
		fail("PAGE-TAGS-MAP", []verdict.Exchange{created}) // a plain Gomega assertion: no fact
	fs := b.run.Findings()
	want := [][]string{{"PAGE-LIST-SHAPE", "PAGE-GET-SHAPE", "TAG-GET-SHAPE", "PAGE-TAGS-MAP"}}
	if !reflect.DeepEqual(ruleSets(fs), want) {
		t.Fatalf("findings %+v, want one with %v", fs, want)
	}
	if fs[0].Fact != "data.tags is a string where the spec wants an object" {
		t.Errorf("the finding says %q", fs[0].Fact)
	}
	if len(fs[0].Seen) == 0 || fs[0].Seen[0] != "GET /api/pages → 200" {
		t.Errorf("seen in %q", fs[0].Seen)
	}
	if u := b.run.Unexplained(fs); len(u) != 0 {
		t.Errorf("unexplained: %+v", u)
	}
}

// A rule without facts whose answer shows two known causes is not put
// under either: which one broke it cannot be told.
func TestFindingsAmbiguousRuleStaysAlone(t *testing.T) {
	a := answer(1, "GET", "/api/pages/a", 200, `{"data":{"key":"a","tags":"News","category":false}}`)
	b := newFailedRun().
		fail("PAGE-TAGS", []verdict.Exchange{a}, schemaFact(a, "data.tags", "expected object, got string", "object")).
		fail("PAGE-CATEGORY", []verdict.Exchange{a}, schemaFact(a, "data.category", "expected string, got false", "string")).
		fail("PAGE-FIELDS", []verdict.Exchange{a})
	fs := b.run.Findings()
	if got := ruleSets(fs); !reflect.DeepEqual(got, [][]string{{"PAGE-TAGS"}, {"PAGE-CATEGORY"}}) {
		t.Errorf("findings %v", got)
	}
	if u := b.run.Unexplained(fs); len(u) != 1 || u[0].ID != "PAGE-FIELDS" {
		t.Errorf("unexplained %+v, want PAGE-FIELDS", u)
	}
}

// Handler errors answered 200 are one finding across 404 and 400 rules;
// a 400 where a success is wanted is another.
func TestFindingsStatus(t *testing.T) {
	statusFact := func(ex verdict.Exchange, want string) verdict.Fact {
		return verdict.Fact{Expected: want, Got: "HTTP " + strconv.Itoa(ex.Status), Status: ex.Status, Seq: ex.Seq}
	}
	missing := answer(1, "GET", "/api/pages/nope", 200, `{"status":"1","message":"no"}`)
	bad := answer(2, "PUT", "/api/settings", 200, `{"status":"1","message":"no"}`)
	form := answer(3, "PUT", "/api/pages/a", 400, `{"status":"1","message":"no"}`)
	b := newFailedRun().
		fail("PAGE-GET-404", []verdict.Exchange{missing}, statusFact(missing, "HTTP 404 with a handler-error body")).
		fail("SETTINGS-400", []verdict.Exchange{bad}, statusFact(bad, "HTTP 400 with a handler-error body")).
		fail("GEN-FORM-BODY", []verdict.Exchange{form}, statusFact(form, "HTTP 200 with a success envelope"))
	fs := b.run.Findings()
	if got := ruleSets(fs); !reflect.DeepEqual(got, [][]string{{"PAGE-GET-404", "SETTINGS-400"}, {"GEN-FORM-BODY"}}) {
		t.Fatalf("findings %v", got)
	}
	if fs[0].Fact != "answered HTTP 200 where the spec wants another status" {
		t.Errorf("the finding says %q", fs[0].Fact)
	}
}

// Fields missing from the same rules' answers are one finding that names
// them all; a field of the same name missing from another resource is
// another finding.
func TestFindingsMissingFields(t *testing.T) {
	edit := answer(1, "PUT", "/api/pages/a", 200, `{"data":{"key":"a"}}`)
	tags := answer(2, "GET", "/api/tags", 200, `{"data":[{"key":"news","name":"News"}]}`)
	missing := func(ex verdict.Exchange, field string) verdict.Fact {
		return schemaFact(ex, field, "required property is missing", "")
	}
	b := newFailedRun().
		fail("PAGE-EDIT-OK", []verdict.Exchange{edit}, missing(edit, "data.title"), missing(edit, "data.description")).
		fail("TAG-LIST-SHAPE", []verdict.Exchange{tags}, missing(tags, "data[0].description"))
	fs := b.run.Findings()
	if got := ruleSets(fs); !reflect.DeepEqual(got, [][]string{{"PAGE-EDIT-OK"}, {"TAG-LIST-SHAPE"}}) {
		t.Fatalf("findings %v", got)
	}
	if fs[0].Fact != "data.title is missing" || !reflect.DeepEqual(fs[0].Also, []string{"data.description is missing"}) {
		t.Errorf("first finding %q also %q", fs[0].Fact, fs[0].Also)
	}
}

// The same wrong value in the same words is one finding; the values in
// the words do not keep two rules apart.
func TestFindingsSameWordsOtherValues(t *testing.T) {
	json := answer(1, "GET", "/api/pages/a", 200, `{"data":{"title":"Tom &amp;amp; Jerry"}}`)
	form := answer(2, "GET", "/api/pages/b", 200, `{"data":{"title":"Salt &amp;amp; Pepper"}}`)
	twice := func(ex verdict.Exchange, got string) verdict.Fact {
		return verdict.Fact{Expected: "data.title in the body", Field: "data.title", Got: got, Status: 200, Seq: ex.Seq}
	}
	b := newFailedRun().
		fail("PAGE-TITLE-ENCODED", []verdict.Exchange{json}, twice(json, `data.title is "Tom &amp;amp; Jerry", want "Tom & Jerry" HTML-encoded exactly once`)).
		fail("GEN-FORM-SANITISED-ONCE", []verdict.Exchange{form}, twice(form, `data.title is "Salt &amp;amp; Pepper", want "Salt & Pepper" HTML-encoded exactly once`))
	if got := ruleSets(b.run.Findings()); !reflect.DeepEqual(got, [][]string{{"PAGE-TITLE-ENCODED", "GEN-FORM-SANITISED-ONCE"}}) {
		t.Errorf("findings %v", got)
	}
}

func TestFieldSegments(t *testing.T) {
	for path, want := range map[string][]string{
		"data.tags":         {"data", "tags"},
		"data[12].tags":     {"data", "12", "tags"},
		"data.pages.0.tags": {"data", "pages", "0", "tags"},
		`data["a.b"].c`:     {"data", "a.b", "c"},
		`data.a\.b`:         {"data", "a.b"},
		"$":                 nil,
	} {
		if got := fieldSegments(path); !reflect.DeepEqual(got, want) {
			t.Errorf("fieldSegments(%q) = %q, want %q", path, got, want)
		}
	}
}
