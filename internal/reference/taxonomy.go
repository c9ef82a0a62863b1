package reference

import (
	"net/http"
	"slices"
	"sort"
)

// terms returns the tag or category store of an endpoint.
func (s *view) terms(endpoint string) map[string]*term {
	if endpoint == "tags" {
		return s.tags
	}
	return s.cats
}

// termMutated reports whether the mutant of the endpoint's kind is enabled:
// tag for "tags", category for "categories".
func (s *Server) termMutated(endpoint string, tag, category Mutant) bool {
	if endpoint == "tags" {
		return s.mutated(tag)
	}
	return s.mutated(category)
}

func hasTerm(endpoint string, p *page, key string) bool {
	if endpoint == "tags" {
		for _, t := range p.tags {
			if t == key {
				return true
			}
		}
		return false
	}
	return p.category == key
}

// termPages returns the pages listed under a tag or category, newest
// first. Only published, static and sticky pages are listed, like the
// previous release.
func (s *view) termPages(endpoint, key string) []*page {
	ps := s.termSource(func(p *page) bool {
		if !indexed(p) && !s.mutated(BenignTermListsAllTypes) {
			return false
		}
		return hasTerm(endpoint, p, key)
	})
	if s.termMutated(endpoint, TagListMissesPage, CategoryListMissesPage) {
		// Leave out the oldest published page that has the term.
		for i := len(ps) - 1; i >= 0; i-- {
			if ps[i].typ == "published" {
				ps = slices.Delete(ps, i, i+1)
				break
			}
		}
	}
	if s.termMutated(endpoint, TagListStale, CategoryListStale) {
		// Add the newest published page that does not have the term.
		others := s.sortedPages(func(p *page) bool { return p.typ == "published" && !hasTerm(endpoint, p, key) })
		if len(others) > 0 {
			ps = append(ps, others[0])
		}
	}
	return ps
}

// termObj is a tag or category t of endpoint with the keys of its pages
// ps (TagViewsNameIsKey: a tag named by its key).
func (s *view) termObj(endpoint string, t *term, ps []*page) obj {
	list := make([]string, 0, len(ps))
	for _, p := range ps {
		list = append(list, p.key)
	}
	for _, m := range []Mutant{TermIndexKeepsOldKey, CategoryIndexServesOldPage} {
		if s.mutated(m) && (m == TermIndexKeepsOldKey || endpoint == "categories") {
			filed := s.filed(m)
			for i, p := range ps {
				list[i] = filed[p.uuid].key
			}
		}
	}
	name := t.name
	if endpoint == "tags" && s.mutated(TagViewsNameIsKey) {
		name = t.key
	}
	return obj{
		{"key", t.key},
		{"name", name},
		{"description", t.description},
		{"template", t.template},
		{"list", list},
	}
}

// listTermsH answers GET /api/tags and GET /api/categories (spec 4.6, 4.7):
// every tag or category, sorted by key, without pages.
func (s *view) listTermsH(_ *http.Request, rt route, _ *input, _ string) response {
	store := s.terms(rt.endpoint)
	keys := make([]string, 0, len(store))
	for k := range store {
		keys = append(keys, k)
	}
	// host: dbList::sortAlphanumeric in bl-kernel/abstract/dblist.class.php
	sort.Strings(keys)
	data := make([]any, 0, len(keys))
	for _, k := range keys {
		o := s.termObj(rt.endpoint, store[k], s.termPages(rt.endpoint, k))
		if rt.endpoint == "tags" && s.mutated(TagListWithoutDescription) {
			o = o.without("description", "template")
		}
		if rt.endpoint == "categories" && s.mutated(CategoryListWithoutTemplate) {
			o = o.without("template")
		}
		data = append(data, o)
	}
	msg := "List of tags."
	if rt.endpoint == "categories" {
		msg = "List of categories."
	}
	return success(http.StatusOK, msg, kv{"data", data})
}

