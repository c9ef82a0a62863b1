package auth

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/probe"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/tokens"
	"github.com/conformance-suite/conformance/internal/spec"
)

// The probes of registerAuthToken name a page that does not exist, where
// a 404 tells nothing of the authentication check (a run that writes sends
// those only to endpoints without a page key); on a page the run created
// the authentication token is the only thing wrong, and only 401 will do.
// Two pages take these writes: one gets an edit, a file upload and a
// delete without the authentication token, the other the same three with
// a wrong token (a write wrongly carried out with one kind of token cannot
// then pass for, or hide, one carried out with the other). The page
// written without the token also shows what those writes left, as
// AUTH-REFUSED-WRITE-NO-EFFECT judges it: it is read before the writes,
// read and its files listed after the edit and upload, and read after the
// delete. On both the delete comes last, so that one wrongly carried out
// cannot spoil what the other writes are judged on.

// pageRefusals is what the writes with one kind of bad authentication
// token to a page the run created brought back.
type pageRefusals struct {
	notChecked        string // why nothing was sent: no page to work on
	key               string
	edit, upload, del *client.Exchange
	// files lists the page's files after the upload (listed false when
	// filesEx could not list them).
	filesEx *client.Exchange
	files   []gjson.Result
	listed  bool
	// For the page written without the token: the page read before the
	// writes, after the edit and upload, and after the delete, with the
	// fields the edit tried to change as the first two show them, and the
	// key the third shows.
	before, afterEdit, afterDelete *client.Exchange
	was, now                       map[string]gjson.Result
	keyAfterDelete                 string
	// typeListing is the first pages of the listing of the page's type
	// read beside afterEdit (nil when the page's type is none of the five).
	typeListing *client.Exchange
}

// listedFirst is how many pages of the listing of its type are read after
// the refused edit of a page.
const listedFirst = 50

// pageFieldsEdited are the page object's fields a refused edit tries to
// change: description, and content in both its forms (rendered and raw).
var pageFieldsEdited = []string{"description", "content", "contentRaw"}

// editedFields are the fields of pageFieldsEdited that the page read
// shows.
func editedFields(read *client.Exchange) map[string]gjson.Result {
	out := map[string]gjson.Result{}
	for _, f := range pageFieldsEdited {
		if v := read.Get("data." + f); v.Exists() {
			out[f] = v
		}
	}
	return out
}

// refuseOnPage creates a page and sends it the writes named (an edit and
// a file upload side by side, then, once their effects are read, a
// delete), each without the authentication token, or with auth as a
// wrong one. Without the token (auth nil) the page is read as
// AUTH-REFUSED-WRITE-NO-EFFECT compares it. The page is deleted at the end
// (should that fail, when the group's last spec ends).
func refuseOnPage(ctx context.Context, t *framework.Fixture, auth *string, writes ...spec.Endpoint) *pageRefusals {
	compare := auth == nil
	created, key := t.CreatePage(ctx, map[string]any{"description": "target of writes without a valid authentication token"})
	if key == "" {
		return &pageRefusals{notChecked: "could not create a page to work on: " + match.Outcome(created)}
	}
	v := &pageRefusals{key: key}
	write := func(ep spec.Endpoint) client.Request {
		r := refusedWrite(t, ep, key)
		if auth != nil {
			r.Credentials, r.AuthValue = client.BothTokens, auth
		}
		return r
	}
	page := client.Request{Method: http.MethodGet, Path: pagelist.PagePath(key), Credentials: client.BothTokens}
	if slices.Contains(writes, spec.EditPage) {
		if compare {
			v.before = t.Client.Do(ctx, page)
			v.was = editedFields(v.before)
		}
		sent := t.All(ctx, write(spec.EditPage), write(spec.UploadFile))
		v.edit, v.upload = sent[0], sent[1]
		reads := []client.Request{{Method: http.MethodGet, Path: client.KeyPath("files", key)}}
		var ty string
		if compare {
			reads = append(reads, page)
			ty = v.before.Get("data.type").String()
		}
		byType := slices.Contains(pagelist.PageTypes(), ty)
		if byType {
			// Its first pages only: the page is new, and a site lists the
			// newest first (the order is open: found elsewhere, it is not
			// judged).
			reads = append(reads, t.Pages.ListRequest(pagelist.QueryWith(pagelist.PageTypeQuery(ty), "numberOfItems",
				strconv.Itoa(listedFirst)), key))
		}
		after := t.All(ctx, reads...)
		how := "with a wrong authentication token"
		if compare {
			how = "without the authentication token"
			v.afterEdit, v.now = after[1], editedFields(after[1])
		}
		if byType {
			v.typeListing = after[2]
		}
		v.filesEx = after[0]
		v.files, v.listed = storedUploads(t, key, v.upload, v.filesEx, how)
	}
	if slices.Contains(writes, spec.DeletePage) {
		v.del = t.Client.Do(ctx, write(spec.DeletePage))
		if compare {
			v.afterDelete = t.Client.Do(ctx, page)
			v.keyAfterDelete = v.afterDelete.Get("data.key").String()
		}
	}
	_ = t.DeletePage(ctx, key) // done with it; what fails is left to the cleanup and the sweep
	return v
}

