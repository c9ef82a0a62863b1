package reference

// A mutant of what a write does to another page: the site model
// (rules/sitemodel), which judges every answer of the run against every
// write before it, sees it wherever the other page shows next.

// EditChildTouchesParent: an edit of a child page that succeeds also
// gives its parent the child's description (a handler that saves the page
// it loaded to find the child's parent).
var EditChildTouchesParent = declare(breaks("edit-child-touches-parent", "PAGE-VIEWS-AGREE",
	"An edit of a child page also changes its parent: the parent's description becomes the child's."))

// touchParent is EditChildTouchesParent's effect of the edit of p.
func (s *view) touchParent(p *page) {
	if parent := s.pages[parentOf(p.key)]; parent != nil && parent != p {
		parent.description = p.description
	}
}
