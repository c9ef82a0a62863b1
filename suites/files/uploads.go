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
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/spec"
)

// uploadGap separates the two uploads FILES-NEWEST-FIRST compares: a server
// may order files by modification time with one-second resolution, and two
// uploads within one second would then tie.
const uploadGap = 1100 * time.Millisecond

// probeText is what the refused-extension probe of the file endpoint
// carries: plain text, so that a server which accepts a .php file stores
// nothing executable.
const probeText = "conformance suite probe: plain text, not code\n"

// The upload specs share one draft page of the run, made in the
// background from the moment the run leaves its reads
// (Group.StartAfterReads): the second upload comes uploadGap after the
// first, and that wait passes while the probes and the other writes run.
// Uploaded files cannot be deleted through the API, so the run uploads as
// little as it can, all to that page, which is deleted after the last of
// these specs; each upload that may have stored a file goes into the
// ledger for the run summary. In order: the file list, two uploads
// uploadGap apart each followed by the file list, the image for the page
// followed by the file list (images.go), then the two refused-extension
// probes (after the lists, so that a probe the server accepts cannot pass
// for an upload).

// uploadPage is the draft page the uploads go to.
type uploadPage struct {
	ex        *client.Exchange // its create
	key, uuid string           // "" when the create failed
	cover     string           // its cover image, the name of the image FILES-IMAGE-LISTED uploads
}

// require makes the running spec not checked when the page could not be
// made.
func (p *uploadPage) require() {
	if p.key == "" {
		verdicts.NotChecked("the draft page to upload to could not be created (%s)", match.Outcome(p.ex))
	}
}

// uploadRun is the two uploads FILES-UPLOAD-ROUNDTRIP and FILES-NEWEST-FIRST
// judge.
type uploadRun struct {
	page    *uploadPage
	before  *client.Exchange // the file list before the first upload
	uploads []*upload        // in upload order; the second only if the first was accepted
}

// upload is one file the run sends to its page, and what came of it.
type upload struct {
	name    string
	content []byte
	ex      *client.Exchange // the POST
	listing *client.Exchange // GET /api/files/{key} right after it
	record  gjson.Result     // the one record the listing gained
	missing string           // why no such record was found ("" when found)
}

// probe is an upload whose file extension the server should refuse.
type probe struct {
	page *uploadPage
	desc string // what was uploaded where, for messages and the ledger
	ex   *client.Exchange
}

// The rules whose prepares make the uploads.
const (
	roundtrip   = "FILES-UPLOAD-ROUNDTRIP"
	newestFirst = "FILES-NEWEST-FIRST"
)

func registerUploads(t *framework.Fixture) {
	Describe("4.13 POST /api/files/{key}", Label(spec.UploadFile.Label()), framework.PhaseWrites, func() {
		g := t.NewGroup(framework.PhaseWrites)
		sharedPage := framework.Share(g, func(ctx context.Context) *uploadPage {
			p := &uploadPage{cover: t.Marker("image") + ".png"}
			// A slug of its own: the page is made while other specs make
			// theirs, and its name stays the same from run to run. Its
			// cover image is named by the file name of the image uploaded
			// for it (images.go).
			p.ex, p.key = t.CreatePage(ctx, map[string]any{"title": "Conformance uploads " + t.RunID, "slug": t.Marker("uploads"),
				"coverImage": p.cover})
			p.uuid = p.ex.Get("data.uuid").String()
			return p
		})
		page := func(ctx context.Context) *uploadPage {
			if p := sharedPage(ctx); p != nil {
				return p
			}
			return &uploadPage{} // the run ended while the page was being made
		}
		sharedUploads := framework.Share(g, func(ctx context.Context) *uploadRun { return uploadTwo(ctx, t, page(ctx)) })
		uploads := func(ctx context.Context) *uploadRun {
			if r := sharedUploads(ctx); r != nil {
				return r
			}
			return &uploadRun{page: &uploadPage{}}
		}
		// The uploads are made by FILES-UPLOAD-ROUNDTRIP's prepare when the
		// run has it, else by FILES-NEWEST-FIRST's; the probes come after
		// them (framework.After), when the run makes them.
		framework.Prepare(g, roundtrip, uploads, func(_ SpecContext, r *uploadRun) { judgeRoundtrip(t, r) })

		framework.Prepare(g, newestFirst, uploads, func(_ SpecContext, r *uploadRun) { judgeNewestFirst(t, r) },
			framework.After(roundtrip))
		// The image for the page, after the uploads and their lists.
		registerImage(t, g, uploads)

		// probeWith is the prepare of a refused-extension probe, made by
		// build for the page and a file name with the extension ext.
		probeWith := func(ext string, build func(p *uploadPage, name string) (desc string, r client.Request)) func(context.Context) probe {
			return func(ctx context.Context) probe {
				p := page(ctx)
				if p.key == "" {
					return probe{page: p}
				}
				desc, r := build(p, t.Marker("probe")+ext)
				ex := t.Client.Do(ctx, r)
				if maybeStored(ex) {
					t.Ledger.AddUploadOn(p.key, desc)
				}
				return probe{page: p, desc: desc, ex: ex}
			}
		}
		framework.Prepare(g, "FILES-UPLOAD-REFUSED-400", probeWith(".php", phpProbe), judgeRefusal, framework.Case("file .php"),
			framework.After(roundtrip, newestFirst, imageListed))
		framework.Prepare(g, "FILES-UPLOAD-REFUSED-400", probeWith(".txt", imageProbe), judgeRefusal,
			framework.Case("image .txt"), spec.UploadImage, framework.After(roundtrip, newestFirst, imageListed))
	})
}

