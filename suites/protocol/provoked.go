package protocol

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// The error-body rules (ENV-EARLY-ERROR-SHAPE, ENV-HANDLER-ERROR-SHAPE)
// are judged on every such error the run provoked: the auth rules send a
// request without the API token and one with a wrong API token to each of
// the 16 endpoints and requests to paths no endpoint has, the endpoint
// rules read, edit and delete keys no page, tag, category or user has.
// Sending the same again would only double the traffic. A provoked
// collects those answers as the run records them, and the rules' specs
// run after every phase (judgesTheRun), each judging what was collected
// for its endpoint; a spec sends its own request only for what no other
// spec of the run sent (the label filter left the other rules out), so a
// rule checks every endpoint whatever the selection.

// errorKind is the kind of request an error body rule is about.
type errorKind int

const (
	missingToken errorKind = iota // no API token
	wrongToken                    // a wrong API token
	unknownPath                   // a path no endpoint has
	missingKey                    // valid tokens, a run-marked key that names nothing: 404
)

// what says the kind in words, for messages.
func (k errorKind) what() string {
	return [...]string{"a request without the API token", "a request with a wrong API token",
		"a request to a path no endpoint has", "a request for a key that names nothing"}[k]
}

// ask is one kind of request on one endpoint ("" for unknownPath).
type ask struct {
	ep   spec.Endpoint
	kind errorKind
}

// answer is one answer the run got to an ask.
type answer struct {
	ask
	ex *client.Exchange
}

// provoked holds, per ask, the answers the run got, in the order
// recorded.
type provoked struct {
	t         *framework.Fixture
	apiPrefix string // the path of {base_url}/api/
	answers   framework.Collector[ask, answer]
}

// newProvoked collects the answers of t's run, from every exchange
// recorded from now on.
func newProvoked(t *framework.Fixture) *provoked {
	prefix := "/api/"
	if u, err := url.Parse(t.Client.BaseURL()); err == nil {
		prefix = strings.TrimRight(u.EscapedPath(), "/") + "/api/"
	}
	p := &provoked{t: t, apiPrefix: prefix}
	t.Client.OnExchange(p.observe)
	return p
}

// observe keeps ex when it answers an ask. Requests that got no status,
// HEAD and OPTIONS (a browser's preflight) are left out, and so is a
// method the table does not list for a known path: a handler may answer
// it (see AUTH-UNKNOWN-ENDPOINT-401).
func (p *provoked) observe(ex *client.Exchange) {
	if ex.Status == 0 || ex.StatusErr() != nil || ex.Method == http.MethodHead || ex.Method == http.MethodOptions {
		return
	}
	u, err := url.Parse(ex.URL)
	if err != nil {
		return
	}
	rest, ok := strings.CutPrefix(u.EscapedPath(), p.apiPrefix)
	if !ok {
		return
	}
	a, ok := p.classify(ex, rest)
	if !ok {
		return
	}
	p.answers.Add(a, answer{a, ex})
}

// classify says which ask ex, a request to {base_url}/api/rest, is.
func (p *provoked) classify(ex *client.Exchange, rest string) (ask, bool) {
	name, key, _ := strings.Cut(rest, "/")
	a := ask{ep: endpointOf(ex.Method, "/api/"+rest)}
	switch {
	case a.ep == "":
		a.kind = unknownPath
		return a, !knownResource(name)
	case ex.APIToken == client.TokenMissing:
		a.kind = missingToken
	case ex.APIToken == client.TokenWrong:
		a.kind = wrongToken
	case ex.Status == http.StatusNotFound && (!a.ep.NeedsAuth() || ex.AuthToken == client.TokenValid) &&
		p.t.HasRunMarker(key) && keyed(a.ep):
		// Every token valid: nothing but the handler can answer it.
		a.kind = missingKey
	default:
		return a, false
	}
	return a, true
}

// of returns the answers collected for the asks given, in that order.
func (p *provoked) of(asks ...ask) []answer { return p.answers.Of(asks...) }

// seen reports whether some answer to a was collected.
func (p *provoked) seen(a ask) bool { return len(p.of(a)) > 0 }

// keyed reports whether ep addresses one page, tag, category or user:
// the resources whose missing key section 7 answers 404.
func keyed(ep spec.Endpoint) bool {
	switch ep {
	case spec.GetPage, spec.EditPage, spec.DeletePage, spec.GetTag, spec.GetCategory, spec.GetUser:
		return true
	}
	return false
}

// endpointOf maps a request to the endpoint of section 4 it addresses
// (path relative to the base URL, escaped); "" for a path or method the
// table does not list.
func endpointOf(method, path string) spec.Endpoint {
	rest, ok := strings.CutPrefix(path, "/api/")
	if !ok {
		return ""
	}
	name, key, _ := strings.Cut(rest, "/")
	for _, ep := range spec.Endpoints() {
		tname, tkey, _ := strings.Cut(strings.TrimPrefix(ep.Path(), "/api/"), "/")
		if ep.Method() == method && tname == name && (tkey != "") == (key != "") {
			return ep
		}
	}
	return ""
}

// knownResource reports whether name is the first path segment of an
// endpoint of section 4 ("pages", "files").
func knownResource(name string) bool {
	for _, ep := range spec.Endpoints() {
		if tname, _, _ := strings.Cut(strings.TrimPrefix(ep.Path(), "/api/"), "/"); tname == name {
			return true
		}
	}
	return false
}
