package protocol

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/schemas"
)

// Shapes are cross-cutting: every successful answer the run receives,
// whoever asked for it, is held once against the schema of its endpoint,
// and a violation fails the rule of that shape, naming the spec whose
// request brought the answer (crosscutting.Watcher's tally). A shape
// rule's own specs still read what they need to find (a tag that names a
// page, a page of each type); this case makes sure no answer escapes its
// shape because it came to another rule (a file record read in an upload's
// round trip, a page in an edit's answer, a tag's pages after a write).
// Each judged answer marks the kind cells of the fields it carries
// (internal/coverage): how many answers carried each field, all checked.
//
// Only the answers whose shape the spec shows are judged: successes (an
// error's body is the envelope rules' concern, judged where the run
// provokes it: provoked.go), and not the uploads' (4.12, 4.13 do not show
// them).

// shapeRoute is how the answers to one endpoint are judged.
type shapeRoute struct {
	endpoint spec.Endpoint
	schema   string
	rule     string
	// records are where the answer holds records whose fields the map
	// covers: a section of the map and a gjson path to its records.
	records []recordsAt
}

// recordsAt is a section of the map and where its records are in an answer
// ("data.#" for each item of data, "data.@values" for the values of an
// object keyed by username, "data" for one record).
type recordsAt struct {
	section string
	path    string
}

// shapeRoutes are the endpoints whose successful answers the spec shows.
func shapeRoutes() []shapeRoute {
	page, pages := recordsAt{"page", "data"}, recordsAt{"page", "data.#"}
	return []shapeRoute{
		{spec.ListPages, "page-list.json", "PAGE-LIST-SHAPE", []recordsAt{pages}},
		{spec.GetPage, "page-response.json", "PAGE-OBJECT-SHAPE", []recordsAt{page}},
		{spec.CreatePage, "page-response.json", "PAGE-CREATE-201", []recordsAt{page}},
		{spec.EditPage, "page-response.json", "PAGE-EDIT-OK", []recordsAt{page}},
		{spec.DeletePage, "delete-response.json", "PAGE-DELETE-OK", nil},
		{spec.ListTags, "tag-list-response.json", "TAG-LIST-SHAPE", []recordsAt{{"tag", "data.#"}}},
		{spec.GetTag, "tag-response.json", "TAG-GET-SHAPE", []recordsAt{{"tag", "data"}, {"page", "data.pages.#"}}},
		{spec.ListCategories, "category-list-response.json", "CAT-LIST-SHAPE", []recordsAt{{"category", "data.#"}}},
		{spec.GetCategory, "category-response.json", "CAT-GET-SHAPE", []recordsAt{{"category", "data"}, {"page", "data.pages.#"}}},
		{spec.ListUsers, "user-list-response.json", "USER-LIST-SHAPE", []recordsAt{{"user", "data.@values"}}},
		{spec.GetUser, "user-response.json", "USER-GET-SHAPE", []recordsAt{{"user", "data"}}},
		{spec.GetSettings, "settings-response.json", "SETTINGS-GET-SHAPE", []recordsAt{{"settings", "data"}}},
		{spec.EditSettings, "settings-edit-response.json", "SETTINGS-EDIT-OK", nil},
		{spec.ListFiles, "file-list-response.json", "FILES-LIST-SHAPE", []recordsAt{{"file", "data.#"}}},
	}
}

// shapeCase is the Case of a shape rule's spec that judges every answer.
const shapeCase = "every successful answer of the run"

// registerShapes adds the shape checks to the run's cross-cutting judge and
// one spec per shape rule that reports them, with the specs of every
// response (crossCuttingPriority: after every other spec).
func registerShapes(t *framework.Fixture) {
	var checks []crosscutting.ExchangeCheck
	for _, r := range shapeRoutes() {
		checks = append(checks, crosscutting.ExchangeCheck{Rule: r.rule, Check: r.judges(t), Later: r.judge(t)})
	}
	t.CrossCutting.Add(checks...)
	ginkgo.Describe("The shape of every answer of the run", ginkgo.SpecPriority(crossCuttingPriority), ginkgo.Label(framework.LabelCrossCutting), func() {
		for _, r := range shapeRoutes() {
			t.It(r.rule, func(ginkgo.SpecContext) {
				tally := t.CrossCutting.Tally(r.rule)
				if tally.Checked == 0 {
					verdicts.NotChecked("%s", r.nothingJudged())
				}
				if tally.Violations > 0 {
					ginkgo.Fail(fmt.Sprintf("Expected: every successful answer of %s, whichever spec asked for it, to match schema %s\n\n%s",
						r.endpoint, r.schema, tally.Summary()))
				}
			}, framework.Case(shapeCase), r.endpoint)
		}
	})
}

