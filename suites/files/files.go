// Package files checks spec sections 2.5, 4.11 to 4.13 and the upload rows
// of section 7: listing a page's files, the path-traversal guard, and the
// two upload endpoints.
package files

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

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

// uploadGap separates the two uploads FILES-NEWEST-FIRST compares: a server
// may order files by modification time with one-second resolution, and two
// uploads within one second would then tie.
const uploadGap = 1100 * time.Millisecond

// upload is one file the run sends to its page, and what came of it.
type upload struct {
	name    string
	content []byte
	ex      *client.Exchange // the POST
	listing *client.Exchange // GET /api/files/{key} right after it
	record  gjson.Result     // the one record the listing gained
	missing string           // why no such record was found ("" when found)
}

// accepted reports whether the server took the upload: 2xx without a
// failure status (a refusal answered 200 with status "1" is not).
func accepted(ex *client.Exchange) bool {
	return ex.Err == nil && ex.Status >= 200 && ex.Status < 300 && ex.Get("status").String() != "1"
}

// uploadRun is the two uploads FILES-UPLOAD-ROUNDTRIP and FILES-NEWEST-FIRST
// judge, made once by whichever of them runs first, so the run uploads as
// little as it can (the API cannot delete uploads).
type uploadRun struct {
	before  *client.Exchange // listing before the first upload
	uploads []*upload        // in upload order; the second only if the first was accepted
}

func registerUploads(t *framework.Fixture) {
	Describe("4.13 POST /api/files/{key}", Label(spec.UploadFile.Label()), Ordered, ContinueOnFailure, func() {
		// The draft page every upload of the run goes to, created once;
		// CreatePage registers its deletion, which runs after the last spec
		// of this container. Uploaded files cannot be deleted through the
		// API: each one is recorded in the ledger for the run summary.
		var pageEx *client.Exchange
		var pageKey, pageUUID string
		var run *uploadRun
		BeforeAll(func(ctx SpecContext) {
			if !t.CanWrite() {
				return // every spec here is skipped as not checked
			}
			pageEx, pageKey = t.CreatePage(ctx, map[string]any{"title": "Conformance uploads " + t.RunID})
			pageUUID = pageEx.Get("data.uuid").String()
		})
		needPage := func() {
			if pageKey == "" {
				framework.NotChecked("the draft page to upload to could not be created (%s)", framework.Outcome(pageEx))
			}
		}
		uploads := func(ctx SpecContext) *uploadRun {
			needPage()
			if run == nil {
				run = uploadTwo(ctx, t, pageKey)
			}
			return run
		}

		t.It("FILES-UPLOAD-ROUNDTRIP", func(ctx SpecContext) {
			r := uploads(ctx)
			Expect(r.before).To(framework.BeSuccess(http.StatusOK), "the files of the page the run created, before any upload")
			for i, u := range r.uploads {
				if !accepted(u.ex) && u.ex.Err == nil && (u.ex.Status == http.StatusBadRequest || u.ex.Get("status").String() == "1") {
					framework.NotChecked("the target refused the upload of %s (HTTP %d): the allowed file types are not shown in the spec", u.name, u.ex.Status)
				}
				Expect(u.ex).To(framework.HaveHTTPStatus(http.StatusOK, http.StatusCreated), "uploading %s to page %q", u.name, pageKey)
				Expect(u.listing).To(framework.BeSuccess(http.StatusOK), "the files of page %q after uploading %s", pageKey, u.name)
				Expect(u.missing).To(BeEmpty(), framework.Evidence(u.listing, "after uploading %s, GET /api/files/{key} must list exactly one new record", u.name))
				// size is an integer (FILES-LIST-SHAPE's schema), but its
				// unit "is not stated" (2.5): bytes are only assumed, so a
				// size other than the bytes sent is recorded, not failed.
				if size := u.record.Get("size"); size.Type != gjson.Number || size.Num != float64(len(u.content)) {
					t.Observe("FILES-UPLOAD-ROUNDTRIP: the record of %s has size %s for %d bytes uploaded (the spec does not state the unit)",
						u.name, framework.Show(size), len(u.content))
				}
				Expect(mediaType(u.record.Get("mime").String())).To(Equal("text/plain"), framework.Evidence(u.listing,
					"the record of %s must have mime text/plain (parameters such as charset are allowed), got %s",
					u.name, framework.Show(u.record.Get("mime"))))
				if got := u.record.Get("filename").String(); got != u.name && i == 0 {
					t.Observe("POST /api/files/{key} stores a file under another name than sent, e.g. %q as %q (the spec does not say how names are kept)", u.name, got)
				}
			}
		})

		t.It("FILES-NEWEST-FIRST", func(ctx SpecContext) {
			r := uploads(ctx)
			if len(r.uploads) < 2 || !accepted(r.uploads[0].ex) || !accepted(r.uploads[1].ex) ||
				r.uploads[0].missing != "" || r.uploads[1].missing != "" {
				framework.NotChecked("the run's two uploads could not both be found in the file list (see FILES-UPLOAD-ROUNDTRIP)")
			}
			older, newer := r.uploads[0], r.uploads[1]
			final := newer.listing
			iOld, iNew := indexOf(final, older.record), indexOf(final, newer.record)
			Expect(iOld).To(BeNumerically(">=", 0), framework.Evidence(final, "the older upload %s must still be listed", older.name))
			Expect(iNew).To(BeNumerically("<", iOld), framework.Evidence(final,
				"files are listed most recent first (spec 4.11): %s (uploaded %s later) must come before %s",
				newer.name, uploadGap, older.name))
		})

		t.It("FILES-UPLOAD-REFUSED-400", func(ctx SpecContext) {
			needPage()
			name := t.Marker("probe") + ".php"
			ex := t.Client.Do(ctx, client.Request{
				Method: http.MethodPost, Path: client.KeyPath("files", pageKey), Credentials: client.BothTokens,
				Files: []client.File{{Field: "file", Name: name, MIMEType: "text/plain", Content: []byte(probeText)}},
			})
			judgeRefusal(t, ex, fmt.Sprintf("file %s on page %s (POST /api/files/%s)", name, pageKey, pageKey))
		}, framework.Case("file .php"))

		t.It("FILES-UPLOAD-REFUSED-400", func(ctx SpecContext) {
			needPage()
			name := t.Marker("probe") + ".txt"
			// uuid (de-facto, not in the spec) asks to keep the image with
			// the run's page rather than site-wide, should it be accepted.
			// The part is a real PNG image, declared image/png, so that
			// only its extension can be the reason for a refusal (a
			// refusal for content the spec does not give a status).
			var form url.Values
			if pageUUID != "" {
				form = url.Values{"uuid": {pageUUID}}
			}
			ex := t.Client.Do(ctx, client.Request{
				Method: http.MethodPost, Path: "/api/images", Credentials: client.BothTokens, Form: form,
				Files: []client.File{{Field: "image", Name: name, MIMEType: "image/png", Content: framework.TinyPNG()}},
			})
			judgeRefusal(t, ex, fmt.Sprintf("image %s for page %s (POST /api/images)", name, pageKey))
		}, framework.Case("image .txt"), spec.UploadImage)
	})
}

