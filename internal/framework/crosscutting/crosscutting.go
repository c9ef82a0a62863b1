package crosscutting

import (
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/rules"
)

// Watcher judges every recorded exchange with the checks the suites
// add (suites/protocol adds those of spec sections 1, 5.9 and 7), and
// tallies each rule's verdicts: no spec can forget these checks, and one
// missing header gives one failure per rule, not one per request. Only
// exchanges observed after a check was added are judged by it, so suites
// add their checks when they register, before any request is sent.
//
// Two kinds of response are not the API's to answer for. One whose body
// the connection cut (Exchange.BodyCut) is judged on its status and
// headers; the checks of its body say they cannot judge it. One that the
// web server in front of the API gave itself (AnsweredByFront: nginx's or
// Apache's own HTML error page) is judged by no check: it is recorded as
// an observation instead (Observations).
type Watcher struct {
	apiPrefix string
	mu        sync.Mutex
	later     laterQueue // the exchanges checks judge later
	checks    []ExchangeCheck
	tallies   map[string]*Tally
	// apiJSON: the API answered JSON at least once in this run, so an
	// HTML error page that looks like the front's is the front's.
	apiJSON bool
	// fronts are the front's own answers, in order; judged by no check
	// once apiJSON holds, and by every check if the run ends without it.
	fronts []frontAnswered
	// unanswered are the 429, 502, 503 and 504 answers the server in
	// front gave for the API (client.Exchange.Fault): judged by no check.
	unanswered []string
}

// frontAnswered is one response that looks like the front's own answer.
type frontAnswered struct {
	ex      *client.Exchange
	request string
	answer  FrontAnswer
	checks  int // how many checks were registered when it was observed
	// probed are the rules of the specs that sent the request, left not
	// checked for it (Fixture.AnsweredByFront).
	probed []string
}

// Tally is how one cross-cutting rule fared over the run.
type Tally struct {
	// Checked counts the responses the rule judged (responses it cannot
	// judge, e.g. a status field check on a non-JSON body, are not counted).
	Checked    int
	Violations int
	// Problems groups the violations by what is wrong, in order of first
	// appearance; at most maxProblems, the rest are counted in Unlisted.
	Problems []ProblemGroup
	Unlisted int
}

// ProblemGroup is one way a rule was broken: every response with the same
// problem, counted by the kind of request that got it, with the first such
// exchange as evidence.
type ProblemGroup struct {
	Problem  string
	Count    int
	Requests []RequestGroup // at most maxRequests; the rest in Unlisted
	Unlisted int
	Spec     string // the spec that sent the first exchange
	Exchange string // the first exchange, rendered and redacted
}

// RequestGroup counts the responses to one kind of request (method,
// endpoint, HTTP status) that showed a problem.
type RequestGroup struct {
	Request string // "GET /api/pages/{key} -> 404"
	Count   int
	Spec    string // the spec that sent the first of them
}

// Bounds on what a tally keeps: enough to show every distinct way a server
// breaks a rule, few enough to read.
const (
	maxProblems = 8
	maxRequests = 24
)

// ExchangeCheck is one cross-cutting rule's test of a response.
type ExchangeCheck struct {
	Rule  string
	Check func(ex *client.Exchange) rules.Judgement
	// Later, when set, judges a copy of the response's body on a goroutine
	// of its own, after the exchange was recorded (crosscutting_later.go):
	// for heavy work. Check, when set too, says at once whether the
	// exchange is one to judge (Skip: it is not).
	Later func(ex *client.Exchange, body []byte) rules.Judgement
}

// ExchangeChecks are the checks that judge every exchange with cs.
func ExchangeChecks(cs ...rules.Check) []ExchangeCheck {
	out := make([]ExchangeCheck, len(cs))
	for i, c := range cs {
		out[i] = ExchangeCheck{Rule: c.Rule, Check: c.Judge}
	}
	return out
}

// New judges exchanges whose URL lies under baseURL/api/.
func New(baseURL string) *Watcher {
	u, _ := url.Parse(baseURL)
	prefix := "/api/"
	if u != nil {
		prefix = strings.TrimRight(u.Path, "/") + "/api/"
	}
	return &Watcher{apiPrefix: prefix, tallies: map[string]*Tally{}}
}

