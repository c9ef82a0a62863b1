package oracle

import (
	"net/http"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
)

// CrashRule names the rule a 5xx answer to the case breaks: the paging
// rule of 9.3 for a page list with odd paging values, GEN-NO-CRASH
// otherwise.
func CrashRule(c gen.Case) string {
	if c.Kind == gen.KindList && parseList(c).Odd {
		return "PAGE-LIST-BAD-PAGING-NO-CRASH"
	}
	return RuleNoCrash
}

// singleRules are, per endpoint, the rules of a read of a key that
// exists and of one that does not.
var singleRules = map[string][2]string{
	"pages":      {"PAGE-GET-OK", "PAGE-GET-404"},
	"tags":       {"TAG-GET-SHAPE", "TAG-GET-404"},
	"categories": {"CAT-GET-SHAPE", "CAT-GET-404"},
	"users":      {"USER-GET-SHAPE", "USER-GET-404"},
	"files":      {"FILES-LIST-SHAPE", "FILES-LIST-SHAPE"},
}

// Single judges a read of one resource by key (4.2, 4.6 to 4.8, 4.11).
// A key that exists reads 200 with that resource; one that does not, 404
// with a handler error (a files list of a page that does not exist may
// be 200 with an empty list, or 404). A key with ".." or a NUL byte is 400
// for the files list (4.11); elsewhere it names no resource, and section
// 7's "invalid page key" allows 400 besides 404, as for a very long key.
// (Its ".." is never a whole path segment, which a web server in front
// may remove from the path before the API sees it: gen.Read.)
func (j *Judge) Single(endpoint, class, key string, ex *client.Exchange) {
	rules, ok := singleRules[endpoint]
	if !ok {
		return
	}
	switch {
	case endpoint == "files" && (class == "traversal" || class == "encoded"):
		j.Status("FILES-TRAVERSAL-400", ex, http.StatusBadRequest)
	case class == "existing":
		rule := rules[0]
		if endpoint == "pages" && strings.Contains(key, "/") {
			rule = "PAGE-GET-HIERARCHICAL"
		}
		if !j.Status(rule, ex, http.StatusOK) {
			return
		}
		j.existing(endpoint, rule, key, ex)
	case endpoint == "files":
		if j.Status(rules[1], ex, http.StatusOK, http.StatusNotFound) && ex.Status == http.StatusOK {
			j.Check(rules[1], ex.Get("data").IsArray(), ex, "data", "data, an array of file records", describe(ex.Get("data")))
		}
	case class == "traversal" || class == "encoded" || class == "long":
		if j.Status(rules[1], ex, http.StatusNotFound, http.StatusBadRequest) {
			j.Observe("GET /api/%s/{key} of a %s key answered %d", endpoint, class, ex.Status)
		}
	default:
		if j.Status(rules[1], ex, http.StatusNotFound) {
			j.HandlerError(rules[1], ex)
		}
	}
}

// existing judges the 200 of a key that exists: the resource named.
func (j *Judge) existing(endpoint, rule, key string, ex *client.Exchange) {
	data := ex.Get("data")
	switch endpoint {
	case "pages":
		if j.PageObject(ex, data) {
			j.Check(rule, data.Get("key").String() == key, ex, "data.key", "the page "+quote(key), "data.key "+describe(data.Get("key")))
		}
	case "tags", "categories":
		j.Check(rule, data.Get("key").String() == key, ex, "data.key", "the "+endpoint[:len(endpoint)-1]+" "+quote(key), "data.key "+describe(data.Get("key")))
	case "users":
		j.Check(rule, data.Get("username").String() == key, ex, "data.username", "the profile of "+quote(key), "data.username "+describe(data.Get("username")))
	case "files":
		j.Check(rule, data.IsArray(), ex, "data", "data, an array of file records", describe(data))
	}
}

// Tokens judges an answer to a request whose tokens the case placed
// (5.1 to 5.6): a missing API token is 400, a wrong one 401, an endpoint
// that needs the authentication token refuses a request without a valid
// one with 401 (a page that does not exist may be 404 first: which check
// comes first is not said); with the tokens it needs valid the request
// goes through (a read of a page no one has: 404). Tokens where the spec
// does not put them: the answer is only recorded.
func (j *Judge) Tokens(c gen.Case, ex *client.Exchange) {
	needsAuth := c.NeedsAuth()
	authValid := c.AuthToken == gen.TokenValid
	missingPage := c.KeyClass == "missing"
	switch c.APIToken {
	case gen.TokenMissing:
		want := []int{http.StatusBadRequest}
		if needsAuth && !authValid {
			want = append(want, http.StatusUnauthorized) // 5.5 describes it too
		}
		if j.Status("AUTH-MISSING-TOKEN-400", ex, want...) && ex.Status == http.StatusBadRequest {
			j.EarlyError(ex)
		}
		return
	case gen.TokenEmpty:
		if j.Status("AUTH-MISSING-TOKEN-400", ex, http.StatusBadRequest, http.StatusUnauthorized) {
			j.Observe("an empty token parameter was answered %d", ex.Status)
		}
		return
	case gen.TokenWrong:
		if j.Status("AUTH-INVALID-TOKEN-401", ex, http.StatusUnauthorized) {
			j.EarlyError(ex)
		}
		return
	case gen.TokenElsewhere:
		j.Observe("%s /api/%s with the API token where the spec does not put it was answered %d", c.Method, c.Endpoint, ex.Status)
		return
	}
	switch {
	case !needsAuth && missingPage:
		// A read of a page no one has (a site without pages): the API
		// token is enough to be told so (4.2).
		if j.Status("PAGE-GET-404", ex, http.StatusNotFound) {
			j.HandlerError("PAGE-GET-404", ex)
		}
	case !needsAuth:
		j.Status("AUTH-READ-TOKEN-ONLY", ex, http.StatusOK)
	case authValid && c.Endpoint == "settings":
		j.Status("AUTH-PARAM-NAME", ex, http.StatusOK)
	case authValid && missingPage:
		rule := "PAGE-EDIT-404"
		if c.Method == http.MethodDelete {
			rule = "PAGE-DELETE-404"
		}
		if j.Status(rule, ex, http.StatusNotFound) {
			j.HandlerError(rule, ex)
		}
	case c.Endpoint == "settings":
		j.Status("AUTH-SETTINGS-READ-NEEDS-AUTH", ex, http.StatusUnauthorized)
	default:
		rule := "AUTH-WRITE-NEEDS-AUTH"
		if c.AuthToken == gen.TokenWrong {
			rule = "AUTH-WRITE-INVALID-AUTH"
		}
		want := []int{http.StatusUnauthorized}
		if missingPage {
			want = append(want, http.StatusNotFound) // 4.4, 4.5: no page has the key
		}
		j.Status(rule, ex, want...)
	}
}
