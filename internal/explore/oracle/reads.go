package oracle

import (
	"net/http"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/rules/envelope"
	"github.com/conformance-suite/conformance/internal/rules/single"
	"github.com/conformance-suite/conformance/internal/rules/termview"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
	"github.com/tidwall/gjson"
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

// Single judges a read of one resource by key (4.2, 4.6 to 4.8, 4.11:
// rules/single). A key that exists reads 200 with that resource; one that
// does not, 404 with a handler error (a files list of a page that does
// not exist may be 200 with an empty list, or 404). A key with ".." or a
// NUL byte is 400 for the files list (4.11), with either error body;
// elsewhere it names no resource, and section 7's "invalid page key"
// allows 400 besides 404, as for a very long key. (Its ".." is a whole
// path segment only where a probe showed that the target's front lets
// such a segment through to the API: gen.ClassDotSegment.) The rules (single.Rules):
// PAGE-GET-OK, PAGE-GET-HIERARCHICAL, PAGE-GET-404, TAG-GET-SHAPE,
// TAG-GET-404, CAT-GET-SHAPE, CAT-GET-404, USER-GET-SHAPE, USER-GET-404,
// FILES-LIST-SHAPE and FILES-TRAVERSAL-400.
func (j *Judge) Single(endpoint, class, key string, ex *client.Exchange) {
	found, missing, ok := single.Rules(endpoint, key)
	switch {
	case !ok:
	case endpoint == "files" && (class == "traversal" || class == "encoded" || class == gen.ClassDotSegment):
		j.Judged("FILES-TRAVERSAL-400", ex, "status and error body", "HTTP 400 with an error body of section 7", single.Traversal(ex))
	case class == "existing":
		if !j.Status(found, ex, http.StatusOK) {
			return
		}
		data := ex.Get("data")
		if endpoint == "pages" && !j.PageObject(ex, data) {
			return
		}
		j.Judged(found, ex, "data", "the "+endpoint+" resource "+quote(key), single.Named(endpoint, data, key))
		j.termView(endpoint, ex, data)
	case endpoint == "files":
		if j.Status(missing, ex, single.MissingFilesCodes...) && ex.Status == http.StatusOK {
			j.Judged(missing, ex, "data", "data, an array of file records", single.Named(endpoint, ex.Get("data"), key))
		}
	case class == "traversal" || class == "encoded" || class == "long" || class == gen.ClassDotSegment:
		if j.Status(missing, ex, single.InvalidKeyCodes...) {
			j.Observe("GET /api/%s/{key} of a %s key answered %d", endpoint, class, ex.Status)
		}
	default:
		j.Judged(missing, ex, "status and error body", "HTTP 404 with "+envelope.HandlerErrorShape, single.Missing(ex))
	}
}

// termView judges what one answer of a single tag or category shows on
// its own, as the normal run judges every such answer (rules/termview:
// TAG-PAGES-MATCH-LIST, CAT-PAGES-MATCH-LIST, TAG-LIST-CONSISTENT,
// CAT-LIST-CONSISTENT, TAG-NAME-IN-PAGES); other endpoints, and a term
// whose pages are no array (the GET-SHAPE rule's concern), are not.
func (j *Judge) termView(endpoint string, ex *client.Exchange, data gjson.Result) {
	if (endpoint != "tags" && endpoint != "categories") || !data.Get("pages").IsArray() {
		return
	}
	v := termview.View{Tag: endpoint == "tags", Term: data, Pages: termview.ArrayPages(data.Get("pages"))}
	for _, c := range termview.Checks(func(*client.Exchange) (termview.View, bool) { return v, true }) {
		j.Judged(c.Rule, ex, "data.pages", "the term's pages as its list names them, each carrying it", c.Judge(ex))
	}
}

// Tokens judges an answer to a request whose tokens the case placed
// (5.1 to 5.6: rules/tokens): a missing API token is 400 with an early
// error and a message, a wrong one 401 with an early error, an endpoint
// that needs the authentication token refuses a request without a valid
// one with 401 (a page that does not exist may be 404 first: which check
// comes first is not said); with the tokens it needs valid the request
// goes through (a read of a page no one has: 404). An empty token
// parameter may be 400 or 401, the one seen recorded. Tokens where the
// spec does not put them: the answer is only recorded. The rules
// (tokens.Expect): AUTH-MISSING-TOKEN-400, AUTH-INVALID-TOKEN-401,
// AUTH-READ-TOKEN-ONLY, AUTH-PARAM-NAME, AUTH-SETTINGS-READ-NEEDS-AUTH,
// AUTH-WRITE-NEEDS-AUTH, AUTH-WRITE-INVALID-AUTH, PAGE-GET-404,
// PAGE-EDIT-404, PAGE-DELETE-404 (and ENV-EARLY-ERROR-SHAPE).
func (j *Judge) Tokens(c gen.Case, ex *client.Exchange) {
	if c.APIToken == gen.TokenElsewhere {
		j.Observe("%s /api/%s with the API token where the spec does not put it was answered %d", c.Method, c.Endpoint, ex.Status)
		return
	}
	a := tokens.Expect(tokenRequest(c))
	switch {
	case a.Rule == "":
	case a.HandlerError:
		j.Judged(a.Rule, ex, "status and error body", "HTTP 404 with "+envelope.HandlerErrorShape, single.Missing(ex))
	case !j.Status(a.Rule, ex, a.Codes...):
	case c.APIToken == gen.TokenEmpty:
		j.Observe("an empty token parameter was answered %d", ex.Status)
	case c.APIToken == gen.TokenMissing && ex.Status == http.StatusBadRequest:
		j.EarlyError(ex)
		j.Judged(a.Rule, ex, "message", "a message (the spec fixes no wording)", tokens.MissingTokenMessage(ex))
	case c.APIToken == gen.TokenWrong:
		j.EarlyError(ex)
	}
}

// tokenRequest is what the answer to a token case rests on (rules/tokens).
func tokenRequest(c gen.Case) tokens.Request {
	state := map[gen.Token]tokens.Token{gen.TokenValid: tokens.Valid, gen.TokenMissing: tokens.Missing, gen.TokenWrong: tokens.Wrong, gen.TokenEmpty: tokens.Empty}
	return tokens.Request{API: state[c.APIToken], Auth: state[c.AuthToken], NeedsAuth: c.NeedsAuth(), Settings: c.Endpoint == "settings",
		Delete: c.Method == http.MethodDelete, MissingPage: c.KeyClass == "missing"}
}
