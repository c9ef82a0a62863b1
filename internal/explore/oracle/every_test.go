package oracle

import (
	"net/http"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
)

// nginx414 is nginx's own answer to a very long URL: the front's, not the
// API's, so no rule of the API judges it.
const nginx414 = "<html>\r\n<head><title>414 Request-URI Too Large</title></head>\r\n<body>\r\n<center><h1>414 Request-URI Too Large</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n"

// TestEvery: what every answer keeps (JSON, the headers of 5.9, the
// envelope, no 5xx, no token) fires on an answer that breaks it, and on
// nothing else; what the spec allows (any success or error code it
// lists, an early error without status, a Content-Type with a charset,
// an Origin echoed, Pragma instead of Cache-Control, a 500 to a DELETE)
// passes.
func TestEvery(t *testing.T) {
	origin := func(r *client.Request) { r.Header = http.Header{"Origin": {"http://app.example"}} }
	for _, c := range []struct {
		name      string
		method    string
		path      string
		r         reply
		opts      []func(*client.Request)
		crashRule string
		want      []string
		judgeable bool // false: the front's answer, judged by no rule
	}{
		{name: "a 200", r: ok(`[]`), judgeable: true},
		{name: "a 201", method: http.MethodPost, r: reply{status: 201, body: `{"status":"0","message":"created","data":{}}`}, judgeable: true},
		{name: "a 404 handler error", r: handlerError(404), judgeable: true},
		{name: "a 400 early error without status", r: earlyError(400), judgeable: true},
		{name: "a 401 early error", r: earlyError(401), judgeable: true},
		{name: "a delete's 200 without data", method: http.MethodDelete, r: reply{status: 200, body: `{"status":"0","message":"deleted"}`}, judgeable: true},
		{name: "a delete's 500 (4.5 lists it)", method: http.MethodDelete, r: handlerError(500), judgeable: true},
		{name: "a charset", r: reply{status: 200, body: `{"status":"0","message":"ok"}`, header: map[string]string{"Content-Type": "application/json; charset=utf-8"}}, judgeable: true},
		{name: "the request's Origin echoed", r: reply{status: 200, body: `{"status":"0","message":"ok"}`, header: map[string]string{"Access-Control-Allow-Origin": "http://app.example"}},
			opts: []func(*client.Request){origin}, judgeable: true},
		{name: "Pragma no-cache alone", r: reply{status: 200, body: `{"status":"0","message":"ok"}`, header: map[string]string{"Cache-Control": "", "Pragma": "no-cache"}}, judgeable: true},
		{name: "an upload's 201 without message", method: http.MethodPost, path: "/api/images", r: reply{status: 201, body: `{"status":"0","data":{"file":"a.png"}}`}, judgeable: true},
		{name: "a token shorter than searched for", r: ok(`"abc"`), judgeable: true},

		{name: "a 500", r: handlerError(500), want: []string{RuleNoCrash}, judgeable: true},
		{name: "a 503", r: handlerError(503), want: []string{RuleNoCrash}, judgeable: true},
		{name: "a 500, under the case's own rule", r: handlerError(500), crashRule: "PAGE-LIST-BAD-PAGING-NO-CRASH", want: []string{"PAGE-LIST-BAD-PAGING-NO-CRASH"}, judgeable: true},
		{name: "HTML", r: reply{status: 200, body: `<p>hi</p>`, header: map[string]string{"Content-Type": "text/html"}},
			want: []string{"GEN-CONTENT-TYPE-JSON", "GEN-BODY-JSON"}, judgeable: true},
		{name: "an HTML 500", r: reply{status: 500, body: `<b>Fatal error</b>`, header: map[string]string{"Content-Type": "text/html; charset=UTF-8"}},
			want: []string{RuleNoCrash, "GEN-CONTENT-TYPE-JSON", "GEN-BODY-JSON"}, judgeable: true},
		{name: "not JSON under a JSON Content-Type", r: reply{status: 200, body: `{"status":"0",`}, want: []string{"GEN-BODY-JSON"}, judgeable: true},
		{name: "an empty body", r: reply{status: 200}, want: []string{"GEN-BODY-JSON"}, judgeable: true},
		{name: "no Content-Type", r: reply{status: 200, body: `{"status":"0","message":"ok"}`, header: map[string]string{"Content-Type": ""}},
			want: []string{"GEN-CONTENT-TYPE-JSON"}, judgeable: true},
		{name: "no CORS header", r: reply{status: 200, body: `{"status":"0","message":"ok"}`, header: map[string]string{"Access-Control-Allow-Origin": ""}},
			want: []string{"GEN-CORS-ANY-ORIGIN"}, judgeable: true},
		{name: "another origin than the request's", r: reply{status: 200, body: `{"status":"0","message":"ok"}`, header: map[string]string{"Access-Control-Allow-Origin": "http://other.example"}},
			opts: []func(*client.Request){origin}, want: []string{"GEN-CORS-ANY-ORIGIN"}, judgeable: true},
		{name: "a cacheable answer", r: reply{status: 200, body: `{"status":"0","message":"ok"}`, header: map[string]string{"Cache-Control": "max-age=600"}},
			want: []string{"GEN-NO-CACHE"}, judgeable: true},
		{name: "the API token in the body", r: reply{status: 404, body: `{"status":"1","message":"no tag for token ` + apiToken + `"}`},
			want: []string{"AUTH-NO-TOKEN-IN-ANSWER"}, judgeable: true},
		{name: "the authentication token in a header", r: reply{status: 200, body: `{"status":"0","message":"ok"}`, header: map[string]string{"X-Debug": "auth=" + authToken}},
			want: []string{"AUTH-NO-TOKEN-IN-ANSWER"}, judgeable: true},
		{name: "status 1 with a 200", r: reply{status: 200, body: `{"status":"1","message":"Page not found."}`}, want: []string{"ENV-STATUS-AGREES"}, judgeable: true},
		{name: "status 0 with a 404", r: reply{status: 404, body: `{"status":"0","message":"no"}`}, want: []string{"ENV-STATUS-AGREES"}, judgeable: true},
		{name: "status a number", r: reply{status: 200, body: `{"status":0,"message":"ok"}`}, want: []string{"ENV-STATUS-AGREES"}, judgeable: true},
		{name: "status a number with a 302 (the protocol suite's reading)", r: reply{status: 302, body: `{"status":0,"message":"moved"}`}, want: []string{"ENV-STATUS-AGREES"}, judgeable: true},
		{name: "no message", r: reply{status: 200, body: `{"status":"0","data":[]}`}, want: []string{"ENV-MESSAGE-STRING"}, judgeable: true},
		{name: "a message that is not a string", r: reply{status: 400, body: `{"status":"1","message":["no"]}`}, want: []string{"ENV-MESSAGE-STRING"}, judgeable: true},

		{name: "nginx's own 414 page", r: reply{status: 414, body: nginx414, header: map[string]string{"Content-Type": "text/html", "Access-Control-Allow-Origin": "", "Cache-Control": ""}}},
	} {
		opts := c.opts
		if c.path != "" {
			opts = append(opts, at(c.path))
		}
		ex := send(t, c.method, c.r, opts...)
		j := NewJudge()
		if got := j.Every(ex, c.crashRule, apiToken, authToken); got != c.judgeable {
			t.Errorf("%s: Every says judgeable %t, want %t", c.name, got, c.judgeable)
		}
		wantRules(t, c.name, j, c.want...)
		if c.judgeable && j.Checked["AUTH-NO-TOKEN-IN-ANSWER"] != 2 {
			t.Errorf("%s: the tokens were looked for %d times, want 2 (each token)", c.name, j.Checked["AUTH-NO-TOKEN-IN-ANSWER"])
		}
		if !c.judgeable && len(j.Checked) > 0 {
			t.Errorf("%s: the front's answer was judged: %v", c.name, j.Checked)
		}
	}
}

// TestCrashRule: a 5xx to odd paging values breaks the paging rule of
// 9.3; any other is GEN-NO-CRASH.
func TestCrashRule(t *testing.T) {
	for _, c := range []struct {
		q    [][2]string
		want string
	}{
		{nil, RuleNoCrash},
		{[][2]string{{"numberOfItems", "5"}, {"pageNumber", "-3"}}, RuleNoCrash},
		{[][2]string{{"numberOfItems", "abc"}}, "PAGE-LIST-BAD-PAGING-NO-CRASH"},
		{[][2]string{{"pageNumber", ""}}, "PAGE-LIST-BAD-PAGING-NO-CRASH"},
		{[][2]string{{"pageNumber", "99999999999999999999"}}, "PAGE-LIST-BAD-PAGING-NO-CRASH"},
	} {
		if got := CrashRule(listCase(c.q...)); got != c.want {
			t.Errorf("CrashRule(%v) = %s, want %s", c.q, got, c.want)
		}
	}
}
