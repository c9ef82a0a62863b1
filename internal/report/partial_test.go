package report

import (
	"bytes"
	"encoding/json"
	"html"
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// partialRun is the fixture run plus a rule of two cases, one passed and
// one not checked: a pass of part of the rule.
func partialRun(t *testing.T) *Run {
	t.Helper()
	rep := fixtureReport()
	small := leaf("4.1 GET /api/pages", "PAGE-LIST-SHAPE", "GET /api/pages answers 200 (small page size, every type)",
		types.SpecStateSkipped, "area:pages")
	small.ReportEntries = types.ReportEntries{
		{Name: verdict.EntryCase, Value: types.WrapEntryValue(verdict.Case("small page size, every type"))},
		{Name: verdict.EntryNotChecked, Value: types.WrapEntryValue(verdict.NotChecked{Reason: "the target has 1 page"})},
	}
	rep.SpecReports = append(rep.SpecReports, small)
	meta := Meta{SuiteVersion: "v1.2.3", Target: fixtureBase, RunID: "r", Mode: "read-only", Started: fixtureStart}
	return Build(rep, fixtureCatalogue(t), meta, Extras{})
}

// TestPartialVerdictInEveryReport checks that a rule passed on some cases
// and not checked on others is never a plain pass: the model says which
// case was left and why, and the console, JSON, JUnit, HTML and Markdown
// reports all say so.
func TestPartialVerdictInEveryReport(t *testing.T) {
	run := partialRun(t)
	var rr RuleResult
	for _, r := range run.Rules {
		if r.ID == "PAGE-LIST-SHAPE" {
			rr = r
		}
	}
	want := "passed: 1 of 2 cases; small page size, every type not checked: the target has 1 page"
	if rr.Status != Passed || rr.Partial == nil || rr.Partial.Summary() != want {
		t.Fatalf("PAGE-LIST-SHAPE: %s %+v; want passed with %q", rr.Status, rr.Partial, want)
	}
	outputs := map[string]func(*bytes.Buffer) error{
		"console":  func(b *bytes.Buffer) error { run.WriteConsole(b, ConsoleOptions{Width: 400}); return nil },
		"JSON":     func(b *bytes.Buffer) error { return run.WriteJSON(b) },
		"JUnit":    func(b *bytes.Buffer) error { return run.WriteJUnit(b) },
		"HTML":     func(b *bytes.Buffer) error { return run.WriteHTML(b) },
		"Markdown": func(b *bytes.Buffer) error { return run.WriteMarkdown(b) },
	}
	for name, write := range outputs {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := html.UnescapeString(b.String())
		if name == "JSON" {
			var got struct {
				Rules []RuleResult `json:"rules"`
			}
			if err := json.Unmarshal(b.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			for _, r := range got.Rules {
				if r.ID == "PAGE-LIST-SHAPE" && (r.Partial == nil || r.Partial.Summary() != want) {
					t.Errorf("JSON: PAGE-LIST-SHAPE partial %+v, want %q", r.Partial, want)
				}
			}
			continue
		}
		if !strings.Contains(text, want) {
			t.Errorf("%s report does not say %q", name, want)
		}
	}
}

// TestEveryCasePassedIsNoPartial checks that a rule whose selected cases
// all passed, or whose other cases the filters left out, is a plain pass.
func TestEveryCasePassedIsNoPartial(t *testing.T) {
	for _, r := range fixtureRun(t).Rules {
		if r.Partial != nil {
			t.Errorf("%s: partial %+v in a run where every checked rule passed all its cases", r.ID, r.Partial)
		}
	}
}
