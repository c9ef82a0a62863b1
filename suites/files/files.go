// Package files checks spec sections 2.5, 4.11 to 4.13 and the upload rows
// of section 7: listing a page's files, the path-traversal guard, and the
// two upload endpoints.
package files

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/single"
	"github.com/conformance-suite/conformance/internal/spec"
)

// maxListed bounds how many pages' file lists FILES-LIST-SHAPE reads (side
// by side): pages with an uploaded cover image first, whose file list holds
// at least that file, so a few reads meet a file record on a real site.
const maxListed = 4

// Register adds the files specs for target t.
func Register(t *framework.Fixture) {
	Describe("4.11 GET /api/files/{key}", Label(spec.ListFiles.Label()), framework.PhaseReads, func() {
		// The file lists and the traversal probes go out together when
		// the first of these specs runs.
		reads := t.NewGroup(framework.PhaseReads)
		// The listing of every page type, read once for the run (the
		// page rules read it too).
		every := framework.Share(reads, func(ctx context.Context) pagelist.Listing {
			return t.Pages.ListAll(ctx, pagelist.EveryTypeQuery())
		})
		framework.Prepare(reads, "FILES-LIST-SHAPE", func(ctx context.Context) listings { return listFiles(ctx, t, every(ctx)) },
			func(_ SpecContext, l listings) { judgeListShape(t, l) })

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
			framework.Prepare(reads, "FILES-TRAVERSAL-400", func(ctx context.Context) framework.Got {
				return framework.GotExchange(t.Read(ctx, c.path, nil))
			}, func(ctx SpecContext, got framework.Got) { judgeTraversal(ctx, t, got.Exchange()) }, framework.Case(c.name))
		}
	})

	registerUploads(t)
}

// judgeTraversal: FILES-TRAVERSAL-400 on the answer to one key.
func judgeTraversal(ctx context.Context, t *framework.Fixture, ex *client.Exchange) {
	if front := t.AnsweredByFront(ctx, ex, "FILES-TRAVERSAL-400"); front.ByFront() {
		// nginx refuses a NUL byte in the path with its own HTML 400,
		// Apache with its own 404: the API never saw the request.
		verdicts.NotChecked("%s", front.Observation(ex))
	}
	Expect(ex).To(match.HaveHTTPStatus(http.StatusBadRequest),
		"a files key containing .. or a NUL byte answers 400 (spec 4.11). A web server in front of the API "+
			"that refuses such paths itself answers before the API does.")
	// The spec ties this 400 to neither body shape: both are accepted,
	// each judged whole (see the rule's Reading).
	Expect(ex).To(match.Holds(single.TraversalExpect, rules.ProblemsOf(single.Traversal)))
}

// listings is what FILES-LIST-SHAPE judges: the file lists of some pages,
// or why there are none.
type listings struct {
	keys  []string
	lists []*client.Exchange // lists[i] is GET /api/files/{keys[i]}
	// notChecked says why no list was read.
	notChecked string
}

// listFiles reads the file lists of up to maxListed listed pages side by
// side, or of a draft the run creates when the target lists no page (not
// when the listing could not be read: the rule is then not checked).
func listFiles(ctx context.Context, t *framework.Fixture, every pagelist.Listing) listings {
	keys := pageKeys(every)
	if len(keys) == 0 {
		if every.Problem != "" && every.Pages.Len() == 0 {
			// Not "no page": the listing could not be read. Nothing to
			// create a page for.
			return listings{notChecked: "the listing of every page type could not be read: " + every.Problem}
		}
		if !t.CanWrite() {
			return listings{notChecked: "GET /api/pages lists no page whose files could be listed, and a read-only run cannot create one"}
		}
		// This read rule writes only here, and only when writes are allowed.
		ex, key := t.CreatePage(ctx, map[string]any{"title": "Conformance files " + t.RunID})
		if key == "" {
			return listings{notChecked: fmt.Sprintf("GET /api/pages lists no page, and creating one failed (%s)", match.Outcome(ex))}
		}
		keys = []string{key}
	}
	reqs := make([]client.Request, len(keys))
	for i, key := range keys {
		reqs[i] = client.Request{Method: http.MethodGet, Path: client.KeyPath("files", key)}
	}
	return listings{keys: keys, lists: t.All(ctx, reqs...)}
}

// judgeListShape: FILES-LIST-SHAPE on every list read.
func judgeListShape(t *framework.Fixture, l listings) {
	if l.notChecked != "" {
		verdicts.NotChecked("%s", l.notChecked)
	}
	records := 0
	for i, ex := range l.lists {
		Expect(ex).To(match.BeSuccess(http.StatusOK), "page %q was listed by GET /api/pages", l.keys[i])
		Expect(ex).To(match.MatchSchema("file-list-response.json"))
		records += len(ex.Get("data").Array())
	}
	if records == 0 {
		// The envelope and data array were checked, but no file record:
		// not a pass of the rule, whose point is the record's fields.
		verdicts.NotChecked("none of the %d listed pages read has files: only empty lists were checked, not a file record", len(l.keys))
	}
}

// pageKeys returns up to maxListed keys of listed pages, those with a
// cover image first (its file is likely among the page's uploads). Hierarchical
// keys are left out: the spec does not say which page a files key
// parent/child names (the previous release used the first segment).
func pageKeys(every pagelist.Listing) []string {
	var keys []string
	// Two passes over the listing, those with a cover first; no copy of
	// it: a site may list many pages.
	for _, cover := range []int{1, 0} {
		for _, p := range every.Pages.Scan {
			if len(keys) == maxListed {
				return keys
			}
			key := p.Get("key").String()
			if hasCover(p) == cover && key != "" && !strings.Contains(key, "/") && !strings.Contains(key, "..") {
				keys = append(keys, strings.Clone(key)) // not a part of the page's text
			}
		}
	}
	return keys
}

// hasCover is 1 for a page whose coverImage names something, else 0.
func hasCover(p gjson.Result) int {
	if c := p.Get("coverImage"); c.Type == gjson.String && c.Str != "" {
		return 1
	}
	return 0
}
