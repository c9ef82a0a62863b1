package explore

import (
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// This file turns an exploration into the suite's report model
// (report.Run), so that every report a normal run writes (JSON, JUnit,
// HTML, Markdown) is written for an exploration too: a rule the oracles
// judged passes or fails, one spec result per finding (with its shrunk
// request, answer and curl line) or per rule passed; a rule no generated
// case reached is not checked.

// ReasonNotReached is why a rule no generated case judged is not checked.
const ReasonNotReached = "no generated case of this exploration reached this rule"

// buildReport makes the report of the exploration.
func (s *session) buildReport(started time.Time, verdictText string) *report.Run {
	meta := report.Meta{SuiteVersion: s.cfg.SuiteVersion, Target: s.c.BaseURL(), RunID: s.fx.RunID, Mode: "explore, " + s.mode,
		Started: started, Duration: report.Duration(time.Since(started)), Requests: s.c.Seq(), Retries: s.c.Retries()}
	l := s.fx.Ledger
	left, pages, command := s.leftovers()
	problems := left
	if command != "" {
		problems = append(problems, cleanupAdvice(command))
	}
	run := report.Build(nil, spec.All(), meta, report.Extras{
		Cleanup:      report.Cleanup{PagesLeft: pages, Settings: l.Settings(), Problems: problems},
		Observations: s.observations()})
	checked := s.tally.Checked()
	byRule := map[string][]Record{}
	for _, r := range s.records {
		byRule[r.Finding.Rule] = append(byRule[r.Finding.Rule], r)
	}
	run.Specs, run.Counts = nil, report.Counts{}
	for i := range run.Rules {
		rr := &run.Rules[i]
		rr.Specs, rr.Assertions, rr.Checked = nil, checked[rr.ID], 0
		switch {
		case rr.Status == report.NotTestable:
		case len(byRule[rr.ID]) > 0:
			rr.Status, rr.Reason = report.Failed, ""
			for _, r := range byRule[rr.ID] {
				rr.Specs = append(rr.Specs, len(run.Specs))
				run.Specs = append(run.Specs, failedSpec(r, rr.Area))
			}
		case checked[rr.ID] > 0:
			rr.Status, rr.Reason = report.Passed, ""
			rr.Specs = append(rr.Specs, len(run.Specs))
			run.Specs = append(run.Specs, report.SpecResult{Name: "explore: " + rr.ID, Rules: []string{rr.ID}, Area: rr.Area,
				Status: report.Passed, Assertions: checked[rr.ID]})
		default:
			rr.Status, rr.Reason = report.NotChecked, ReasonNotReached
		}
		count(&run.Counts, rr.Status)
	}
	run.Verdict = verdictText
	if run.Verdict == "" {
		run.Verdict = s.verdict()
	}
	if command != "" {
		// In the verdict, every report shows it (JUnit included).
		run.Verdict += leftVerdict(pages, command)
	}
	run.Diagnosis = report.Diagnose(run)
	return run
}

func count(c *report.Counts, st report.Status) {
	switch st {
	case report.Passed:
		c.Passed++
	case report.Failed:
		c.Failed++
	case report.NotChecked:
		c.NotChecked++
	case report.NotTestable:
		c.NotTestable++
	case report.Errored:
		c.Errored++
	}
}

// verdict is the exploration's one sentence.
func (s *session) verdict() string {
	cases := s.totalCases()
	if len(s.records) == 0 {
		return fmt.Sprintf("PASS: %d generated cases, no finding (seed %d).", cases, s.cfg.Seed)
	}
	rules := map[string]bool{}
	for _, r := range s.records {
		rules[r.Finding.Rule] = true
	}
	return fmt.Sprintf("FAIL: %d finding(s) breaking %d rule(s) in %d generated cases (seed %d); each is shrunk to its smallest request.",
		len(s.records), len(rules), cases, s.cfg.Seed)
}

func (s *session) totalCases() int {
	n := 0
	for _, v := range s.cases {
		n += v
	}
	return n
}

// observations are what the spec leaves open that the exploration saw,
// findings that did not reproduce, and the framework's own.
func (s *session) observations() []string {
	out := []string{fmt.Sprintf("explore: seed %d; cases sent by kind: %s", s.cfg.Seed, s.casesLine())}
	if s.stop != "" {
		out = append(out, "explore: it stopped because "+s.stop)
	}
	lines, reached, total := s.behaviour.coverage(s.skippedCells)
	out = append(out, fmt.Sprintf("explore: fields by boundary class: %d of %d classes reached", reached, total))
	for _, l := range lines {
		out = append(out, "explore: "+l)
	}
	out = append(out, s.tally.Observed()...)
	for _, l := range s.skippedLines() {
		out = append(out, "explore: "+l)
	}
	for _, r := range s.flaky {
		out = append(out, fmt.Sprintf("explore: a %s case once showed %s, but not again when sent a second time (not reported as a finding): %s",
			r.Kind, r.Finding.Signature(), r.Finding.Got))
	}
	return append(out, s.fx.Observations()...)
}

// casesLine renders the cases sent per kind.
func (s *session) casesLine() string {
	var parts []string
	for _, p := range properties {
		if n, ok := s.cases[p.kind]; ok {
			parts = append(parts, fmt.Sprintf("%s %d", p.kind, n))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// judged is the exchange a record's finding judged (the last one sent
// when the finding names none).
func (r Record) judged() *client.Exchange {
	for _, ex := range r.Exchanges {
		if ex.Seq == r.Finding.Seq {
			return ex
		}
	}
	if len(r.Exchanges) > 0 {
		return r.Exchanges[len(r.Exchanges)-1]
	}
	return nil
}

// shrunkFrom says how big the first case that showed a finding was, when
// it had more fields, or as many and more characters ("" for a replayed
// case). rapid shrinks towards the simplest choices, which are not always
// the shortest: a shrunk case may be no smaller by this measure.
func (r Record) shrunkFrom() string {
	fields, chars := r.Case.Size()
	if r.FirstSize[0] < fields || (r.FirstSize[0] == fields && r.FirstSize[1] <= chars) {
		return ""
	}
	return fmt.Sprintf(", shrunk from %d field(s), %d character(s)", r.FirstSize[0], r.FirstSize[1])
}

// write is the case's own request when the finding judged another one (a
// read back after a refused write): nil otherwise.
func (r Record) write(judged *client.Exchange) *client.Exchange {
	m := mainMethod(r.Case)
	for _, ex := range r.Exchanges {
		if ex.Method == m && m != judged.Method {
			return ex
		}
	}
	return nil
}

// cut says when the budget ended a finding's shrinking.
func (r Record) cut() string {
	if r.ShrinkCut {
		return ", cut short by the budget: a smaller case may still fail"
	}
	return ""
}

// failedSpec is the spec result of one finding.
func failedSpec(r Record, area string) report.SpecResult {
	f := r.Finding
	ex := r.judged()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: expected %s; got %s.\n", f.What, f.Expected, f.Got)
	fields, chars := r.Case.Size()
	fmt.Fprintf(&b, "Shrunk to the smallest %s case that still fails (%d field(s), %d character(s)%s; %d sendings showed it).\n",
		r.Kind, fields, chars, r.shrunkFrom(), r.Hits)
	if ex != nil {
		b.WriteString(ex.String())
	}
	if r.File != "" {
		fmt.Fprintf(&b, "replay:   conformance explore --replay %s (with the same target flags)\n", r.File)
	}
	sr := report.SpecResult{Name: fmt.Sprintf("explore %s: %s", r.Kind, f.Signature()), Rules: []string{f.Rule}, Area: area,
		Status: report.Failed, Message: b.String(), Assertions: 1, Case: verdict.Case(r.Kind)}
	var rendered []string
	for _, e := range r.Exchanges {
		rendered = append(rendered, e.String())
		sr.Exchanges = append(sr.Exchanges, asVerdict(e))
	}
	sr.Requests = strings.Join(rendered, "\n")
	fact := verdict.Fact{Expected: f.Expected, Got: f.Got, Seq: f.Seq}
	if ex != nil {
		fact.Status = ex.Status
	}
	sr.Facts = []verdict.Fact{fact}
	return sr
}

// asVerdict is an exchange as the report's data.
func asVerdict(e *client.Exchange) verdict.Exchange {
	v := verdict.Exchange{Seq: e.Seq, Method: e.Method, Status: e.Status, Body: e.BodyExcerpt(), Cut: e.Truncated || e.BodyCut}
	if u, err := url.Parse(e.URL); err == nil {
		v.Path, v.Query = u.EscapedPath(), u.RawQuery
	}
	return v
}

// printSummary writes what the exploration found, finding by finding.
func (s *session) printSummary(run *report.Run) {
	out := s.out
	used, took := s.budget.used()
	fmt.Fprintf(out, "\nExplored %d generated cases in %s (%d requests): %s\n", s.totalCases(), took.Round(time.Millisecond), used, s.casesLine())
	if s.stop != "" {
		fmt.Fprintf(out, "It stopped because %s.\n", s.stop)
	}
	lines, reached, total := s.behaviour.coverage(s.skippedCells)
	fmt.Fprintf(out, "\nFields by boundary class (cases sent, and the statuses answered): %d of %d classes reached\n", reached, total)
	for _, l := range lines {
		fmt.Fprintf(out, "  %s\n", l)
	}
	recs := append([]Record(nil), s.records...)
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Finding.Rule < recs[j].Finding.Rule })
	for i, r := range recs {
		f := r.Finding
		fields, chars := r.Case.Size()
		fmt.Fprintf(out, "\n%d. %s (%s): expected %s; got %s.\n", i+1, f.Rule, f.What, f.Expected, f.Got)
		if r.Kind == kindSiteModel {
			fmt.Fprintf(out, "   found by the site model, over the exploration's answers: no one case shows it, the writes before it do\n")
		} else {
			fmt.Fprintf(out, "   smallest %s case: %d field(s), %d character(s)%s (%d sendings showed it)\n", r.Kind, fields, chars, r.shrunkFrom(), r.Hits)
		}
		if r.Found.Requests > 0 {
			fmt.Fprintf(out, "   found after %d requests (%d cases, %s); shrinking took %d requests%s\n", r.Found.Requests, r.Found.Cases,
				r.Found.After.Round(time.Millisecond), r.Shrink, r.cut())
		}
		if ex := r.judged(); ex != nil {
			if w := r.write(ex); w != nil {
				fmt.Fprintf(out, "   read back after: %s → %d\n   reproduce it:    %s\n", w.RequestLine(), w.Status, w.Curl())
			}
			fmt.Fprintf(out, "   %s\n", strings.ReplaceAll(strings.TrimRight(ex.String(), "\n"), "\n", "\n   "))
		}
		if r.File != "" {
			fmt.Fprintf(out, "   replay: conformance explore --replay %s\n", r.File)
		}
	}
	s.printLeft(out)
	fmt.Fprintf(out, "\n%s\n", run.Verdict)
}

// printLeft writes the cases this target could not undo (not sent), and
// what the exploration left on the target, as sentences, with the command
// that removes the pages.
func (s *session) printLeft(out io.Writer) {
	if skipped := s.skippedLines(); len(skipped) > 0 {
		fmt.Fprintf(out, "\nNot sent, because this target could not undo them:\n")
		for _, l := range skipped {
			fmt.Fprintf(out, "  - %s\n", l)
		}
	}
	left, _, command := s.leftovers()
	if len(left) == 0 {
		return
	}
	fmt.Fprintf(out, "\nWhat the exploration left on the target:\n")
	for _, l := range left {
		fmt.Fprintf(out, "  - %s\n", l)
	}
	if command != "" {
		fmt.Fprintf(out, "  %s\n", cleanupAdvice(command))
	}
}

// ParseKinds parses a comma-separated list of kinds (the --explore-kinds
// flag).
func ParseKinds(s string) ([]gen.Kind, error) {
	var out []gen.Kind
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		found := false
		for _, p := range properties {
			found = found || string(p.kind) == part
		}
		if !found {
			return nil, fmt.Errorf("unknown kind %q", part)
		}
		out = append(out, gen.Kind(part))
	}
	return out, nil
}
