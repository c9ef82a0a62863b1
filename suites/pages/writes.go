package pages

import (
	"net/http"
	"net/url"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// writeInvalidType is a page type outside the five values of section 3.
const writeInvalidType = "conformance-invalid-type"

// registerWrites adds the specs of the page lifecycle: create (4.3), types
// (3), edit (4.4) and delete (4.5), and the request-body rules of section 1
// that page writes check (writes_protocol.go). Every page is created through
// t.CreatePage or t.Adopt, which register its deletion; pages are drafts
// unless the rule needs another type, and the published, static and sticky
// pages carry a date far in the past and live only for their own spec.
func registerWrites(t *framework.Fixture) {
	k := writeKit{t}
	registerWriteCreate(t, k)
	registerWriteTypes(t, k)
	registerWriteEdit(t, k)
	registerWriteDelete(t, k)
	registerWriteProtocol(t, k)
}

func registerWriteCreate(t *framework.Fixture, k writeKit) {
	Describe("4.3 POST /api/pages", Label(spec.CreatePage.Label()), func() {
		t.It("PAGE-CREATE-201", func(ctx SpecContext) {
			ex, _ := t.CreatePage(ctx, map[string]any{"title": k.title("Create")})
			Expect(ex).To(framework.BeSuccess(http.StatusCreated))
			Expect(ex).To(framework.MatchSchema("page-response.json"))
		})

		t.It("PAGE-CREATE-FIELDS", func(ctx SpecContext) {
			cat := k.category(ctx)
			if cat == "" {
				t.Observe("PAGE-CREATE-FIELDS: GET /api/categories names no category, so category was not sent on create")
			}
			title := k.title("Fields & <more>")
			description := "Conformance fields description " + t.RunID
			content := "Conformance fields content " + t.RunID
			tags := []string{"Conformance " + t.RunID + " Fields One", "Conformance " + t.RunID + " Fields Two"}
			slug := t.Marker("fields")
			sent := map[string]any{
				"title": title, "description": description, "content": content, "type": "draft",
				"tags": strings.Join(tags, ","), "date": writePastDate, "slug": slug,
			}
			if cat != "" {
				sent["category"] = cat
			}
			created, key := t.CreatePage(ctx, sent)
			k.expectWritten(created, "the create")
			got := k.read(ctx, key, "the fields sent on create")
			for _, c := range []struct {
				ex  *client.Exchange
				why string
			}{{created, "the create response"}, {got, "the page read back"}} {
				k.expectEncodedOnce(c.ex, "data.title", title, c.why+": title, HTML-encoded once")
				k.expectString(c.ex, "data.description", description, c.why+": description")
				k.expectEncodedOnce(c.ex, "data.contentRaw", content, c.why+": contentRaw, the source HTML-encoded once")
				Expect(c.ex.Get("data.content").String()).To(ContainSubstring(content), "%s: content holds the text sent\n\n%s", c.why, c.ex.String())
				k.expectString(c.ex, "data.type", "draft", c.why+": type")
				k.expectTagNames(c.ex, "data.tags", tags, c.why+": tags")
				if cat != "" {
					k.expectString(c.ex, "data.category", cat, c.why+": category (a key GET /api/categories listed)")
				}
				k.expectString(c.ex, "data.dateRaw", writePastDate, c.why+": dateRaw")
				k.expectString(c.ex, "data.date", writePastDate, c.why+": date")
				k.expectString(c.ex, "data.slug", slug, c.why+": slug")
			}
		})

		t.It("PAGE-CREATE-SLUG-FROM-TITLE", func(ctx SpecContext) {
			// The spec says only that the slug is "derived from the title"
			// (4.3), not how: case, separators, stop words, length and
			// suffixes are the server's. So the slug must be non-empty, be
			// the page's key, and keep some word of the title; the usual
			// derivation ("conformance-<run>-slug-from-title", which also
			// carries the run marker) is only recorded.
			title := k.title("Slug From Title")
			ex, key := t.CreatePage(ctx, map[string]any{"title": title, "slug": nil})
			k.expectWritten(ex, "the create without slug")
			got := k.read(ctx, key, "the page created without slug")
			slug := got.Get("data.slug")
			Expect(slug.Type == gjson.String && slug.Str != "").To(BeTrue(),
				"the page created without slug has a slug (a non-empty string); it is %s\n\n%s", k.describe(slug), got.String())
			k.expectString(got, "data.key", slug.Str, "the key of a top-level page created without slug is its slug")
			Expect(k.keepsTitleWord(slug.Str, title)).To(BeTrue(),
				"the slug %q is derived from the title %q: it keeps at least one of the title's words\n\n%s", slug.Str, title, got.String())
			if usual := t.Marker("slug-from-title"); slug.Str != usual {
				t.Observe("PAGE-CREATE-SLUG-FROM-TITLE: the title %q gave the slug %q (lowercase words joined by '-' would be %q; the spec does not say how slugs are derived)",
					title, slug.Str, usual)
			}
		})

		t.It("PAGE-CREATE-PARENT", func(ctx SpecContext) {
			// The parent is created first, so its deferred deletion runs
			// after the child's (DeferCleanup is last-in, first-out).
			parent := k.mustCreate(ctx, map[string]any{"title": k.title("Parent"), "slug": t.Marker("parent")})
			childSlug := t.Marker("child")
			ex, key := t.CreatePage(ctx, map[string]any{"title": k.title("Child"), "slug": childSlug, "parent": parent})
			k.expectWritten(ex, "the create of a child page")
			want := parent + "/" + childSlug
			k.expectString(ex, "data.key", want, "the key of a page created with parent "+parent)
			got := k.read(ctx, key, "the child page")
			k.expectString(got, "data.key", want, "the child page read back under its hierarchical key")
		})

		for _, c := range []struct {
			name string
			form bool
		}{{"JSON body", false}, {"form body", true}} {
			t.It("PAGE-TITLE-ENCODED", func(ctx SpecContext) {
				// Read back as e.g. "Salt &amp; Pepper &lt;b&gt;": any
				// once-encoding passes (see encodedOnce).
				const title = "Salt & Pepper <b>"
				slug := t.Marker("title-json")
				var ex *client.Exchange
				var key string
				if c.form {
					slug = t.Marker("title-form")
					ex, key = k.createForm(ctx, url.Values{"title": {title}, "slug": {slug}})
				} else {
					ex, key = t.CreatePage(ctx, map[string]any{"title": title, "slug": slug})
				}
				if c.form && key == "" {
					framework.NotChecked("the form-encoded create was refused (HTTP %d; GEN-FORM-BODY judges that)", ex.Status)
				}
				k.expectWritten(ex, "the create")
				why := "title " + title + " sent in a " + c.name + " (encoded once; never &amp;amp;)"
				k.expectEncodedOnceIfPresent(ex, "data.title", title, "the create response: "+why)
				k.expectEncodedOnce(k.read(ctx, key, "its title"), "data.title", title, "the page read back: "+why)
			}, framework.Case(c.name))
		}

		t.It("PAGE-CONTENT-MARKDOWN", func(ctx SpecContext) {
			const content = "Conformance **bold** text"
			ex, key := t.CreatePage(ctx, map[string]any{"content": content})
			k.expectWritten(ex, "the create")
			got := k.read(ctx, key, "its content")
			for _, c := range []struct {
				ex  *client.Exchange
				why string
			}{{ex, "the create response"}, {got, "the page read back"}} {
				if c.ex == ex && !ex.Get("data.content").Exists() {
					continue // the create response's shape is PAGE-CREATE-201's
				}
				html := c.ex.Get("data.content").String()
				Expect(strings.Contains(html, "<strong>bold</strong>") || strings.Contains(html, "<b>bold</b>")).To(BeTrue(),
					"%s: content %q renders **bold** as <strong>bold</strong> or <b>bold</b>\n\n%s", c.why, html, c.ex.String())
				Expect(c.ex.Get("data.contentRaw").String()).To(ContainSubstring("**bold**"),
					"%s: contentRaw holds the Markdown source %q\n\n%s", c.why, content, c.ex.String())
			}
		})

		t.It("PAGE-TAGS-MAP", func(ctx SpecContext) {
			names := []string{"Conformance " + t.RunID + " Tag One", "Conformance " + t.RunID + " Tag Two"}
			ex, key := t.CreatePage(ctx, map[string]any{"tags": names[0] + ", " + names[1]})
			k.expectWritten(ex, "the create")
			if ex.Get("data.tags").Exists() {
				k.expectTagNames(ex, "data.tags", names, "the create response")
			}
			k.expectTagNames(k.read(ctx, key, "its tags"), "data.tags", names, "the page read back")
		})

		t.It("PAGE-CREATE-INVALID-TYPE", func(ctx SpecContext) {
			slug := t.Marker("invalid-type")
			// A past date: a server that accepts the create may give the
			// page its default type, perhaps published, and the page then
			// sorts last in a live site's lists for the moment it exists.
			ex, key := t.CreatePage(ctx, map[string]any{"slug": slug, "type": writeInvalidType, "date": writePastDate})
			if key != "" {
				// Accepted: the spec does not list which values a create
				// validates, so a server may ignore or replace the value;
				// it may not store it (a page's type is one of five, 2.1).
				k.expectValidType(ex, "the create response to a create with type "+writeInvalidType, true)
				got := k.read(ctx, key, "its type")
				k.expectValidType(got, "the page created with type "+writeInvalidType, false)
				t.Observe("PAGE-CREATE-INVALID-TYPE: a create with type %q was accepted (HTTP %d) and the page's type is %s",
					writeInvalidType, ex.Status, got.Get("data.type").Raw)
				return
			}
			if ex.Status >= 400 {
				// A refused create must leave nothing behind; if the page
				// exists anyway, take it over so that cleanup removes it.
				if r := t.Read(ctx, k.pagePath(slug), nil); r.Err == nil && r.Status == http.StatusOK && r.Get("data.key").String() == slug {
					t.AdoptKey(slug)
					t.Observe("PAGE-CREATE-INVALID-TYPE: the create was refused with HTTP %d but page %s exists afterwards", ex.Status, slug)
				}
			}
			Expect(ex).To(framework.BeHandlerError(http.StatusBadRequest), "a create with type %q", writeInvalidType)
		})
	})
}

// registerWriteTypes checks PAGE-TYPE-ROUNDTRIP for each type, on create
// and on edit. Published, static and sticky pages get a past date (a future
// one may legitimately make them scheduled); scheduled gets a future date.
func registerWriteTypes(t *framework.Fixture, k writeKit) {
	Describe("3 Page types", func() {
		for _, typ := range []string{"published", "draft", "static", "sticky", "scheduled"} {
			t.It("PAGE-TYPE-ROUNDTRIP", func(ctx SpecContext) {
				date := writePastDate
				if typ == "scheduled" {
					date = k.futureDate()
				}
				ex, key := t.CreatePage(ctx, map[string]any{"slug": t.Marker("create-" + typ), "type": typ, "date": date})
				k.expectWritten(ex, "the create with type "+typ)
				k.expectStringIfPresent(ex, "data.type", typ, "the create response")
				k.expectString(k.read(ctx, key, "its type"), "data.type", typ, "the page read back")
			}, framework.Case("create with type "+typ), spec.CreatePage)

			t.It("PAGE-TYPE-ROUNDTRIP", func(ctx SpecContext) {
				// Start from another type, so that the edit has to change it.
				start, startDate := "draft", writePastDate
				if typ == "draft" {
					start, startDate = "scheduled", k.futureDate()
				}
				key := k.mustCreate(ctx, map[string]any{"slug": t.Marker("edit-" + typ), "type": start, "date": startDate})
				body := map[string]any{"type": typ}
				if typ == "scheduled" {
					body["date"] = k.futureDate()
				}
				ex := k.edit(ctx, key, body)
				key = k.follow(ctx, key, ex)
				Expect(ex).To(framework.BeSuccess(http.StatusOK), "the edit from type %s to %s", start, typ)
				k.expectStringIfPresent(ex, "data.type", typ, "the edit response")
				k.expectString(k.read(ctx, key, "its type"), "data.type", typ, "the page read back after the edit from "+start)
			}, framework.Case("edit to type "+typ), spec.EditPage)
		}
	})
}

// stableFields are the page object fields compared before and after an edit
// that must not change them (description is compared apart).
func (k writeKit) stableFields() []string {
	return []string{"key", "uuid", "title", "content", "contentRaw", "type", "slug", "date", "dateRaw",
		"dateUTC", "tags", "username", "category", "permalink", "coverImage", "coverImageFilename"}
}

func registerWriteEdit(t *framework.Fixture, k writeKit) {
	Describe("4.4 PUT /api/pages/{key}", Label(spec.EditPage.Label()), func() {
		t.It("PAGE-EDIT-OK", func(ctx SpecContext) {
			key := k.mustCreate(ctx, map[string]any{"description": "Conformance before"})
			description := "Conformance edited " + t.RunID
			ex := k.edit(ctx, key, map[string]any{"description": description})
			k.follow(ctx, key, ex)
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("page-response.json"))
			k.expectString(ex, "data.description", description, "the updated page object")
		})

		t.It("PAGE-EDIT-PARTIAL", func(ctx SpecContext) {
			fields := map[string]any{
				"title":       k.title("Partial"),
				"description": "Conformance partial before",
				"content":     "Conformance partial **content**",
				"tags":        "Conformance " + t.RunID + " Partial",
				"date":        writePastDate,
			}
			if cat := k.category(ctx); cat != "" {
				fields["category"] = cat
			} else {
				t.Observe("PAGE-EDIT-PARTIAL: GET /api/categories names no category, so category was not part of the check")
			}
			key := k.mustCreate(ctx, fields)
			before := k.read(ctx, key, "before the edit")
			description := "Conformance partial after"
			ex := k.edit(ctx, key, map[string]any{"description": description})
			key = k.follow(ctx, key, ex)
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK), "an edit that sends only description")
			after := k.read(ctx, key, "after an edit that sent only description")
			k.expectString(after, "data.description", description, "the field sent")
			k.expectUnchanged(before, after, k.stableFields(), "fields the edit did not send changed")
		})

		for _, c := range []struct {
			name      string
			body      func() map[string]any
			candidate string
		}{
			{"title changed", func() map[string]any { return map[string]any{"title": k.title("Retitled")} }, t.Marker("retitled")},
			// slug is not listed for edit (4.4): a server may ignore it,
			// or refuse it with 400 (then this case is not checked).
			{"title and slug changed", func() map[string]any {
				return map[string]any{"title": k.title("Renamed"), "slug": t.Marker("renamed")}
			}, t.Marker("renamed")},
		} {
			t.It("PAGE-EDIT-KEY-CHANGE", func(ctx SpecContext) {
				key := k.mustCreate(ctx, map[string]any{"title": k.title("Before Rename")})
				body := c.body()
				ex := k.edit(ctx, key, body)
				where := k.follow(ctx, key, ex, c.candidate)
				if _, slug := body["slug"]; slug && ex.Err == nil && ex.Status == http.StatusBadRequest {
					framework.NotChecked("the edit sending slug was refused with HTTP 400; slug is not listed for edit (4.4), so a server may refuse it")
				}
				Expect(ex).To(framework.BeSuccess(http.StatusOK), "an edit with the %s", c.name)
				newKey := ex.Get("data.key").String()
				Expect(newKey).NotTo(BeEmpty(), "data.key of the edit response\n\n%s", ex.String())
				Expect(newKey).To(Equal(where), "data.key names where the page now is\n\n%s", ex.String())
				got := k.read(ctx, newKey, "under the key the edit returned")
				k.expectString(got, "data.key", newKey, "the page read under the key the edit returned")
				k.expectEncodedOnce(got, "data.title", body["title"].(string), "the page read under the key the edit returned is the edited page")
				if newKey == key {
					t.Observe("PAGE-EDIT-KEY-CHANGE: an edit with the %s kept the key (the spec allows it)", c.name)
				}
			}, framework.Case(c.name))
		}

		t.It("PAGE-UUID-STABLE", func(ctx SpecContext) {
			key := k.mustCreate(ctx, map[string]any{"title": k.title("Uuid Before")})
			uuid := k.read(ctx, key, "its uuid").Get("data.uuid").String()
			ex := k.edit(ctx, key, map[string]any{"title": k.title("Uuid Renamed"), "slug": t.Marker("uuid-renamed")})
			if ex.Err == nil && ex.Status == http.StatusBadRequest {
				// slug is not listed for edit (4.4), so a server may refuse
				// it: rename by the title alone (it may change the key).
				t.Observe("PAGE-UUID-STABLE: an edit sending slug was refused with HTTP 400; the page is renamed by its title alone")
				ex = k.edit(ctx, key, map[string]any{"title": k.title("Uuid Renamed")})
			}
			where := k.follow(ctx, key, ex, t.Marker("uuid-renamed"))
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK), "an edit with a new title and slug")
			k.expectString(k.read(ctx, where, "after the rename"), "data.uuid", uuid, "the uuid after the edit")
			if where == key {
				framework.NotChecked("the edit with a new title and slug kept the key, so no rename happened (the uuid did stay the same)")
			}
		})

		t.It("PAGE-EDIT-404", func(ctx SpecContext) {
			ex := k.edit(ctx, t.Marker("no-such-page"), map[string]any{"description": "Conformance"})
			t.Adopt(ex) // should the server have made a page, it is removed
			Expect(ex).To(framework.BeHandlerError(http.StatusNotFound))
		})

		t.It("PAGE-EDIT-INVALID-400", func(ctx SpecContext) {
			key := k.mustCreate(ctx, map[string]any{"description": "Conformance before", "date": writePastDate})
			before := k.read(ctx, key, "before the edit")
			ex := k.edit(ctx, key, map[string]any{"type": writeInvalidType, "description": "Conformance must not be applied"})
			key = k.follow(ctx, key, ex)
			if ex.Err == nil && ex.Status >= 200 && ex.Status < 300 {
				// Accepted: the spec does not list which values an edit
				// validates, so a server may ignore or replace the value;
				// it may not store it (a page's type is one of five, 2.1).
				Expect(ex).To(framework.BeSuccess(http.StatusOK), "an accepted edit with type %q", writeInvalidType)
				k.expectValidType(ex, "the edit response to an edit with type "+writeInvalidType, true)
				after := k.read(ctx, key, "after the accepted edit")
				k.expectValidType(after, "the page edited with type "+writeInvalidType, false)
				t.Observe("PAGE-EDIT-INVALID-400: an edit with type %q was accepted and the page's type is %s",
					writeInvalidType, after.Get("data.type").Raw)
				return
			}
			Expect(ex).To(framework.BeHandlerError(http.StatusBadRequest), "an edit with type %q", writeInvalidType)
			after := k.read(ctx, key, "after the refused edit")
			k.expectUnchanged(before, after, append([]string{"description"}, k.stableFields()...), "the refused edit changed the page")
		})
	})
}