// getTermH answers GET /api/tags/{key} and GET /api/categories/{key}: the
// tag or category with its list and its pages expanded.
func (s *view) getTermH(r *http.Request, rt route, in *input, _ string) response {
	t := s.terms(rt.endpoint)[rt.key]
	what, msg := "Tag", "Information about the tag and pages related."
	if rt.endpoint == "categories" {
		what, msg = "Category", "Information about the category and pages related."
	}
	if t == nil {
		code := http.StatusNotFound
		if s.termMutated(rt.endpoint, TagMissing200, CategoryMissing200) {
			code = http.StatusOK
		}
		return failure(code, s.exploreTermMissing(rt, in, what+" not found by the key: "+rt.key))
	}
	ps := s.termPages(rt.endpoint, t.key)
	o := s.termObj(rt.endpoint, t, ps)
	if s.termMutated(rt.endpoint, TagSingleWithoutList, CategorySingleWithoutList) {
		o = o.without("list")
	}
	if s.termMutated(rt.endpoint, TagPagesMismatch, CategoryPagesMismatch) && len(ps) > 0 {
		ps = ps[1:]
	}
	ps = s.expanded(rt.endpoint, t.key, ps)
	o = append(o, kv{"pages", s.pageObjs(ps, baseURL(r))})
	return success(http.StatusOK, msg, kv{"data", o})
}

// reindexTags rebuilds the tag index after a page write, as the host does
// on every page write: from the published, static and sticky pages only
// (every page under BenignTermListsAllTypes), newest first, a tag named by
// the first of them that carries it, without a description or a template.
// So a tag that only drafts or scheduled pages carry does not exist, and
// the seed's descriptions are gone after the first page write.
// BenignTagsOfAnyPage keeps the index as it was instead: a tag is added
// with the first name given (ch: the change a create or edit asked for,
// nil for a delete) and removed once no page of any type carries it.
// host: Tags::reindex in bl-kernel/tags.class.php
func (s *view) reindexTags(ch *pageChange) {
	for _, m := range []Mutant{TermIndexKeepsOldKey, CategoryPagesByFirstCategory, CategoryIndexServesOldPage} {
		if s.mutated(m) {
			s.filed(m) // the pages a write made are filed as they are now
		}
	}
	if s.mutated(BenignTagsOfAnyPage) {
		if ch != nil {
			for k, name := range ch.tagNames {
				if s.tags[k] == nil {
					s.tags[k] = &term{key: k, name: name}
				}
			}
		}
		used := map[string]bool{}
		for _, p := range s.pages {
			for _, k := range p.tags {
				used[k] = true
			}
		}
		for k := range s.tags {
			if !used[k] {
				delete(s.tags, k)
			}
		}
		return
	}
	clear(s.tags)
	for _, p := range s.sortedPages(func(p *page) bool { return indexed(p) || s.mutated(BenignTermListsAllTypes) }) {
		for _, k := range p.tags {
			if s.tags[k] == nil {
				s.tags[k] = &term{key: k, name: p.tagName(k)}
			}
		}
	}
}

// tagName is the name p stored for its tag k (k itself when it stored
// none, as a page written before names were kept).
func (p *page) tagName(k string) string {
	if name, ok := p.tagNames[k]; ok {
		return name
	}
	return k
}

// Mutants of an index of the pages that a write does not bring up to date:
// the single view's pages are expanded from it, or its list named after it.

// TermIndexKeepsOldKey: the tag and category indexes file each page under
// the key it had when they first saw it, and a rename does not file it
// again: a term's list names the page's old key, and its pages, expanded
// from the keys filed, leave the page out (no page has that key).
var TermIndexKeepsOldKey = declare(breaks("term-index-keeps-old-key",
	"TAG-LIST-CONSISTENT CAT-LIST-CONSISTENT TAG-PAGES-MATCH-LIST CAT-PAGES-MATCH-LIST",
	"After an edit renames a page, its tags' and category's lists still name its old key, and their pages leave it out: "+
		"the term indexes keep the key each page had when they first saw it."))

