package oracle

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
)

// The oracles read exchanges, and an exchange's body is the client's to
// keep: each crafted answer below is served by a loopback server and
// fetched with the real client, as explore fetches answers.

// The run's tokens in these tests: long enough to be searched for in
// answers (minTokenToSearch).
const (
	apiToken  = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
	authToken = "f9e8d7c6b5a40312f9e8d7c6b5a40312f9e8d7c6b5a40312f9e8d7c6b5a40312"
)

// reply is a crafted answer: a status, a body, and the headers every
// answer of the API carries (JSON, any origin, no cache) unless header
// replaces one ("" leaves it out).
type reply struct {
	status int
	body   string
	header map[string]string
}

// conformingHeaders are the headers of 1 and 5.9.
var conformingHeaders = map[string]string{
	"Content-Type":                "application/json",
	"Access-Control-Allow-Origin": "*",
	"Cache-Control":               "no-store, no-cache, must-revalidate",
}

// send serves r on a loopback port and fetches it with method (GET when
// empty) and the request options, as the run's client does.
func send(t *testing.T, method string, r reply, opts ...func(*client.Request)) *client.Exchange {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := maps.Clone(conformingHeaders)
		maps.Copy(h, r.header)
		for k, v := range h {
			if v != "" {
				w.Header().Set(k, v)
			}
		}
		w.WriteHeader(r.status)
		_, _ = w.Write([]byte(r.body))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: apiToken, AuthToken: authToken})
	if err != nil {
		t.Fatal(err)
	}
	req := client.Request{Method: method, Path: "/api/pages"}
	if method == "" {
		req.Method = http.MethodGet
	}
	for _, o := range opts {
		o(&req)
	}
	ex := c.Do(t.Context(), req)
	if ex.Status != r.status {
		t.Fatalf("the crafted answer did not arrive: %s", ex)
	}
	return ex
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
