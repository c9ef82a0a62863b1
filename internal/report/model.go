// Package report turns a Ginkgo report into the suite's own result model,
// grouped by rule, and writes it as JSON, JUnit XML, HTML, Markdown and a
// console summary; it also compares two JSON reports (diff) and derives the
// filter of a --rerun-failed run. It makes no Ginkgo calls; it only reads
// types.Report.
package report

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// Status of a rule or a spec in the suite's terms.
type Status string

// The statuses. Error means the suite or the environment broke (a panic in
// a spec, an interrupted run), not the target.
const (
	Passed      Status = "passed"
	Failed      Status = "failed"
	NotChecked  Status = "not-checked"
	NotTestable Status = "not-testable"
	Errored     Status = "error"
)

// Meta describes the run.
type Meta struct {
	SuiteVersion string   `json:"suiteVersion"`
	Target       string   `json:"target"`
	RunID        string   `json:"runId"`
	Mode         string   `json:"mode"` // read-only, writes, writes+settings
	LabelFilter  string   `json:"labelFilter,omitempty"`
	Focus        []string `json:"focus,omitempty"`
	Skip         []string `json:"skip,omitempty"`
	// RerunOf names the earlier report whose failed rules this run checks
	// again (--rerun-failed); LabelFilter then holds the derived filter.
	RerunOf  string    `json:"rerunOf,omitempty"`
	Started  time.Time `json:"started"`
	Duration Duration  `json:"duration"`
	Requests int       `json:"requests"`
	// Retries counts reads answered 429/503 and sent again (each one is
	// also listed in Observations).
	Retries int `json:"retries"`
}