// nothingJudged is why the route's rule is not checked when no answer was
// judged: a route whose answer carries records had none carrying one; a
// route whose answer carries none (a delete, a settings update: an
// envelope without data) had no successful answer at all.
func (r shapeRoute) nothingJudged() string {
	if len(r.records) == 0 {
		return fmt.Sprintf("the run received no successful answer of %s to judge", r.endpoint)
	}
	return fmt.Sprintf("the run received no successful answer of %s carrying a record to judge", r.endpoint)
}

// judges says at once whether an answer is the route's to judge: an
// answer to another endpoint, one that did not succeed, or one whose body
// did not arrive whole is not.
func (r shapeRoute) judges(t *framework.Fixture) func(ex *client.Exchange) rules.Judgement {
	return func(ex *client.Exchange) rules.Judgement {
		if ex.Method != r.endpoint.Method() || t.CrossCutting.Endpoint(ex) != keyedPath(r.endpoint) ||
			ex.Status < http.StatusOK || ex.Status >= http.StatusMultipleChoices || ex.Truncated || ex.BodyCut {
			return cannotJudge()
		}
		return conforms()
	}
}

// judge holds the body of an answer the route judges against its schema
// (beside the specs: crosscutting.ExchangeCheck.Later); an answer carrying no
// record that conforms is not counted (it shows nothing of the records'
// shape).
func (r shapeRoute) judge(t *framework.Fixture) func(ex *client.Exchange, body []byte) rules.Judgement {
	return func(_ *client.Exchange, body []byte) rules.Judgement {
		if !json.Valid(body) {
			return cannotJudge() // GEN-BODY-JSON's
		}
		violations, err := schemas.Violations(r.schema, body)
		if err != nil {
			return violation("%v", err)
		}
		carried := r.markKinds(t, gjson.ParseBytes(body))
		switch {
		case len(violations) > 0:
			return violation("%s", problemOf(violations))
		case carried == 0 && len(r.records) > 0:
			return cannotJudge()
		}
		return conforms()
	}
}

// markKinds marks the kind cell of every field of the map the answer's
// records carry (once per answer and field) and returns how many records
// it holds.
func (r shapeRoute) markKinds(t *framework.Fixture, answer gjson.Result) int {
	n := 0
	for _, at := range r.records {
		fields := sectionFields(at.section)
		seen := map[string]bool{}
		var records []gjson.Result
		switch {
		case strings.HasSuffix(at.path, ".#"):
			records = answer.Get(strings.TrimSuffix(at.path, ".#")).Array()
		case strings.Contains(at.path, "@values"):
			records = answer.Get(at.path).Array()
		default:
			records = []gjson.Result{answer.Get(at.path)}
		}
		for _, rec := range records {
			if !rec.IsObject() {
				continue
			}
			n++
			rec.ForEach(func(k, _ gjson.Result) bool {
				seen[k.Str] = true
				return true
			})
		}
		for _, f := range fields {
			if seen[f] {
				t.Coverage.Mark(coverage.CellID(at.section, f, coverage.Kind), r.rule)
			}
		}
	}
	return n
}

// sectionFields are the fields of a section of the map.
func sectionFields(section string) []string {
	switch section {
	case "page":
		return coverage.PageFields()
	case "tag", "category":
		return coverage.TermFields()
	case "user":
		return coverage.UserFields()
	case "file":
		return coverage.FileFields()
	case "settings":
		return coverage.SettingsFields()
	}
	return nil
}

// keyedPath is the path of an endpoint as crosscutting.Watcher.Endpoint
// writes it: any key a {key} placeholder.
func keyedPath(e spec.Endpoint) string { return strings.Replace(e.Path(), "{username}", "{key}", 1) }

// index is an array index in a schema violation's path.
var index = regexp.MustCompile(`\[\d+\]`)

// maxShown bounds the violations one problem lists.
const maxShown = 6

// problemOf words the violations of one answer as one problem: array
// indices folded ("data[n].tags"), so that the same break in many answers
// groups together, each distinct violation once.
func problemOf(vs []schemas.Violation) string {
	var lines []string
	for _, v := range vs {
		lines = append(lines, index.ReplaceAllString(v.Path, "[n]")+": "+v.Problem)
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	more := ""
	if len(lines) > maxShown {
		more = fmt.Sprintf("; and %d more", len(lines)-maxShown)
		lines = lines[:maxShown]
	}
	return strings.Join(lines, "; ") + more
}
