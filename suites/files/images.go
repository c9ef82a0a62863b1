package files

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// imageListed is the rule of the image the run uploads for its upload page.
const imageListed = "FILES-IMAGE-LISTED"

// The image FILES-IMAGE-LISTED uploads goes to the run's upload page after
// the two files (and their lists), so that the page's last file list is
// the one to compare with: two requests more, the upload and the list
// after it. The page is created with the image's name as its cover image
// (4.3: a filename), so that the image, once uploaded, is also the page's
// cover, and so that the create answer says where the server keeps the
// page's images: only a coverImage URL in a folder named by the page shows
// that an image uploaded for it stays with it, and goes when the page is
// deleted (the API deletes no upload; an image stored site-wide would
// stay for good).

// pageImage is the image the run uploads for its page, and what came of it.
type pageImage struct {
	page    *uploadPage
	notSent string           // why it was not sent ("" when it was)
	before  *client.Exchange // the page's file list just before the upload
	ex      *client.Exchange // POST /api/images
	listing *client.Exchange // GET /api/files/{key} after it, when accepted
}

// registerImage adds the spec of FILES-IMAGE-LISTED to g, its prepare
// waiting for the file uploads (the shared uploadRun).
func registerImage(t *framework.Fixture, g *framework.Group, uploads func(context.Context) *uploadRun) {
	framework.Prepare(g, imageListed, func(ctx context.Context) *pageImage { return uploadImage(ctx, t, uploads(ctx)) },
		func(_ SpecContext, im *pageImage) { judgeImageListed(t, im) })
}

// uploadImage uploads a PNG image named as the page's cover image for the
// page (the de-facto uuid field), and reads the page's file list after it,
// when the page's create answer shows that the server keeps the page's
// images with the page.
func uploadImage(ctx context.Context, t *framework.Fixture, r *uploadRun) *pageImage {
	p := r.page
	im := &pageImage{page: p}
	if p.key == "" {
		return im
	}
	if im.notSent = imageFolderUnknown(p, p.ex.Get("data.coverImage")); im.notSent != "" {
		return im
	}
	im.before = r.before
	for _, u := range r.uploads {
		if u.listing != nil {
			im.before = u.listing
		}
	}
	if im.before.Err != nil || im.before.Status != http.StatusOK || !im.before.Get("data").IsArray() {
		im.notSent = fmt.Sprintf("the page's file list could not be read before the image upload (%s)", match.Outcome(im.before))
		return im
	}
	im.ex = t.Client.Do(ctx, client.Request{
		Method: http.MethodPost, Path: "/api/images", Credentials: client.BothTokens, Form: url.Values{"uuid": {p.uuid}},
		Files: []client.File{{Field: "image", Name: p.cover, MIMEType: "image/png", Content: match.TinyPNG()}},
	})
	if maybeStored(im.ex) {
		t.Ledger.AddUploadOn(p.key, fmt.Sprintf("image %s for page %s (POST /api/images)", p.cover, p.key))
	}
	if accepted(im.ex) {
		im.listing = t.Read(ctx, client.KeyPath("files", p.key), nil)
	}
	return im
}

// imageFolderUnknown says why nothing shows that the server keeps an image
// uploaded for page p with the page: no uuid to send, or a cover image
// (named by file name at create) not served from a folder named by the
// page. cover is the page's coverImage in its create answer; "" when its
// URL has the page's uuid or key as a segment.
func imageFolderUnknown(p *uploadPage, cover gjson.Result) string {
	if p.uuid == "" {
		return "the page's create answer gives no uuid: an image uploaded without one would be stored site-wide, " +
			"where no API call can remove it, so none is sent"
	}
	if cover.Type == gjson.String && namesFolder(cover.Str, p) {
		return ""
	}
	return fmt.Sprintf("the page created with the cover image %q has coverImage %s, in no folder named by the page (its uuid or key): "+
		"nothing shows that an image uploaded for the page is kept with it (4.12 shows no request fields), and one stored "+
		"site-wide could not be removed through the API, so none is sent", p.cover, match.Show(cover))
}

// namesFolder reports whether the URL or path s has the uuid or the key of
// page p as one of its segments.
func namesFolder(s string, p *uploadPage) bool {
	for _, seg := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '\\' || r == '?' || r == '#' }) {
		if seg == p.uuid || seg == p.key {
			return true
		}
	}
	return false
}

// tiedToPage reports whether the answer to the image upload names the
// page's folder: a string in it (the de-facto image URL) with the page's
// uuid or key as a segment.
func tiedToPage(answer gjson.Result, p *uploadPage) bool {
	tied := false
	eachString(answer, func(s string) { tied = tied || namesFolder(s, p) })
	return tied
}

