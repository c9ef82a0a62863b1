package report

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/verdict"
)

func TestRepoRelative(t *testing.T) {
	cases := map[string]string{
		"/home/dev/src/conformance/suites/pages/reads.go:131":                       "suites/pages/reads.go:131",
		"github.com/conformance-suite/conformance/internal/framework/install.go:67": "internal/framework/install.go:67",
		"reads.go:3": "reads.go:3",
	}
	for in, want := range cases {
		if got := repoRelative(in); got != want {
			t.Errorf("repoRelative(%q) = %q, want %q", in, got, want)
		}
	}
}

// The framework's typed entries reach the spec result, whether the Ginkgo
// report holds the values themselves (in the process that ran the specs)
// or only their JSON (a report read back).
func TestSpecResultReadsTypedEntries(t *testing.T) {
	fact := verdict.Fact{Expected: "HTTP 404", Got: "HTTP 200", Status: 200, Seq: 7}
	exs := []verdict.Exchange{{Seq: 7, Method: "GET", Path: "/api/pages/x", Status: 200, Body: `{"status":"0"}`}}
	entries := types.ReportEntries{
		{Name: verdict.EntryCase, Value: types.WrapEntryValue(verdict.Case("scheduled"))},
		{Name: verdict.EntryFact, Value: types.WrapEntryValue(fact)},
		{Name: verdict.EntryExchanges, Value: types.WrapEntryValue(exs)},
		{Name: verdict.EntryRequests, Value: types.WrapEntryValue("#7\nGET ...")},
		{Name: verdict.EntryAssertions, Value: types.WrapEntryValue(verdict.Assertions(3))},
	}
	b, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	var decoded types.ReportEntries
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	for name, es := range map[string]types.ReportEntries{"in process": entries, "read back": decoded} {
		sr := types.SpecReport{LeafNodeType: types.NodeTypeIt, State: types.SpecStateFailed, ReportEntries: es}
		got := specResult(&sr)
		if got.Case != "scheduled" || !reflect.DeepEqual(got.Facts, []verdict.Fact{fact}) ||
			!reflect.DeepEqual(got.Exchanges, exs) || got.Requests != "#7\nGET ..." || got.Assertions != 3 {
			t.Errorf("%s: %+v", name, got)
		}
	}
}

// A skipped spec's reason is the framework's typed NotChecked, never text
// cut out of Ginkgo's skip message.
func TestSkipReason(t *testing.T) {
	skipped := func(msg string, entries ...types.ReportEntry) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, State: types.SpecStateSkipped,
			Failure: types.Failure{Message: msg}, ReportEntries: entries}
	}
	typed := types.ReportEntry{Name: verdict.EntryNotChecked, Value: types.WrapEntryValue(verdict.NotChecked{Reason: "no draft page"})}
	vacuous := types.ReportEntry{Name: verdict.EntryNotChecked, Value: types.WrapEntryValue(verdict.NoAssertion())}
	for _, c := range []struct {
		sr          types.SpecReport
		want        string
		noAssertion bool
	}{
		{skipped("not checked: no draft page", typed), "no draft page", false},
		{skipped("skipped by hand"), "skipped by hand", false},
		{skipped(""), ReasonSkipped, false},
		{skipped(verdict.NoAssertion().String(), vacuous), verdict.ReasonNoAssertion, true},
	} {
		if got := specResult(&c.sr); got.Status != NotChecked || got.Message != c.want || got.NoAssertion != c.noAssertion {
			t.Errorf("%+v: status %s, message %q, noAssertion %v; want %q, %v", c.sr.Failure, got.Status, got.Message,
				got.NoAssertion, c.want, c.noAssertion)
		}
	}
}

// A rule's assertions add up those of its specs, and the report says which
// format it is written in.
func TestAssertionCounts(t *testing.T) {
	run := fixtureRun(t)
	if run.FormatVersion != FormatVersion {
		t.Errorf("formatVersion %d, want %d", run.FormatVersion, FormatVersion)
	}
	want := map[string]int{"PAGE-LIST-SHAPE": 3, "PAGE-GET-404": 1, "USER-GET-404": 2, "GEN-CORS-ANY-ORIGIN": 4,
		"GEN-NO-CACHE": 4, "PAGE-CREATE-201": 0, "SETTINGS-GET-SHAPE": 0}
	for _, r := range run.Rules {
		if n, ok := want[r.ID]; ok && r.Assertions != n {
			t.Errorf("%s: %d assertions, want %d", r.ID, r.Assertions, n)
		}
	}
}
