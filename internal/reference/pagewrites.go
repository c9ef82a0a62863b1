package reference

// The page writes: create, edit and delete (spec 4.3 to 4.5).

import (
	"maps"
	"net/http"
	"strconv"
	"strings"
)

// What a refused page write may not leave (PAGE-REFUSED-WRITE-NO-EFFECT),
// and what a create whose slug is taken may not do to the page that has it
// (PAGE-CREATE-KEEPS-OTHERS): the mutants that break them, and the
// refusal of a taken slug that the spec allows.
var (
	// CreateRefusedPageKept: a create refused for its type leaves the page
	// it saved before validating.
	CreateRefusedPageKept = declare(breaks("create-refused-page-kept", "PAGE-REFUSED-WRITE-NO-EFFECT",
		"POST /api/pages with a type outside the five saves the page first (its type left at the default, published) "+
			"and only then refuses the type with 400, without removing the page it saved (the host's createPage() "+
			"deletes the page of a create that failed)."))
	// EditRefusedAppliesFields: an edit refused for one field keeps the
	// fields validated before it.
	EditRefusedAppliesFields = declare(breaks("edit-refused-applies-fields", "PAGE-REFUSED-WRITE-NO-EFFECT",
		"PUT /api/pages/{key} saves the fields as it validates them: an edit refused with 400 for one field (a type "+
			"outside the five) keeps the fields checked before it (title, content, description, tags, category)."))
	// EditMissingStoresPage: an edit of a key no page has saves a page
	// there before it finds that none was there.
	EditMissingStoresPage = declare(breaks("edit-missing-stores-page", "PAGE-REFUSED-WRITE-NO-EFFECT",
		"PUT /api/pages/{key} of a top-level key no page has saves a draft there from the fields sent, then answers 404: "+
			"it looks for the page after saving (the host's Pages::edit builds the row from the fields sent and the "+
			"stored ones, which editPage() first checks exist)."))
	// CreateTakenKeyOverwrites: a create whose slug is taken replaces the
	// page that has it.
	CreateTakenKeyOverwrites = declare(breaks("create-taken-key-overwrites", "PAGE-CREATE-KEEPS-OTHERS",
		"POST /api/pages whose slug is another page's key saves the new page under that key, replacing the other page "+
			"(the key is not made unique, as the host's Pages::generateKey makes it with -0, -1, ...)."))
	// CreateTakenKeyContentToOther: a create whose slug is taken writes its
	// content to the page that has it.
	CreateTakenKeyContentToOther = declare(breaks("create-taken-key-content-to-other", "PAGE-CREATE-KEEPS-OTHERS",
		"POST /api/pages whose slug is another page's key gives the new page the key slug-0, but writes the content sent "+
			"to the other page as well: the content's place is made from the slug before the suffix (the host keeps each "+
			"page's content in a folder named by its key)."))
	// BenignTakenSlugRefused: a create whose slug is taken is refused.
	BenignTakenSlugRefused = declare(allows("benign-taken-slug-refused",
		"POST /api/pages whose slug (sent) is another page's key is refused with 400 and a handler-error body, and "+
			"changes nothing, instead of giving the new page the key slug-0: the spec does not say a create makes the "+
			"key unique."))
)

// createPageH answers POST /api/pages (spec 4.3).
func (s *view) createPageH(r *http.Request, _ route, in *input, author string) response {
	if author == "" {
		author = adminUser
	}
	p := &page{
		uuid:     newUUID(),
		typ:      "published",
		username: author,
		date:     s.now().In(s.location()).Format(dateLayout),
		tags:     nil,
	}
	if content, _, _ := in.str("content"); s.mutated(BenignContentRequired) && strings.TrimSpace(content) == "" {
		// Which fields a create requires is not shown (spec 4.3).
		return failure(http.StatusBadRequest, "content is required.")
	}
	ch, ferr := s.applyFields(p, in, true)
	if ferr != "" {
		s.exploreRefusedCreate(r, in, author)
		if t, _, _ := in.str("type"); t != "" && !pageTypes[t] && s.mutated(CreateRefusedPageKept) {
			// Saved before the type is validated: the page as a create
			// without the type makes it.
			_ = s.createPageH(r, route{}, without(in, "type"), author)
		}
		return failure(http.StatusBadRequest, string(ferr))
	}
	s.exploreWrite(nil, p, in)
	parent := ""
	if ch.parentSent && !s.mutated(ParentIgnored) {
		parent = ch.parent
	}
	if err := s.parentError(parent, ""); err != "" {
		return failure(http.StatusBadRequest, string(err))
	}
	if key := joinKey(parent, ch.slug); ch.slugSent && s.pages[key] != nil && s.mutated(BenignTakenSlugRefused) {
		return failure(http.StatusBadRequest, "The slug is taken: "+key)
	}
	// Nothing can fail from here on: the page takes its place in the
	// creation order (the slug-not-from-title mutant numbers slugs by it).
	p.seq = s.nextSeq()
	slug := ch.slug
	if !ch.slugSent {
		slug = slugOf(slugSource(p.title, p.content), s.mutated(BenignSlugKeepsCase))
		if s.mutated(SlugNotFromTitle) {
			slug = "page-" + strconv.FormatInt(p.seq, 10)
		}
	}
	p.key = s.newKey(joinKey(parent, slug), p)
	p.customFields = s.withCustomFields(nil)
	s.pages[p.key] = p
	s.reindexTags(ch)
	return success(http.StatusCreated, "Page created.", kv{"data", s.pageObj(p, baseURL(r))})
}