// phpProbe is the upload of a .php file (plain text) to the page.
func phpProbe(p *uploadPage, name string) (string, client.Request) {
	return fmt.Sprintf("file %s on page %s (POST /api/files/%s)", name, p.key, p.key), client.Request{
		Method: http.MethodPost, Path: client.KeyPath("files", p.key), Credentials: client.BothTokens,
		Files: []client.File{{Field: "file", Name: name, MIMEType: "text/plain", Content: []byte(probeText)}},
	}
}

// imageProbe is the upload of an image named .txt for the page. uuid
// (de-facto, not in the spec) asks to keep the image with the run's page
// rather than site-wide, should it be accepted. The part is a real PNG
// image, declared image/png, so that only its extension can be the reason
// for a refusal (a refusal for content the spec does not give a status).
func imageProbe(p *uploadPage, name string) (string, client.Request) {
	var form url.Values
	if p.uuid != "" {
		form = url.Values{"uuid": {p.uuid}}
	}
	return fmt.Sprintf("image %s for page %s (POST /api/images)", name, p.key), client.Request{
		Method: http.MethodPost, Path: "/api/images", Credentials: client.BothTokens, Form: form,
		Files: []client.File{{Field: "image", Name: name, MIMEType: "image/png", Content: match.TinyPNG()}},
	}
}

// judged names the exchanges of r as evidence of the running spec (the
// prepare of FILES-UPLOAD-ROUNDTRIP may have made them), after checking
// that the page was there.
func (r *uploadRun) judged(t *framework.Fixture) {
	r.page.require()
	exs := []*client.Exchange{r.page.ex, r.before}
	for _, u := range r.uploads {
		exs = append(exs, u.ex, u.listing)
	}
	t.Judged(exs...)
}

