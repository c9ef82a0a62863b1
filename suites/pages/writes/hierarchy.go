package writes

// Writes to hierarchical keys (2.1 with 4.3, 4.4 and 4.5): a child page is
// created under a parent, and PUT and DELETE of /api/pages/parent/child act
// on the child page itself. The previous release acts on the parent
// instead, and then leaves the child where nothing can remove it; so the
// writes first go to a child key that no page has, which on such a server
// shows on the parent alone, and a child page is made only when the
// framework finds it removable (framework.ChildPagesBlocked): the DELETE of
// that missing child, under the run's parent, is the framework's proof.

import (
	"context"
	"errors"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// hierarchy is one parent page and, where the run may make one, one child:
// the parent is read, a PUT and a DELETE of a child key no page has are each
// followed by a read of the parent; then the child is created, edited
// (the child and the parent read back), deleted (both read back again).
type hierarchy struct {
	trail
	parentCreated *client.Exchange // PAGE-CREATE-201 judges it: a plain draft
	parent        string
	before        *client.Exchange // the parent before any write under it
	missing       string           // parent/<a child key no page has>
	putMissing    *client.Exchange
	afterPut      *client.Exchange
	delMissing    *client.Exchange
	afterDel      *client.Exchange
	blocked       string // why no child page is made ("" when one is)
	childSlug     string
	childCreated  *client.Exchange
	child         string
	description   string // sent by the child's edit
	childEdit     *client.Exchange
	childRead     *client.Exchange // after the child's edit
	parentRead    *client.Exchange // after the child's edit
	childDel      *client.Exchange
	childGone     *client.Exchange // the child's key read after its delete
	parentLast    *client.Exchange // the parent read after the child's delete
}

func (s *suite) makeHierarchy(ctx context.Context) *hierarchy {
	t, k := s.t, s.k
	h := &hierarchy{childSlug: t.Marker("hier-child")}
	h.parentCreated, h.parent = t.CreatePage(ctx, map[string]any{"title": k.title("Parent"), "slug": t.Marker("hier-parent"),
		"description": "Conformance parent"})
	h.add(h.parentCreated)
	if h.parent == "" {
		return h
	}
	h.before = h.add(k.read(ctx, h.parent))
	h.missing = h.parent + "/" + t.Marker("no-such-child")
	h.putMissing = h.add(k.edit(ctx, h.missing, map[string]any{"description": "Conformance edit of a child that does not exist"}))
	t.Adopt(ctx, h.putMissing) // should the server have made a page, it is removed
	h.afterPut = h.add(k.read(ctx, h.parent))
	h.delMissing = h.add(t.Write(ctx, http.MethodDelete, pagelist.PagePath(h.missing), nil))
	h.afterDel = h.add(k.read(ctx, h.parent))

	if h.blocked = t.ChildPagesBlockedAfter(ctx, h.parent, h.delMissing, h.afterDel); h.blocked == "" {
		h.childCreated, h.child = t.CreatePage(ctx, map[string]any{"title": k.title("Child"), "slug": h.childSlug,
			"parent": h.parent})
		h.add(h.childCreated)
	}
	if h.child != "" {
		h.description = "Conformance child edited " + t.RunID
		h.childEdit = h.add(k.edit(ctx, h.child, map[string]any{"description": h.description}))
		// Not followed to data.key: an edit of description alone does not
		// move the page, and a data.key naming the parent must not make
		// the cleanup of the child delete the parent.
		reads := t.All(ctx, readRequest(h.child), readRequest(h.parent))
		h.childRead, h.parentRead = h.add(reads[0]), h.add(reads[1])
		h.childDel = h.add(t.Write(ctx, http.MethodDelete, pagelist.PagePath(h.child), nil))
		reads = t.All(ctx, readRequest(h.child), readRequest(h.parent))
		h.childGone, h.parentLast = h.add(reads[0]), h.add(reads[1])
		if h.childGone.Err == nil && h.childGone.Status == http.StatusNotFound {
			t.Ledger.RemovePage(h.child) // gone: nothing left to delete
		}
	}
	k.remove(ctx, h.parent) // deletes the child first, if the ledger still holds it
	return h
}

// readRequest is GET /api/pages/{key}, as kit.read sends it, for a batch.
func readRequest(key string) client.Request {
	return client.Request{Method: http.MethodGet, Path: pagelist.PagePath(key)}
}

// needChild makes the spec not checked when no child page was made.
func (h *hierarchy) needChild() {
	needPage(h.parentCreated, h.parent)
	if h.child == "" {
		ex := h.childCreated
		if ex == nil {
			ex = &client.Exchange{Err: &framework.NotCreated{Reason: h.blocked}}
		}
		verdicts.NotChecked("could not create the page this rule needs: %s", framework.CreateOutcome(ex))
	}
}

func judgeCreate201(_ SpecContext, h *hierarchy) {
	Expect(h.parentCreated).To(match.BeSuccess(http.StatusCreated))
	Expect(h.parentCreated).To(match.MatchSchema("page-response.json"))
}

func (s *suite) judgeCreateParent(_ SpecContext, h *hierarchy) {
	needPage(h.parentCreated, h.parent)
	if h.childCreated == nil {
		verdicts.NotChecked("the child page was not created: %s", h.blocked)
	}
	if nc := (*framework.NotCreated)(nil); errors.As(h.childCreated.Err, &nc) {
		verdicts.NotChecked("the child page was not created: %s", nc.Reason)
	}
	expectWritten(h.childCreated, "the create of a child page")
	want := h.parent + "/" + h.childSlug
	s.t.ExpectReadBack(bodyCell("parent", coverage.Create), h.childCreated, "data.key", Equal(want),
		"the key of a page created with parent "+h.parent)
	// The child's first read follows an edit of its description alone,
	// which does not move a page (3.2).
	got := expectRead(h.childRead, "the child page")
	s.t.ExpectReadBack(bodyCell("parent", coverage.Create), got, "data.key", Equal(want), "the child page read back under its hierarchical key")
}

func (s *suite) judgeEditHierarchical(_ SpecContext, h *hierarchy) {
	needPage(h.parentCreated, h.parent)
	before := expectRead(h.before, "the parent before any edit")
	fields := append([]string{"description"}, stableFields()...)
	expectUnchanged(before, expectRead(h.afterPut, "the parent after PUT "+pagelist.PagePath(h.missing)), fields,
		"PUT "+pagelist.PagePath(h.missing)+" (no such child page) changed its parent")

	h.needChild()
	Expect(h.childEdit).To(match.HaveHTTPStatus(http.StatusOK), "PUT of the child page %s", h.child)
	// The edit sent no parent: the page is still the child (4.4, only
	// fields present change).
	s.t.ExpectReadBack(bodyCell("parent", coverage.Kept), h.childEdit, "data.key", Equal(h.child),
		"the edit answers the child page, not its parent")
	s.t.ExpectReadBack(bodyCell("description", coverage.Edit), expectRead(h.childRead, "the child after its edit"), "data.description",
		Equal(h.description), "the edited child")
	expectUnchanged(before, expectRead(h.parentRead, "the parent after its child's edit"), fields,
		"the edit of the child page changed its parent")
}

func judgeDeleteHierarchical(_ SpecContext, h *hierarchy) {
	needPage(h.parentCreated, h.parent)
	Expect(h.afterDel).To(match.HaveJSON("data.key", Equal(h.parent)),
		"the parent %s still reads after DELETE %s (no such child page)", h.parent, pagelist.PagePath(h.missing))

	h.needChild()
	Expect(h.childDel).To(match.HaveHTTPStatus(http.StatusOK), "DELETE of the child page %s", h.child)
	Expect(h.childGone).To(match.HaveHTTPStatus(http.StatusNotFound), "the deleted child page %s reads as gone", h.child)
	Expect(h.parentLast).To(match.HaveJSON("data.key", Equal(h.parent)),
		"the parent %s still reads after its child's delete", h.parent)
}
