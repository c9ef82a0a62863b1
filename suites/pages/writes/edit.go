package writes

// The page types (3), edit (4.4), writes to hierarchical keys (2.1) and
// delete (4.5).

import (
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

// registerTypes checks PAGE-TYPE-ROUNDTRIP for each type, on create
// and on edit. Published, static and sticky pages get a past date (a future
// one may legitimately make them scheduled); scheduled gets a future date.
func registerTypes(t *framework.Fixture, k kit) {
	Describe("3 Page types", func() {
		for _, typ := range framework.PageTypes() {
			t.It("PAGE-TYPE-ROUNDTRIP", func(ctx SpecContext) {
				date := pastDate
				if typ == "scheduled" {
					date = futureDate()
				}
				ex, key := t.CreatePage(ctx, map[string]any{"slug": t.Marker("create-" + typ), "type": typ, "date": date})
				k.created(ex, "the create with type "+typ)
				expectStringIfPresent(ex, "data.type", typ, "the create response")
				expectString(k.read(ctx, key, "its type"), "data.type", typ, "the page read back")
			}, framework.Case("create with type "+typ), spec.CreatePage)

			t.It("PAGE-TYPE-ROUNDTRIP", func(ctx SpecContext) {
				// Start from another type, so that the edit has to change it.
				start, startDate := "draft", pastDate
				if typ == "draft" {
					start, startDate = "scheduled", futureDate()
				}
				key := k.mustCreate(ctx, map[string]any{"slug": t.Marker("edit-" + typ), "type": start, "date": startDate})
				body := map[string]any{"type": typ}
				if typ == "scheduled" {
					body["date"] = futureDate()
				}
				ex := k.edit(ctx, key, body)
				key = k.follow(ctx, key, ex)
				Expect(ex).To(framework.BeSuccess(http.StatusOK), "the edit from type %s to %s", start, typ)
				expectStringIfPresent(ex, "data.type", typ, "the edit response")
				expectString(k.read(ctx, key, "its type"), "data.type", typ, "the page read back after the edit from "+start)
			}, framework.Case("edit to type "+typ), spec.EditPage)
		}
	})
}

// stableFields are the page object fields compared before and after an edit
// that must not change them (description is compared apart).
func stableFields() []string {
	return []string{"key", "uuid", "title", "content", "contentRaw", "type", "slug", "date", "dateRaw",
		"dateUTC", "tags", "username", "category", "permalink", "coverImage", "coverImageFilename"}
}

func registerEdit(t *framework.Fixture, k kit) {
	Describe("4.4 PUT /api/pages/{key}", Label(spec.EditPage.Label()), func() {
		t.It("PAGE-EDIT-OK", func(ctx SpecContext) {
			key := k.mustCreate(ctx, map[string]any{"description": "Conformance before"})
			description := "Conformance edited " + t.RunID
			ex := k.edit(ctx, key, map[string]any{"description": description})
			k.follow(ctx, key, ex)
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("page-response.json"))
			expectString(ex, "data.description", description, "the updated page object")
		})

		t.It("PAGE-EDIT-PARTIAL", func(ctx SpecContext) {
			// Every field the suite can set and read back is set at create,
			// then two edits each send one field: description alone (every
			// other field omitted), then title alone (description omitted).
			fields := map[string]any{
				"title":       k.title("Partial"),
				"description": "Conformance partial before",
				"content":     "Conformance partial **content**",
				"tags":        "Conformance " + t.RunID + " Partial",
				"date":        pastDate,
				"type":        "draft",
				"coverImage":  coverImageFile(t),
			}
			if cat := k.category(ctx); cat != "" {
				fields["category"] = cat
			} else {
				t.Observe("PAGE-EDIT-PARTIAL: GET /api/categories names no category, so category was not part of the check")
			}
			key := k.mustCreate(ctx, fields)
			before := k.read(ctx, key, "before the edits")
			if empty := emptyFields(before, "description", "contentRaw", "tags", "category", "coverImage"); len(empty) > 0 {
				// Not kept at create (PAGE-CREATE-FIELDS judges that): an
				// edit that blanks them cannot show here.
				t.Observe("PAGE-EDIT-PARTIAL: the page created for the check holds no %s, so losing it on edit could not show",
					strings.Join(empty, ", "))
			}

			description := "Conformance partial after"
			ex := k.edit(ctx, key, map[string]any{"description": description})
			key = k.follow(ctx, key, ex)
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK), "an edit that sends only description")
			afterDescription := k.read(ctx, key, "after an edit that sent only description")
			expectString(afterDescription, "data.description", description, "the field sent")
			expectUnchanged(before, afterDescription, stableFields(), "fields the edit sending only description did not send changed")

			title := k.title("Partial Retitled")
			ex = k.edit(ctx, key, map[string]any{"title": title})
			key = k.follow(ctx, key, ex, t.Marker("partial-retitled"))
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK), "an edit that sends only title")
			afterTitle := k.read(ctx, key, "after an edit that sent only title")
			expectEncodedOnce(afterTitle, "data.title", title, "the field sent")
			// A new title may move the page (3.2): its key, slug and
			// permalink may change, and its uuid is PAGE-UUID-STABLE's.
			expectUnchanged(afterDescription, afterTitle,
				append([]string{"description"}, without(stableFields(), "key", "slug", "permalink", "uuid", "title")...),
				"fields the edit sending only title did not send changed")
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
				expectString(got, "data.key", newKey, "the page read under the key the edit returned")
				expectEncodedOnce(got, "data.title", body["title"].(string), "the page read under the key the edit returned is the edited page")
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
			expectString(k.read(ctx, where, "after the rename"), "data.uuid", uuid, "the uuid after the edit")
			if where == key {
				framework.NotChecked("the edit with a new title and slug kept the key, so no rename happened (the uuid did stay the same)")
			}
		})

		t.It("PAGE-EDIT-404", func(ctx SpecContext) {
			ex := k.edit(ctx, t.Marker("no-such-page"), map[string]any{"description": "Conformance"})
			t.Adopt(ctx, ex) // should the server have made a page, it is removed
			Expect(ex).To(framework.BeHandlerError(http.StatusNotFound))
		})

		t.It("PAGE-EDIT-INVALID-400", func(ctx SpecContext) {
			key := k.mustCreate(ctx, map[string]any{"description": "Conformance before", "date": pastDate})
			ex := k.edit(ctx, key, map[string]any{"type": invalidType, "description": "Conformance edit with an invalid type"})
			key = k.follow(ctx, key, ex)
			if ex.Err == nil && ex.Status >= 200 && ex.Status < 300 {
				// Accepted: the spec does not list which values an edit
				// validates, so a server may ignore or replace the value;
				// it may not store it (a page's type is one of five, 2.1).
				Expect(ex).To(framework.BeSuccess(http.StatusOK), "an accepted edit with type %q", invalidType)
				expectValidType(ex, "the edit response to an edit with type "+invalidType, true)
				after := k.read(ctx, key, "after the accepted edit")
				expectValidType(after, "the page edited with type "+invalidType, false)
				t.Observe("PAGE-EDIT-INVALID-400: an edit with type %q was accepted and the page's type is %s",
					invalidType, after.Get("data.type").Raw)
				return
			}
			// Refused: the spec says only that the edit failed (4.4), not
			// that nothing of it applied, so the page is not compared.
			Expect(ex).To(framework.BeHandlerError(http.StatusBadRequest), "an edit with type %q", invalidType)
		})
	})
}

