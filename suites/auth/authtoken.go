package auth

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
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerAuthToken: spec 5.2 and 5.5. Write endpoints and GET
// /api/settings answer 401 without a valid authentication token, and a
// refused write changes nothing.
func registerAuthToken(t *framework.Fixture) {
	Describe("5.2, 5.5 The authentication token on write endpoints", func() {
		// Each rule's safe probes go out together (batch).
		noneBatch, wrongBatch := newBatch(t), newBatch(t)
		for _, ep := range spec.Endpoints() {
			if !ep.Writes() {
				continue
			}
			none := t.NewProbe(ep, "no-auth-"+framework.EndpointName(ep))
			sendNone := noneBatch.slot(none, func() client.Request {
				r := none.Request()
				r.Credentials = client.APIToken
				return r
			})
			t.It("AUTH-WRITE-NEEDS-AUTH", func(ctx SpecContext) {
				expectRefused(none, sendNone.send(ctx))
			}, append([]any{framework.Case(caseName(none))}, none.Decorators()...)...)

			wrong := t.NewProbe(ep, "bad-auth-"+framework.EndpointName(ep))
			sendWrong := wrongBatch.slot(wrong, func() client.Request {
				r := wrong.Request()
				r.Credentials, r.AuthValue = client.BothTokens, framework.WrongToken(t.Client.AuthToken())
				return r
			})
			t.It("AUTH-WRITE-INVALID-AUTH", func(ctx SpecContext) {
				expectRefused(wrong, sendWrong.send(ctx))
			}, append([]any{framework.Case(caseName(wrong))}, wrong.Decorators()...)...)
		}

		// The probes above name a page that does not exist, where a 404
		// tells nothing of the authentication check; on a page the run
		// created the authentication token is the only thing wrong, and
		// only 401 will do. These send an edit, a delete and a file upload
		// that a broken server might carry out, on a run-created page, so
		// they run only when the run may write.
		for _, ep := range []spec.Endpoint{spec.EditPage, spec.DeletePage, spec.UploadFile} {
			for _, c := range []struct {
				rule string
				auth *string // nil: no authentication token
			}{{"AUTH-WRITE-NEEDS-AUTH", nil}, {"AUTH-WRITE-INVALID-AUTH", framework.WrongToken(t.Client.AuthToken())}} {
				t.It(c.rule, func(ctx SpecContext) {
					key := createPage(ctx, t, "target of a write without a valid authentication token")
					r := refusedWrite(t, ep, key)
					if c.auth != nil {
						r.Credentials, r.AuthValue = client.BothTokens, c.auth
					}
					ex := t.Client.Do(ctx, r)
					if ep == spec.UploadFile {
						listStoredUpload(ctx, t, key, ex)
					}
					Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
				}, framework.Case(string(ep)+", a page the run created"), ep, framework.Writes)
			}
		}
	})

	Describe("4.9, 5.2 GET /api/settings needs the authentication token", Label(spec.GetSettings.Label()), func() {
		t.It("AUTH-SETTINGS-READ-NEEDS-AUTH", func(ctx SpecContext) {
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/settings", Credentials: client.APIToken})
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
		}, framework.Case("no authentication"))
		t.It("AUTH-SETTINGS-READ-NEEDS-AUTH", func(ctx SpecContext) {
			ex := t.Client.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/settings",
				Credentials: client.BothTokens, AuthValue: framework.WrongToken(t.Client.AuthToken())})
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusUnauthorized))
		}, framework.Case("invalid authentication"))
	})

	registerRefusedWriteNoEffect(t)
}

// expectRefused judges probe p's answer without a valid authentication
// token: 401. A probe naming a page that does not exist may be answered
// 404 instead (no page has the key), and that answer says nothing about
// the authentication check, so the spec is not checked then (see the
// rules' Reading): when the run may write, the specs on a run-created
// page check the 401.
func expectRefused(p framework.Probe, ex *client.Exchange) {
	Expect(ex).To(framework.HaveHTTPStatus(refusals(p)...))
	if ex.Status == http.StatusNotFound {
		framework.NotChecked("%s answered 404: no page has the key, which a server may check before the authentication "+
			"token (4.4, 4.5, 7), so this request shows nothing about 5.5's 401", p.Endpoint)
	}
}

