package oracle

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// The oracles read exchanges, and an exchange's body is the client's to
// keep: each crafted answer below is served by a loopback server and
// fetched with the real client, as explore fetches answers.

// The run's tokens in these tests: long enough to be searched for in
// answers (minTokenToSearch).
const (
	apiToken  = rulestest.APIToken
	authToken = rulestest.AuthToken
)

// reply is a crafted answer: a status, a body, and the headers every
// answer of the API carries (JSON, any origin, no cache) unless header
// replaces one ("" leaves it out).
type reply struct {
	status int
	body   string
	header map[string]string
}

// send serves r on a loopback port and fetches it with method (GET when
// empty) and the request options, as the run's client does
// (rulestest.Send).
func send(t *testing.T, method string, r reply, opts ...func(*client.Request)) *client.Exchange {
	t.Helper()
	req := client.Request{Method: method}
	for _, o := range opts {
		o(&req)
	}
	return rulestest.Send(t, rulestest.Reply{Status: r.status, Body: r.body, Header: r.header}, req)
}

// at sends the request to path.
func at(path string) func(*client.Request) { return func(r *client.Request) { r.Path = path } }

// ok is a conforming 200 with data.
func ok(data string) reply {
	return reply{status: http.StatusOK, body: `{"status":"0","message":"ok","data":` + data + `}`}
}

// handlerError is a conforming handler error (7, shape 1).
func handlerError(status int) reply {
	return reply{status: status, body: `{"status":"1","message":"no"}`}
}

// earlyError is a conforming early error (7, shape 2).
func earlyError(status int) reply {
	return reply{status: status, body: `{"message":"no"}`}
}

// ruleIDs lists the distinct rules of j's findings, sorted.
func ruleIDs(j *Judge) []string {
	var out []string
	for _, f := range j.Findings {
		if !slices.Contains(out, f.Rule) {
			out = append(out, f.Rule)
		}
	}
	slices.Sort(out)
	return out
}

// wantRules fails t unless j found exactly the rules want (none when
// want is empty), naming the case.
func wantRules(t *testing.T, name string, j *Judge, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := ruleIDs(j); !slices.Equal(got, want) {
		t.Errorf("%s: findings of %v, want %v:\n%s", name, got, want, findings(j))
	}
}

// findings renders j's findings for a failure message.
func findings(j *Judge) string {
	var b strings.Builder
	for _, f := range j.Findings {
		b.WriteString("  " + f.Signature() + ": expected " + f.Expected + "; got " + f.Got + "\n")
	}
	return b.String()
}

// jsonText is v as JSON.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