// Add registers checks, judged on every exchange observed from now on.
func (p *Watcher) Add(checks ...ExchangeCheck) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.checks = append(p.checks, checks...)
}

// Rules lists the rules of the registered checks, in the order they were
// added.
func (p *Watcher) Rules() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, c := range p.checks {
		out = append(out, c.Rule)
	}
	return out
}

// Observe checks one exchange (registered as a client observer). Requests
// that got no answer (a cut body is an answer: its status and headers
// arrived), responses to HEAD (no body by definition), to OPTIONS (a
// browser's CORS preflight, which the spec does not describe: newer
// releases answer it 204 without a body; the preflight only observes it),
// paths outside {base}/api/ and the front's own answers are not judged.
func (p *Watcher) Observe(ex *client.Exchange) {
	if ex.StatusErr() != nil || ex.Status == 0 || ex.Method == "HEAD" || ex.Method == "OPTIONS" {
		return
	}
	u, err := url.Parse(ex.URL)
	if err != nil || !strings.HasPrefix(u.Path, p.apiPrefix) {
		return
	}
	request := fmt.Sprintf("%s %s -> %d", ex.Method, p.EndpointShape(u.Path), ex.Status)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.apiJSON = p.apiJSON || ex.IsJSON()
	if front := AnsweredByFront(ex, true); front.ByFront() {
		p.fronts = append(p.fronts, frontAnswered{ex: ex, request: request, answer: front, checks: len(p.checks)})
		return
	}
	if ex.Fault() != "" {
		p.unanswered = append(p.unanswered, request)
		return
	}
	p.judge(p.tallies, p.checks, ex, request, true)
}

// judge adds the verdicts of checks on ex to tallies; a check that judges
// later (Later) queues ex when tallies are the run's own (live).
func (p *Watcher) judge(tallies map[string]*Tally, checks []ExchangeCheck, ex *client.Exchange, request string, live bool) {
	for _, c := range checks {
		var v rules.Judgement
		switch {
		case c.Later != nil && live:
			p.queueLater(c, ex, request)
			continue
		case c.Later != nil:
			if c.Check != nil && c.Check(ex).Skip {
				continue
			}
			v = c.Later(ex, ex.Body())
		default:
			v = c.Check(ex)
		}
		p.tallyVerdict(tallies, c.Rule, v, request, ex)
	}
}

// tallyVerdict adds rule's verdict v on ex to tallies (a skip adds nothing).
func (p *Watcher) tallyVerdict(tallies map[string]*Tally, rule string, v rules.Judgement, request string, ex *client.Exchange) {
	if v.Skip {
		return
	}
	t := tallies[rule]
	if t == nil {
		t = &Tally{}
		tallies[rule] = t
	}
	t.Checked++
	if v.Problem != "" {
		t.add(v.Problem, request, ex)
	}
}

// maxFrontNotes bounds the front's answers listed one by one.
const maxFrontNotes = 20

// Observations says which responses the web server in front of the API
// gave itself, one line each (at most maxFrontNotes, then how many more),
// naming the rules not checked for them. None while the API has answered
// no JSON in this run: then such pages are the site's, and judged.
func (p *Watcher) Observations() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.apiJSON {
		return nil
	}
	var out []string
	for i, f := range p.fronts {
		if i == maxFrontNotes {
			out = append(out, fmt.Sprintf("and %d more responses %s", len(p.fronts)-i, FrontPhrase))
			break
		}
		rules := append([]string(nil), f.probed...)
		for _, c := range p.checks[:f.checks] {
			rules = append(rules, c.Rule)
		}
		out = append(out, f.answer.Observation(f.ex, rules...))
	}
	if n := len(p.unanswered); n > 0 {
		shown := p.unanswered[:min(n, maxFrontNotes)]
		out = append(out, fmt.Sprintf("%d answer(s) came from the server in front instead of the API (429, 502, 503 or 504 "+
			"without the API's JSON envelope), and no every-answer rule judged them: %s%s", n, strings.Join(match.Uniq(shown), ", "),
			map[bool]string{true: ", …", false: ""}[n > len(shown)]))
	}
	return out
}

