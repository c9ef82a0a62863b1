package framework

import (
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
)

// Protocol judges every recorded exchange against the cross-cutting rules
// of spec sections 1, 5.9 and 7 (Content-Type, JSON body, CORS, no-cache,
// envelope status and message). No spec can forget these checks, and one
// missing header gives one failure per rule, not one per request.
type Protocol struct {
	apiPrefix string
	mu        sync.Mutex
	tallies   map[string]*Tally
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

// Verdict is one rule's judgement of one exchange.
type Verdict struct {
	// Skip: the rule cannot judge this exchange (not counted as checked).
	Skip bool
	// Problem is what is wrong; "" when the exchange conforms.
	Problem string
}

var (
	conforms = Verdict{}
	skip     = Verdict{Skip: true}
)

func violation(format string, args ...any) Verdict {
	return Verdict{Problem: fmt.Sprintf(format, args...)}
}

// ProtocolCheck is one cross-cutting rule's test of a response.
type ProtocolCheck struct {
	Rule  string
	Check func(ex *client.Exchange) Verdict
}

// ProtocolChecks are the cross-cutting rules, in report order.
var ProtocolChecks = []ProtocolCheck{
	{"GEN-CONTENT-TYPE-JSON", func(ex *client.Exchange) Verdict {
		if ex.MediaType() != "application/json" {
			if ct := ex.Header.Values("Content-Type"); len(ct) > 0 {
				return violation("Content-Type is %q, want application/json", strings.Join(ct, ", "))
			}
			return violation("no Content-Type header, want application/json")
		}
		return conforms
	}},
	{"GEN-BODY-JSON", func(ex *client.Exchange) Verdict {
		switch {
		case ex.Truncated:
			// Longer than the read bound: the suite cannot tell.
			return skip
		case ex.IsJSON():
			return conforms
		case ex.BodySize() == 0:
			return violation("the body is empty, want a JSON document")
		}
		return violation("the body is not a JSON document")
	}},
	{"GEN-CORS-ANY-ORIGIN", func(ex *client.Exchange) Verdict {
		got := ex.Header.Get("Access-Control-Allow-Origin")
		origin := ex.RequestHeader.Get("Origin")
		switch {
		case got == "*" || (origin != "" && got == origin):
			return conforms
		case got == "":
			return violation("no Access-Control-Allow-Origin header")
		}
		return violation("Access-Control-Allow-Origin is %q, want *", got)
	}},
	{"GEN-NO-CACHE", func(ex *client.Exchange) Verdict {
		cc := strings.ToLower(strings.Join(ex.Header.Values("Cache-Control"), ","))
		pragma := strings.ToLower(strings.Join(ex.Header.Values("Pragma"), ","))
		if strings.Contains(cc, "no-store") || strings.Contains(cc, "no-cache") || strings.Contains(pragma, "no-cache") {
			return conforms
		}
		return violation("no no-cache header (Cache-Control: no-store/no-cache or Pragma: no-cache)")
	}},
	{"ENV-STATUS-AGREES", func(ex *client.Exchange) Verdict {
		if !jsonObject(ex) {
			return skip // judged by GEN-BODY-JSON
		}
		st := ex.Get("status")
		if !st.Exists() {
			// Early errors carry no status (judged by ENV-EARLY-ERROR-SHAPE);
			// a success without one is judged by ENV-SUCCESS-SHAPE.
			return skip
		}
		if st.Type != gjson.String {
			return violation("status is %s, want the string \"0\" or \"1\"", st.Raw)
		}
		switch {
		case ex.Status >= 200 && ex.Status < 300 && st.Str != "0":
			return violation("HTTP %d with status %q, want \"0\"", ex.Status, st.Str)
		case ex.Status >= 400 && st.Str != "1":
			return violation("HTTP %d with status %q, want \"1\"", ex.Status, st.Str)
		}
		return conforms
	}},
	{"ENV-MESSAGE-STRING", func(ex *client.Exchange) Verdict {
		if !jsonObject(ex) {
			return skip // judged by GEN-BODY-JSON and the shape rules
		}
		if isUploadSuccess(ex) {
			return skip // the response shape of uploads is "not shown" (4.12, 4.13)
		}
		m := ex.Get("message")
		if !m.Exists() {
			return violation("no message field")
		}
		if m.Type != gjson.String {
			return violation("message is %s, want a string", m.Raw)
		}
		return conforms
	}},
}

func jsonObject(ex *client.Exchange) bool { return ex.IsJSON() && ex.JSON().IsObject() }

// isUploadSuccess reports a 2xx answer to POST /api/images or POST
// /api/files/{key}, whose body the spec does not show.
func isUploadSuccess(ex *client.Exchange) bool {
	if ex.Method != "POST" || ex.Status < 200 || ex.Status > 299 {
		return false
	}
	u, err := url.Parse(ex.URL)
	if err != nil {
		return false
	}
	return strings.HasSuffix(u.Path, "/api/images") || strings.Contains(u.Path, "/api/files/")
}

// NewProtocol judges exchanges whose URL lies under baseURL/api/.
func NewProtocol(baseURL string) *Protocol {
	u, _ := url.Parse(baseURL)
	prefix := "/api/"
	if u != nil {
		prefix = strings.TrimRight(u.Path, "/") + "/api/"
	}
	return &Protocol{apiPrefix: prefix, tallies: map[string]*Tally{}}
}

// Observe checks one exchange (registered as a client observer). Requests
// that got no answer, responses to HEAD (no body by definition) and paths
// outside {base}/api/ are not judged.
func (p *Protocol) Observe(ex *client.Exchange) {
	if ex.Err != nil || ex.Status == 0 || ex.Method == "HEAD" {
		return
	}
	u, err := url.Parse(ex.URL)
	if err != nil || !strings.HasPrefix(u.Path, p.apiPrefix) {
		return
	}
	request := fmt.Sprintf("%s %s -> %d", ex.Method, p.endpointShape(u.Path), ex.Status)
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range ProtocolChecks {
		v := c.Check(ex)
		if v.Skip {
			continue
		}
		t := p.tallies[c.Rule]
		if t == nil {
			t = &Tally{}
			p.tallies[c.Rule] = t
		}
		t.Checked++
		if v.Problem != "" {
			t.add(v.Problem, request, ex)
		}
	}
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

// endpointShape turns a request path into the endpoint it addresses, with
// any key replaced by a placeholder ("/api/pages/{key}"), so responses to
// the same endpoint group together.
func (p *Protocol) endpointShape(path string) string {
	rest := strings.TrimPrefix(path, p.apiPrefix)
	name, key, hasKey := strings.Cut(rest, "/")
	if hasKey && key != "" {
		return "/api/" + name + "/{key}"
	}
	return "/api/" + rest
}

// Tally returns a copy of how a rule fared so far.
func (p *Protocol) Tally(rule string) Tally {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.tallies[rule]
	if t == nil {
		return Tally{}
	}
	c := *t
	c.Problems = make([]ProblemGroup, len(t.Problems))
	for i, g := range t.Problems {
		g.Requests = append([]RequestGroup(nil), g.Requests...)
		c.Problems[i] = g
	}
	return c
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
		fmt.Fprintf(&b, "   The first of them, from %q:\n%s", g.Spec, indent(g.Exchange, "     "))
	}
	return b.String()
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}