// probeText is what the refused-extension probe of the file endpoint
// carries: plain text, so that a server which accepts a .php file stores
// nothing executable.
const probeText = "conformance suite probe: plain text, not code\n"

// judgeRefusal: an upload the server refuses must be a 400 with a
// handler-error body (spec 7: invalid file extension). One it takes is
// recorded and leaves the case not checked: which extensions are invalid is
// not shown, so the server may allow this one, and no refusal was there to
// judge.
func judgeRefusal(t *framework.Fixture, ex *client.Exchange, desc string) {
	if accepted(ex) {
		t.Ledger.AddUpload(desc)
		framework.NotChecked("the target accepted the upload of %s: which extensions are invalid is not shown in the spec, "+
			"so no refusal was there to judge", desc)
	}
	Expect(ex).To(framework.BeHandlerError(http.StatusBadRequest), "an upload refused for its file extension answers 400")
}

// uploadTwo uploads two small text files to the page, one after the other,
// and finds each one's record by comparing the file list before and after
// it: the server may store a file under another name.
func uploadTwo(ctx SpecContext, t *framework.Fixture, key string) *uploadRun {
	path := client.KeyPath("files", key)
	r := &uploadRun{before: t.Read(ctx, path, nil)}
	prev := r.before
	for i, label := range []string{"1-older", "2-newer"} {
		if i > 0 {
			pause(ctx, uploadGap)
		}
		name := t.Marker(label) + ".txt"
		u := &upload{name: name, content: []byte(fmt.Sprintf("conformance suite upload %s\n%s\n", label, strings.Repeat("x", 10*(i+1))))}
		u.ex = t.Client.Do(ctx, client.Request{
			Method: http.MethodPost, Path: path, Credentials: client.BothTokens,
			Files: []client.File{{Field: "file", Name: name, MIMEType: "text/plain", Content: u.content}},
		})
		r.uploads = append(r.uploads, u)
		if maybeStored(u.ex) {
			t.Ledger.AddUpload(fmt.Sprintf("file %s on page %s (POST /api/files/%s)", name, key, key))
		}
		if !accepted(u.ex) {
			break
		}
		u.listing = t.Read(ctx, path, nil)
		added := newRecords(prev, u.listing)
		switch len(added) {
		case 1:
			u.record = added[0]
		case 0:
			u.missing = "the list gained no record"
		default:
			u.missing = fmt.Sprintf("the list gained %d records", len(added))
		}
		prev = u.listing
	}
	return r
}

// maybeStored reports whether an upload may have left a file: anything but
// a clear refusal (4xx, or 2xx with status "1").
func maybeStored(ex *client.Exchange) bool {
	if ex.Err == nil && ex.Status >= 400 && ex.Status < 500 {
		return false
	}
	return ex.Err != nil || ex.Status >= 500 || accepted(ex)
}

// identity tells file records apart across listings.
func identity(rec gjson.Result) string {
	if f, n := rec.Get("file"), rec.Get("filename"); f.Exists() || n.Exists() {
		return f.String() + "\x00" + n.String()
	}
	return rec.Raw
}

// newRecords returns the records of after that before does not have.
func newRecords(before, after *client.Exchange) []gjson.Result {
	seen := map[string]int{}
	for _, rec := range before.Get("data").Array() {
		seen[identity(rec)]++
	}
	var out []gjson.Result
	for _, rec := range after.Get("data").Array() {
		id := identity(rec)
		if seen[id] > 0 {
			seen[id]--
			continue
		}
		out = append(out, rec)
	}
	return out
}

// indexOf is the position of a record in a listing, -1 when absent.
func indexOf(listing *client.Exchange, rec gjson.Result) int {
	want := identity(rec)
	for i, r := range listing.Get("data").Array() {
		if identity(r) == want {
			return i
		}
	}
	return -1
}

// mediaType is a MIME type without parameters, lowercased.
func mediaType(s string) string {
	if mt, _, err := mime.ParseMediaType(s); err == nil {
		return mt
	}
	return strings.ToLower(strings.TrimSpace(s))
}

func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
