// Package preflight asks a target what must be known before any spec runs:
// whether it can be checked at all (reachable, answering JSON under /api/,
// accepting the API token and, when given, the authentication token), and
// how it takes the tokens and meets browsers. Each problem is one sentence
// for the user, on which the runner exits 3; the rest is informational.
package preflight

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/conformance-suite/conformance/internal/client"
)

// Problem is why the target cannot be checked.
type Problem struct {
	Sentence string           // what is wrong and what to do, in one sentence
	Exchange *client.Exchange // the evidence, may be nil
}

func (p *Problem) Error() string { return p.Sentence }

// Result is what the preflight found.
type Result struct {
	// Problem, when not nil, is why the target cannot be checked.
	Problem *Problem
	// Credentials says in one sentence whether the target takes the tokens
	// in headers (Authorization: Bearer, X-Auth-Token); "" when a problem
	// came first.
	Credentials string
	// CORS are the observations of a browser's CORS preflight (each
	// starting with CORSPrefix); nil when a problem came first.
	CORS []string
}

// Check runs the preflight requests. In a run that sends the tokens in
// headers (--credentials header) those requests carry them there, and a
// target that does not take them is a problem; otherwise one more request
// (two with an authentication token) finds out whether it would.
func Check(ctx context.Context, c *client.Client) Result {
	c.SetScope("preflight")
	inHeader := c.CredentialsPlacement() == client.CredentialsInHeader
	base := c.BaseURL()
	// Two rounds: the page list alone (a broken or unreachable target gets
	// that one request), then, once the target is known to be the API, the
	// rest side by side: the settings with the authentication token, a
	// browser's CORS preflight, and the same reads with the tokens in
	// headers.
	ex := c.Do(ctx, pagesRequest())
	if s := answerProblem(c, "GET /api/pages", ex); s != "" {
		return problem(s, ex)
	}
	switch {
	case ex.Status == http.StatusUnauthorized:
		return problem(fmt.Sprintf("The API token was refused (GET %s/api/pages answered 401 %q): check --token or CONFORMANCE_TOKEN against the API plugin's settings.", base, ex.Get("message").String()), ex)
	case ex.Status == http.StatusBadRequest && inHeader:
		return problem(fmt.Sprintf("The target does not take the API token from an Authorization: Bearer header (GET /api/pages answered 400 %q), so --credentials header cannot be used: run with --credentials params (the spec's placement), or check that the host's release reads header credentials and that its front passes the Authorization header on (Apache drops it before PHP unless CGIPassAuth is on).", ex.Get("message").String()), ex)
	case ex.Status == http.StatusBadRequest:
		return problem(fmt.Sprintf("The target answered 400 %q to a request carrying the API token: it does not read the token from the query string as the spec says.", ex.Get("message").String()), ex)
	case ex.Status >= 500:
		return problem(fmt.Sprintf("The target answered %d to GET /api/pages, the simplest request of the spec: the server is failing.", ex.Status), ex)
	case ex.Status != http.StatusOK:
		// A JSON 404 (or any other answer) to the page list means this is
		// not the API's root: checking on would judge, and write to, some
		// other service.
		return problem(fmt.Sprintf("GET %s/api/pages answered %d %q instead of the page list: --base-url must be the site root, where the API answers at /api/pages.", base, ex.Status, ex.Get("message").String()), ex)
	}
	second := []client.Request{corsRequest()}
	if !inHeader {
		second = append(second, bearerPagesRequest(c))
	}
	if c.HasAuth() {
		second = append(second, client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.BothTokens})
		if !inHeader {
			second = append(second, bothSettingsRequest(c))
		}
	}
	seconds := c.DoAll(ctx, second, len(second))
	cors := corsNotes(seconds[0])
	var bearer, both *client.Exchange
	if !inHeader {
		bearer = seconds[1]
		if c.HasAuth() {
			both = seconds[3]
		}
	}
	if c.HasAuth() {
		ax := seconds[len(second)-1]
		if !inHeader {
			ax = seconds[2]
		}
		if ax.Err != nil || ax.Redirect != "" || ax.Status == http.StatusTooManyRequests || ax.Status == http.StatusServiceUnavailable {
			return problem(answerProblem(c, "GET /api/settings", ax), ax)
		}
		switch {
		case ax.Status == http.StatusUnauthorized && inHeader:
			return problem("The authentication token was refused in the X-Auth-Token header (GET /api/settings answered 401): either the target does not take it from that header, and --credentials params (the spec's placement) is the way, or it is not the token of an enabled Administrator (profile > Security); check --auth-token or CONFORMANCE_AUTH_TOKEN.", ax)
		case ax.Status == http.StatusUnauthorized:
			return problem("The authentication token was refused (GET /api/settings answered 401): it must be the token of an enabled Administrator (profile > Security); check --auth-token or CONFORMANCE_AUTH_TOKEN, or drop it for a read-only run.", ax)
		}
	}
	if inHeader {
		return Result{Credentials: headersTaken(c, true), CORS: cors}
	}
	return Result{Credentials: headerCredentials(c, bearer, both), CORS: cors}
}

// pagesRequest is the simplest request of the spec: one page of the list.
func pagesRequest() client.Request {
	return client.Request{Method: http.MethodGet, Path: "/api/pages", Query: url.Values{"numberOfItems": {"1"}}}
}

func problem(sentence string, ex *client.Exchange) Result {
	return Result{Problem: &Problem{Sentence: sentence, Exchange: ex}}
}

