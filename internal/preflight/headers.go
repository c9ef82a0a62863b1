package preflight

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
)

// This file finds out whether a target takes the tokens in headers
// (Authorization: Bearer <API token>, X-Auth-Token: <authentication
// token>), as newer releases of the host do, and says so in one sentence.

// headersTaken is the sentence on a target that took the tokens in
// headers, in a run that sends them there (inHeader) or not.
func headersTaken(c *client.Client, inHeader bool) string {
	switch {
	case c.HasAuth() && inHeader:
		return "The target takes the tokens in headers (Authorization: Bearer and X-Auth-Token), where this run sends them (--credentials header)."
	case c.HasAuth():
		return "The target takes the tokens in headers (Authorization: Bearer and X-Auth-Token), so --credentials header would keep them out of URLs and access logs."
	case inHeader:
		return "The target takes the API token in an Authorization: Bearer header, where this run sends it (--credentials header; X-Auth-Token not tried: no --auth-token)."
	}
	return "The target takes the API token in an Authorization: Bearer header, so --credentials header would keep it out of URLs and access logs (X-Auth-Token not tried: no --auth-token)."
}

// headerCredentials asks a run that sends the tokens as parameters whether
// the target would take them in headers: the page list with the API token
// in Authorization alone and, with an authentication token, the settings
// with both tokens in headers. No parameter carries a token in either.
// bearerPagesRequest asks for the page list with the API token in an
// Authorization: Bearer header alone.
func bearerPagesRequest(c *client.Client) client.Request {
	return client.Request{Method: http.MethodGet, Path: "/api/pages", Query: url.Values{"numberOfItems": {"1"}},
		Credentials: client.NoTokens, Header: http.Header{client.AuthorizationHeader: {"Bearer " + c.Token()}}}
}

// bothSettingsRequest asks for the settings with both tokens in headers
// alone (Authorization: Bearer, X-Auth-Token).
func bothSettingsRequest(c *client.Client) client.Request {
	h := http.Header{client.AuthorizationHeader: {"Bearer " + c.Token()}}
	h.Set(client.AuthTokenHeader, c.AuthToken())
	return client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.NoTokens, Header: h}
}

// headerCredentials says whether the target takes the tokens in headers,
// from the page list read with the API token in a header (px) and, with an
// authentication token, the settings read with both in headers (sx).
func headerCredentials(c *client.Client, px, sx *client.Exchange) string {
	switch {
	case !answered(px):
		return fmt.Sprintf("Whether the target takes the tokens in headers was not found out: GET /api/pages with an Authorization header %s.", outcome(px))
	case px.Status != http.StatusOK:
		return fmt.Sprintf("The target does not take the API token from an Authorization: Bearer header (GET /api/pages with it alone %s), so the tokens go in the spec's parameters and --credentials header cannot be used.", outcome(px))
	}
	if c.HasAuth() {
		switch {
		case !answered(sx):
			return fmt.Sprintf("The target takes the API token in an Authorization: Bearer header; whether it takes the authentication token in X-Auth-Token was not found out: GET /api/settings %s.", outcome(sx))
		case sx.Status != http.StatusOK:
			return fmt.Sprintf("The target takes the API token in an Authorization: Bearer header but not the authentication token in X-Auth-Token (GET /api/settings with both headers %s), so --credentials header cannot be used.", outcome(sx))
		}
	}
	return headersTaken(c, false)
}

func answered(ex *client.Exchange) bool {
	return ex.Err == nil && ex.Redirect == "" && ex.IsJSON() &&
		ex.Status != http.StatusTooManyRequests && ex.Status != http.StatusServiceUnavailable
}

// outcome says briefly what an exchange got, as a verb phrase:
// `answered 400 "Missing API token."`, `got no answer (...)`.
func outcome(ex *client.Exchange) string {
	switch {
	case ex.Err != nil:
		return "got no answer (" + client.Cause(ex.Err) + ")"
	case ex.Redirect != "":
		return fmt.Sprintf("answered a redirect (%d) that was not followed", ex.Status)
	case ex.BodySize() == 0:
		return fmt.Sprintf("answered %d %s", ex.Status, http.StatusText(ex.Status))
	case !ex.IsJSON():
		return fmt.Sprintf("answered %d, not JSON", ex.Status)
	case ex.Get("message").Type == gjson.String:
		return fmt.Sprintf("answered %d %q", ex.Status, ex.Get("message").String())
	}
	return fmt.Sprintf("answered %d %s", ex.Status, http.StatusText(ex.Status))
}
