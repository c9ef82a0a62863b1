package protocol

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/spec"
)

// TestShapesOfEveryAnswer: every successful answer is held against the
// schema of its endpoint, whichever spec asked for it; a violation fails
// the rule of that shape and names that spec; an error answer is not a
// shape's; the kinds an answer's records carry are marked in the coverage
// map.
func TestShapesOfEveryAnswer(t *testing.T) {
	cfg := frameworktest.Reference(t, reference.FileSizeAsString)
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := framework.New(c, framework.Options{})
	var checks []crosscutting.ExchangeCheck
	for _, r := range shapeRoutes() {
		checks = append(checks, crosscutting.ExchangeCheck{Rule: r.rule, Check: r.judges(f), Later: r.judge(f)})
	}
	f.CrossCutting.Add(checks...)
	ctx := context.Background()
	c.SetScope("the upload round trip")
	for _, path := range []string{"/api/files/alpha-post", "/api/pages", "/api/pages/no-such-page", "/api/tags"} {
		c.Do(ctx, client.Request{Path: path})
	}
	for rule, want := range map[string]struct{ checked, violations int }{
		"FILES-LIST-SHAPE":  {1, 1},
		"PAGE-LIST-SHAPE":   {1, 0},
		"TAG-LIST-SHAPE":    {1, 0},
		"PAGE-OBJECT-SHAPE": {0, 0}, // the 404 is the envelope rules'
	} {
		got := f.CrossCutting.Tally(rule)
		if got.Checked != want.checked || got.Violations != want.violations {
			t.Errorf("%s: checked %d, %d violations; want %d, %d", rule, got.Checked, got.Violations, want.checked, want.violations)
		}
	}
	files := f.CrossCutting.Tally("FILES-LIST-SHAPE")
	if len(files.Problems) != 1 || !strings.Contains(files.Problems[0].Problem, "data[n].size: expected integer, got string") ||
		files.Problems[0].Spec != "the upload round trip" {
		t.Errorf("the violation is told as %+v, want data[n].size of the wrong kind, first sent by the upload round trip", files.Problems)
	}
	marks := f.Coverage.Marks()
	for id, rule := range map[coverage.ID]string{"file.size.kind": "FILES-LIST-SHAPE", "page.title.kind": "PAGE-LIST-SHAPE",
		"tag.list.kind": "TAG-LIST-SHAPE"} {
		if marks[id][rule] != 1 {
			t.Errorf("cell %s: marks %v, want one by %s", id, marks[id], rule)
		}
	}
}

// TestShapeRoutesAreEveryAnswer: the routes judged on every answer are the
// rules whose Readings say so (spec.EveryAnswerRules), each once.
func TestShapeRoutesAreEveryAnswer(t *testing.T) {
	var routes []string
	for _, r := range shapeRoutes() {
		routes = append(routes, r.rule)
	}
	slices.Sort(routes)
	if want := spec.EveryAnswerRules(); !slices.Equal(routes, want) {
		t.Errorf("shapeRoutes judge %v; internal/spec's Readings say every answer is judged for %v", routes, want)
	}
}
