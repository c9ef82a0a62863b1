package framework

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/internal/verdict"
)

// Case is an It argument that tells apart several specs of one rule, e.g.
// framework.Case("numberOfItems=0"). It is appended to the spec text.
type Case string

// Labels every spec can carry besides rule, area and endpoint labels.
const (
	// LabelWrites marks specs that send requests able to change the target.
	LabelWrites = "writes"
	// LabelSettingsWrites marks specs that change site settings.
	LabelSettingsWrites = "settings-writes"
	// LabelCrossCutting marks the specs that judge every recorded exchange
	// (--rerun-failed selects by it).
	LabelCrossCutting = verdict.LabelCrossCutting
)

// It registers a spec that checks the catalogue rule id. The spec text is
// "[ID] rule text" (plus any Case), and it is labelled rule:ID, area:<area>,
// each endpoint of the rule or given as an argument, and "writes" for
// rules that need write access. Other arguments are passed to ginkgo.It
// (decorators). In read-only runs write rules are skipped as "not checked".
// A spec whose body returns without having evaluated an assertion is "not
// checked" too (verdict.NoAssertion), never passed; each spec's count of
// evaluated assertions goes into the report (assertions.go).
func (t *Fixture) It(id string, body func(ginkgo.SpecContext), args ...any) bool {
	d, ok := t.define(id, args)
	if !ok {
		return false
	}
	return t.register(d, callerLocation(1), body)
}

// callerLocation is types.NewCodeLocation(skip): the caller skip frames
// above callerLocation's caller, found without walking the rest of the
// stack (Ginkgo's takes up to 40 frames, for every spec of every run).
// Unlike Ginkgo's, it does not pass over functions marked
// ginkgo.GinkgoHelper, which no caller of It or Prepare is.
func callerLocation(skip int) types.CodeLocation {
	_, file, line, ok := runtime.Caller(skip + 1)
	if !ok {
		return types.CodeLocation{}
	}
	return types.CodeLocation{FileName: file, LineNumber: line}
}

// specDef is a spec as It and Prepare register it.
type specDef struct {
	rule       spec.Rule
	text       string // the leaf text: "[ID] rule text (case)"
	decorators []any
	specCase   Case
	writes     bool
	settings   bool // needs --allow-settings-write
	labels     []string
}

// define works out the spec of rule id with It's arguments; false (and a
// suite bug) when the catalogue has no such rule.
func (t *Fixture) define(id string, args []any) (specDef, bool) {
	rule, ok := t.Catalogue.Lookup(id)
	if !ok {
		t.recordBug("a spec names rule %q, which the catalogue (internal/spec) does not have", id)
		return specDef{}, false
	}
	if !rule.Testable() {
		t.recordBug("a spec names rule %s, which the catalogue marks not testable (%s)", id, rule.NotTestable)
	}
	d := specDef{rule: rule, text: fmt.Sprintf("[%s] %s", rule.ID, rule.Text), writes: rule.Writes}
	labels := []string{rule.Label(), "area:" + string(rule.Area)}
	for _, a := range args {
		switch v := a.(type) {
		case Case:
			d.text += " (" + string(v) + ")"
			d.specCase = v
		case spec.Endpoint:
			labels = append(labels, v.Label())
		case WritesDecorator:
			d.writes = true
			if v == SettingsWrites {
				d.settings = true
			}
		default:
			d.decorators = append(d.decorators, a)
		}
	}
	for _, e := range rule.Endpoints {
		labels = append(labels, e.Label())
	}
	if rule.Area == spec.AreaSettings && rule.Writes {
		d.settings = true
	}
	if d.writes {
		labels = append(labels, LabelWrites)
	}
	if d.settings {
		labels = append(labels, LabelSettingsWrites)
	}
	d.labels = uniqLabels(labels)
	d.decorators = append(d.decorators, ginkgo.Label(d.labels...))
	return d, true
}

// gate is why the spec d is not checked before its body runs (a read-only
// run, no authentication token, settings writes not allowed), "" when it
// runs.
func (t *Fixture) gate(d specDef) string {
	switch {
	case d.writes && t.ReadOnly:
		return "read-only run: this rule needs write requests"
	case d.writes && !t.Client.HasAuth():
		return "no --auth-token given: this rule needs write requests"
	case d.settings && !t.SettingsWrites:
		return "settings writes not allowed (pass --allow-settings-write)"
	case d.writes && t.WritesStopped() != "":
		return t.WritesStopped()
	}
	return ""
}

// register hands spec d to Ginkgo at loc, with body wrapped in the
// framework's bookkeeping.
func (t *Fixture) register(d specDef, loc types.CodeLocation, body func(ginkgo.SpecContext)) bool {
	t.recordSpec(d, loc)
	args := append(append([]any{}, d.decorators...), loc, func(ctx ginkgo.SpecContext) {
		t.startCounting()
		t.beginSpecCoverage(d.rule.ID)
		defer t.recordAssertions(d.rule)
		if d.specCase != "" {
			verdicts.AddEntry(verdict.EntryCase, verdict.Case(d.specCase))
		}
		if reason := t.gate(d); reason != "" {
			verdicts.NotCheckedAt(reason, 1)
		}
		body(ctx)
		t.requireAssertion(d.rule)
	})
	return ginkgo.It(d.text, args...)
}

// WritesDecorator marks a spec as writing even when its rule is not a
// write rule (e.g. an auth rule checked by a write that must be refused).
type WritesDecorator int

const (
	// Writes: the spec sends requests that could change pages.
	Writes WritesDecorator = iota + 1
	// SettingsWrites: the spec may change site settings.
	SettingsWrites
)

func uniqLabels(in []string) []string {
	for i, s := range in {
		in[i] = strings.TrimSpace(s)
	}
	return verdict.Uniq(in)
}
