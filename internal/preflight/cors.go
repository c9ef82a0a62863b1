package preflight

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
)

// This file observes what a browser client of the API would meet: its
// CORS preflight (answered or not, the methods and headers allowed) and
// how the answer treats an origin other than the suite's. Observations
// only: the spec says nothing of preflights, and GEN-CORS-ANY-ORIGIN (5.9)
// judges the answers to the suite's own requests. One OPTIONS request
// does it all, and the every-response rules judge no OPTIONS answer
// (crosscutting.Watcher), so nothing here can fail a target.

// CORSPrefix starts every CORS observation.
const CORSPrefix = "CORS: "

// browserOrigin is the page a browser client is pretended to run on;
// unlike client.Origin, which every other request sends, no spec has
// used it, so a target that allows a list of origins shows it here.
const browserOrigin = "https://browser-client.example"

// What the pretended browser asks its preflight for: a JSON write with
// the tokens in headers, the most a client of the API needs. Browsers send
// the header names in lower case, sorted.
const (
	preflightMethod  = http.MethodPut
	preflightHeaders = "authorization,content-type,x-auth-token"
)

// specMethods are the methods the spec's endpoints use (section 4).
var specMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete}

// CORS sends a browser's CORS preflight (OPTIONS from another origin than
// the suite's, no credentials) and returns what the preflight's answer shows as
// observations, each starting with CORSPrefix. Nothing it finds is a
// failure.
func CORS(ctx context.Context, c *client.Client) []string {
	c.SetScope("preflight: CORS observations")
	return corsNotes(c.Do(ctx, corsRequest()))
}

// corsRequest is a browser's preflight, without credentials: harmless in
// read-only runs too.
func corsRequest() client.Request {
	return client.Request{Method: http.MethodOptions, Path: "/api/pages", Credentials: client.NoTokens, Probe: true,
		Header: http.Header{"Origin": {browserOrigin}, "Access-Control-Request-Method": {preflightMethod},
			"Access-Control-Request-Headers": {preflightHeaders}}}
}

// corsNotes are the observations of the preflight px.
func corsNotes(px *client.Exchange) []string {
	notes := preflightNotes(px)
	if px.Err == nil {
		notes = append(notes, originNote(px))
	}
	for i, n := range notes {
		notes[i] = CORSPrefix + n
	}
	return notes
}

// asked describes the preflight that was sent.
var asked = fmt.Sprintf("a browser's preflight (OPTIONS /api/pages from %s, asking for %s with %s)",
	browserOrigin, preflightMethod, preflightHeaders)

// preflightNotes says whether the preflight succeeds and, when it does,
// which methods and headers it allows.
func preflightNotes(ex *client.Exchange) []string {
	allowOrigin := ex.Header.Get("Access-Control-Allow-Origin")
	switch {
	case ex.Err != nil:
		return []string{fmt.Sprintf("%s got no answer (%s).", asked, client.Cause(ex.Err))}
	case ex.Status < 200 || ex.Status > 299:
		return []string{fmt.Sprintf("%s was %s, not a success: a browser cannot send anything that needs a preflight "+
			"(a JSON write, a DELETE, tokens in headers); reads and form posts with the tokens in parameters need none.",
			asked, outcome(ex))}
	case allowOrigin == "":
		return []string{fmt.Sprintf("%s was %s without Access-Control-Allow-Origin: a browser cannot send anything "+
			"that needs a preflight.", asked, outcome(ex))}
	case allowOrigin != "*" && allowOrigin != browserOrigin:
		return []string{fmt.Sprintf("%s was %s but allows another origin (Access-Control-Allow-Origin %q): "+
			"a browser on that page cannot send anything that needs a preflight.", asked, outcome(ex), allowOrigin)}
	}
	notes := []string{fmt.Sprintf("%s was %s and allows that origin (Access-Control-Allow-Origin %q).", asked, outcome(ex), allowOrigin)}
	methods := listed(ex.Header.Values("Access-Control-Allow-Methods"))
	var missing []string
	for _, m := range specMethods {
		// GET and POST are safelisted: a browser needs no permission.
		if m != http.MethodGet && m != http.MethodPost && !slices.Contains(methods, m) && !slices.Contains(methods, "*") {
			missing = append(missing, m)
		}
	}
	notes = append(notes, permission("methods", ex.Header.Values("Access-Control-Allow-Methods"), missing))
	headers := listed(ex.Header.Values("Access-Control-Allow-Headers"))
	missing = nil
	for _, h := range strings.Split(preflightHeaders, ",") {
		// "*" allows any request header but Authorization (Fetch standard).
		if !slices.Contains(headers, strings.ToUpper(h)) && (h == "authorization" || !slices.Contains(headers, "*")) {
			missing = append(missing, http.CanonicalHeaderKey(h))
		}
	}
	return append(notes, permission("request headers", ex.Header.Values("Access-Control-Allow-Headers"), missing))
}

// permission says what a preflight answer allows of one kind (methods,
// request headers) and what a client of the API needs but is not allowed.
func permission(kind string, values, missing []string) string {
	allowed := strings.Join(values, ", ")
	if allowed == "" {
		allowed = "none"
	}
	if len(missing) == 0 {
		return fmt.Sprintf("the preflight allows the %s %q: everything a client of the API sends.", kind, allowed)
	}
	return fmt.Sprintf("the preflight allows the %s %q: a browser cannot send %s.", kind, allowed, strings.Join(missing, ", "))
}

// listed splits comma-separated header values, upper-cased and trimmed.
func listed(values []string) []string {
	var out []string
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if p := strings.ToUpper(strings.TrimSpace(part)); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// originNote says how the answer to a request from browserOrigin treats
// that origin.
func originNote(ex *client.Exchange) string {
	got := ex.Header.Get("Access-Control-Allow-Origin")
	vary := slices.ContainsFunc(listed(ex.Header.Values("Vary")), func(v string) bool { return v == "ORIGIN" || v == "*" })
	switch {
	case got == "*":
		return "the preflight's answer allows any origin (Access-Control-Allow-Origin \"*\")."
	case got == browserOrigin && vary:
		return "the preflight's answer echoes that origin in Access-Control-Allow-Origin, with Vary: Origin."
	case got == browserOrigin:
		return "the preflight's answer echoes that origin in Access-Control-Allow-Origin without Vary: Origin: a shared cache may " +
			"give one origin's answer to another."
	case got == "":
		return fmt.Sprintf("the preflight's answer carries no Access-Control-Allow-Origin for that origin: the target allows only some "+
			"origins (the suite's own, %s, is judged by GEN-CORS-ANY-ORIGIN).", client.Origin)
	}
	return fmt.Sprintf("the preflight's answer allows only the origin %q.", got)
}
