package reference

// Mutants of what a write does to the views of other pages and later
// views: the chains that make the run's writes read their own page's views
// right after each write, so only the site model (rules/sitemodel), which
// judges every answer of the run against every write before it, sees
// these.

// EditSpillsToNewestPage: an edit that succeeds also writes the edited
// page's key into the description of the newest other page (a handler that
// reuses the page it loaded last).
var EditSpillsToNewestPage = declare(breaks("edit-spills-to-newest-page", "PAGE-VIEWS-AGREE",
	"An edit also changes another page: the newest other page's description becomes a note naming the edited page."))

// TermListsDeletedAfterWrite: a deleted page leaves its tags' and
// category's lists at once, but the next page write files it there again
// (an index rebuilt from a copy of the pages taken before the delete).
var TermListsDeletedAfterWrite = declare(breaks("term-lists-deleted-after-write", "TAG-LIST-CONSISTENT CAT-LIST-CONSISTENT",
	"A deleted page is back in its tags' and category's lists after the next page write, though it reads 404."))

// spillEdit is EditSpillsToNewestPage's effect of the edit of p.
func (s *view) spillEdit(p *page) {
	newest := s.sortedPages(func(o *page) bool { return o.key != p.key && o.seq > 0 })
	if len(newest) == 0 {
		return
	}
	for _, o := range newest[1:] {
		if o.seq > newest[0].seq {
			newest[0] = o
		}
	}
	newest[0].description = "touched by the edit of " + p.key
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
