package framework

import (
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// RegisteredSpec is a spec as a tree Ginkgo built registered it: what a
// runner with no selection to preview needs to know of the specs it will
// run, without a preview (ginkgo.PreviewSpecs builds the whole tree, and
// sorts it, once more: a tenth of a read-only run's CPU).
type RegisteredSpec struct {
	// FullText is the texts of the spec's containers and its own, as
	// types.SpecReport.FullText joins them.
	FullText string
	// Location is where the spec was registered (its leaf node's).
	Location types.CodeLocation
	// Labels are the labels It gave the spec (rule, area, endpoints,
	// writes), not its containers'.
	Labels []string
}

// Registered lists the specs registered so far, in the order registered.
// Every tree Ginkgo builds adds its specs: a preview's, then the run's.
func (t *Fixture) Registered() []RegisteredSpec {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.registered)
}

// recordSpec adds the spec d, registered at loc, to Registered.
func (t *Fixture) recordSpec(d specDef, loc types.CodeLocation) {
	texts := append(containerTexts(), d.text)
	texts = slices.DeleteFunc(texts, func(s string) bool { return s == "" })
	s := RegisteredSpec{FullText: strings.Join(texts, " "), Location: loc, Labels: d.labels}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.registered = append(t.registered, s)
}

// containerTexts are the texts of the containers whose body is registering
// a spec; none for a spec registered outside every container, where
// Ginkgo has no construction report to give and panics instead.
func containerTexts() (texts []string) {
	defer func() { _ = recover() }()
	return slices.Clone(ginkgo.CurrentTreeConstructionNodeReport().ContainerHierarchyTexts)
}
