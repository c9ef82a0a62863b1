// Package single judges a read of one resource by its key (spec 4.2, 4.6
// to 4.8, 4.11, 7): a key that exists reads 200 with the resource named
// (PAGE-GET-OK, PAGE-GET-HIERARCHICAL, TAG-GET-SHAPE, CAT-GET-SHAPE,
// USER-GET-SHAPE; FILES-LIST-SHAPE for a page's files), a key no resource
// has 404 with a handler-error body (PAGE-GET-404, TAG-GET-404,
// CAT-GET-404, USER-GET-404, and PAGE-EDIT-404 and PAGE-DELETE-404 for a
// write to such a key), and a files key holding ".." or a NUL byte 400
// (FILES-TRAVERSAL-400). The suites of pages, taxonomy, users and files
// judge their single reads with these functions; conformance explore's
// oracle of reads by key does too.
package single

import (
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/envelope"
)

// endpoints are, per resource of a read by key, the rules of a key that
// exists and of one that does not, and the field of data that names the
// resource ("" for a files list, whose data is an array).
var endpoints = map[string]struct{ found, missing, name string }{
	"pages":      {"PAGE-GET-OK", "PAGE-GET-404", "key"},
	"tags":       {"TAG-GET-SHAPE", "TAG-GET-404", "key"},
	"categories": {"CAT-GET-SHAPE", "CAT-GET-404", "key"},
	"users":      {"USER-GET-SHAPE", "USER-GET-404", "username"},
	"files":      {"FILES-LIST-SHAPE", "FILES-LIST-SHAPE", ""},
}

// Rules names the rules of a read of resource (pages, tags, categories,
// users, files) by key: found for a key that exists (PAGE-GET-HIERARCHICAL
// for a page's key parent/child), missing for one that does not; ok is
// false for a resource read by no key.
func Rules(resource, key string) (found, missing string, ok bool) {
	e, ok := endpoints[resource]
	if resource == "pages" && strings.Contains(key, "/") {
		return "PAGE-GET-HIERARCHICAL", e.missing, true
	}
	return e.found, e.missing, ok
}

// Named judges the data of a 200 read of resource by key: the resource
// named (data.key of a page, tag or category, data.username of a user
// profile); a page's files, an array of file records.
func Named(resource string, data gjson.Result, key string) rules.Judgement {
	e := endpoints[resource]
	if e.name == "" {
		if !data.IsArray() {
			return rules.Violation("data is %s, want an array of file records", rules.Show(data))
		}
		return rules.Conforms()
	}
	if got := data.Get(e.name); got.Type != gjson.String || got.Str != key {
		return rules.Violation("data.%s is %s, want %q", e.name, rules.Show(got), key)
	}
	return rules.Conforms()
}

// Missing judges the answer to a key no resource has (PAGE-GET-404,
// TAG-GET-404, CAT-GET-404, USER-GET-404, PAGE-EDIT-404,
// PAGE-DELETE-404): 404 with a handler-error body.
func Missing(ex *client.Exchange) rules.Judgement {
	if j := envelope.Status(ex, http.StatusNotFound); !j.Holds() {
		return j
	}
	return envelope.HandlerError(ex)
}

// MissingExpect words what Missing expects of the body, once the status
// is 404.
const MissingExpect = `HTTP 404 with a handler-error body (status "1", message a string)`

// InvalidKeyCodes are the codes a read by a key holding ".." or a NUL
// byte, or a very long one, may get outside the files endpoints: it names
// no resource (404), and section 7 gives 400 to an invalid page key
// without saying which keys are invalid (PAGE-GET-404's Reading).
var InvalidKeyCodes = []int{http.StatusNotFound, http.StatusBadRequest}

// MissingFilesCodes are the codes of the files list of a page that does
// not exist (FILES-LIST-SHAPE): a 200 with an empty list, or 404.
var MissingFilesCodes = []int{http.StatusOK, http.StatusNotFound}

// Traversal judges the answer to a files key holding ".." or a NUL byte
// (FILES-TRAVERSAL-400, 4.11): 400, with either error body of section 7
// (the spec ties this 400 to neither).
func Traversal(ex *client.Exchange) rules.Judgement {
	if j := envelope.Status(ex, http.StatusBadRequest); !j.Holds() {
		return j
	}
	return envelope.EitherError(ex)
}

// TraversalExpect words what Traversal expects.
const TraversalExpect = `HTTP 400 with an error body of section 7: a handler error (status "1", message a string) or an early error (message a string, no status)`
