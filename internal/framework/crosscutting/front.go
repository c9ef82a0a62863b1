package crosscutting

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
)

// Real sites run behind nginx or Apache, which answer some requests
// themselves before the API sees them: a NUL byte or an encoded slash in
// the path, an invalid escape, an over-long request line, an upload over
// nginx's body limit, a key ending in .png under nginx's static-file
// location (shared/observations/web-server-fronts.md). Such an answer is not
// the API's: it is reported as an observation, and the rule its request
// probed is not checked for that request, never failed; the rules every
// API response must keep (JSON, CORS, no-cache) do not judge it.

// FrontPhrase is how reports name a response the web server in front of
// the API gave itself.
const FrontPhrase = "answered by the web server in front of the API"

// FrontAnswer is what AnsweredByFront found about one response.
type FrontAnswer struct {
	// Server is "nginx" or "Apache" when the web server in front of the
	// API answered the request itself; "" when the answer is the API's or
	// cannot be told apart from it.
	Server string
	// Evidence says what gave it away, e.g. "nginx's own HTML 400 page".
	Evidence string
}

// ByFront reports whether the front answered the request itself.
func (a FrontAnswer) ByFront() bool { return a.Server != "" }

// Observation renders the finding for a report: which request, that the
// front answered it and how that shows, and that the rules the request
// probed are not checked for it. The request is shown without its query
// string (where tokens go) as the exchange recorded it.
func (a FrontAnswer) Observation(ex *client.Exchange, rules ...string) string {
	path := ex.URL
	if u, err := url.Parse(ex.URL); err == nil {
		path = u.EscapedPath()
	}
	s := fmt.Sprintf("%s %s -> %d was %s (%s), not by the API", ex.Method, path, ex.Status, FrontPhrase, a.Evidence)
	if len(rules) > 0 {
		s += "; not checked for this request: " + strings.Join(rules, ", ")
	}
	return s
}

// frontStatuses are the statuses nginx and Apache were seen answering
// themselves in front of the API (see the observations).
var frontStatuses = map[int]bool{400: true, 404: true, 405: true, 413: true, 414: true}

// apiStatuses are the statuses the spec gives the API (section 7). Without
// the front's own page markup, only a status outside them can be the
// front's: a 400 or 404 in HTML might be the API's own (wrong) answer.
var apiStatuses = map[int]bool{200: true, 201: true, 400: true, 401: true, 404: true, 500: true}

var (
	// nginx's built-in error page: <title>, <h1>, then <hr><center>nginx
	// or nginx/1.22.1 (server_tokens on), also <center>nginx</center>.
	nginxPage = regexp.MustCompile(`(?s)^\s*<html>\s*<head><title>(\d{3}) [^<]*</title></head>.*<hr><center>nginx[^<]*</center>`)
	// Apache's built-in error page: the HTML 2.0 (up to 2.4.5x) or HTML
	// 4.01 doctype, <title>, <h1>; the <address> line only with
	// ServerSignature On.
	apachePage = regexp.MustCompile(`(?s)^\s*<!DOCTYPE HTML PUBLIC "-//(?:IETF//DTD HTML 2\.0|W3C//DTD HTML 4\.01)//EN"[^>]*>\s*<html><head>\s*<title>(\d{3}) [^<]*</title>\s*</head><body>\s*<h1>`)
)

// AnsweredByFront tells whether a recorded response is the front web
// server's own answer rather than the API's. apiAnswersJSON says that the
// API answered JSON to well-formed requests in this run (to the same
// endpoint, where the caller knows it): without that, an HTML answer is
// the site's own, and the rules judge it as usual.
//
// The front's answer is one that carries none of the API's headers (no
// Access-Control-Allow-Origin), is not JSON, has one of the statuses the
// fronts answer themselves (400, 404, 405, 413, 414), and either is nginx's
// or Apache's built-in error page, or has a status the spec never gives the
// API (405, 413, 414) from a server whose Server header names nginx or
// Apache. An API that answers HTML with its own page (a theme's "Page not
// found") is not taken for the front.
func AnsweredByFront(ex *client.Exchange, apiAnswersJSON bool) FrontAnswer {
	if ex == nil || ex.Err != nil || ex.Status == 0 || !apiAnswersJSON || !frontStatuses[ex.Status] {
		return FrontAnswer{}
	}
	if ex.Header.Get("Access-Control-Allow-Origin") != "" || ex.IsJSON() {
		return FrontAnswer{}
	}
	body := ex.Body()
	if m := nginxPage.FindSubmatch(body); m != nil && string(m[1]) == strconv.Itoa(ex.Status) {
		return FrontAnswer{Server: "nginx", Evidence: fmt.Sprintf("nginx's own HTML %d page", ex.Status)}
	}
	if m := apachePage.FindSubmatch(body); m != nil && string(m[1]) == strconv.Itoa(ex.Status) {
		return FrontAnswer{Server: "Apache", Evidence: fmt.Sprintf("Apache's own HTML %d page", ex.Status)}
	}
	if apiStatuses[ex.Status] {
		return FrontAnswer{}
	}
	server := ex.Header.Get("Server")
	for _, name := range []string{"nginx", "Apache"} {
		if strings.HasPrefix(strings.ToLower(server), strings.ToLower(name)) {
			return FrontAnswer{Server: name, Evidence: fmt.Sprintf("HTTP %d, which the API does not give, without JSON or CORS, from Server: %s", ex.Status, server)}
		}
	}
	return FrontAnswer{}
}