// sent is the refused write of ep that v judges, or the running spec is
// not checked when there is none.
func (v *pageRefusals) sent(ep spec.Endpoint) *client.Exchange {
	if v == nil {
		verdicts.NotChecked("interrupted before the page was written")
	}
	if v.notChecked != "" {
		verdicts.NotChecked("%s", v.notChecked)
	}
	return map[spec.Endpoint]*client.Exchange{spec.EditPage: v.edit, spec.DeletePage: v.del, spec.UploadFile: v.upload}[ep]
}

// refusedWrite is a write of ep to the run-created page key without the
// authentication token (the caller may add a wrong one): an edit of its
// description and content, a delete, or a run-marked text file upload.
func refusedWrite(t *framework.Fixture, ep spec.Endpoint, key string) client.Request {
	r := client.Request{Method: ep.Method(), Path: client.KeyPath("pages", key), Credentials: client.APIToken}
	switch ep {
	case spec.EditPage:
		// description and content only: a title change could move the
		// page to a key without the run marker.
		r.JSON = map[string]any{"description": "changed by a refused edit", "content": "changed by a refused edit"}
	case spec.UploadFile:
		r.Path = client.KeyPath("files", key)
		r.Files = []client.File{{Field: "file", Name: t.Marker("refused-upload") + ".txt", MIMEType: "text/plain",
			Content: []byte("conformance: must be refused\n")}}
	}
	return r
}

// storedUploads lists in the run summary every file that a refused upload
// (upload, sent how) to the run-created page key stored after all (the
// API cannot delete uploads), from list, the page's file list after it:
// the page is new, so any file it lists is one. It returns the files
// listed, and listed false when list could not be read.
func storedUploads(t *framework.Fixture, key string, upload, list *client.Exchange, how string) (files []gjson.Result, listed bool) {
	where := fmt.Sprintf("POST /api/files/%s %s", key, how)
	accepted := upload.StatusErr() == nil && upload.Status/100 == 2
	if list.Err != nil || list.Status != http.StatusOK || !list.Get("data").IsArray() {
		if accepted {
			t.Ledger.AddUploadOn(key, fmt.Sprintf("%s was accepted: %s", where, upload.BodyExcerpt()))
		}
		return nil, false
	}
	files = list.Get("data").Array()
	for _, f := range files {
		t.Ledger.AddUploadOn(key, fmt.Sprintf("%s stored %s", where, f.Get("file").String()))
	}
	if len(files) == 0 && accepted {
		t.Ledger.AddUploadOn(key, fmt.Sprintf("%s was accepted, though the page lists no file: %s", where, upload.BodyExcerpt()))
	}
	return files, true
}

// changed words each of fields whose value in now is not the one the page
// had before the refused writes.
func (v *pageRefusals) changed(fields []string, now map[string]gjson.Result) []string {
	var out []string
	for _, f := range fields {
		if was, is := v.was[f], now[f]; was.Raw != is.Raw {
			out = append(out, fmt.Sprintf("data.%s was %s, is %s", f, was.Raw, match.Show(is)))
		}
	}
	return out
}

// judgeListed: the page's item in the listing of its type, read beside it
// after the refused edit, shows fields as before it too.
func (v *pageRefusals) judgeListed(t *framework.Fixture, fields []string, refused *client.Exchange) {
	if v.typeListing == nil || pagelist.Unread(v.typeListing) != "" || v.typeListing.StatusErr() != nil || v.typeListing.Status != http.StatusOK {
		return // the listing's own rules judge an answer that is no list
	}
	t.Judged(v.typeListing)
	var item gjson.Result
	for _, p := range pagelist.PageItems(v.typeListing).All() {
		if p.Get("key").String() == v.key {
			item = p
		}
	}
	if !item.Exists() {
		whole := v.typeListing.Get("meta.total").Int() <= listedFirst
		Expect(whole).To(BeFalse(), match.Evidence(v.typeListing, "the listing of its type, whole, lists page %s after the refused "+
			"edit (%s)", v.key, refused.RequestLine()))
		return // not among the first pages: the order is open
	}
	t.Exercised(coverage.WriteCell(coverage.WriteRefused401, coverage.ViewList))
	now := map[string]gjson.Result{}
	for _, f := range fields {
		now[f] = item.Get(f)
	}
	Expect(v.typeListing).To(match.Holds(fmt.Sprintf("page %s is listed with %s as before the edit sent without the authentication token (%s)",
		v.key, strings.Join(fields, ", "), refused.RequestLine()), func(*client.Exchange) []string { return v.changed(fields, now) }))
}

