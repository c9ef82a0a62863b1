package report

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// A fixed run for the golden files: its own small catalogue (so a rule
// added to internal/spec does not change the goldens), fixed times, and one
// spec of every kind the reports must show.

var fixtureStart = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

func fixtureCatalogue(t *testing.T) *spec.Catalogue {
	t.Helper()
	cat, err := spec.New([]spec.Rule{
		{ID: "GEN-NO-CACHE", Section: "5.9", Level: spec.Must, Area: spec.AreaProtocol, CrossCutting: true,
			Text: "Every response carries no-cache headers."},
		{ID: "GEN-CORS-ANY-ORIGIN", Section: "5.9", Level: spec.Must, Area: spec.AreaProtocol, CrossCutting: true,
			Text:    "Every response allows cross-origin access from any origin.",
			Reading: "Access-Control-Allow-Origin is * or echoes the request's Origin header."},
		{ID: "PAGE-GET-404", Section: "4.2", Level: spec.Must, Area: spec.AreaPages,
			Text: "GET of a key no page has answers 404 with a handler-error body."},
		{ID: "PAGE-LIST-SHAPE", Section: "4.1", Level: spec.Must, Area: spec.AreaPages,
			Text: "GET /api/pages answers 200 with numberOfItems, meta and data."},
		{ID: "PAGE-CREATE-201", Section: "4.3", Level: spec.Must, Area: spec.AreaPages, Writes: true,
			Text: "POST /api/pages answers 201 with the full page object."},
		{ID: "USER-GET-404", Section: "4.8", Level: spec.Must, Area: spec.AreaUsers,
			Text: "GET of a username that does not exist answers 404."},
		{ID: "USER-LIST-SHAPE", Section: "4.8", Level: spec.Must, Area: spec.AreaUsers,
			Text: "GET /api/users answers 200 with data keyed by username."},
		{ID: "USER-NO-SENSITIVE-FIELDS", Section: "2.4", Level: spec.Must, Area: spec.AreaUsers,
			Text: "Profiles never carry email, role, password hash or token."},
		{ID: "SETTINGS-GET-SHAPE", Section: "4.9", Level: spec.Must, Area: spec.AreaSettings,
			Text: "GET /api/settings answers 200 with the settings object."},
		{ID: "FILES-IMAGE-FIELDS", Section: "4.12", Level: spec.Must, Area: spec.AreaFiles,
			Text: "POST /api/images request fields and response shape.", NotTestable: "not shown in the spec"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

const fixtureBase = "http://127.0.0.1:8080"

// exchange renders an exchange the way client.Exchange.String does.
func exchange(method, path string, status int, reason, body string) string {
	url := fixtureBase + path + "?token=${CONFORMANCE_TOKEN}"
	return strings.Join([]string{
		"request:  " + method + " " + url,
		"response: " + strconv.Itoa(status) + " " + reason + " (1ms)",
		"          Access-Control-Allow-Origin: *",
		"          Content-Type: application/json",
		"          body: " + body,
		"reproduce: curl -sS -i \"" + url + "\"",
	}, "\n") + "\n"
}

func leaf(container, id, text string, state types.SpecState, labels ...string) types.SpecReport {
	return types.SpecReport{
		ContainerHierarchyTexts:  []string{container},
		ContainerHierarchyLabels: [][]string{{}},
		LeafNodeType:             types.NodeTypeIt,
		LeafNodeText:             "[" + id + "] " + text,
		LeafNodeLabels:           append([]string{"rule:" + id}, labels...),
		State:                    state,
		RunTime:                  3 * time.Millisecond,
	}
}

// counted adds the framework's count of evaluated assertions to sr.
func counted(sr types.SpecReport, n int) types.SpecReport {
	sr.ReportEntries = append(sr.ReportEntries, types.ReportEntry{Name: verdict.EntryAssertions,
		Value: types.WrapEntryValue(verdict.Assertions(n))})
	return sr
}

func fixtureReport() *types.Report {
	pageMissing := exchange("GET", "/api/pages/conformance-x-no-such-page", 200, "OK",
		`{"status":"1","message":"Page not found: <script>alert(1)</script> | `+"`tick`"+` & more"}`)
	get404 := leaf("4.2 GET /api/pages/{key}", "PAGE-GET-404", "GET of a key no page has answers 404 with a handler-error body.",
		types.SpecStateFailed, "area:pages")
	get404.Failure = types.Failure{
		Message:  "Expected: HTTP 404 with a handler-error body (status \"1\", message a string)\nGot: HTTP 200\n\n" + pageMissing,
		Location: types.CodeLocation{FileName: "suites/pages/reads.go", LineNumber: 42},
	}
	get404.ReportEntries = types.ReportEntries{{Name: "requests", Value: types.WrapEntryValue(
		"#7\n" + exchange("GET", "/api/pages", 200, "OK", `{"status":"0","message":"List of pages","data":[]}`) +
			"\n#8\n" + pageMissing + "\n")}}

	userMissing := exchange("GET", "/api/users/conformance-x-nobody", 200, "OK", `{"status":"1","message":"User not found"}`)
	user404 := leaf("4.8 GET /api/users/{username}", "USER-GET-404", "GET of a username that does not exist answers 404.",
		types.SpecStateFailed, "area:users")
	// Gomega puts a description (the exchange) before its own message.
	user404.Failure = types.Failure{
		Message:  userMissing + "Expected\n    <float64>: 200\nto equal\n    <float64>: 404",
		Location: types.CodeLocation{FileName: "suites/users/users.go", LineNumber: 27},
	}
	// What the framework records of it, in words (framework/gomegafacts.go).
	user404.ReportEntries = types.ReportEntries{{Name: verdict.EntryFact, Value: types.WrapEntryValue(verdict.Fact{
		Expected: "it to equal 404", Got: "200", Rendered: "Expected\n    <float64>: 200\nto equal\n    <float64>: 404"})}}

	userList := leaf("4.8 GET /api/users", "USER-LIST-SHAPE", "GET /api/users answers 200 with data keyed by username.",
		types.SpecStatePanicked, "area:users")
	userList.Failure = types.Failure{Message: "runtime error: index out of range [3] with length 3",
		Location: types.CodeLocation{FileName: "suites/users/users.go", LineNumber: 19}}

	create := leaf("4.3 POST /api/pages", "PAGE-CREATE-201", "POST /api/pages answers 201 with the full page object.",
		types.SpecStateSkipped, "area:pages", "writes")
	create.Failure = types.Failure{Message: "not checked: read-only run: this rule needs write requests"}
	create.ReportEntries = types.ReportEntries{{Name: verdict.EntryNotChecked,
		Value: types.WrapEntryValue(verdict.NotChecked{Reason: "read-only run: this rule needs write requests"})}}

	noCache := leaf("Every response of the run", "GEN-NO-CACHE", "Every response carries no-cache headers.",
		types.SpecStateFailed, "area:protocol", "cross-cutting")
	noCache.Failure = types.Failure{Message: "1 of 4 responses break this rule; the first 1:\n\n1. Cache-Control is missing\n" +
		exchange("GET", "/api/users/conformance-x-nobody", 200, "OK", `{"status":"1","message":"User not found"}`)}

	return &types.Report{SpecReports: types.SpecReports{
		counted(leaf("4.1 GET /api/pages", "PAGE-LIST-SHAPE", "GET /api/pages answers 200 with numberOfItems, meta and data.", types.SpecStatePassed, "area:pages"), 3),
		counted(get404, 1), counted(create, 0), counted(user404, 2), counted(userList, 0), counted(noCache, 4),
		// Selected, but the run was interrupted before it.
		leaf("2.4 User profile", "USER-NO-SENSITIVE-FIELDS", "Profiles never carry email, role, password hash or token.", types.SpecStateSkipped, "area:users"),
		// Left out by the label filter !area:settings: not listed.
		leaf("4.9 GET /api/settings", "SETTINGS-GET-SHAPE", "GET /api/settings answers 200 with the settings object.", types.SpecStateSkipped, "area:settings"),
		counted(leaf("Every response of the run", "GEN-CORS-ANY-ORIGIN", "Every response allows cross-origin access from any origin.", types.SpecStatePassed, "area:protocol", "cross-cutting"), 4),
	}}
}

func fixtureRun(t *testing.T) *Run {
	t.Helper()
	meta := Meta{SuiteVersion: "v1.2.3", Target: fixtureBase, RunID: "20260314t0926-abc123", Mode: "read-only",
		LabelFilter: "!area:settings", Skip: []string{"slow"}, Started: fixtureStart,
		Duration: Duration(1234 * time.Millisecond), Requests: 9}
	extras := Extras{
		Cleanup:      Cleanup{Uploads: []string{"pages/alpha/test-txt.txt"}},
		Observations: []string{"GET /api/pages answered in 1.2s"},
		Checked:      map[string]int{"GEN-NO-CACHE": 4, "GEN-CORS-ANY-ORIGIN": 4},
	}
	return Build(fixtureReport(), fixtureCatalogue(t), meta, extras)
}
