package auth

import (
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

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
