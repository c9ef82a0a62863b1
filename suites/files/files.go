// Package files checks spec sections 2.5, 4.11 to 4.13 and the upload rows
// of section 7: listing a page's files, the path-traversal guard, and the
// two upload endpoints.
package files

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// maxListed bounds how many pages' file lists FILES-LIST-SHAPE reads: enough
// to meet files of several kinds on a real site, few requests in all.
const maxListed = 30

// Register adds the files specs for target t.
func Register(t *framework.Fixture) {
	Describe("4.11 GET /api/files/{key}", Label(spec.ListFiles.Label()), func() {
		t.It("FILES-LIST-SHAPE", func(ctx SpecContext) { checkListShape(ctx, t) })

		// Keys holding ".." or a NUL byte, each as its own spec; the NUL
		// is percent-encoded, the only way to send it. The spec's condition
		// is ".." anywhere, which a..b shows without a slash: an encoded
		// one (..%2Fetc) would add no condition, and a web server in front
		// of the API may answer it itself (Apache refuses %2F in paths by
		// default with an HTML 404), failing a conforming API.
		for _, c := range []struct{ name, path string }{
			{"a..b", "/api/files/a..b"},
			{"x%00y (a NUL byte)", "/api/files/x%00y"},
		} {
			t.It("FILES-TRAVERSAL-400", func(ctx SpecContext) {
				ex := t.Read(ctx, c.path, nil)
				if front := t.AnsweredByFront(ctx, ex, "FILES-TRAVERSAL-400"); front.ByFront() {
					// nginx refuses a NUL byte in the path with its own
					// HTML 400, Apache with its own 404: the API never saw
					// the request.
					framework.NotChecked("%s", front.Observation(ex))
				}
				Expect(ex).To(framework.HaveHTTPStatus(http.StatusBadRequest),
					"a files key containing .. or a NUL byte answers 400 (spec 4.11). A web server in front of the API "+
						"that refuses such paths itself answers before the API does.")
				// The spec ties this 400 to neither body shape: both are
				// accepted, each judged whole (see the rule's Reading).
				if ex.Get("status").Exists() {
					Expect(ex).To(framework.BeHandlerError(http.StatusBadRequest))
				} else {
					Expect(ex).To(framework.BeEarlyError(http.StatusBadRequest))
				}
			}, framework.Case(c.name))
		}
	})

	registerUploads(t)
}

// checkListShape: FILES-LIST-SHAPE on the file lists of listed pages (those
// with files first met), or of a draft the run creates when the target
// lists no page.
func checkListShape(ctx SpecContext, t *framework.Fixture) {
	keys := pageKeys(ctx, t)
	if len(keys) == 0 {
		if !t.CanWrite() {
			framework.NotChecked("GET /api/pages lists no page whose files could be listed, and a read-only run cannot create one")
		}
		// This read rule writes only here, and only when writes are allowed.
		ex, key := t.CreatePage(ctx, map[string]any{"title": "Conformance files " + t.RunID})
		if key == "" {
			framework.NotChecked("GET /api/pages lists no page, and creating one failed (HTTP %d)", ex.Status)
		}
		keys = []string{key}
	}
	records := 0
	for _, key := range keys {
		ex := t.Read(ctx, client.KeyPath("files", key), nil)
		Expect(ex).To(framework.BeSuccess(http.StatusOK), "page %q was listed by GET /api/pages", key)
		Expect(ex).To(framework.MatchSchema("file-list-response.json"))
		records += len(ex.Get("data").Array())
	}
	if records == 0 {
		// The envelope and data array were checked, but no file record:
		// not a pass of the rule, whose point is the record's fields.
		framework.NotChecked("none of the %d listed pages read has files: only empty lists were checked, not a file record", len(keys))
	}
}

// pageKeys returns up to maxListed keys of listed pages. Hierarchical keys
// are left out: the spec does not say which page a files key parent/child
// names (the previous release used the first segment).
func pageKeys(ctx SpecContext, t *framework.Fixture) []string {
	ex := t.Read(ctx, "/api/pages", url.Values{
		"static": {"true"}, "sticky": {"true"}, "numberOfItems": {fmt.Sprint(maxListed)},
	})
	var keys []string
	for _, p := range ex.Get("data").Array() {
		key := p.Get("key").String()
		if key == "" || strings.Contains(key, "/") || strings.Contains(key, "..") {
			continue
		}
		keys = append(keys, key)
		if len(keys) == maxListed {
			break
		}
	}
	return keys
}