func registerDelete(t *framework.Fixture, k kit) {
	Describe("4.5 DELETE /api/pages/{key}", Label(spec.DeletePage.Label()), func() {
		// A deleted page stays in the ledger: its cleanup sends one more
		// DELETE (404 counts as gone), which also covers a server that
		// answers the spec's DELETE without deleting.
		t.It("PAGE-DELETE-OK", func(ctx SpecContext) {
			key := k.mustCreate(ctx, nil)
			ex := t.Write(ctx, http.MethodDelete, framework.PagePath(key), nil)
			Expect(ex).To(framework.BeSuccess(http.StatusOK))
			Expect(ex).To(framework.MatchSchema("delete-response.json"))
		})

		t.It("PAGE-DELETE-GONE", func(ctx SpecContext) {
			key := k.mustCreate(ctx, nil)
			ex := t.Write(ctx, http.MethodDelete, framework.PagePath(key), nil)
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK), "the first delete")
			Expect(t.Read(ctx, framework.PagePath(key), nil)).To(framework.BeHandlerError(http.StatusNotFound), "reading the deleted page")
			Expect(t.Write(ctx, http.MethodDelete, framework.PagePath(key), nil)).To(framework.BeHandlerError(http.StatusNotFound), "deleting it again")
		})

		t.It("PAGE-DELETE-404", func(ctx SpecContext) {
			ex := t.Write(ctx, http.MethodDelete, framework.PagePath(t.Marker("no-such-page")), nil)
			Expect(ex).To(framework.BeHandlerError(http.StatusNotFound))
		})
	})
}