func registerWriteDelete(t *framework.Fixture, k writeKit) {
	Describe("4.5 DELETE /api/pages/{key}", Label(spec.DeletePage.Label()), func() {
		// A deleted page stays in the ledger: its cleanup sends one more
		// DELETE (404 counts as gone), which also covers a server that
		// answers the spec's DELETE without deleting.
		t.It("PAGE-DELETE-OK", func(ctx SpecContext) {
			key := k.mustCreate(ctx, nil)
			ex := t.Write(ctx, http.MethodDelete, k.pagePath(key), nil)
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("delete-response.json"))
		})

		t.It("PAGE-DELETE-GONE", func(ctx SpecContext) {
			key := k.mustCreate(ctx, nil)
			ex := t.Write(ctx, http.MethodDelete, k.pagePath(key), nil)
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK), "the first delete")
			Expect(t.Read(ctx, k.pagePath(key), nil)).To(framework.BeHandlerError(http.StatusNotFound), "reading the deleted page")
			Expect(t.Write(ctx, http.MethodDelete, k.pagePath(key), nil)).To(framework.BeHandlerError(http.StatusNotFound), "deleting it again")
		})

		t.It("PAGE-DELETE-404", func(ctx SpecContext) {
			ex := t.Write(ctx, http.MethodDelete, k.pagePath(t.Marker("no-such-page")), nil)
			Expect(ex).To(framework.BeHandlerError(http.StatusNotFound))
		})
	})
}