// Duration marshals as a human-readable string ("1.234s").
type Duration time.Duration

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) {
	return []byte(time.Duration(d).Round(time.Millisecond).String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}

// FormatVersion is the version of the JSON report's format, in its
// formatVersion field. Version 2 added the assertion counts (spec and rule
// assertions, a spec's noAssertion); a report without the field is version
// 1, whose counts read as 0 and say nothing.
const FormatVersion = 2

// Run is the whole result of one run.
type Run struct {
	FormatVersion int    `json:"formatVersion"`
	Meta          Meta   `json:"meta"`
	Verdict       string `json:"verdict"` // one sentence
	// Diagnosis, when set, says in one line what the failures have in
	// common (see legacy.go); every report shows it first.
	Diagnosis    *Diagnosis   `json:"diagnosis,omitempty"`
	Counts       Counts       `json:"counts"`
	Rules        []RuleResult `json:"rules"`
	Specs        []SpecResult `json:"specs"`
	Cleanup      Cleanup      `json:"cleanup"`
	Observations []string     `json:"observations,omitempty"`
	SuiteErrors  []string     `json:"suiteErrors,omitempty"`
	// Coverage is the spec coverage map the run measured (coverage.go).
	Coverage *coverage.Map `json:"coverage,omitempty"`
}

// Counts of rules by status.
type Counts struct {
	Passed      int `json:"passed"`
	Failed      int `json:"failed"`
	NotChecked  int `json:"notChecked"`
	NotTestable int `json:"notTestable"`
	Errored     int `json:"error"`
	// CouldNotFinish counts the errored rules that lacked an answer from
	// the API (RuleResult.CouldNotFinish); they are among Errored.
	CouldNotFinish int `json:"couldNotFinish,omitempty"`
}

// Cleanup says what the run left on the target.
type Cleanup struct {
	PagesLeft []string `json:"pagesLeft,omitempty"`
	Uploads   []string `json:"uploadsLeft,omitempty"`
	// UploadsUnlisted are uploads whose page's file list named no file
	// once the run deleted the page.
	UploadsUnlisted []string `json:"uploadsUnlisted,omitempty"`
	Settings        []string `json:"settings,omitempty"`
	Problems        []string `json:"problems,omitempty"`
}

// RuleResult is one catalogue rule's outcome.
type RuleResult struct {
	ID      string `json:"id"`
	Section string `json:"section"`
	Level   string `json:"level"`
	Area    string `json:"area"`
	Text    string `json:"text"`
	Status  Status `json:"status"`
	Reason  string `json:"reason,omitempty"` // why not checked / not testable
	Reading string `json:"reading,omitempty"`
	Specs   []int  `json:"specs,omitempty"` // indexes into Run.Specs
	Checked int    `json:"responsesChecked,omitempty"`
	// Assertions adds up what the rule's specs evaluated (SpecResult).
	Assertions int `json:"assertions"`
	// CrossCutting rules are judged on every exchange of the run.
	CrossCutting bool `json:"crossCutting,omitempty"`
	// Partial, on a passed rule, says which of its cases were not
	// checked (partial.go).
	Partial *Partial `json:"partial,omitempty"`
	// CouldNotFinish, on an errored rule: every spec of it that did not
	// finish lacked an answer from the API (the network or the server in
	// front), none was interrupted or timed out. Reason gives the causes.
	CouldNotFinish bool `json:"couldNotFinish,omitempty"`
}

// SpecResult is one Ginkgo spec's outcome.
type SpecResult struct {
	Name     string   `json:"name"`
	Rules    []string `json:"rules"`
	Area     string   `json:"area"`
	Status   Status   `json:"status"`
	Message  string   `json:"message,omitempty"` // failure or skip text
	Location string   `json:"location,omitempty"`
	Requests string   `json:"requests,omitempty"` // a failing spec's exchanges
	Duration Duration `json:"duration"`
	// Assertions counts the assertions the spec evaluated: Gomega
	// assertions whose matcher ran and, for a cross-cutting rule, the
	// responses it judged. A passed spec always has some.
	Assertions int `json:"assertions"`
	// NoAssertion: the spec ran to its end without evaluating any
	// assertion, and is not checked for that reason (a pass would have been
	// vacuous).
	NoAssertion bool `json:"noAssertion,omitempty"`
	// CouldNotFinish: the spec's status is Errored because a request its
	// verdict rested on got no answer from the API (Message says which and
	// why), not because the run was interrupted or timed out.
	CouldNotFinish bool `json:"couldNotFinish,omitempty"`

	// What the framework recorded as data, read by the diagnosis (not
	// part of the JSON report): the spec's Case, the facts of its failed
	// expectations, and its exchanges when it failed.
	Case      verdict.Case       `json:"-"`
	Facts     []verdict.Fact     `json:"-"`
	Exchanges []verdict.Exchange `json:"-"`
}

// Extras is what the framework knows beyond the Ginkgo report.
type Extras struct {
	Cleanup      Cleanup
	Observations []string
	// Checked maps a cross-cutting rule ID to the responses it judged.
	Checked map[string]int
}

// Build groups a Ginkgo report by rule. Rules no selected spec checked are
// "not checked"; a rule passes only if a spec checked it and none failed.
func Build(r *types.Report, cat *spec.Catalogue, meta Meta, extras Extras) *Run {
	run := &Run{FormatVersion: FormatVersion, Meta: meta, Cleanup: extras.Cleanup, Observations: extras.Observations}
	byRule := map[string][]int{}
	unselected := map[string]bool{}
	if r != nil {
		run.SuiteErrors = append(run.SuiteErrors, r.SpecialSuiteFailureReasons...)
		selected := selection(meta, r.SuiteDescription)
		for _, sr := range r.SpecReports {
			if sr.LeafNodeType != types.NodeTypeIt {
				if sr.State.Is(types.SpecStateFailureStates) {
					run.SuiteErrors = append(run.SuiteErrors, fmt.Sprintf("%s failed: %s", sr.LeafNodeType, sr.Failure.Message))
				}
				continue
			}
			// A spec the filters left out says nothing about the target:
			// it is not listed, and its rules say why they were not checked.
			if sr.State == types.SpecStateSkipped && sr.Failure.Message == "" && !selected(sr) {
				for _, l := range sr.Labels() {
					if id, ok := strings.CutPrefix(l, "rule:"); ok {
						unselected[id] = true
					}
				}
				continue
			}
			res := specResult(&sr)
			idx := len(run.Specs)
			run.Specs = append(run.Specs, res)
			for _, id := range res.Rules {
				byRule[id] = append(byRule[id], idx)
			}
		}
	}
	for _, rule := range cat.Rules() {
		rr := RuleResult{ID: rule.ID, Section: rule.Section, Level: string(rule.Level), Area: string(rule.Area),
			Text: rule.Text, Reading: rule.Reading, Specs: byRule[rule.ID], Checked: extras.Checked[rule.ID], CrossCutting: rule.CrossCutting}
		rr.Status, rr.Reason = ruleStatus(rule, rr.Specs, run.Specs)
		if rr.Status == Errored {
			rr.CouldNotFinish = !slices.ContainsFunc(rr.Specs, func(i int) bool {
				return run.Specs[i].Status == Errored && !run.Specs[i].CouldNotFinish
			})
		}
		if rr.Status == Passed {
			rr.Partial = partial(rr.Specs, run.Specs)
		}
		for _, i := range rr.Specs {
			rr.Assertions += run.Specs[i].Assertions
		}
		if rr.Status == NotChecked && len(rr.Specs) == 0 && unselected[rule.ID] {
			rr.Reason = ReasonNotSelected
		}
		run.Rules = append(run.Rules, rr)
		run.Counts.add(rr.Status)
		if rr.CouldNotFinish {
			run.Counts.CouldNotFinish++
		}
	}
	run.Verdict = verdictSentence(run)
	run.Diagnosis = Diagnose(run)
	return run
}

// What the framework writes into the Ginkgo report and Build reads back
// (defined in internal/verdict).
const (
	// EntryRequests names the report entry that carries a failing spec's
	// exchanges, rendered.
	EntryRequests = verdict.EntryRequests
	// NotCheckedPrefix starts the text of a not-checked spec where only
	// text goes (JUnit's skipped message).
	NotCheckedPrefix = verdict.NotCheckedPrefix
)

// Reasons a rule or spec was not checked that the report itself gives.
const (
	// ReasonNotSelected is why a rule whose specs the run's label filter,
	// focus or skip left out was not checked.
	ReasonNotSelected = "not selected by this run's filters"
	// ReasonExploreOnly is why a rule that only `conformance explore`
	// checks (spec.Rule.ExploreOnly) is not checked by a normal run.
	ReasonExploreOnly = "checked by conformance explore (generated input), not by the specs of a normal run"
	// ReasonSkipped is why a spec Ginkgo skipped without a message of the
	// suite's was not checked.
	ReasonSkipped = "skipped (an earlier step of its container failed, or --fail-fast stopped the run)"
)

// selection tells whether the run's filters selected a spec, the way
// Ginkgo decides it (internal/focus.go): the label filter on the spec's
// labels, focus and skip on the suite description and the spec's text.
// Ginkgo reports a spec it filtered out exactly like one an interrupt
// skipped, so the report has to ask.
func selection(m Meta, suiteDescription string) func(types.SpecReport) bool {
	var label types.LabelFilter
	if m.LabelFilter != "" {
		label, _ = types.ParseLabelFilter(m.LabelFilter) // validated before the run
	}
	var focus, skip *regexp.Regexp
	if len(m.Focus) > 0 {
		focus, _ = regexp.Compile(strings.Join(m.Focus, "|"))
	}
	if len(m.Skip) > 0 {
		skip, _ = regexp.Compile(strings.Join(m.Skip, "|"))
	}
	return func(sr types.SpecReport) bool {
		text := suiteDescription + " " + sr.FullText()
		switch {
		case label != nil && !label(sr.Labels()):
			return false
		case focus != nil && !focus.MatchString(text):
			return false
		case skip != nil && skip.MatchString(text):
			return false
		}
		return true
	}
}

// SpecStatus is the status the report gives a spec.
func SpecStatus(sr *types.SpecReport) Status { return specResult(sr).Status }

func specResult(sr *types.SpecReport) SpecResult {
	res := SpecResult{Name: sr.FullText(), Duration: Duration(sr.RunTime)}
	for _, l := range sr.Labels() {
		switch {
		case strings.HasPrefix(l, "rule:"):
			res.Rules = append(res.Rules, strings.TrimPrefix(l, "rule:"))
		case strings.HasPrefix(l, "area:"):
			res.Area = strings.TrimPrefix(l, "area:")
		}
	}
	sort.Strings(res.Rules)
	switch {
	case sr.State == types.SpecStatePassed:
		res.Status = Passed
	case sr.State == types.SpecStateFailed:
		res.Status = Failed
		res.Message = sr.Failure.Message
		res.Location = repoRelative(sr.Failure.Location.String())
	case sr.State.Is(types.SpecStatePanicked | types.SpecStateInterrupted | types.SpecStateAborted | types.SpecStateTimedout):
		res.Status = Errored
		res.Message = fmt.Sprintf("%s: %s", sr.State, sr.Failure.Message)
		res.Location = repoRelative(sr.Failure.Location.String())
	case sr.State == types.SpecStateSkipped:
		res.Status = NotChecked
		res.Message, res.NoAssertion = skipReason(sr)
	default: // pending, or filtered out by labels/focus
		res.Status = NotChecked
		res.Message = ReasonNotSelected
	}
	for _, e := range sr.ReportEntries {
		switch e.Name {
		case verdict.EntryRequests:
			res.Requests = e.StringRepresentation()
		case verdict.EntryCase:
			res.Case, _ = entryValue[verdict.Case](e)
		case verdict.EntryFact:
			if f, ok := entryValue[verdict.Fact](e); ok {
				res.Facts = append(res.Facts, f)
			}
		case verdict.EntryExchanges:
			res.Exchanges, _ = entryValue[[]verdict.Exchange](e)
		case verdict.EntryAssertions:
			n, _ := entryValue[verdict.Assertions](e)
			res.Assertions = int(n)
		case verdict.EntryNotChecked:
			n, ok := entryValue[verdict.NotChecked](e)
			switch {
			case ok && n.WritesStopped && res.Status == Failed:
				res.Status, res.Message, res.Location = NotChecked, n.Reason, ""
			case ok && n.CouldNotFinish && (res.Status == Failed || res.Status == NotChecked):
				res.Status, res.Message, res.CouldNotFinish = Errored, n.Reason, true
			}
		}
	}
	return res
}

// entryValue is the typed value of a report entry: the value itself in the
// process that ran the specs, or decoded from its JSON in one that read a
// Ginkgo report back.
func entryValue[T any](e types.ReportEntry) (T, bool) {
	if v, ok := e.Value.GetRawValue().(T); ok {
		return v, true
	}
	var v T
	if e.Value.AsJSON == "" || json.Unmarshal([]byte(e.Value.AsJSON), &v) != nil {
		return v, false
	}
	return v, true
}

// repoRelative cuts a code location down to its path inside this
// repository ("suites/pages/reads.go:131"), so reports never carry the
// build machine's directories, whether or not the binary was built with
// -trimpath.
func repoRelative(loc string) string {
	for _, top := range []string{"/suites/", "/internal/", "/cmd/"} {
		if i := strings.LastIndex(loc, top); i >= 0 {
			return loc[i+1:]
		}
	}
	return loc
}

// skipReason is the reason of a skipped spec: the framework's NotChecked
// (noAssertion when it ran without evaluating an assertion), any other
// skip's message, or ReasonSkipped when Ginkgo skipped it without one.
func skipReason(sr *types.SpecReport) (reason string, noAssertion bool) {
	for _, e := range sr.ReportEntries {
		if e.Name != verdict.EntryNotChecked {
			continue
		}
		if n, ok := entryValue[verdict.NotChecked](e); ok {
			return n.Reason, n.NoAssertion
		}
	}
	if sr.Failure.Message != "" {
		return sr.Failure.Message, false
	}
	return ReasonSkipped, false
}