// refusedWrite is a write of ep to the run-created page key without the
// authentication token (the caller may add a wrong one): an edit of its
// description, a delete, or a run-marked text file upload.
func refusedWrite(t *framework.Fixture, ep spec.Endpoint, key string) client.Request {
	r := client.Request{Method: ep.Method(), Path: client.KeyPath("pages", key), Credentials: client.APIToken}
	switch ep {
	case spec.EditPage:
		r.JSON = map[string]any{"description": "conformance: must be refused"}
	case spec.UploadFile:
		r.Path = client.KeyPath("files", key)
		r.Files = []client.File{{Field: "file", Name: t.Marker("refused-upload") + ".txt", MIMEType: "text/plain",
			Content: []byte("conformance: must be refused\n")}}
	}
	return r
}

// listStoredUpload lists in the run summary every file that a refused
// upload (ex) to the run-created page key stored after all (the API cannot
// delete uploads): the page is new, so any file its list shows is one. It
// returns the listing, nil when it could not be read.
func listStoredUpload(ctx context.Context, t *framework.Fixture, key string, ex *client.Exchange) []gjson.Result {
	list := t.Read(ctx, client.KeyPath("files", key), nil)
	where := fmt.Sprintf("POST /api/files/%s without a valid authentication token (spec %q)", key, CurrentSpecReport().LeafNodeText)
	if list.Err != nil || list.Status != http.StatusOK || !list.Get("data").IsArray() {
		if ex.StatusErr() == nil && ex.Status/100 == 2 {
			t.Ledger.AddUpload(fmt.Sprintf("%s was accepted: %s", where, ex.BodyExcerpt()))
		}
		return nil
	}
	files := list.Get("data").Array()
	for _, f := range files {
		t.Ledger.AddUpload(fmt.Sprintf("%s stored %s", where, f.Get("file").String()))
	}
	if len(files) == 0 && ex.StatusErr() == nil && ex.Status/100 == 2 {
		t.Ledger.AddUpload(fmt.Sprintf("%s was accepted, though the page lists no file: %s", where, ex.BodyExcerpt()))
	}
	return files
}

// createPage makes a run-marked draft for a spec that needs a real page.
func createPage(ctx context.Context, t *framework.Fixture, description string) string {
	ex, key := t.CreatePage(ctx, map[string]any{"description": description})
	if key == "" {
		framework.NotChecked("could not create a page to work on: HTTP %d %s", ex.Status, ex.BodyExcerpt())
	}
	return key
}

// pageFieldsEdited are the page object's fields a refused edit tries to
// change: description, and content in both its forms (rendered and raw).
var pageFieldsEdited = []string{"description", "content", "contentRaw"}