func (t *Tally) add(problem, request string, ex *client.Exchange) {
	t.Violations++
	var g *ProblemGroup
	for i := range t.Problems {
		if t.Problems[i].Problem == problem {
			g = &t.Problems[i]
		}
	}
	if g == nil {
		if len(t.Problems) >= maxProblems {
			t.Unlisted++
			return
		}
		t.Problems = append(t.Problems, ProblemGroup{Problem: problem, Spec: ex.Scope, Exchange: ex.String()})
		g = &t.Problems[len(t.Problems)-1]
	}
	g.Count++
	for i := range g.Requests {
		if g.Requests[i].Request == request {
			g.Requests[i].Count++
			return
		}
	}
	if len(g.Requests) >= maxRequests {
		g.Unlisted++
		return
	}
	g.Requests = append(g.Requests, RequestGroup{Request: request, Count: 1, Spec: ex.Scope})
}

// EndpointShape turns a request path into the endpoint it addresses, with
// any key replaced by a placeholder ("/api/pages/{key}"), so responses to
// the same endpoint group together.
func (p *Watcher) EndpointShape(path string) string {
	rest := strings.TrimPrefix(path, p.apiPrefix)
	name, key, hasKey := strings.Cut(rest, "/")
	if hasKey && key != "" {
		return "/api/" + name + "/{key}"
	}
	return "/api/" + rest
}

// Endpoint is the endpoint ex addressed, any key a placeholder
// ("/api/pages/{key}"); "" for a URL outside {base}/api/.
func (p *Watcher) Endpoint(ex *client.Exchange) string {
	u, err := url.Parse(ex.URL)
	if err != nil || !strings.HasPrefix(u.Path, p.apiPrefix) {
		return ""
	}
	return p.EndpointShape(u.Path)
}

// APIAnswersJSON reports whether the API answered JSON at least once in
// the exchanges observed so far.
func (p *Watcher) APIAnswersJSON() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.apiJSON
}

// probedBy records that rule, whose spec sent ex, is not checked for it
// because the front answered it; false when ex is not among the front's
// answers observed.
func (p *Watcher) ProbedBy(ex *client.Exchange, rule string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.fronts {
		if p.fronts[i].ex == ex {
			p.fronts[i].probed = match.Uniq(append(p.fronts[i].probed, rule))
			return true
		}
	}
	return false
}

// Tally returns a copy of how a rule fared so far. Should the API have
// answered no JSON at all, the answers that look like the front's are
// the site's own, and judged with the rest.
func (p *Watcher) Tally(rule string) Tally {
	p.later.wait() // every exchange queued for a check that judges later
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.apiJSON && len(p.fronts) > 0 {
		tallies := map[string]*Tally{rule: p.tallyCopy(rule)}
		for _, f := range p.fronts {
			p.judge(tallies, p.checks[:f.checks], f.ex, f.request, false)
		}
		return *tallies[rule]
	}
	return *p.tallyCopy(rule)
}

// tallyCopy is a deep copy of the tally of rule (empty when none).
func (p *Watcher) tallyCopy(rule string) *Tally {
	t := p.tallies[rule]
	if t == nil {
		return &Tally{}
	}
	c := *t
	c.Problems = make([]ProblemGroup, len(t.Problems))
	for i, g := range t.Problems {
		g.Requests = append([]RequestGroup(nil), g.Requests...)
		c.Problems[i] = g
	}
	return &c
}

// Summary renders the violations for a failure message: each problem with
// the kinds of request that got it (how many, and the spec that sent the
// first), then the first such exchange in full.
func (t Tally) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d responses break this rule", t.Violations, t.Checked)
	if t.Unlisted > 0 {
		fmt.Fprintf(&b, " (%d of them with further problems not listed)", t.Unlisted)
	}
	b.WriteString(".\n")
	for i, g := range t.Problems {
		fmt.Fprintf(&b, "\n%d. %s: %d response(s), to these requests:\n", i+1, g.Problem, g.Count)
		for _, r := range g.Requests {
			fmt.Fprintf(&b, "   %4d x %s  (first sent by %q)\n", r.Count, r.Request, r.Spec)
		}
		if g.Unlisted > 0 {
			fmt.Fprintf(&b, "   %4d x other requests\n", g.Unlisted)
		}
		fmt.Fprintf(&b, "   The first of them, from %q:\n%s", g.Spec, match.Indent(g.Exchange, "     "))
	}
	return b.String()
}
