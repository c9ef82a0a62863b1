package match

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// exchangeWith is a real exchange whose answer is body (HTTP 200, JSON).
func exchangeWith(t *testing.T, body string) *client.Exchange {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "test-token-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	return c.Do(context.Background(), client.Request{Path: "/api/pages/x"})
}

// failure is the message of Expect(actual).To(m), "" when it passes.
func failure(actual any, m types.GomegaMatcher, negated bool) string {
	var msg string
	g := gomega.NewGomega(func(message string, _ ...int) { msg = message })
	if negated {
		g.Expect(actual).NotTo(m)
	} else {
		g.Expect(actual).To(m)
	}
	return msg
}

func TestHaveJSON(t *testing.T) {
	ex := exchangeWith(t, `{"status":"0","data":{"key":"a","title":"Salt","pages":null}}`)
	for _, c := range []struct {
		name    string
		m       types.GomegaMatcher
		negated bool
		want    []string // parts of the failure; nil: passes
	}{
		{"present", HaveJSON("data.pages"), false, nil},
		{"equal", HaveJSON("data.key", gomega.Equal("a")), false, nil},
		{"missing", HaveJSON("data.uuid"), false, []string{"Expected: data.uuid in the body", "Got: data.uuid is missing", "GET "}},
		{"mismatch", HaveJSON("data.title", gomega.Equal("Pepper")), false,
			[]string{"Got: data.title is \"Salt\":", "    Expected", "Pepper", "/api/pages/x"}},
		{"every matcher", HaveJSON("data", BeJSONObject(), gomega.HaveKey("uuid")), false, []string{"data is {", "uuid"}},
		{"negated", HaveJSON("data.key", gomega.Equal("a")), true, []string{"Expected no data.key in the body", "Got: data.key is \"a\""}},
	} {
		got := failure(ex, c.m, c.negated)
		if c.want == nil {
			if got != "" {
				t.Errorf("%s: failed:\n%s", c.name, got)
			}
			continue
		}
		for _, part := range c.want {
			if !strings.Contains(got, part) {
				t.Errorf("%s: the failure lacks %q:\n%s", c.name, part, got)
			}
		}
	}
	if got := failure(exchangeWith(t, `<html>`), HaveJSON("data"), false); !strings.Contains(got, "the body is not a JSON document") {
		t.Errorf("HTML body: %s", got)
	}
}

func TestHolds(t *testing.T) {
	ex := exchangeWith(t, `{"data":[1,2]}`)
	none := func(*client.Exchange) []string { return nil }
	two := func(*client.Exchange) []string { return []string{"item 1 is odd", "item 2 is even"} }
	if got := failure(ex, Holds("every item is fine", none), false); got != "" {
		t.Errorf("no problem, yet: %s", got)
	}
	got := failure(ex, Holds("every item is fine", two), false)
	for _, part := range []string{"Expected: every item is fine", "\n  item 1 is odd\n  item 2 is even", "/api/pages/x"} {
		if !strings.Contains(got, part) {
			t.Errorf("the failure lacks %q:\n%s", part, got)
		}
	}
}

func TestEvidence(t *testing.T) {
	ex := exchangeWith(t, `{"data":[]}`)
	got := failure([]string{"x"}, gomega.BeEmpty(), false)
	if strings.Contains(got, "/api/pages/x") {
		t.Fatal("the exchange shows without Evidence: the check below proves nothing")
	}
	var msg string
	g := gomega.NewGomega(func(message string, _ ...int) { msg = message })
	g.Expect([]string{"x"}).To(gomega.BeEmpty(), Evidence(ex, "no %s left", "problem"))
	if !strings.HasPrefix(msg, "no problem left\n\n") || !strings.Contains(msg, "/api/pages/x") || strings.Contains(msg, "test-token-0123456789abcdef") {
		t.Errorf("message:\n%s", msg)
	}
}

func TestBeJSONKind(t *testing.T) {
	for _, c := range []struct {
		m    types.GomegaMatcher
		v    any
		want string // "" passes
	}{
		{BeJSONObject(), map[string]any{}, ""},
		{BeJSONObject(), []any{}, "Expected an object, got an array"},
		{BeJSONArray(), []any{}, ""},
		{BeJSONArray(), nil, "Expected an array, got null"},
		{BeJSONString(), "s", ""},
		{BeJSONString(), float64(1), "Expected a string, got a number"},
	} {
		if got := failure(c.v, c.m, false); got != c.want {
			t.Errorf("%#v: %q, want %q", c.v, got, c.want)
		}
	}
}

func TestBeEncodedOnce(t *testing.T) {
	const sent = `Salt & Pepper <b> "q"`
	for got, want := range map[string]bool{
		`Salt &amp; Pepper &lt;b&gt; &quot;q&quot;`:   true,  // htmlspecialchars
		`Salt &#38; Pepper &#60;b&#62; &#34;q&#34;`:   true,  // decimal references
		`Salt &#x26; Pepper &#x3C;b> "q"`:             true,  // hex, > and quotes left as they are
		`Salt & Pepper <b> "q"`:                       false, // not encoded
		`Salt &amp; Pepper <b> "q"`:                   false, // < left raw
		`Salt &amp;amp; Pepper &amp;lt;b&amp;gt; "q"`: false, // encoded twice
		`Salt &amp Pepper &lt;b&gt; "q"`:              false, // a reference without ';'
		`Salt and Pepper`:                             false, // other text
	} {
		if msg := failure(got, BeEncodedOnce(sent), false); (msg == "") != want {
			t.Errorf("BeEncodedOnce(%q) on %q: %q", sent, got, msg)
		}
	}
	if msg := failure("plain text", BeEncodedOnce("plain text"), false); msg != "" {
		t.Errorf("text without special characters is its own encoding: %s", msg)
	}
	if msg := failure(float64(1), BeEncodedOnce("1"), false); msg == "" {
		t.Error("a number passed as an encoded string")
	}
}

