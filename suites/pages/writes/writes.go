// Package writes checks the page lifecycle of the spec: create (4.3), the
// page types (3), edit (4.4) and delete (4.5). Every page it creates
// carries the run marker and is deleted again, also when a spec fails.
// (The request-body rules of section 1 are suites/protocol's.)
package writes

import (
	"errors"
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

// Register adds the specs of the page lifecycle for target t: create (4.3,
// this file), types (3), edit (4.4) and delete (4.5) (edit.go), writes to
// hierarchical keys (hierarchy.go).
// Every page is created through t.CreatePage or t.Adopt, which register its
// deletion; pages are drafts unless the rule needs another type, and the
// published, static and sticky pages carry a date far in the past and live
// only for their own spec.
func Register(t *framework.Fixture) {
	k := kit{t}
	registerCreate(t, k)
	registerTypes(t, k)
	registerEdit(t, k)
	registerDelete(t, k)
	registerHierarchy(t, k)
}

// invalidType is a page type outside the five values of section 3.
const invalidType = "conformance-invalid-type"

func registerCreate(t *framework.Fixture, k kit) {
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
				"tags": strings.Join(tags, ","), "date": pastDate, "slug": slug,
			}
			if cat != "" {
				sent["category"] = cat
			}
			created, key := t.CreatePage(ctx, sent)
			k.created(created, "the create")
			got := k.read(ctx, key, "the fields sent on create")
			for _, c := range createdAndRead(created, got) {
				expectEncodedOnce(c.ex, "data.title", title, c.why+": title, HTML-encoded once")
				expectString(c.ex, "data.description", description, c.why+": description")
				expectEncodedOnce(c.ex, "data.contentRaw", content, c.why+": contentRaw, the source HTML-encoded once")
				Expect(c.ex.Get("data.content").String()).To(ContainSubstring(content), "%s: content holds the text sent\n\n%s", c.why, c.ex.String())
				expectString(c.ex, "data.type", "draft", c.why+": type")
				expectTagNames(c.ex, "data.tags", tags, c.why+": tags")
				if cat != "" {
					expectString(c.ex, "data.category", cat, c.why+": category (a key GET /api/categories listed)")
				}
				expectString(c.ex, "data.dateRaw", pastDate, c.why+": dateRaw, the publish date as sent")
				// date is the display form: only its form is fixed (2.1).
				Expect(c.ex).To(framework.HaveJSON("data.date", MatchRegexp(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)),
					c.why+": date, the display form YYYY-MM-DD HH:MM:SS")
				expectString(c.ex, "data.slug", slug, c.why+": slug")
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
			k.created(ex, "the create without slug")
			got := k.read(ctx, key, "the page created without slug")
			slug := got.Get("data.slug")
			Expect(slug.Type == gjson.String && slug.Str != "").To(BeTrue(),
				"the page created without slug has a slug (a non-empty string); it is %s\n\n%s", framework.JSONText(slug), got.String())
			expectString(got, "data.key", slug.Str, "the key of a top-level page created without slug is its slug")
			Expect(keepsTitleWord(slug.Str, title)).To(BeTrue(),
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
			if nc := (*framework.NotCreated)(nil); errors.As(ex.Err, &nc) {
				framework.NotChecked("the child page was not created: %s", nc.Reason)
			}
			expectWritten(ex, "the create of a child page")
			want := parent + "/" + childSlug
			expectString(ex, "data.key", want, "the key of a page created with parent "+parent)
			got := k.read(ctx, key, "the child page")
			expectString(got, "data.key", want, "the child page read back under its hierarchical key")
		})

		for _, c := range []struct {
			name string
			form bool
		}{{"JSON body", false}, {"form body", true}} {
			t.It("PAGE-TITLE-ENCODED", func(ctx SpecContext) {
				// Read back as e.g. "Salt &amp; Pepper &lt;b&gt;": any
				// once-encoding passes (see framework.BeEncodedOnce).
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
				k.created(ex, "the create")
				why := "title " + title + " sent in a " + c.name + " (encoded once; never &amp;amp;)"
				expectEncodedOnceIfPresent(ex, "data.title", title, "the create response: "+why)
				expectEncodedOnce(k.read(ctx, key, "its title"), "data.title", title, "the page read back: "+why)
			}, framework.Case(c.name))
		}

		t.It("PAGE-CONTENT-MARKDOWN", func(ctx SpecContext) {
			const content = "Conformance **bold** text"
			ex, key := t.CreatePage(ctx, map[string]any{"content": content})
			k.created(ex, "the create")
			got := k.read(ctx, key, "its content")
			for _, c := range createdAndRead(ex, got) {
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
			k.created(ex, "the create")
			if ex.Get("data.tags").Exists() {
				expectTagNames(ex, "data.tags", names, "the create response")
			}
			expectTagNames(k.read(ctx, key, "its tags"), "data.tags", names, "the page read back")
		})

		t.It("PAGE-COVER-IMAGE-ABSOLUTE", func(ctx SpecContext) {
			// A filename, not a URL: the server must make the URL itself.
			file := coverImageFile(t)
			ex, key := t.CreatePage(ctx, map[string]any{"coverImage": file})
			k.created(ex, "the create with a cover image")
			got := k.read(ctx, key, "its cover image")
			for _, c := range createdAndRead(ex, got) {
				cover := c.ex.Get("data.coverImage")
				if c.ex == ex && !cover.Exists() {
					continue // the create response's shape is PAGE-CREATE-201's
				}
				if cover.Type != gjson.String {
					framework.NotChecked("the page created with coverImage %q has coverImage %s in %s: no cover image to judge",
						file, framework.Show(cover), c.why)
				}
				Expect(c.ex).To(framework.HaveJSON("data.coverImage", beAbsoluteURL()),
					"%s: coverImage of a page created with the cover image filename %q", c.why, file)
			}
		}, framework.Case("a page created with a cover image filename"), framework.Writes)

		t.It("PAGE-CREATE-INVALID-TYPE", func(ctx SpecContext) {
			slug := t.Marker("invalid-type")
			// A past date: a server that accepts the create may give the
			// page its default type, perhaps published, and the page then
			// sorts last in a live site's lists for the moment it exists.
			ex, key := t.CreatePage(ctx, map[string]any{"slug": slug, "type": invalidType, "date": pastDate})
			if key != "" {
				// Accepted: the spec does not list which values a create
				// validates, so a server may ignore or replace the value;
				// it may not store it (a page's type is one of five, 2.1).
				expectValidType(ex, "the create response to a create with type "+invalidType, true)
				got := k.read(ctx, key, "its type")
				expectValidType(got, "the page created with type "+invalidType, false)
				t.Observe("PAGE-CREATE-INVALID-TYPE: a create with type %q was accepted (HTTP %d) and the page's type is %s",
					invalidType, ex.Status, got.Get("data.type").Raw)
				return
			}
			if ex.Status >= 400 {
				// A refused create must leave nothing behind; if the page
				// exists anyway, take it over so that cleanup removes it.
				if r := t.Read(ctx, framework.PagePath(slug), nil); r.Err == nil && r.Status == http.StatusOK && r.Get("data.key").String() == slug {
					t.AdoptKey(ctx, slug)
					t.Observe("PAGE-CREATE-INVALID-TYPE: the create was refused with HTTP %d but page %s exists afterwards", ex.Status, slug)
				}
			}
			Expect(ex).To(framework.BeHandlerError(http.StatusBadRequest), "a create with type %q", invalidType)
		})
	})
}
