package fronts_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/crosscutting"
	"github.com/conformance-suite/conformance/internal/fronts"
)

// serverNames are the names crosscutting.AnsweredByFront gives each front.
var serverNames = map[fronts.Kind]string{fronts.Nginx: "nginx", fronts.Apache: "Apache"}

// TestClassifierKnowsTheRealFronts sends every probe through the suite's
// client to each real front and checks that crosscutting.AnsweredByFront
// takes exactly the front's own answers for the front's, and names it.
func TestClassifierKnowsTheRealFronts(t *testing.T) {
	eachFront(t, func(t *testing.T, kind fronts.Kind, f *fronts.Front, token, _ string) {
		c, err := client.New(client.Config{BaseURL: f.URL, Token: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range probes(token) {
			ex := c.Do(t.Context(), clientRequest(t, p))
			if ex.Err != nil {
				t.Errorf("%s: %v", p.name, ex.Err)
				continue
			}
			got := crosscutting.AnsweredByFront(ex, true)
			_, byFront := p.answers[kind]
			switch {
			case byFront && got.Server != serverNames[kind]:
				t.Errorf("%s: %s answered it itself (HTTP %d), but AnsweredByFront says %+v:\n%s",
					p.name, kind, ex.Status, got, ex.String())
			case !byFront && got.ByFront():
				t.Errorf("%s: the API answered it (HTTP %d), but AnsweredByFront says %+v", p.name, ex.Status, got)
			}
		}
	})
}

// clientRequest turns a raw probe into the suite client's request: the
// client adds the token itself.
func clientRequest(t *testing.T, p probe) client.Request {
	t.Helper()
	path, rawQuery, _ := strings.Cut(p.target, "?")
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		t.Fatal(err)
	}
	q.Del("token")
	r := client.Request{Method: p.method, Path: path, Query: q, Header: http.Header{}}
	for _, line := range strings.Split(strings.TrimSpace(p.header), "\r\n") {
		if name, value, ok := strings.Cut(line, ": "); ok && name != "Content-Type" {
			r.Header.Set(name, value)
		}
	}
	if p.body != "" {
		r.Raw, r.RawContentType = []byte(p.body), "application/octet-stream"
	}
	return r
}
