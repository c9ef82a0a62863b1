package framework

import (
	"context"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
)

// crosscutting.AnsweredByFront tells whether ex, sent by a spec of rule, is the front
// web server's own answer (the package function, with whether the API
// answers JSON in this run taken from the exchanges observed so far, or,
// when none was JSON yet, from one GET /api/pages). When it is, the run's
// observations say so and name rule as not checked for that request; the
// spec then reports not checked for it (NotChecked with
// crosscutting.FrontAnswer.Observation), never a failure.
func (t *Fixture) AnsweredByFront(ctx context.Context, ex *client.Exchange, rule string) crosscutting.FrontAnswer {
	if !crosscutting.AnsweredByFront(ex, true).ByFront() {
		return crosscutting.FrontAnswer{}
	}
	apiJSON := t.CrossCutting.APIAnswersJSON()
	if !apiJSON {
		apiJSON = t.Read(ctx, "/api/pages", nil).IsJSON()
	}
	a := crosscutting.AnsweredByFront(ex, apiJSON)
	if a.ByFront() && !t.CrossCutting.ProbedBy(ex, rule) {
		// Not observed by the cross-cutting judge (outside its paths):
		// the spec's own observation says it.
		t.Observe("%s", a.Observation(ex, rule))
	}
	return a
}