// TagPagesStartupCache: a single tag's pages are expanded through a page
// cache warmed when the server started and never filled since: a page
// whose key the cache lacks (one created since) is left out of pages,
// while list names it.
var TagPagesStartupCache = declare(breaks("tag-pages-startup-cache", "TAG-PAGES-MATCH-LIST",
	"GET /api/tags/{key} leaves out of pages every page created since the server started (a page cache warmed at "+
		"start and never filled), while its list names them."))

// CategoryPagesByFirstCategory: a single category's pages are expanded
// from an index of the category each page had when it was first seen,
// which edits do not update: a page an edit moved into the category is
// left out of pages, while list names it.
var CategoryPagesByFirstCategory = declare(breaks("category-pages-by-first-category", "CAT-PAGES-MATCH-LIST",
	"GET /api/categories/{key} leaves out of pages the pages an edit moved into the category (they are expanded from "+
		"the category each page had when first seen), while its list names them."))

// CategoryIndexServesOldPage: the category index files each page under
// the key it had when it first saw it, with the page as it last was under
// that key, and a rename files neither again: a category's list names the
// page's old key, and its pages show the page as it was before the rename,
// under that key.
var CategoryIndexServesOldPage = declare(breaks("category-index-serves-old-page", "CAT-LIST-CONSISTENT",
	"After an edit renames a page, its category's list still names its old key, and its pages show the page as it was "+
		"before the rename, under that key: the category index keeps each page as last filed under its first key."))

// seenPage is what an index that files a page once keeps of it: its key
// and its category when the index first saw it, and (for
// CategoryIndexServesOldPage) the page as it last was under that key.
type seenPage struct {
	key, category string
	last          *page
}

// filed is mutant m's index of the pages, by uuid, as it first saw them:
// the pages it has not seen are filed as they are now, and those gone
// leave it. The caller holds the lock.
func (s *view) filed(m Mutant) map[string]seenPage {
	idx := memo(s.Server, m, func() map[string]seenPage { return map[string]seenPage{} })
	now := make(map[string]bool, len(s.pages))
	for _, p := range s.pages {
		now[p.uuid] = true
		seen, ok := idx[p.uuid]
		switch {
		case !ok:
			seen = seenPage{key: p.key, category: p.category}
		case seen.key != p.key:
			continue // renamed since: the index keeps the page as it was
		}
		if m == CategoryIndexServesOldPage {
			seen.last = p.clone()
		}
		idx[p.uuid] = seen
	}
	for uuid := range idx {
		if !now[uuid] {
			delete(idx, uuid)
		}
	}
	return idx
}

// expanded is the pages of ps, those the single view of the term key
// names, that it expands into page objects: all of them, unless a mutant
// expands them from an index or a cache that lacks some, or holds an old
// copy of some.
func (s *view) expanded(endpoint, key string, ps []*page) []*page {
	var byKey, byCategory map[string]seenPage
	if s.mutated(TermIndexKeepsOldKey) {
		byKey = s.filed(TermIndexKeepsOldKey)
	}
	if endpoint == "categories" && s.mutated(CategoryPagesByFirstCategory) {
		byCategory = s.filed(CategoryPagesByFirstCategory)
	}
	ps = slices.Clone(ps)
	if endpoint == "categories" && s.mutated(CategoryIndexServesOldPage) {
		filed := s.filed(CategoryIndexServesOldPage)
		for i, p := range ps {
			if seen := filed[p.uuid]; seen.key != p.key && seen.last != nil {
				ps[i] = seen.last
			}
		}
	}
	cached := func(p *page) bool { seed := s.seedPages[p.key]; return seed != nil && seed.uuid == p.uuid }
	return slices.DeleteFunc(ps, func(p *page) bool {
		switch {
		case byKey != nil && byKey[p.uuid].key != p.key:
			return true // no page has the key filed
		case byCategory != nil && byCategory[p.uuid].category != key:
			return true
		}
		return endpoint == "tags" && s.mutated(TagPagesStartupCache) && !cached(p)
	})
}