// joinKey is the key of the page slug under parent ("" for a top-level
// page).
func joinKey(parent, slug string) string {
	if parent == "" {
		return slug
	}
	return parent + "/" + slug
}

// newKey is the key a new page p gets for key: key itself, or key-0,
// key-1, ... when a page has it already (uniqueKey); the
// create-taken-key-* mutants mistreat the page that has it.
func (s *view) newKey(key string, p *page) string {
	other := s.pages[key]
	switch {
	case other == nil:
		return key
	case s.mutated(CreateTakenKeyOverwrites):
		return key
	case s.mutated(CreateTakenKeyContentToOther):
		o := other.clone()
		o.content = p.content
		s.pages[key] = o
	}
	return s.uniqueKey(key, nil)
}

// without is a copy of in without the parameter name.
func without(in *input, name string) *input {
	c := *in
	c.vals = maps.Clone(in.vals)
	delete(c.vals, name)
	return &c
}

// editPageH answers PUT /api/pages/{key} (spec 4.4). It acts on the full
// key, hierarchical or not.
func (s *view) editPageH(r *http.Request, rt route, in *input, _ string) response {
	old, refused := s.writeTarget(rt, EditMissing200, failure(http.StatusOK, "Error trying to edit the page."), "Error trying to edit the page.")
	if old == nil {
		if refused.code == http.StatusNotFound && s.mutated(EditMissingStoresPage) {
			s.storeMissing(s.targetKey(rt), in)
		}
		return refused
	}
	if s.mutated(BenignSlugOnEdit400) && in.has("slug") {
		// slug is not listed for edit (spec 4.4): refusing it is allowed.
		return failure(http.StatusBadRequest, "slug cannot be sent on edit; change the title instead.")
	}
	p := old.clone()
	if s.mutated(EditResetsOmittedFields) {
		p.description, p.content, p.tags, p.category = "", "", nil, ""
	}
	s.blankOmitted(p, in)
	ch, ferr := s.applyFields(p, in, false)
	if ferr != "" {
		return s.refuseEdit(p, ferr)
	}
	s.exploreWrite(old, p, in)
	parent := parentOf(old.key)
	if ch.parentSent {
		parent = ch.parent
	}
	if parent != parentOf(old.key) {
		if err := s.parentError(parent, old.key); err != "" {
			return failure(http.StatusBadRequest, string(err))
		}
	}
	slug := lastSegment(old.key)
	switch {
	case ch.slugSent:
		slug = ch.slug
	case ch.titleChanged && !s.mutated(BenignTitleEditKeepsKey):
		slug = slugOf(slugSource(p.title, p.content), s.mutated(BenignSlugKeepsCase))
	}
	key := joinKey(parent, slug)
	if key != old.key {
		key = s.uniqueKey(key, old)
	}
	if s.mutated(RenameNewUUID) && key != old.key {
		p.uuid = newUUID()
		s.files[p.uuid] = s.files[old.uuid]
		delete(s.files, old.uuid)
	}
	// Commit: move the page and its children.
	delete(s.pages, old.key)
	p.key = key
	s.pages[key] = p
	if key != old.key {
		for _, c := range s.children(old.key) {
			delete(s.pages, c.key)
			c.key = key + "/" + lastSegment(c.key)
			s.pages[c.key] = c
		}
	}
	s.reindexTags(ch)
	if s.mutated(EditChildTouchesParent) {
		s.touchParent(p)
	}
	return success(http.StatusOK, "Page edited.", kv{"data", s.pageObj(p, baseURL(r))})
}

