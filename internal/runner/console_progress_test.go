package runner

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// specReport is a spec report as Ginkgo gives it to the report nodes.
func specReport(text, area, rule string, state types.SpecState) types.SpecReport {
	return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text,
		LeafNodeLabels: []string{"area:" + area, "rule:" + rule}, State: state}
}

// testPlan is the plan of a run that selects the specs given: in a
// preview, a dry run, they pass.
func testPlan(specs ...types.SpecReport) plan {
	var preview types.Report
	for _, sr := range specs {
		sr.State = types.SpecStatePassed
		preview.SpecReports = append(preview.SpecReports, sr)
	}
	skipped := other // in a preview, a spec the filters leave out is skipped
	preview.SpecReports = append(preview.SpecReports, skipped)
	return newPlan(preview)
}

var (
	listA   = specReport("list a", "pages", "PAGE-LIST", types.SpecStatePassed)
	listB   = specReport("list b", "pages", "PAGE-LIST", types.SpecStateFailed)
	getOne  = specReport("get", "pages", "PAGE-GET", types.SpecStatePassed)
	tagList = specReport("tags", "taxonomy", "TAG-LIST", types.SpecStateSkipped)
	other   = specReport("filtered out", "users", "USER-LIST", types.SpecStateSkipped)
)

// run feeds the specs to a progress as Ginkgo would.
func feed(p *progress, specs ...types.SpecReport) {
	for _, sr := range specs {
		p.specStarting(&sr)
		p.specDone(&sr)
	}
	p.finish()
}

// In CI (no terminal) the progress is one line per area, written when the
// area's last rule is done, counted per rule, not per spec.
func TestProgressOneLinePerArea(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, 0, time.Now(), func() int { return 7 }, testPlan(listA, listB, getOne, tagList))
	feed(p, listA, other, getOne, tagList)
	if got := out.String(); !strings.Contains(got, "- taxonomy  1 rule: 1 not checked (0:00)\n") || strings.Contains(got, "pages") {
		t.Errorf("after taxonomy's last spec, with a pages spec to come:\n%s", got)
	}
	feed(p, listB)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{"- taxonomy  1 rule: 1 not checked (0:00)", "✗ pages     2 rules: 1 passed, 1 failed (0:00)"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress lines:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
	}
	if strings.Contains(out.String(), "\r") {
		t.Error("a carriage return in CI output")
	}
}

// On a terminal a live line shows rules done of all, the area and rule
// running, the requests and the time, and is rewritten in place; area
// lines are written above it.
func TestProgressLiveLine(t *testing.T) {
	var out bytes.Buffer
	requests := 0
	p := newProgress(&out, true, 100, time.Now().Add(-65*time.Second), func() int { requests += 3; return requests }, testPlan(listA, listB, getOne, tagList))
	p.specStarting(&other)
	p.specDone(&other)
	if out.Len() > 0 {
		t.Errorf("a spec the run does not select moved the progress: %q", out.String())
	}
	p.specStarting(&listA)
	if got := out.String(); got != "\r0/3 rules · pages › PAGE-LIST · 3 requests · 1:05" {
		t.Errorf("first live line %q", got)
	}
	p.specDone(&listA)
	p.specStarting(&tagList)
	p.specDone(&tagList) // the area line goes above the live line
	p.specStarting(&getOne)
	p.specDone(&getOne)
	p.specStarting(&listB)
	got := out.String()
	for _, want := range []string{"\r- taxonomy  1 rule: 1 not checked (1:05)\n", "2/3 rules · pages › PAGE-LIST · ", ", about 0:22 left"} {
		if !strings.Contains(got, want) {
			t.Errorf("the live output lacks %q:\n%q", want, got)
		}
	}
	p.specDone(&listB)
	if !strings.Contains(out.String(), "3/3 rules · cleaning up") {
		t.Errorf("once every spec ran, the live line does not say the run cleans up:\n%q", out.String())
	}
	p.finish()
	// What a terminal shows last is what follows the last carriage return
	// that is not the final character: spaces only.
	shown := strings.Split(strings.TrimSuffix(out.String(), "\r"), "\r")
	if last := shown[len(shown)-1]; strings.TrimSpace(last) != "" || !strings.HasSuffix(out.String(), "\r") {
		t.Errorf("the live line is left on screen: %q", last)
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Error("escape codes in the live line")
	}
}

func TestInterruptWords(t *testing.T) {
	var out bytes.Buffer
	p := newProgress(&out, false, 0, time.Now(), func() int { return 0 }, testPlan(listA))
	in := &interrupts{}
	in.say(p, 1, os.Interrupt)
	in.say(p, 2, os.Interrupt)
	got := out.String()
	for _, want := range []string{"Interrupted (Ctrl-C): no further check starts", "Cleanup runs now", "Press Ctrl-C again to skip the cleanup",
		"Interrupted (Ctrl-C) again: the cleanup is skipped", "`conformance cleanup` deletes them", "A third Ctrl-C stops at once"} {
		if !strings.Contains(got, want) {
			t.Errorf("the interrupt words lack %q:\n%s", want, got)
		}
	}
}

// An interrupted run does not give the skips of the interrupt the
// reason of a failed earlier step or of --fail-fast.
func TestMarkInterrupted(t *testing.T) {
	run := &report.Run{
		Specs: []report.SpecResult{{Status: report.NotChecked, Message: report.ReasonSkipped}, {Status: report.NotChecked, Message: "no draft page"}},
		Rules: []report.RuleResult{{ID: "A", Status: report.NotChecked, Reason: report.ReasonSkipped}, {ID: "B", Status: report.NotChecked, Reason: "no draft page"}},
	}
	run.Counts.Passed, run.Counts.NotChecked = 3, 2
	markInterrupted(run)
	if run.Rules[0].Reason != ReasonInterrupted || run.Specs[0].Message != ReasonInterrupted {
		t.Errorf("the interrupted rule's reason: %q, its spec's: %q", run.Rules[0].Reason, run.Specs[0].Message)
	}
	if run.Rules[1].Reason != "no draft page" {
		t.Errorf("another reason was changed: %q", run.Rules[1].Reason)
	}
	if !strings.HasPrefix(run.Verdict, "INCOMPLETE: the run was interrupted (Ctrl-C)") {
		t.Errorf("verdict %q", run.Verdict)
	}
}

// The live line is redrawn as time passes, until the ticks stop.
func TestProgressTicks(t *testing.T) {
	var out testkit.SyncBuffer
	p := newProgress(&out, true, 100, time.Now(), func() int { return 0 }, testPlan(listA))
	stop := p.tickEvery(5 * time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	stop()
	n := strings.Count(out.String(), "\r")
	if n < 2 {
		t.Errorf("%d redraws in 50ms at a tick of 5ms", n)
	}
	time.Sleep(20 * time.Millisecond)
	if strings.Count(out.String(), "\r") != n {
		t.Error("redrawn after the ticks stopped")
	}
}
