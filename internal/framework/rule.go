package framework

import (
	"fmt"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/spec"
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
	LabelCrossCutting = report.LabelCrossCutting
)

// It registers a spec that checks the catalogue rule id. The spec text is
// "[ID] rule text" (plus any Case), and it is labelled rule:ID, area:<area>,
// each endpoint of the rule or given as an argument, and "writes" for
// rules that need write access. Other arguments are passed to ginkgo.It
// (decorators). In read-only runs write rules are skipped as "not checked".
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
	needsSettings := false
	writes := rule.Writes
	for _, a := range args {
		switch v := a.(type) {
		case Case:
			text += " (" + string(v) + ")"
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
	decorators = append(decorators, ginkgo.Label(dedupe(labels)...), ginkgo.Offset(1))
	return ginkgo.It(text, append(decorators, func(ctx ginkgo.SpecContext) {
		switch {
		case writes && t.ReadOnly:
			ginkgo.Skip(report.NotCheckedPrefix + "read-only run: this rule needs write requests")
		case writes && !t.Client.HasAuth():
			ginkgo.Skip(report.NotCheckedPrefix + "no --auth-token given: this rule needs write requests")
		case needsSettings && !t.SettingsWrites:
			ginkgo.Skip(report.NotCheckedPrefix + "settings writes not allowed (pass --allow-settings-write)")
		}
		body(ctx)
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

// NotChecked stops the current spec and reports its rule as not checked,
// with the reason (e.g. the target has no draft page to look at).
func NotChecked(format string, args ...any) {
	ginkgo.Skip(report.NotCheckedPrefix+fmt.Sprintf(format, args...), 1)
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		s = strings.TrimSpace(s)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
