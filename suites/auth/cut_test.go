package auth_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestCutRefusals runs the auth specs against a reference server whose
// every 401 loses the second half of its body (the connection closes
// after the status line, the headers and half the body, as a server that
// refuses a write and hangs up does behind a reverse proxy), in a child
// process. The refusals' status arrived whole, so the rules about it must
// pass, and no rule may fail for the cut.
func TestCutRefusals(t *testing.T) {
	frameworktest.RunChild(t, "TestAuth", cutChildEnv, "the run against a server that cuts its refusals")
}

// cutRun is the child of TestCutRefusals.
func cutRun(t *testing.T) {
	srv := testkit.ReferenceWith(t, reference.Options{}, func(h http.Handler) http.Handler { return cutUnauthorized(t, h) })
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: srv.Token, AuthToken: srv.AuthToken})
	if err != nil {
		t.Fatal(err)
	}
	target := framework.New(c, framework.Options{SettingsWrites: true})
	status := runAuth(t, target, "auth against a server that cuts the body of its 401s")
	cut := 0
	for _, ex := range c.Exchanges() {
		if ex.BodyCut {
			cut++
		}
	}
	if cut == 0 {
		t.Fatal("no answer was cut: the test proves nothing")
	}
	for _, id := range []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-WRITE-INVALID-AUTH", "AUTH-INVALID-TOKEN-401",
		"AUTH-SETTINGS-READ-NEEDS-AUTH", "AUTH-UNKNOWN-ENDPOINT-401"} {
		if status[id] != report.Passed {
			t.Errorf("%s is %s, want passed: every 401 arrived with its status (%d answers were cut)", id, status[id], cut)
		}
	}
}

// cutUnauthorized serves h, except that a 401 answer is sent with its
// status line, its headers and the first half of its body, and the
// connection is then closed.
func cutUnauthorized(t *testing.T, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != http.StatusUnauthorized {
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		body := rec.Body.Bytes()
		testkit.WriteCut(t, w, http.StatusUnauthorized, rec.Header(), body, len(body)/2)
	})
}

// failedSpecs renders the failed specs of rule r.
func failedSpecs(run *report.Run, r report.RuleResult) string {
	var b strings.Builder
	for _, i := range r.Specs {
		if s := run.Specs[i]; s.Status == report.Failed {
			fmt.Fprintf(&b, "  - %s\n    %s\n", s.Name, strings.ReplaceAll(s.Message, "\n", "\n    "))
		}
	}
	return b.String()
}
