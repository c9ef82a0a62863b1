package reference

import (
	"net/http"
	"slices"
	"strings"
)

// What a newer release of the host does (BenignNewerRelease), and the
// allowed-origins option: tokens in headers, CORS preflight, a CORS answer
// that names one origin.

// preflightAllow are the methods and request headers a CORS preflight of
// BenignNewerRelease allows.
const (
	preflightMethods = "GET, POST, PUT, DELETE, OPTIONS"
	preflightHeaders = "Authorization, X-Auth-Token, Content-Type"
)

// headerCredentials takes the tokens of BenignNewerRelease's headers:
// Authorization: Bearer <API token> and X-Auth-Token: <auth token>. A
// header, when present, wins over the parameter.
func (s *Server) headerCredentials(r *http.Request, in *input) {
	if !s.mutated(BenignNewerRelease) {
		return
	}
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if ok && strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(token) != "" {
		in.vals["token"] = strings.TrimSpace(token)
	}
	if auth := strings.TrimSpace(r.Header.Get("X-Auth-Token")); auth != "" {
		in.vals["authentication"] = auth
	}
}

// allowOrigin is the Access-Control-Allow-Origin of an answer to r, ""
// for none, and whether the answer depends on the request's Origin (Vary).
func (s *Server) allowOrigin(r *http.Request) (string, bool) {
	origin := r.Header.Get("Origin")
	switch {
	case len(s.opts.AllowedOrigins) > 0:
		// Only the origins allowed: a server configured so breaks "any
		// origin" (spec 5.9) for every other origin.
		if slices.Contains(s.opts.AllowedOrigins, origin) {
			return origin, true
		}
		return "", true
	case s.mutated(BenignCORSEchoOrigin):
		// Allowing the origin the request names allows any origin too; a
		// request without Origin gets no CORS header at all.
		return origin, true
	}
	return "*", false
}