// refuseEdit is the 400 of an edit whose field failed validation (ferr);
// with edit-refused-applies-fields, p, the page with the fields applied
// before that one, is saved all the same.
func (s *view) refuseEdit(p *page, ferr fieldError) response {
	if s.mutated(EditRefusedAppliesFields) {
		s.pages[p.key] = p
		s.reindexTags(nil)
	}
	return failure(http.StatusBadRequest, string(ferr))
}

// storeMissing saves, for edit-missing-stores-page, a draft at key (a
// top-level key no page has) made from the fields of in.
func (s *view) storeMissing(key string, in *input) {
	if strings.Contains(key, "/") || key == "" {
		return
	}
	p := &page{key: key, uuid: newUUID(), typ: "draft", username: adminUser, date: s.now().In(s.location()).Format(dateLayout)}
	ch, ferr := s.applyFields(p, in, false)
	if ferr != "" {
		return
	}
	p.seq = s.nextSeq()
	p.customFields = s.withCustomFields(nil)
	s.pages[key] = p
	s.reindexTags(ch)
}

// deletePageH answers DELETE /api/pages/{key} (spec 4.5). The page's files
// and images go with it. Child pages of a deleted page are kept and become
// top-level pages (key = their slug, with the usual -0, -1 suffix on a
// collision).
func (s *view) deletePageH(r *http.Request, rt route, _ *input, _ string) response {
	p, refused := s.writeTarget(rt, DeleteMissing200, success(http.StatusOK, "Page deleted."), "Error trying to delete the page.")
	if p == nil {
		return refused
	}
	if s.mutated(DeleteSoft) {
		return success(http.StatusOK, "Page deleted.")
	}
	s.removePage(p)
	s.keepListed(p)
	for _, c := range s.children(p.key) {
		if s.mutated(ChildWritesHitParent) {
			// The previous release leaves the child behind, emptied.
			c.content = ""
			continue
		}
		delete(s.pages, c.key)
		c.key = s.uniqueKey(lastSegment(c.key), nil)
		s.pages[c.key] = c
	}
	s.reindexTags(nil)
	if s.mutated(DeleteReturnsData) {
		return success(http.StatusOK, "Page deleted.", kv{"data", s.pageObj(p, baseURL(r))})
	}
	return success(http.StatusOK, "Page deleted.")
}

// removePage removes p from the pages, with its files and images; its
// children stay where they are.
func (s *view) removePage(p *page) {
	delete(s.pages, p.key)
	delete(s.files, p.uuid)
	for img := range s.images {
		if strings.HasPrefix(img, pageUploads(p.uuid)) {
			delete(s.images, img)
		}
	}
}

// writeTarget finds the page an edit or a delete names. When there is none
// it returns nil and the answer: 400 for a key with traversal characters,
// else 404 with the host's message for the failed write (notFound), or
// missingAnswer when the missing mutant is on.
// host: pluginAPI::editPage and pluginAPI::deletePage in bl-plugins/api/plugin.php
func (s *view) writeTarget(rt route, missing Mutant, missingAnswer response, notFound string) (*page, response) {
	if !validKey(rt) {
		return nil, failure(http.StatusBadRequest, "Invalid page key.")
	}
	if p := s.pages[s.targetKey(rt)]; p != nil {
		return p, response{}
	}
	if s.mutated(missing) {
		return nil, missingAnswer
	}
	return nil, failure(http.StatusNotFound, notFound)
}

// blankOmitted applies the edit-blanks-omitted-* mutants: each blanks one
// field that the edit does not send.
func (s *view) blankOmitted(p *page, in *input) {
	for _, b := range []struct {
		mutant Mutant
		field  string
		blank  func()
	}{
		{EditBlanksOmittedContent, "content", func() { p.content = "" }},
		{EditBlanksOmittedDescription, "description", func() { p.description = "" }},
		{EditBlanksOmittedTags, "tags", func() { p.tags = nil }},
		{EditBlanksOmittedCategory, "category", func() { p.category = "" }},
		{EditBlanksOmittedDate, "date", func() { p.date = s.now().In(s.location()).Format(dateLayout) }},
		{EditBlanksOmittedType, "type", func() { p.typ = "published" }},
		{EditBlanksOmittedCoverImage, "coverImage", func() { p.coverImage = "" }},
	} {
		if s.mutated(b.mutant) && !in.has(b.field) {
			b.blank()
		}
	}
}