// uploadTwo uploads two small text files to the page, uploadGap apart, and
// finds each one's record by comparing the file list before and after
// it: the server may store a file under another name.
func uploadTwo(ctx context.Context, t *framework.Fixture, p *uploadPage) *uploadRun {
	r := &uploadRun{page: p}
	if p.key == "" {
		return r
	}
	path := client.KeyPath("files", p.key)
	r.before = t.Read(ctx, path, nil)
	prev := r.before
	var firstDone time.Time
	for i, label := range []string{"1-older", "2-newer"} {
		if i > 0 && !framework.SleepUntil(ctx, firstDone.Add(uploadGap)) {
			return r // the run ends: the second upload is not made
		}
		name := t.Marker(label) + ".txt"
		u := &upload{name: name, content: fmt.Appendf(nil, "conformance suite upload %s\n%s\n", label, strings.Repeat("x", 10*(i+1)))}
		u.ex = t.Client.Do(ctx, client.Request{
			Method: http.MethodPost, Path: path, Credentials: client.BothTokens,
			Files: []client.File{{Field: "file", Name: name, MIMEType: "text/plain", Content: u.content}},
		})
		// Stored by the time its answer came: the gap counts from here.
		firstDone = time.Now()
		r.uploads = append(r.uploads, u)
		if maybeStored(u.ex) {
			t.Ledger.AddUploadOn(p.key, fmt.Sprintf("file %s on page %s (POST /api/files/%s)", name, p.key, p.key))
		}
		if !accepted(u.ex) {
			return r
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

// judgeNewestFirst: FILES-NEWEST-FIRST on the last file list, which holds
// both uploads.
func judgeNewestFirst(t *framework.Fixture, r *uploadRun) {
	r.judged(t)
	if len(r.uploads) < 2 || !accepted(r.uploads[0].ex) || !accepted(r.uploads[1].ex) ||
		r.uploads[0].missing != "" || r.uploads[1].missing != "" {
		verdicts.NotChecked("the run's two uploads could not both be found in the file list (see FILES-UPLOAD-ROUNDTRIP)")
	}
	older, newer := r.uploads[0], r.uploads[1]
	final := newer.listing
	iOld, iNew := indexOf(final, older.record), indexOf(final, newer.record)
	Expect(iOld).To(BeNumerically(">=", 0), match.Evidence(final, "the older upload %s must still be listed", older.name))
	Expect(iNew).To(BeNumerically("<", iOld), match.Evidence(final,
		"files are listed most recent first (spec 4.11): %s (uploaded %s later) must come before %s",
		newer.name, uploadGap, older.name))
}

// judgeRoundtrip: FILES-UPLOAD-ROUNDTRIP on each upload of the site.
func judgeRoundtrip(t *framework.Fixture, r *uploadRun) {
	r.judged(t)
	Expect(r.before).To(match.BeSuccess(http.StatusOK), "the files of the page the run created, before any upload")
	for i, u := range r.uploads {
		if !accepted(u.ex) && u.ex.Err == nil && (u.ex.Status == http.StatusBadRequest || u.ex.Get("status").String() == "1") {
			verdicts.NotChecked("the target refused the upload of %s (HTTP %d): the allowed file types are not shown in the spec", u.name, u.ex.Status)
		}
		Expect(u.ex).To(match.HaveHTTPStatus(http.StatusOK, http.StatusCreated), "uploading %s to page %q", u.name, r.page.key)
		Expect(u.listing).To(match.BeSuccess(http.StatusOK), "the files of page %q after uploading %s", r.page.key, u.name)
		t.Exercised(coverage.WriteCell(coverage.WriteUpload, coverage.ViewFiles))
		Expect(u.missing).To(BeEmpty(), match.Evidence(u.listing, "after uploading %s, GET /api/files/{key} must list exactly one new record", u.name))
		// size is an integer (FILES-LIST-SHAPE's schema), but its unit "is
		// not stated" (2.5): bytes are only assumed, so a size other than
		// the bytes sent is recorded, not failed.
		if size := u.record.Get("size"); size.Type != gjson.Number || size.Num != float64(len(u.content)) {
			t.Observe("FILES-UPLOAD-ROUNDTRIP: the record of %s has size %s for %d bytes uploaded (the spec does not state the unit)",
				u.name, match.Show(size), len(u.content))
		}
		Expect(mediaType(u.record.Get("mime").String())).To(Equal("text/plain"), match.Evidence(u.listing,
			"the record of %s must have mime text/plain (parameters such as charset are allowed), got %s",
			u.name, match.Show(u.record.Get("mime"))))
		if got := u.record.Get("filename").String(); got != u.name && i == 0 {
			t.Observe("POST /api/files/{key} stores a file under another name than sent, e.g. %q as %q (the spec does not say how names are kept)", u.name, got)
		}
	}
}

// judgeRefusal: an upload the server refuses must be a 400 with a
// handler-error body (spec 7: invalid file extension). One it takes
// (recorded in the ledger when it was sent) leaves the case not checked:
// which extensions are invalid is not shown, so the server may allow this
// one, and no refusal was there to judge.
func judgeRefusal(_ SpecContext, p probe) {
	p.page.require()
	if accepted(p.ex) {
		verdicts.NotChecked("the target accepted the upload of %s: which extensions are invalid is not shown in the spec, "+
			"so no refusal was there to judge", p.desc)
	}
	Expect(p.ex).To(match.BeHandlerError(http.StatusBadRequest), "an upload refused for its file extension answers 400")
}

// accepted reports whether the server took the upload: 2xx without a
// failure status (a refusal answered 200 with status "1" is not).
func accepted(ex *client.Exchange) bool {
	return ex.Err == nil && ex.Status >= 200 && ex.Status < 300 && ex.Get("status").String() != "1"
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
