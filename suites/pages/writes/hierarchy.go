package writes

// Writes to hierarchical keys (2.1 with 4.4 and 4.5): PUT and DELETE of
// /api/pages/parent/child act on the child page itself. The previous
// release acts on the parent instead, and then leaves the child where
// nothing can remove it; so each spec first sends its write to a child key
// that no page has, which on such a server shows on the parent alone, and
// makes a child page only when the framework finds it removable
// (framework.ChildPagesBlocked).

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/spec"
)

func registerHierarchy(t *framework.Fixture, k kit) {
	Describe("2.1 Writes to parent/child keys", func() {
		t.It("PAGE-EDIT-HIERARCHICAL", func(ctx SpecContext) {
			parent := k.mustCreate(ctx, map[string]any{"title": k.title("Edit Parent"), "slug": t.Marker("edit-parent"),
				"description": "Conformance parent"})
			before := k.read(ctx, parent, "the parent before any edit")

			missing := parent + "/" + t.Marker("no-such-child")
			ex := k.edit(ctx, missing, map[string]any{"description": "Conformance edit of a child that does not exist"})
			t.Adopt(ex) // should the server have made a page, it is removed
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
