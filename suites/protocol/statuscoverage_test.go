package protocol_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/suites"
	"github.com/conformance-suite/conformance/suites/protocol"
)

// statusRow says that the spec lists HTTP status for endpoint, and which
// rules' specs are meant to provoke it (any one of them will do). An empty
// endpoint stands for "a path or method the spec does not list".
type statusRow struct {
	endpoint spec.Endpoint
	status   int
	rules    []string
}

// statusTable lists every (endpoint, status) pair of spec sections 4 and 7.
// Section 7 gives every request 400 (missing API token) and 401 (invalid
// API token); those rows are added for all 16 endpoints by statusRows. 500
// is left out: no client can make a conforming server fail
// (GEN-SERVER-ERROR-500 is not testable). A success of an upload is not
// listed: the spec shows neither its status nor its shape.
var statusTable = []statusRow{
	{spec.ListPages, 200, []string{"AUTH-READ-TOKEN-ONLY", "ENV-SUCCESS-SHAPE"}},
	{spec.GetPage, 200, []string{"AUTH-READ-TOKEN-ONLY", "ENV-SUCCESS-SHAPE"}},
	{spec.GetPage, 404, []string{"PAGE-GET-404", "ENV-HANDLER-ERROR-SHAPE"}},
	{spec.CreatePage, 201, []string{"PAGE-CREATE-201", "AUTH-TOKEN-IN-BODY"}},
	{spec.CreatePage, 400, []string{"PAGE-CREATE-INVALID-TYPE"}},
	{spec.CreatePage, 401, []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-WRITE-INVALID-AUTH"}},
	{spec.EditPage, 200, []string{"PAGE-EDIT-OK", "AUTH-TOKEN-IN-BODY"}},
	{spec.EditPage, 400, []string{"PAGE-EDIT-INVALID-400"}},
	{spec.EditPage, 401, []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-WRITE-INVALID-AUTH"}},
	{spec.EditPage, 404, []string{"PAGE-EDIT-404", "ENV-HANDLER-ERROR-SHAPE"}},
	{spec.DeletePage, 200, []string{"PAGE-DELETE-OK", "AUTH-TOKEN-IN-QUERY", "AUTH-DELETE-JSON-BODY"}},
	{spec.DeletePage, 401, []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-WRITE-INVALID-AUTH"}},
	{spec.DeletePage, 404, []string{"PAGE-DELETE-404", "ENV-HANDLER-ERROR-SHAPE"}},
	{spec.ListTags, 200, []string{"AUTH-READ-TOKEN-ONLY", "ENV-SUCCESS-SHAPE"}},
	{spec.GetTag, 200, []string{"AUTH-READ-TOKEN-ONLY", "ENV-SUCCESS-SHAPE"}},
	{spec.GetTag, 404, []string{"TAG-GET-404", "ENV-HANDLER-ERROR-SHAPE"}},
	{spec.ListCategories, 200, []string{"AUTH-READ-TOKEN-ONLY", "ENV-SUCCESS-SHAPE"}},
	{spec.GetCategory, 200, []string{"AUTH-READ-TOKEN-ONLY", "ENV-SUCCESS-SHAPE"}},
	{spec.GetCategory, 404, []string{"CAT-GET-404", "ENV-HANDLER-ERROR-SHAPE"}},
	{spec.ListUsers, 200, []string{"AUTH-READ-TOKEN-ONLY", "ENV-SUCCESS-SHAPE"}},
	{spec.GetUser, 200, []string{"AUTH-READ-TOKEN-ONLY", "ENV-SUCCESS-SHAPE"}},
	{spec.GetUser, 404, []string{"USER-GET-404", "ENV-HANDLER-ERROR-SHAPE"}},
	{spec.GetSettings, 200, []string{"AUTH-PARAM-NAME", "ENV-SUCCESS-SHAPE"}},
	{spec.GetSettings, 401, []string{"AUTH-SETTINGS-READ-NEEDS-AUTH"}},
	{spec.EditSettings, 200, []string{"SETTINGS-EDIT-OK"}},
	{spec.EditSettings, 400, []string{"SETTINGS-CUSTOMFIELDS-400"}},
	{spec.EditSettings, 401, []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-WRITE-INVALID-AUTH"}},
	{spec.UploadImage, 400, []string{"FILES-UPLOAD-REFUSED-400"}},
	{spec.UploadImage, 401, []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-WRITE-INVALID-AUTH"}},
	{spec.ListFiles, 200, []string{"AUTH-READ-TOKEN-ONLY", "ENV-SUCCESS-SHAPE"}},
	{spec.ListFiles, 400, []string{"FILES-TRAVERSAL-400"}},
	{spec.UploadFile, 400, []string{"FILES-UPLOAD-REFUSED-400"}},
	{spec.UploadFile, 401, []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-WRITE-INVALID-AUTH"}},
	{"", 401, []string{"AUTH-UNKNOWN-ENDPOINT-401"}},
}

// statusRows is statusTable plus section 7's 400 and 401 token errors on
// each endpoint.
func statusRows() []statusRow {
	rows := append([]statusRow(nil), statusTable...)
	for _, ep := range spec.Endpoints() {
		rows = append(rows, statusRow{ep, 400, []string{"AUTH-MISSING-TOKEN-400"}},
			statusRow{ep, 401, []string{"AUTH-INVALID-TOKEN-401"}})
	}
	return rows
}

// TestStatusTable keeps the table honest: known, testable rules; every
// endpoint has a success or a documented reason for none; no row twice
// with the same rules.
func TestStatusTable(t *testing.T) {
	cat := spec.All()
	for _, row := range statusRows() {
		if row.endpoint != "" && !isEndpoint(row.endpoint) {
			t.Errorf("row %s %d: not an endpoint of spec section 4", row.endpoint, row.status)
		}
		for _, id := range row.rules {
			r, ok := cat.Lookup(id)
			switch {
			case !ok:
				t.Errorf("row %s %d: rule %s is not in the catalogue", row.endpoint, row.status, id)
			case !r.Testable():
				t.Errorf("row %s %d: rule %s is not testable", row.endpoint, row.status, id)
			}
		}
	}
	success := map[spec.Endpoint]bool{}
	for _, row := range statusTable {
		if row.status/100 == 2 {
			success[row.endpoint] = true
		}
	}
	for _, ep := range spec.Endpoints() {
		if !success[ep] && ep != spec.UploadImage && ep != spec.UploadFile {
			t.Errorf("%s: no success status in the table", ep)
		}
	}
}

func isEndpoint(e spec.Endpoint) bool {
	for _, ep := range spec.Endpoints() {
		if ep == e {
			return true
		}
	}
	return false
}

// seenExchange is what the coverage check needs of one exchange.
type seenExchange struct {
	Method string `json:"method"`
	Path   string `json:"path"` // escaped, without the base URL's path
	Status int    `json:"status"`
	Scope  string `json:"scope"` // the text of the spec that sent it
}

// coverageChildEnv, when set, makes TestStatusCoverage the child run: the
// whole suite against a fresh reference server, its exchanges written to
// the file the variable names.
const coverageChildEnv = "CONFORMANCE_STATUS_COVERAGE_OUT"

// TestStatusCoverage runs every area's specs against the reference server
// (in a child process: RunSpecs runs once per process) and checks that each
// (endpoint, status) pair of the spec was provoked by a spec of one of the
// rules its row names.
func TestStatusCoverage(t *testing.T) {
	if out := os.Getenv(coverageChildEnv); out != "" {
		fullRun(t, out)
		return
	}
	file := filepath.Join(t.TempDir(), "exchanges.json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestStatusCoverage$", "-test.count=1")
	cmd.Env = append(os.Environ(), coverageChildEnv+"="+file)
	log, err := cmd.CombinedOutput()
	data, rerr := os.ReadFile(file)
	if rerr != nil {
		t.Fatalf("the full run wrote no exchanges (%v; exit: %v):\n%s", rerr, err, tail(log, 4000))
	}
	var seen []seenExchange
	if err := json.Unmarshal(data, &seen); err != nil {
		t.Fatal(err)
	}
	t.Logf("the full run sent %d requests", len(seen))
	if problems := checkCoverage(statusRows(), seen); len(problems) > 0 {
		t.Errorf("%d (endpoint, status) pair(s) of the spec are not provoked by the spec meant to, in a full run against the reference server:\n  %s",
			len(problems), strings.Join(problems, "\n  "))
	}
	// The error-body rules judge the errors the other rules provoke: in a
	// full run they need send nothing of their own.
	for _, ex := range seen {
		for _, id := range []string{"ENV-EARLY-ERROR-SHAPE", "ENV-HANDLER-ERROR-SHAPE"} {
			if strings.Contains(ex.Scope, "["+id+"]") {
				t.Errorf("%s sent %s %s (-> %d) in a full run: no other rule provoked that error any more", id, ex.Method, ex.Path, ex.Status)
			}
		}
	}
}

// checkCoverage returns one line per row no exchange satisfies.
func checkCoverage(rows []statusRow, seen []seenExchange) []string {
	type key struct {
		ep     spec.Endpoint
		status int
	}
	byKey := map[key][]string{} // scopes
	statuses := map[spec.Endpoint]map[int]bool{}
	for _, ex := range seen {
		ep := protocol.EndpointOf(ex.Method, ex.Path)
		byKey[key{ep, ex.Status}] = append(byKey[key{ep, ex.Status}], ex.Scope)
		if statuses[ep] == nil {
			statuses[ep] = map[int]bool{}
		}
		statuses[ep][ex.Status] = true
	}
	var problems []string
	for _, row := range rows {
		ok := false
		for _, scope := range byKey[key{row.endpoint, row.status}] {
			for _, id := range row.rules {
				if strings.Contains(scope, "["+id+"]") {
					ok = true
				}
			}
		}
		if !ok {
			name := string(row.endpoint)
			if name == "" {
				name = "an unknown endpoint"
			}
			var got []int
			for s := range statuses[row.endpoint] {
				got = append(got, s)
			}
			sort.Ints(got)
			problems = append(problems, fmt.Sprintf("%s %d: no spec of %s provoked it (statuses seen there: %v)",
				name, row.status, strings.Join(row.rules, " or "), got))
		}
	}
	return problems
}

func TestEndpointOf(t *testing.T) {
	cases := map[[2]string]spec.Endpoint{
		{"GET", "/api/pages"}:                 spec.ListPages,
		{"GET", "/api/pages/guides/child"}:    spec.GetPage,
		{"POST", "/api/pages"}:                spec.CreatePage,
		{"POST", "/api/pages/x"}:              "",
		{"DELETE", "/api/pages"}:              "",
		{"GET", "/api/users/admin"}:           spec.GetUser,
		{"PUT", "/api/settings"}:              spec.EditSettings,
		{"POST", "/api/files/alpha-post"}:     spec.UploadFile,
		{"GET", "/api/nonexistent"}:           "",
		{"PATCH", "/api/pages"}:               "",
		{"GET", "/apix/pages"}:                "",
		{"GET", "/api/files/a%2F..%2Fb"}:      spec.ListFiles,
		{"POST", "/api/images"}:               spec.UploadImage,
		{"GET", "/api/categories/tech-stuff"}: spec.GetCategory,
	}
	for in, want := range cases {
		if got := protocol.EndpointOf(in[0], in[1]); got != want {
			t.Errorf("endpointOf(%s %s) = %q, want %q", in[0], in[1], got, want)
		}
	}
}

func TestCheckCoverage(t *testing.T) {
	rows := []statusRow{{spec.GetPage, 404, []string{"PAGE-GET-404"}}, {"", 401, []string{"AUTH-UNKNOWN-ENDPOINT-401"}}}
	seen := []seenExchange{
		{"GET", "/api/pages/x", 404, "4.2 [PAGE-GET-OTHER] something"},
		{"GET", "/api/nonexistent", 401, "7 [AUTH-UNKNOWN-ENDPOINT-401] unknown"},
	}
	got := checkCoverage(rows, seen)
	if len(got) != 1 || !strings.Contains(got[0], "GET /api/pages/{key} 404") {
		t.Errorf("checkCoverage = %q, want one problem for GET /api/pages/{key} 404", got)
	}
	seen = append(seen, seenExchange{"GET", "/api/pages/y", 404, "4.2 [PAGE-GET-404] missing"})
	if got := checkCoverage(rows, seen); len(got) != 0 {
		t.Errorf("checkCoverage = %q, want none", got)
	}
}

// fullRun is the child: every area's specs, writes and settings writes
// allowed, against a fresh reference server; spec failures do not matter
// here (the area tests judge them), only which requests were sent.
func fullRun(t *testing.T, out string) {
	c, err := client.New(frameworktest.Reference(t))
	if err != nil {
		t.Fatal(err)
	}
	target := framework.New(c, framework.Options{SettingsWrites: true})
	gomega.RegisterFailHandler(ginkgo.Fail)
	framework.Install(target)
	suites.Register(target)
	sc, rc := types.NewDefaultSuiteConfig(), types.NewDefaultReporterConfig()
	rc.Succinct, rc.NoColor = true, true
	ginkgo.RunSpecs(ignoreFailures{}, "status coverage: full run", sc, rc)

	var seen []seenExchange
	for _, ex := range c.Exchanges() {
		if ex.Err != nil || ex.Status == 0 {
			continue
		}
		u, err := url.Parse(ex.URL)
		if err != nil {
			continue
		}
		seen = append(seen, seenExchange{Method: ex.Method, Path: u.EscapedPath(), Status: ex.Status, Scope: ex.Scope})
	}
	data, err := json.Marshal(seen)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// ignoreFailures is the child's GinkgoTestingT: spec failures are the area
// tests' business, not the coverage check's.
type ignoreFailures struct{}

func (ignoreFailures) Fail() {}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