// answeredNames are the file names the answer to the upload gives: the
// last segment of each string in it that has no space.
func answeredNames(answer gjson.Result) []string {
	var names []string
	eachString(answer, func(s string) {
		s = strings.SplitN(strings.SplitN(s, "?", 2)[0], "#", 2)[0]
		s = s[strings.LastIndexAny(s, `/\`)+1:]
		if s != "" && !strings.ContainsAny(s, " \t") {
			names = append(names, s)
		}
	})
	return names
}

// eachString calls fn with every string of v, at any depth.
func eachString(v gjson.Result, fn func(string)) {
	switch {
	case v.Type == gjson.String:
		fn(v.Str)
	case v.IsObject() || v.IsArray():
		v.ForEach(func(_, e gjson.Result) bool {
			eachString(e, fn)
			return true
		})
	}
}

// judgeImageListed: FILES-IMAGE-LISTED on the page's file list after the
// image upload.
func judgeImageListed(t *framework.Fixture, im *pageImage) {
	im.page.require()
	t.Judged(im.page.ex, im.before, im.ex, im.listing)
	if im.notSent != "" {
		verdicts.NotChecked("%s", im.notSent)
	}
	if !accepted(im.ex) && im.ex.Err == nil && (im.ex.Status == http.StatusBadRequest || im.ex.Get("status").String() == "1") {
		verdicts.NotChecked("the target refused the image %s for page %s (HTTP %d): the request fields of POST /api/images are "+
			"not shown in the spec (4.12)", im.page.cover, im.page.key, im.ex.Status)
	}
	Expect(im.ex).To(match.HaveHTTPStatus(http.StatusOK, http.StatusCreated), "uploading the image %s for page %q", im.page.cover, im.page.key)
	Expect(im.listing).To(match.BeSuccess(http.StatusOK), "the files of page %q after uploading the image %s", im.page.key, im.page.cover)
	added := newRecords(im.before, im.listing)
	if len(added) == 0 && !tiedToPage(im.ex.JSON(), im.page) {
		verdicts.NotChecked("the page's file list gained no record after the image upload, but the answer to POST /api/images " +
			"names no folder of the page (its uuid or key): the spec does not say how an image is tied to a page (4.12)")
	}
	t.Exercised(coverage.WriteCell(coverage.WriteUpload, coverage.ViewFiles))
	Expect(added).NotTo(BeEmpty(), match.Evidence(im.listing,
		"the image %s was uploaded for page %q (the answer names the page's folder, and it is the page's cover image): "+
			"GET /api/files/{key} lists the page's images (4.11), but the list gained no record", im.page.cover, im.page.key))
	rec, ok := theImage(added, im.page.cover, answeredNames(im.ex.JSON()))
	if !ok {
		verdicts.NotChecked("after the image upload the page's file list gained %d record(s), none named like the image %s or of an "+
			"image type (the first: %s): the spec does not say how stored files are named", len(added), im.page.cover, added[0].Raw)
	}
	Expect(rec.Exists()).To(BeTrue())
	if got := recordName(rec); got != im.page.cover {
		t.Observe("FILES-IMAGE-LISTED: an image uploaded as %q is listed as %q (the spec does not say how stored files are named)",
			im.page.cover, got)
	}
}

// theImage finds the record of the image sent as name among the records
// a list gained: one named as sent, as the answer names it, or derived
// from the sent name (the same stem, then anything, with an image
// extension), else one of an image MIME type.
func theImage(added []gjson.Result, name string, answered []string) (gjson.Result, bool) {
	stem := name
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		stem = name[:i]
	}
	stem = foldName(stem)
	for _, rec := range added {
		got := recordName(rec)
		if got == name || slices.Contains(answered, got) || strings.HasPrefix(foldName(got), stem) && imageExtension(got) {
			return rec, true
		}
	}
	for _, rec := range added {
		if strings.HasPrefix(mediaType(rec.Get("mime").String()), "image/") {
			return rec, true
		}
	}
	return gjson.Result{}, false
}

// recordName is a file record's filename, else the last segment of its file.
func recordName(rec gjson.Result) string {
	if n := rec.Get("filename"); n.Type == gjson.String && n.Str != "" {
		return n.Str
	}
	f := rec.Get("file").String()
	return f[strings.LastIndexAny(f, `/\`)+1:]
}

// foldName is a file name lowercased, each run of characters other than
// letters and digits one '-'.
func foldName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return b.String()
}

// imageExtensions are the extensions of the image formats a server may
// store an uploaded image in.
var imageExtensions = map[string]bool{"png": true, "jpg": true, "jpeg": true, "gif": true, "webp": true,
	"avif": true, "svg": true, "bmp": true, "tif": true, "tiff": true, "heic": true}

// imageExtension reports whether the file name ends in an image extension.
func imageExtension(name string) bool {
	i := strings.LastIndexByte(name, '.')
	return i >= 0 && imageExtensions[strings.ToLower(name[i+1:])]
}