func TestDecodeTo(t *testing.T) {
	const sent = `Salt & Pepper <b>`
	for got, want := range map[string]bool{
		`Salt & Pepper <b>`:                           true,  // as sent
		`Salt &amp; Pepper &lt;b&gt;`:                 true,  // encoded once
		`Salt &#38; Pepper &#60;b>`:                   true,  // once, other forms
		`Salt &amp;amp; Pepper &amp;lt;b&amp;gt;`:     true,  // encoded twice
		`Salt &amp;amp;amp; Pepper &amp;amp;lt;b&gt;`: true,  // three times, mixed
		`Salt and Pepper`:                             false, // other text
		`Salt &amp; Pepper`:                           false, // part of it
	} {
		if msg := failure(got, DecodeTo(sent), false); (msg == "") != want {
			t.Errorf("DecodeTo(%q) on %q: %q", sent, got, msg)
		}
	}
	if msg := failure(float64(1), DecodeTo("1"), false); msg == "" {
		t.Error("a number passed as a string")
	}
}

func TestShowAndOutcome(t *testing.T) {
	ex := exchangeWith(t, `{"a":1}`)
	if got := Show(ex.Get("a")); got != "1" {
		t.Errorf("Show(a) = %q", got)
	}
	if got := Show(ex.Get("b")); got != "missing" {
		t.Errorf("Show(b) = %q", got)
	}
	if got := Outcome(ex); got != `HTTP 200 {"a":1}` {
		t.Errorf("Outcome = %q", got)
	}
	if got := Outcome(nil); got != "no request was sent" {
		t.Errorf("Outcome(nil) = %q", got)
	}
	if got := Uniq([]string{"b", "a", "b"}); strings.Join(got, ",") != "b,a" {
		t.Errorf("Uniq = %q", got)
	}
}

// cutExchange is a real exchange whose answer is a 401 status line and
// headers, then 20 bytes of a JSON body, then the connection closes: what a
// server that refuses a write and hangs up looks like behind a proxy.
func cutExchange(t *testing.T) *client.Exchange {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		testkit.WriteCut(t, w, http.StatusUnauthorized, http.Header{"Content-Type": {"application/json"}},
			[]byte(`{"message":"Invalid authentication token."}`), 20)
	}))
	t.Cleanup(srv.Close)
	c, err := client.New(client.Config{BaseURL: srv.URL, Token: "test-token-0123456789abcdef", AuthToken: "auth-token-0123456789abcdef"})
	if err != nil {
		t.Fatal(err)
	}
	ex := c.Do(context.Background(), client.Request{Method: http.MethodPost, Path: "/api/pages", Credentials: client.APIToken,
		JSON: map[string]any{"title": "T"}})
	if !ex.BodyCut || ex.Status != http.StatusUnauthorized {
		t.Fatalf("the test server's answer is not a cut 401 (status %d, cut %v, err %v)", ex.Status, ex.BodyCut, ex.Err)
	}
	return ex
}

// TestCutBodyIsNoVerdict: of an answer whose body the connection cut, the
// status is judged (pass or fail) and the body is not checked, never failed.
func TestCutBodyIsNoVerdict(t *testing.T) {
	ex := cutExchange(t)
	bad := func(*client.Exchange) []string { return []string{"bad"} }
	for _, c := range []struct {
		name string
		m    types.GomegaMatcher
		want string // "pass", "not checked", or a part of the failure
	}{
		{"the status that arrived", HaveHTTPStatus(http.StatusUnauthorized), "pass"},
		{"another status", HaveHTTPStatus(http.StatusOK), "Got: HTTP 401"},
		{"a body field", HaveJSON("message"), "not checked"},
		{"a schema", MatchSchema("error-early.json"), "not checked"},
		{"a Holds on the body", Holds("the body is fine", bad), "not checked"},
		{"an envelope with the right status", BeEarlyError(http.StatusUnauthorized), "not checked"},
		{"an envelope with the wrong status", BeHandlerError(http.StatusNotFound), "Got: HTTP 401"},
	} {
		ok, notChecked := c.m.(checkMatcher).check.judge(ex)
		got := "pass"
		switch {
		case notChecked != "":
			got = "not checked"
			if !strings.Contains(notChecked, "connection closed before the whole answer") || !strings.Contains(notChecked, "HTTP 401") {
				t.Errorf("%s: the reason %q does not say the body was cut", c.name, notChecked)
			}
		case !ok:
			got = failure(ex, c.m, false)
		}
		if got != c.want && (c.want == "pass" || c.want == "not checked" || !strings.Contains(got, c.want)) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