// registerRefusedOnPages: spec 5.2 and 5.5 on a page the run created (see
// above). They send writes a broken server might carry out, so they run
// only when the run may write. It returns the writes without the token,
// for registerNoEffectOnPage.
func registerRefusedOnPages(t *framework.Fixture, g *framework.Group) (noAuth func(context.Context) *pageRefusals) {
	noAuth = framework.Share(g, func(ctx context.Context) *pageRefusals {
		return refuseOnPage(ctx, t, nil, spec.EditPage, spec.UploadFile, spec.DeletePage)
	})
	wrongAuth := framework.Share(g, func(ctx context.Context) *pageRefusals {
		return refuseOnPage(ctx, t, probe.WrongToken(t.Client.AuthToken()), spec.EditPage, spec.UploadFile, spec.DeletePage)
	})
	Describe("5.2, 5.5 The authentication token, on a page the run created", func() {
		for _, ep := range []spec.Endpoint{spec.EditPage, spec.DeletePage, spec.UploadFile} {
			for _, c := range []struct {
				rule      string
				refusals  func(context.Context) *pageRefusals
				sent      tokens.Token
				withToken string
			}{{"AUTH-WRITE-NEEDS-AUTH", noAuth, tokens.Missing, "without"}, {"AUTH-WRITE-INVALID-AUTH", wrongAuth, tokens.Wrong, "with a wrong"}} {
				framework.Prepare(g, c.rule, c.refusals, func(ctx SpecContext, v *pageRefusals) {
					ex := v.sent(ep)
					t.Judged(ex)
					Expect(ex).To(match.HaveHTTPStatus(tokens.Expect(tokens.Request{API: tokens.Valid, Auth: c.sent, NeedsAuth: true}).Codes...),
						"%s the authentication token, to page %s which the run created", c.withToken, v.key)
				}, framework.Case(string(ep)+", a page the run created"), ep, framework.Writes)
			}
		}
	})
	return noAuth
}

// registerNoEffectOnPage: spec 5.5, an edit, a delete and a file upload
// refused for lack of the authentication token change nothing. Each spec
// looks only at what its write tried to change: fields the server changes
// on its own (a read time, a counter) are no effect of the write.
func registerNoEffectOnPage(t *framework.Fixture, g *framework.Group, noAuth func(context.Context) *pageRefusals) {
	Describe("5.5 A refused write to a page changes nothing", func() {
		framework.Prepare(g, "AUTH-REFUSED-WRITE-NO-EFFECT", noAuth, func(ctx SpecContext, v *pageRefusals) {
			refused := v.sent(spec.EditPage)
			t.Judged(v.before, refused, v.afterEdit)
			Expect(v.before).To(match.HaveHTTPStatus(http.StatusOK))
			var fields []string
			for _, f := range pageFieldsEdited {
				if _, ok := v.was[f]; ok {
					fields = append(fields, f)
				}
			}
			if len(fields) == 0 {
				verdicts.NotChecked("the page object has none of %s to compare", strings.Join(pageFieldsEdited, ", "))
			}
			Expect(v.afterEdit).To(match.HaveHTTPStatus(http.StatusOK))
			t.Exercised(coverage.WriteCell(coverage.WriteRefused401, coverage.ViewSingle))
			Expect(v.afterEdit).To(match.Holds(fmt.Sprintf("%s as before the edit sent without the authentication token (%s)",
				strings.Join(fields, ", "), refused.RequestLine()), func(*client.Exchange) []string { return v.changed(fields, v.now) }))
			v.judgeListed(t, fields, refused)
		}, framework.Case(string(spec.EditPage)), spec.EditPage)

		framework.Prepare(g, "AUTH-REFUSED-WRITE-NO-EFFECT", noAuth, func(ctx SpecContext, v *pageRefusals) {
			refused := v.sent(spec.DeletePage)
			t.Judged(refused, v.afterDelete)
			gone := fmt.Sprintf("the page is gone after a delete sent without the authentication token (%s)", refused.RequestLine())
			t.Exercised(coverage.WriteCell(coverage.WriteRefused401, coverage.ViewSingle))
			Expect(v.afterDelete).To(match.HaveHTTPStatus(http.StatusOK), gone)
			Expect(v.keyAfterDelete).To(Equal(v.key), match.Evidence(v.afterDelete, "%s: data.key", gone))
		}, framework.Case(string(spec.DeletePage)), spec.DeletePage)

		framework.Prepare(g, "AUTH-REFUSED-WRITE-NO-EFFECT", noAuth, func(ctx SpecContext, v *pageRefusals) {
			refused := v.sent(spec.UploadFile)
			t.Judged(refused, v.filesEx)
			if !v.listed {
				verdicts.NotChecked("GET /api/files/%s could not list the page's files after the refused upload: %s",
					v.key, match.Outcome(v.filesEx))
			}
			t.Exercised(coverage.WriteCell(coverage.WriteRefused401, coverage.ViewFiles))
			Expect(v.files).To(BeEmpty(), match.Evidence(refused,
				"the new page lists a file after an upload sent without the authentication token (%s)", v.filesEx.RequestLine()))
		}, framework.Case(string(spec.UploadFile)), spec.UploadFile)
	})
}
