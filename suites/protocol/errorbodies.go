package protocol

import (
	"context"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/probe"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/envelope"
	"github.com/conformance-suite/conformance/internal/spec"
)

// judgesTheRun orders the error-body specs after every phase of the run
// (and after containers that name none), before the cross-cutting checks:
// they judge the errors the whole run provoked (provoked.go), and their
// own requests are judged by the cross-cutting checks.
const judgesTheRun = SpecPriority(-500)

// registerEarlyErrors: ENV-EARLY-ERROR-SHAPE on each of the 16 endpoints,
// for a request without the API token and one with a wrong API token, and
// on a path no endpoint has.
func registerEarlyErrors(t *framework.Fixture, p *provoked) {
	Describe("7 Body of an early error", judgesTheRun, func() {
		g := t.NewGroup(judgesTheRun)
		for _, ep := range spec.Endpoints() {
			probes := map[errorKind]probe.Probe{
				missingToken: probe.New(t, ep, "early-missing-"+probe.EndpointName(ep)),
				wrongToken:   probe.New(t, ep, "early-invalid-"+probe.EndpointName(ep)),
			}
			asks := []ask{{ep, missingToken}, {ep, wrongToken}}
			// The probes of what no other spec sent, as the auth rules
			// send them. A settings probe needs the settings guard, which
			// only a running spec may set up: its judge sends it.
			probe := func(ctx context.Context) {
				for _, a := range asks {
					if !p.seen(a) {
						pr := probes[a.kind]
						r := pr.WithWrongAPIToken()
						if a.kind == missingToken {
							r, _ = pr.WithoutAPIToken()
						}
						pr.Send(ctx, r)
					}
				}
			}
			framework.Prepare(g, "ENV-EARLY-ERROR-SHAPE", func(ctx context.Context) struct{} {
				if ep != spec.EditSettings {
					probe(ctx)
				}
				return struct{}{}
			}, func(ctx SpecContext, _ struct{}) {
				if ep == spec.EditSettings {
					probe(ctx)
				}
				judgeErrorBodies(t, p.of(asks...), envelope.EarlyErrorSchema, "an early error")
			}, append([]any{framework.Case(string(ep))}, probes[missingToken].Decorators()...)...)
		}
		unknown := ask{kind: unknownPath}
		framework.Prepare(g, "ENV-EARLY-ERROR-SHAPE", func(ctx context.Context) struct{} {
			if !p.seen(unknown) {
				r, _ := probe.UnknownEndpoint(t, http.MethodGet, "/api/nonexistent", "")
				t.Client.Do(ctx, r)
			}
			return struct{}{}
		}, func(_ SpecContext, _ struct{}) {
			judgeErrorBodies(t, p.of(unknown), envelope.EarlyErrorSchema, "an early error")
		}, framework.Case("unknown endpoint"))
	})
}

// registerHandlerErrors: ENV-HANDLER-ERROR-SHAPE on the 404 of a missing
// key on each single-resource endpoint: page, tag, category, user, and
// page edit and delete when the run may write.
func registerHandlerErrors(t *framework.Fixture, p *provoked) {
	Describe("7 Body of a handler error", judgesTheRun, func() {
		g := t.NewGroup(judgesTheRun)
		for _, c := range []struct {
			ep       spec.Endpoint
			resource string
		}{{spec.GetPage, "pages"}, {spec.GetTag, "tags"}, {spec.GetCategory, "categories"}, {spec.GetUser, "users"},
			{spec.EditPage, "pages"}, {spec.DeletePage, "pages"}} {
			a := ask{c.ep, missingKey}
			args := []any{framework.Case(string(c.ep) + ", missing key"), c.ep}
			if c.ep.Writes() {
				// Harmless (no page has the key), but they carry the
				// authentication token, so only runs that may write send
				// them.
				args = append(args, framework.Writes)
			}
			framework.Prepare(g, "ENV-HANDLER-ERROR-SHAPE", func(ctx context.Context) struct{} {
				if !p.seen(a) {
					r := client.Request{Method: c.ep.Method(), Path: client.KeyPath(c.resource, t.Marker("no-such-"+c.resource))}
					if c.ep.Writes() {
						r.Credentials = client.BothTokens
					}
					if c.ep == spec.EditPage {
						r.JSON = map[string]any{"description": "conformance"}
					}
					t.Client.Do(ctx, r)
				}
				return struct{}{}
			}, func(_ SpecContext, _ struct{}) {
				judgeErrorBodies(t, p.of(a), envelope.HandlerErrorSchema, "a handler error")
			}, args...)
		}
	})
}

// judgeErrorBodies checks each answer that is the error the rule is about
// against schema. An answer with another status is not this rule's (the
// endpoint's and the auth rules judge status codes), nor one whose body
// did not arrive whole: when no answer is left, the spec is not checked,
// with what was seen.
func judgeErrorBodies(t *framework.Fixture, answers []answer, schema, what string) {
	var seen []string
	judged := false
	for _, a := range answers {
		if why := a.notJudged(); why != "" {
			seen = append(seen, a.kind.what()+": "+why)
			continue
		}
		t.Judged(a.ex)
		Expect(a.ex).To(match.MatchSchema(schema), "the answer to %s is %s", a.kind.what(), what)
		judged = true
	}
	switch {
	case judged:
	case len(answers) == 0:
		verdicts.NotChecked("no request that %s answers got an answer", what)
	default:
		verdicts.NotChecked("no request was answered with %s (%s); the status codes are the endpoint's and the auth "+
			"rules' to judge", what, strings.Join(seen, "; "))
	}
}

// notJudged says why the answer is not the error its rule judges, "" when
// it is: a key that names nothing answered 404 (only those are
// collected); a path no endpoint has answered 4xx; a wrong API token
// answered 400 or 401; a missing API token answered 400, or 401 when the
// request lacked nothing else. A request to an endpoint that needs the
// authentication token, sent without it as well (a read-only run cannot
// send it on a write), may get 5.5's 401, whose body the spec does not
// shape. A body that did not arrive whole cannot be judged.
func (a answer) notJudged() string {
	ex := a.ex
	var theError bool
	switch a.kind {
	case missingKey:
		theError = true
	case unknownPath:
		theError = ex.Status >= 400 && ex.Status <= 499
	default:
		any401 := a.kind == wrongToken || !a.ep.NeedsAuth() || ex.AuthToken == client.TokenValid
		theError = ex.Status == http.StatusBadRequest || (any401 && ex.Status == http.StatusUnauthorized)
	}
	switch {
	case !theError:
		return match.Outcome(ex)
	case ex.BodyCut || ex.Truncated || (ex.BodyReleased() && ex.IsJSON()):
		return "the body did not arrive whole, or is no longer held (" + match.Outcome(ex) + ")"
	}
	return ""
}
