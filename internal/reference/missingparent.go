package reference

import "strings"

// BenignMissingParentAccepted: a create or an edit whose parent no page
// has is taken, and the page made at parent/slug without a parent page, as
// the previous release does (observed on 3.21.1: "a parent that does not
// exist creates no-such-parent/orphan"). The spec does not say that a
// missing parent is refused (4.3: "key of parent page"), so this is
// allowed; with child-writes-hit-parent (legacy-3.21 has both) such a page
// can never be deleted through the API, since DELETE of parent/child acts
// on the parent, which does not exist: what conformance explore must never
// make there.
var BenignMissingParentAccepted = declare(allows("benign-missing-parent-accepted",
	"A create or an edit whose parent no page has is taken: the page is made at parent/slug, with no parent page, as the "+
		"previous release does (part of legacy-3.21, where its DELETE then acts on the missing parent and the page stays)."))

// parentError is checkParent's error for a write of the page whose key is
// self ("" when creating) under parent, but none for a parent no page has
// when BenignMissingParentAccepted is on.
func (s *view) parentError(parent, self string) fieldError {
	err := s.checkParent(parent, self)
	orphan := parent != "" && parent != self && s.pages[parent] == nil && !hasTraversal(parent) && !strings.Contains(parent, "/")
	if err != "" && orphan && s.mutated(BenignMissingParentAccepted) {
		return ""
	}
	return err
}
