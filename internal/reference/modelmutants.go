package reference

// Mutants of what a write does to the views of other pages and later
// views: the chains that make the run's writes read their own page's views
// right after each write, so only the site model (rules/sitemodel), which
// judges every answer of the run against every write before it, sees
// these.

// EditChildTouchesParent: an edit of a child page that succeeds also
// gives its parent the child's description (a handler that saves the page
// it loaded to find the child's parent).
var EditChildTouchesParent = declare(breaks("edit-child-touches-parent", "PAGE-VIEWS-AGREE",
	"An edit of a child page also changes its parent: the parent's description becomes the child's."))

// TermListsDeletedAfterWrite: a deleted page leaves its tags' and
// category's lists at once, but the next page write files it there again
// (an index rebuilt from a copy of the pages taken before the delete).
var TermListsDeletedAfterWrite = declare(breaks("term-lists-deleted-after-write", "TAG-LIST-CONSISTENT CAT-LIST-CONSISTENT",
	"A deleted page is back in its tags' and category's lists after the next page write, though it reads 404."))

// touchParent is EditChildTouchesParent's effect of the edit of p.
func (s *view) touchParent(p *page) {
	if parent := s.pages[parentOf(p.key)]; parent != nil && parent != p {
		parent.description = p.description
	}
}

// buried is a page TermListsDeletedAfterWrite keeps after its delete, and
// whether a page write came since.
type buried struct {
	p          *page
	writeSince bool
}

// graveyard is TermListsDeletedAfterWrite's deleted pages, by key.
func (s *view) graveyard() map[string]*buried {
	return memo(s.Server, TermListsDeletedAfterWrite, func() map[string]*buried { return map[string]*buried{} })
}

// bury keeps a deleted page for TermListsDeletedAfterWrite; a write after
// it files it in its terms again.
func (s *view) bury(p *page) { s.graveyard()[p.key] = &buried{p: p.clone()} }

// wroteSince notes a page write for the buried pages.
func (s *view) wroteSince() {
	for _, b := range s.graveyard() {
		b.writeSince = true
	}
}

// unburied are the buried pages a write came after that have the term key
// of endpoint.
func (s *view) unburied(endpoint, key string) []*page {
	var out []*page
	for _, b := range s.graveyard() {
		if b.writeSince && s.pages[b.p.key] == nil && hasTerm(endpoint, b.p, key) {
			out = append(out, b.p)
		}
	}
	return out
}
