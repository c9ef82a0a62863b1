package framework

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/rules"
)

// nginx's own 400 page, as nginx 1.22.1 answered it in front of the
// reference server (the crosscutting package's tests have the others).
const (
	nginxServer = "nginx/1.22.1"
	nginx400    = "<html>\r\n<head><title>400 Bad Request</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n" +
		"<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n"
)

// TestFixtureAnsweredByFront: a spec's request the front answered itself
// is one observation of the run, naming the spec's rule beside the
// cross-cutting rules; when the API answers no JSON at all, the same page
// is the site's own and the spec judges it.
func TestFixtureAnsweredByFront(t *testing.T) {
	for _, c := range []struct {
		name        string
		pagesJSON   bool // GET /api/pages answers JSON
		wantByFront bool
	}{{"behind nginx", true, true}, {"a site answering HTML everywhere", false, false}} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/pages" && c.pagesJSON {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(`{"status":"0","message":"ok","data":[]}`))
					return
				}
				w.Header().Set("Content-Type", "text/html")
				w.Header().Set("Server", nginxServer)
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte(nginx400))
			}))
			defer srv.Close()
			cl, err := client.New(client.Config{BaseURL: srv.URL, Token: "test-token-0123456789abcdef"})
			if err != nil {
				t.Fatal(err)
			}
			f := New(cl, Options{})
			f.CrossCutting.Add(crosscutting.ExchangeCheck{Rule: "GEN-BODY-JSON", Check: func(*client.Exchange) rules.Judgement { return rules.Judgement{} }})
			ex := f.Read(context.Background(), "/api/files/x%00y", nil)
			got := f.AnsweredByFront(context.Background(), ex, "FILES-TRAVERSAL-400")
			if got.ByFront() != c.wantByFront {
				t.Fatalf("AnsweredByFront = %+v, want by the front: %v", got, c.wantByFront)
			}
			obs := f.Observations()
			if !c.wantByFront {
				if len(obs) != 0 {
					t.Errorf("observations %q, want none", obs)
				}
				return
			}
			want := "GET /api/files/x%00y -> 400 was " + crosscutting.FrontPhrase + " (nginx's own HTML 400 page), not by the API; " +
				"not checked for this request: FILES-TRAVERSAL-400, GEN-BODY-JSON"
			if len(obs) != 1 || obs[0] != want {
				t.Errorf("observations\n  %q\nwant\n  %q", obs, want)
			}
			if tally := f.CrossCutting.Tally("GEN-BODY-JSON"); tally.Checked != 1 {
				t.Errorf("GEN-BODY-JSON judged %d responses, want 1 (GET /api/pages; the front's page is not the API's)", tally.Checked)
			}
		})
	}
}