// registerHierarchy: writes to hierarchical keys (2.1 with 4.4 and 4.5): PUT and DELETE of
// /api/pages/parent/child act on the child page itself. The previous
// release acts on the parent instead, and then leaves the child where
// nothing can remove it; so each spec first sends its write to a child key
// that no page has, which on such a server shows on the parent alone, and
// makes a child page only when the framework finds it removable
// (framework.ChildPagesBlocked).
func registerHierarchy(t *framework.Fixture, k kit) {
	Describe("2.1 Writes to parent/child keys", func() {
		t.It("PAGE-EDIT-HIERARCHICAL", func(ctx SpecContext) {
			parent := k.mustCreate(ctx, map[string]any{"title": k.title("Edit Parent"), "slug": t.Marker("edit-parent"),
				"description": "Conformance parent"})
			before := k.read(ctx, parent, "the parent before any edit")

			missing := parent + "/" + t.Marker("no-such-child")
			ex := k.edit(ctx, missing, map[string]any{"description": "Conformance edit of a child that does not exist"})
			t.Adopt(ctx, ex) // should the server have made a page, it is removed
			expectUnchanged(before, k.read(ctx, parent, "the parent after PUT "+framework.PagePath(missing)),
				append([]string{"description"}, stableFields()...),
				"PUT "+framework.PagePath(missing)+" (no such child page) changed its parent")

			child := k.mustCreate(ctx, map[string]any{"title": k.title("Edit Child"), "slug": t.Marker("edit-child"),
				"parent": parent})
			description := "Conformance child edited " + t.RunID
			// Not followed to data.key: an edit of description alone does
			// not move the page, and a data.key naming the parent must not
			// make the cleanup of the child delete the parent.
			ex = k.edit(ctx, child, map[string]any{"description": description})
			Expect(ex).To(framework.HaveHTTPStatus(http.StatusOK), "PUT of the child page %s", child)
			Expect(ex).To(framework.HaveJSON("data.key", Equal(child)), "the edit answers the child page, not its parent")
			expectString(k.read(ctx, child, "the child after its edit"), "data.description", description, "the edited child")
			expectUnchanged(before, k.read(ctx, parent, "the parent after its child's edit"),
				append([]string{"description"}, stableFields()...), "the edit of the child page changed its parent")
		}, spec.EditPage)

		t.It("PAGE-DELETE-HIERARCHICAL", func(ctx SpecContext) {
			parent := k.mustCreate(ctx, map[string]any{"title": k.title("Delete Parent"), "slug": t.Marker("delete-parent")})

			missing := parent + "/" + t.Marker("no-such-child")
			t.Write(ctx, http.MethodDelete, framework.PagePath(missing), nil)
			Expect(t.Read(ctx, framework.PagePath(parent), nil)).To(framework.HaveJSON("data.key", Equal(parent)),
				"the parent %s still reads after DELETE %s (no such child page)", parent, framework.PagePath(missing))

			child := k.mustCreate(ctx, map[string]any{"title": k.title("Delete Child"), "slug": t.Marker("delete-child"),
				"parent": parent})
			Expect(t.Write(ctx, http.MethodDelete, framework.PagePath(child), nil)).To(framework.HaveHTTPStatus(http.StatusOK),
				"DELETE of the child page %s", child)
			Expect(t.Read(ctx, framework.PagePath(child), nil)).To(framework.HaveHTTPStatus(http.StatusNotFound),
				"the deleted child page %s reads as gone", child)
			Expect(t.Read(ctx, framework.PagePath(parent), nil)).To(framework.HaveJSON("data.key", Equal(parent)),
				"the parent %s still reads after its child's delete", parent)
		}, spec.DeletePage, spec.GetPage)
	})
}