// answerProblem says why an exchange is no answer of the API at all: no
// answer, a redirect not followed, rate limiting, not JSON. "" when it is
// a JSON answer (whatever its status).
func answerProblem(c *client.Client, what string, ex *client.Exchange) string {
	base := c.BaseURL()
	switch {
	case ex.Err != nil:
		return transportSentence(base, what, ex.Err)
	case ex.Redirect != "":
		return fmt.Sprintf("%s answered a redirect (%d to %s) that was not followed (%s): point --base-url at the final address.",
			what, ex.Status, ex.Header.Get("Location"), ex.Redirect)
	case ex.Status == http.StatusTooManyRequests || ex.Status == http.StatusServiceUnavailable:
		return fmt.Sprintf("%s answered %d %s%s: the target is rate-limiting or overloaded; try again later, or lower the pace with --rps.",
			what, ex.Status, http.StatusText(ex.Status), retriedClause(c, ex))
	case ex.Status >= 300 && ex.Status < 400:
		return fmt.Sprintf("%s answered a redirect (%d to %q) that could not be followed: point --base-url at the final address.",
			what, ex.Status, ex.Header.Get("Location"))
	case !ex.IsJSON():
		return notJSONSentence(c, what, ex)
	}
	return ""
}

func retriedClause(c *client.Client, ex *client.Exchange) string {
	ra := ex.Header.Get("Retry-After")
	n := len(ex.Retries)
	retries := fmt.Sprintf("%d retries", n)
	if n == 1 {
		retries = "1 retry"
	}
	switch {
	case n > 0 && ra != "":
		return fmt.Sprintf(" even after %s (Retry-After %q)", retries, ra)
	case n > 0:
		return " even after " + retries
	case c.RetryLimit() == 0:
		return " (not retried: --retries 0)"
	}
	return ""
}

func transportSentence(base, what string, err error) string {
	cause := client.Cause(err)
	switch client.FailureKind(err) {
	case client.KindRefused:
		return fmt.Sprintf("Cannot reach %s: the connection was refused (is the server running, and is the port right?).", base)
	case client.KindDNS:
		return fmt.Sprintf("Cannot reach %s: %s.", base, cause)
	case client.KindTLS:
		if strings.Contains(cause, "plain HTTP") {
			return fmt.Sprintf("Cannot reach %s: %s.", base, cause)
		}
		return fmt.Sprintf("Cannot reach %s over TLS: the certificate is not trusted (%s); pass --ca-cert FILE, or --insecure for a test site.", base, strings.TrimPrefix(cause, "the TLS handshake failed: "))
	case client.KindTimeout:
		return fmt.Sprintf("Cannot check %s: %s to %s; raise --request-timeout if the site is just slow.", base, cause, what)
	case client.KindRunDeadline:
		return fmt.Sprintf("Cannot check %s: the run's time limit (--timeout) was reached before the target answered %s.", base, what)
	case client.KindCancelled:
		return "The run was cancelled before the target answered."
	case client.KindClosed:
		return fmt.Sprintf("Cannot check %s: %s (%s): the target drops connections.", base, cause, what)
	case client.KindProtocol:
		return fmt.Sprintf("Cannot check %s: %s (%s): is --base-url an HTTP server?", base, cause, what)
	}
	return fmt.Sprintf("Cannot reach %s: %s.", base, cause)
}

func notJSONSentence(c *client.Client, what string, ex *client.Exchange) string {
	ct := ex.MediaType()
	body := ex.Body()
	start := strings.ToLower(string(body[:min(len(body), 1024)]))
	switch {
	case ex.Truncated:
		return fmt.Sprintf("%s answered a body larger than the read limit (%d bytes, --max-body): the API's answer to it is small, so this is not the API.", what, c.MaxBody())
	case strings.Contains(ct, "html") || strings.Contains(start, "<html") || strings.Contains(start, "<!doctype"):
		return fmt.Sprintf("%s answered %d with an HTML page instead of JSON: the API plugin is probably not activated (admin panel: Plugins > API > Activate), or --base-url is not the site root.", what, ex.Status)
	case ex.BodySize() == 0:
		return fmt.Sprintf("%s answered %d with an empty body instead of JSON: is this the API's site?", what, ex.Status)
	case !utf8.Valid(body):
		return fmt.Sprintf("%s answered %d with a body that is not valid UTF-8, so not JSON: the target is not serving the API.", what, ex.Status)
	case nestingDepth(body) > 1000:
		return fmt.Sprintf("%s answered %d with JSON nested more than 1000 levels deep (a nesting bomb), not an API answer.", what, ex.Status)
	case looksTruncated(body):
		return fmt.Sprintf("%s answered %d with JSON that stops in the middle (truncated): the target cut its answer short.", what, ex.Status)
	}
	return fmt.Sprintf("%s answered %d with a body that is not valid JSON (Content-Type %q): the target is not serving the API.", what, ex.Status, ex.Header.Get("Content-Type"))
}

// scanBrackets walks b as JSON text, ignoring brackets inside strings, and
// returns the deepest nesting, the nesting left open at the end, and whether
// a string is left open.
func scanBrackets(b []byte) (deepest, open int, inString bool) {
	escaped := false
	for _, ch := range b {
		switch {
		case inString && escaped:
			escaped = false
		case inString && ch == '\\':
			escaped = true
		case ch == '"':
			inString = !inString
		case inString:
		case ch == '[' || ch == '{':
			open++
			deepest = max(deepest, open)
		case ch == ']' || ch == '}':
			open--
		}
	}
	return deepest, open, inString
}

// nestingDepth is the deepest bracket nesting in b, ignoring strings.
func nestingDepth(b []byte) int {
	deepest, _, _ := scanBrackets(b)
	return deepest
}

// looksTruncated reports a body that starts like a JSON object or array
// but leaves brackets or a string open at its end.
func looksTruncated(b []byte) bool {
	t := strings.TrimSpace(string(b))
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return false
	}
	_, open, inString := scanBrackets([]byte(t))
	return open > 0 || inString
}
