package framework

import (
	"fmt"
	"strings"

	"github.com/onsi/ginkgo/v2"

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
	rule, ok := t.Catalogue.Lookup(id)
	if !ok {
		t.recordBug("a spec names rule %q, which the catalogue (internal/spec) does not have", id)
		return false
	}
	if !rule.Testable() {
		t.recordBug("a spec names rule %s, which the catalogue marks not testable (%s)", id, rule.NotTestable)
	}
	text := fmt.Sprintf("[%s] %s", rule.ID, rule.Text)
	labels := []string{rule.Label(), "area:" + string(rule.Area)}
	var decorators []any
	var specCase Case
	needsSettings := false
	writes := rule.Writes
	for _, a := range args {
		switch v := a.(type) {
		case Case:
			text += " (" + string(v) + ")"
			specCase = v
		case spec.Endpoint:
			labels = append(labels, v.Label())
		case WritesDecorator:
			writes = true
			if v == SettingsWrites {
				needsSettings = true
			}
		default:
			decorators = append(decorators, a)
		}
	}
	for _, e := range rule.Endpoints {
		labels = append(labels, e.Label())
	}
	if rule.Area == spec.AreaSettings && rule.Writes {
		needsSettings = true
	}
	if writes {
		labels = append(labels, LabelWrites)
	}
	if needsSettings {
		labels = append(labels, LabelSettingsWrites)
	}
	decorators = append(decorators, ginkgo.Label(uniqLabels(labels)...), ginkgo.Offset(1))
	return ginkgo.It(text, append(decorators, func(ctx ginkgo.SpecContext) {
		t.startCounting()
		defer t.recordAssertions(rule)
		if specCase != "" {
			addEntry(verdict.EntryCase, verdict.Case(specCase))
		}
		switch {
		case writes && t.ReadOnly:
			notChecked("read-only run: this rule needs write requests", 1)
		case writes && !t.Client.HasAuth():
			notChecked("no --auth-token given: this rule needs write requests", 1)
		case needsSettings && !t.SettingsWrites:
			notChecked("settings writes not allowed (pass --allow-settings-write)", 1)
		}
		body(ctx)
		t.requireAssertion(rule)
	})...)
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
