package writes

import (
	"net/http"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerProtocol adds the specs of the request-body rules of spec
// section 1 (rules 3 and 4) that page writes check: JSON and form-encoded
// bodies on POST and PUT, and form values sanitised exactly once. They
// belong to the protocol area (their labels say area:protocol) but live
// here because they need pages to write to. Settings bodies are the
// settings area's.
func registerProtocol(t *framework.Fixture, k kit) {
	Describe("1 Request bodies on page writes", func() {
		// The same create and edit, once per body encoding: each must be
		// read back with the value it carried.
		createJSON := func(ctx SpecContext, title string) (*client.Exchange, string) {
			return t.CreatePage(ctx, map[string]any{"title": title})
		}
		createForm := func(ctx SpecContext, title string) (*client.Exchange, string) {
			return k.createForm(ctx, url.Values{"title": {title}})
		}
		for _, b := range []struct {
			rule, name, sent, titleWords string
			create, twin                 func(ctx SpecContext, title string) (*client.Exchange, string)
			edit                         func(ctx SpecContext, key, description string) *client.Exchange
		}{
			{"GEN-JSON-BODY", "JSON", "a JSON body (Content-Type: application/json)", "Json Body", createJSON, createForm,
				func(ctx SpecContext, key, description string) *client.Exchange {
					return k.edit(ctx, key, map[string]any{"description": description})
				}},
			{"GEN-FORM-BODY", "form", "a form-encoded body", "Form Body", createForm, createJSON,
				func(ctx SpecContext, key, description string) *client.Exchange {
					return k.editForm(ctx, key, url.Values{"description": {description}})
				}},
		} {
			t.It(b.rule, func(ctx SpecContext) {
				title := k.title(b.titleWords)
				ex, key := b.create(ctx, title)
				if ex.Err == nil && ex.Status == http.StatusBadRequest {
					// Refused: for the encoding, or for a field the server
					// requires (not shown, 4.3)? The same fields in the
					// other encoding tell.
					twin, twinKey := b.twin(ctx, title)
					if twinKey == "" {
						framework.NotChecked("the create with %s was refused (%s), and so was the same body in the other "+
							"encoding (%s): which fields a create requires is not shown (4.3)", b.sent, framework.Outcome(ex),
							framework.Outcome(twin))
					}
					t.Observe("%s: the create refused with %s was accepted with the same fields in the other encoding (%s)",
						b.rule, b.sent, framework.Outcome(twin))
				}
				expectWritten(ex, "a create with "+b.sent)
				expectEncodedOnce(k.read(ctx, key, "the page created from a "+b.name+" body"), "data.title", title,
					"the title sent in the "+b.name+" body")
			}, framework.Case("POST /api/pages"), spec.CreatePage)

			t.It(b.rule, func(ctx SpecContext) {
				key := k.mustCreate(ctx, nil)
				description := "Conformance " + b.name + " edit " + t.RunID
				ex := b.edit(ctx, key, description)
				key = k.follow(ctx, key, ex)
				Expect(ex).To(framework.BeSuccess(http.StatusOK), "an edit with "+b.sent)
				expectString(k.read(ctx, key, "the page edited with a "+b.name+" body"), "data.description", description,
					"the description sent in the "+b.name+" body")
			}, framework.Case("PUT /api/pages/{key}"), spec.EditPage)
		}

		// The title is the field whose encoding the spec fixes (HTML-encoded
		// once, section 2.1), and contentRaw is the source "HTML-encoded by
		// the core"; both must read back encoded exactly once. The spec does
		// not say whether description is encoded, so it may read back as
		// sent or encoded once, never twice. Any entity form counts as
		// encoded (see framework.BeEncodedOnce).
		sanitisedOnce := func(sent map[string]string, got *client.Exchange, why string) {
			expectEncodedOnce(got, "data.title", sent["title"], why+": title")
			if c, ok := sent["content"]; ok {
				expectEncodedOnce(got, "data.contentRaw", c, why+": contentRaw")
			}
			if d, ok := sent["description"]; ok {
				Expect(got).To(framework.HaveJSON("data.description", Or(Equal(d), framework.BeEncodedOnce(d))),
					"%s: description reads back as sent or HTML-encoded once, never twice", why)
			}
		}

		t.It("GEN-FORM-SANITISED-ONCE", func(ctx SpecContext) {
			sent := map[string]string{
				"title":       k.title("Tom & Jerry <i>"),
				"description": "Bread & Butter",
				"content":     "Fish & Chips",
			}
			form := url.Values{}
			for f, v := range sent {
				form.Set(f, v)
			}
			ex, key := k.createForm(ctx, form)
			if key == "" {
				framework.NotChecked("the form-encoded create was refused (HTTP %d; GEN-FORM-BODY judges that)", ex.Status)
			}
			sanitisedOnce(sent, k.read(ctx, key, "the page created from a form body"), "created from a form body")
		}, framework.Case("POST /api/pages"))

		t.It("GEN-FORM-SANITISED-ONCE", func(ctx SpecContext) {
			key := k.mustCreate(ctx, map[string]any{"title": k.title("Before Form Edit")})
			sent := map[string]string{"title": k.title("Salt & Pepper <b>"), "content": "Fish & Chips"}
			// The title change may move the page: a run-marked slug is sent
			// too (a server may ignore it on edit, but then the key derived
			// from the title starts with the marker's words).
			slug := t.Marker("form-edit")
			form := url.Values{"slug": {slug}}
			for f, v := range sent {
				form.Set(f, v)
			}
			ex := k.editForm(ctx, key, form)
			if ex.Err == nil && ex.Status == http.StatusBadRequest {
				// slug is not listed for edit (4.4): a server may refuse it.
				// Without it, a key derived from the title still starts
				// with the marker's words.
				form.Del("slug")
				ex = k.editForm(ctx, key, form)
			}
			key = k.follow(ctx, key, ex, slug)
			if ex.Status != http.StatusOK {
				framework.NotChecked("the form-encoded edit was refused (HTTP %d; GEN-FORM-BODY judges that)", ex.Status)
			}
			sanitisedOnce(sent, k.read(ctx, key, "the page edited with a form body"), "edited with a form body")
		}, framework.Case("PUT /api/pages/{key}"), spec.EditPage)
	})
}
