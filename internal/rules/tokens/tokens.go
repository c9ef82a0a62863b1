// Package tokens judges the answer to a request by the tokens it carries
// (spec 5.1 to 5.6, 7): what status the answer must have, under which
// rule, and the message of a refusal for a missing API token. A request
// without the API token is refused with 400 (AUTH-MISSING-TOKEN-400), one
// with a wrong API token with 401 (AUTH-INVALID-TOKEN-401); a read needs
// the API token alone (AUTH-READ-TOKEN-ONLY); a write or GET
// /api/settings without a valid authentication token is refused with 401
// (AUTH-WRITE-NEEDS-AUTH, AUTH-WRITE-INVALID-AUTH,
// AUTH-SETTINGS-READ-NEEDS-AUTH), and with both tokens valid it goes
// through (AUTH-PARAM-NAME; a write to a page no one has: PAGE-EDIT-404,
// PAGE-DELETE-404). The auth suite's probes and conformance explore's
// oracle of token placement judge with these functions.
package tokens

import (
	"net/http"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
)

// Token is what a request carries of one token.
type Token int

// The states of a token the rules tell apart.
const (
	Valid   Token = iota // where the spec puts it
	Missing              // not at all
	Wrong                // a well-formed wrong value
	// Empty: the parameter with an empty value, which 5.6 may read as a
	// missing token (400) or a wrong one (401).
	Empty
)

// Request is what the answer to a request rests on: its tokens, and what
// the endpoint needs.
type Request struct {
	API, Auth Token
	// NeedsAuth: the endpoint needs the authentication token (every write,
	// GET /api/settings: 5.2).
	NeedsAuth bool
	// Settings: the request is a read of GET /api/settings.
	Settings bool
	// Delete: the request is a DELETE.
	Delete bool
	// MissingPage: the request names a page no one has (a check of the
	// key may come before the token's: 4.4, 4.5, 7).
	MissingPage bool
}

// Answer is what the answer to a request must be: the rule judging it,
// the codes allowed, and whether a refusal's body must be a handler
// error (the 404 of a page no one has).
type Answer struct {
	Rule         string
	Codes        []int
	HandlerError bool
}

// Expect is what the answer to r must be. A missing API token is 400 (or
// 5.5's 401 when the request also lacks an authentication token its
// endpoint needs); an empty one 400 or 401; a wrong one 401. With the API token valid: a read
// answers 200 (a page no one has: 404, PAGE-GET-404); with a valid
// authentication token where one is needed, a settings read answers 200
// and a write to a page no one has 404; without one, 401 (404 allowed
// first for a page no one has).
func Expect(r Request) Answer {
	switch {
	case r.API == Missing:
		a := Answer{Rule: "AUTH-MISSING-TOKEN-400", Codes: []int{http.StatusBadRequest}}
		if r.NeedsAuth && r.Auth != Valid {
			a.Codes = append(a.Codes, http.StatusUnauthorized) // 5.5 describes it too
		}
		return a
	case r.API == Empty:
		return Answer{Rule: "AUTH-MISSING-TOKEN-400", Codes: []int{http.StatusBadRequest, http.StatusUnauthorized}}
	case r.API == Wrong:
		return Answer{Rule: "AUTH-INVALID-TOKEN-401", Codes: []int{http.StatusUnauthorized}}
	case !r.NeedsAuth && r.MissingPage:
		return Answer{Rule: "PAGE-GET-404", Codes: []int{http.StatusNotFound}, HandlerError: true}
	case !r.NeedsAuth:
		return Answer{Rule: "AUTH-READ-TOKEN-ONLY", Codes: []int{http.StatusOK}}
	case r.Auth == Valid && r.Settings:
		return Answer{Rule: "AUTH-PARAM-NAME", Codes: []int{http.StatusOK}}
	case r.Auth == Valid && r.MissingPage:
		rule := "PAGE-EDIT-404"
		if r.Delete {
			rule = "PAGE-DELETE-404"
		}
		return Answer{Rule: rule, Codes: []int{http.StatusNotFound}, HandlerError: true}
	case r.Auth == Valid:
		return Answer{} // a write that goes through: the endpoint's rules judge it
	case r.Settings:
		return Answer{Rule: "AUTH-SETTINGS-READ-NEEDS-AUTH", Codes: []int{http.StatusUnauthorized}}
	}
	a := Answer{Rule: "AUTH-WRITE-NEEDS-AUTH", Codes: []int{http.StatusUnauthorized}}
	if r.Auth == Wrong {
		a.Rule = "AUTH-WRITE-INVALID-AUTH"
	}
	if r.MissingPage {
		a.Codes = append(a.Codes, http.StatusNotFound) // 4.4, 4.5: no page has the key
	}
	return a
}

// MissingTokenMessage judges the message of the 400 refusing a request
// without the API token (AUTH-MISSING-TOKEN-400): a non-empty string; its
// words are not in the spec.
func MissingTokenMessage(ex *client.Exchange) rules.Judgement {
	m := ex.Get("message")
	switch {
	case !m.Exists():
		return rules.Violation("message is missing")
	case m.Type != gjson.String:
		return rules.Violation("message is %s, want a string", m.Raw)
	case m.Str == "":
		return rules.Violation("message is empty")
	}
	return rules.Conforms()
}
