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