// registerRefusedWriteNoEffect: spec 5.5. A write refused for lack of the
// authentication token changes nothing. Each spec looks only at what its
// write tried to change: fields the server changes on its own (a read
// time, a counter) are no effect of the write.
func registerRefusedWriteNoEffect(t *framework.Fixture) {
	Describe("5.5 A refused write changes nothing", func() {
		create := t.NewProbe(spec.CreatePage, "no-effect")
		t.It("AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx SpecContext) {
			r := create.Request()
			r.Credentials = client.APIToken
			refused := create.Send(ctx, r) // removes the page if it was made after all
			key := create.Slug
			if k := refused.Get("data.key").String(); refused.Status/100 == 2 && k != "" {
				key = k
			}
			// The page exists when reading its key succeeds with it; how a
			// missing page is answered is PAGE-GET-404's rule.
			after := t.ReadAuth(ctx, client.KeyPath("pages", key), nil)
			if after.StatusErr() != nil {
				framework.NotChecked("reading back %s failed: %s", key, framework.Outcome(after))
			}
			// Judged on any answer: a 404 (or any answer without the page)
			// passes, the page itself fails.
			Expect(after).NotTo(framework.HaveJSON("data.key", Equal(key)),
				"the create sent without the authentication token (among this spec's requests) made page %s anyway", key)
		}, framework.Case(string(spec.CreatePage)), spec.CreatePage)

		t.It("AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx SpecContext) {
			key := createPage(ctx, t, "before the refused edit")
			before := t.ReadAuth(ctx, client.KeyPath("pages", key), nil)
			Expect(before).To(framework.HaveHTTPStatus(http.StatusOK))
			var fields []string
			for _, f := range pageFieldsEdited {
				if before.Get("data." + f).Exists() {
					fields = append(fields, f)
				}
			}
			if len(fields) == 0 {
				framework.NotChecked("the page object has none of %s to compare", strings.Join(pageFieldsEdited, ", "))
			}
			// description and content only: a title change could move the
			// page to a key without the run marker.
			refused := t.Client.Do(ctx, client.Request{Method: http.MethodPut, Path: client.KeyPath("pages", key),
				JSON: map[string]any{"description": "changed by a refused edit", "content": "changed by a refused edit"}})
			after := t.ReadAuth(ctx, client.KeyPath("pages", key), nil)
			Expect(after).To(framework.HaveHTTPStatus(http.StatusOK))
			Expect(after).To(framework.Hold(fmt.Sprintf("%s as before the edit sent without the authentication token (#%d; "+
				"the read before it is among this spec's requests)", strings.Join(fields, ", "), refused.Seq),
				func(ex *client.Exchange) []string {
					var changed []string
					for _, f := range fields {
						if was, now := before.Get("data."+f), ex.Get("data."+f); was.Raw != now.Raw {
							changed = append(changed, fmt.Sprintf("data.%s was %s, is %s", f, was.Raw, framework.Show(now)))
						}
					}
					return changed
				}))
		}, framework.Case(string(spec.EditPage)), spec.EditPage)

		t.It("AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx SpecContext) {
			key := createPage(ctx, t, "target of a refused delete")
			refused := t.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: client.KeyPath("pages", key)})
			after := t.ReadAuth(ctx, client.KeyPath("pages", key), nil)
			gone := fmt.Sprintf("the page is gone after a delete sent without the authentication token (#%d, among this spec's requests)", refused.Seq)
			Expect(after).To(framework.HaveHTTPStatus(http.StatusOK), gone)
			Expect(after).To(framework.HaveJSON("data.key", Equal(key)), gone)
		}, framework.Case(string(spec.DeletePage)), spec.DeletePage)

		t.It("AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx SpecContext) {
			key := createPage(ctx, t, "target of a refused file upload")
			refused := t.Client.Do(ctx, refusedWrite(t, spec.UploadFile, key))
			files := listStoredUpload(ctx, t, key, refused)
			if files == nil {
				framework.NotChecked("GET /api/files/%s could not list the page's files after the refused upload", key)
			}
			Expect(files).To(BeEmpty(), framework.Evidence(refused,
				"the new page lists a file after an upload sent without the authentication token (the listing is among this spec's requests)"))
		}, framework.Case(string(spec.UploadFile)), spec.UploadFile)

		t.It("AUTH-REFUSED-WRITE-NO-EFFECT", func(ctx SpecContext) {
			g := t.GuardSettings(ctx, "a settings PUT without the authentication token (must be refused)")
			field := ""
			for _, f := range []string{"slogan", "description", "title"} {
				if _, ok := g.Original()[f].(string); ok {
					field = f
					break
				}
			}
			if field == "" {
				framework.NotChecked("the settings have none of slogan, description, title as a string to try to change")
			}
			// A real change is attempted, so that a server carrying the
			// refused request out shows it; the guard undoes such a change.
			refused := g.Send(ctx, client.Request{Method: http.MethodPut, Path: "/api/settings",
				JSON: map[string]any{field: "conformance " + t.RunID}})
			nowEx, now, problem := t.ReadSettings(ctx)
			Expect(problem).To(BeEmpty(), framework.Evidence(nowEx, "GET /api/settings gives the settings after the refused PUT"))
			Expect(now[field]).To(Equal(g.Original()[field]), framework.Evidence(nowEx,
				"setting %s changed after a PUT sent without the authentication token tried to change it (#%d, among this spec's requests)",
				field, refused.Seq))
		}, framework.Case(string(spec.EditSettings)), spec.EditSettings, framework.SettingsWrites)
	})
}
