package reference

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// listPagesH answers GET /api/pages (spec 4.1).
func (s *Server) listPagesH(r *http.Request, _ route, in *input, _ string) response {
	types := map[string]bool{
		"published": in.flag("published", true),
		"static":    in.flag("static", false),
		"sticky":    in.flag("sticky", false),
		"draft":     in.flag("draft", false),
		"scheduled": in.flag("scheduled", false),
	}
	if s.mutated("default-includes-static") {
		if !in.has("static") {
			types["static"] = true
		}
		if !in.has("sticky") {
			types["sticky"] = true
		}
	}
	if s.mutated("sticky-filter-ignored") {
		types["sticky"] = false
	}
	matching := s.sortedPages(func(p *page) bool { return types[p.typ] })
	// meta.total counts the type-filtered pages; untagged is not reflected.
	total := len(matching)
	untagged := in.flag("untagged", false)
	if untagged && s.mutated("untagged-before-pagination") {
		matching = untaggedOnly(matching)
	}
	if untagged && s.mutated("meta-total-counts-untagged") {
		total = len(untaggedOnly(matching))
	}

	n, nOK := in.integer("numberOfItems")
	pn, pOK := in.integer("pageNumber")
	if (in.has("numberOfItems") && !nOK) || (in.has("pageNumber") && !pOK) {
		if s.mutated("bad-paging-500") {
			return failure(http.StatusInternalServerError, "Internal server error.")
		}
		if s.mutated("benign-bad-paging-400") {
			return failure(http.StatusBadRequest, "numberOfItems and pageNumber must be integers.")
		}
	}

	// Page size: -1 means all; any other non-positive or non-numeric value
	// falls back to the default.
	size := defaultPageSize
	if s.mutated("benign-default-page-size-10") {
		size = 10
	}
	all := false
	switch {
	case nOK && n == -1:
		all = true
	case nOK && n > 0:
		size = n
	case nOK && s.mutated("zero-size-empty"):
		size = 0
	case !nOK && s.mutated("default-size-misreported"):
		size = 10
	}
	reported := size
	if !nOK && s.mutated("default-size-misreported") {
		reported = defaultPageSize
	}
	// Page number: below 1 or non-numeric means 1.
	emptyPage := false
	if !pOK || pn < 1 {
		emptyPage = pOK && s.mutated("pagenumber-zero-empty")
		pn = 1
	}

	avail := len(matching)
	var slice []*page
	hasMore := false
	if all {
		slice = matching
		if s.mutated("all-capped") && len(slice) > defaultPageSize {
			slice = slice[:defaultPageSize]
		}
		pn, reported = 1, -1
		if s.mutated("benign-all-reports-total") {
			reported = len(slice)
		}
	} else if size > 0 && !emptyPage {
		lastPage := (avail + size - 1) / size // number of non-empty pages
		if pn <= lastPage {
			start := (pn - 1) * size
			end := min(start+size, avail)
			if s.mutated("pages-overlap") && start > 0 {
				start--
				end--
			}
			if s.mutated("page-size-off-by-one") && end-start == size {
				end--
			}
			slice = matching[start:end]
		}
		hasMore = pn < lastPage
		if s.mutated("hasmore-wrong-on-last-page") && pn == lastPage {
			hasMore = true
		}
	}
	if untagged && !s.mutated("untagged-before-pagination") {
		slice = untaggedOnly(slice)
	}
	if slice == nil {
		slice = []*page{}
	}
	if !all && len(slice) == 0 && pn > 1 && s.mutated("past-end-404") {
		return failure(http.StatusNotFound, "Page not found.")
	}

	metaPage := pn
	if s.mutated("meta-pagenumber-zero-based") {
		metaPage = pn - 1
	}
	var numberOfItems any = reported
	if s.mutated("numberofitems-as-string") {
		numberOfItems = strconv.Itoa(reported)
	}
	body := []kv{{"numberOfItems", numberOfItems}}
	if !s.mutated("list-no-meta") {
		body = append(body, kv{"meta", obj{
			{"total", total},
			{"pageNumber", metaPage},
			{"pageSize", reported},
			{"hasMore", hasMore},
		}})
	}
	body = append(body, kv{"data", s.pageObjs(slice, baseURL(r))})
	return success(http.StatusOK, "List of pages", body...)
}

// validKey reports whether a page key is acceptable in a path.
func validKey(rt route) bool {
	return !hasTraversal(rt.key) && !hasTraversal(rt.rawKey)
}

// getPageH answers GET /api/pages/{key} (spec 4.2).
func (s *Server) getPageH(r *http.Request, rt route, _ *input, _ string) response {
	if !validKey(rt) {
		return failure(http.StatusBadRequest, "Invalid page key.")
	}
	key := rt.key
	if s.mutated("hierarchical-reads-parent") {
		key = strings.SplitN(key, "/", 2)[0]
	}
	p := s.pages[key]
	if p == nil {
		if s.mutated("missing-page-200") {
			return failure(http.StatusOK, "Page not found.")
		}
		if s.mutated("empty-body-on-404") {
			return response{code: http.StatusNotFound, kind: kindHandlerError, raw: []byte{}}
		}
		return failure(http.StatusNotFound, "Page not found.")
	}
	var data any = s.pageObj(p, baseURL(r))
	if s.mutated("get-page-in-array") {
		data = []any{data}
	}
	return success(http.StatusOK, "Page filtered by key: "+p.key, kv{"data", data})
}

// fieldError is a validation failure (400).
type fieldError string

// pageChange records what a create or edit request asked for beyond the
// stored fields: the tags to create, and the slug and parent it sent.
type pageChange struct {
	tagNames     map[string]string // tag key -> name, for the tags sent
	slug         string
	slugSent     bool
	parent       string
	parentSent   bool
	titleChanged bool
	typeSent     bool
	dateSent     bool
}

// applyFields validates the page fields present in the input and applies
// them to p (a copy of the stored page, or a new page). Nothing is stored:
// the caller commits p only when no field is invalid.
func (s *Server) applyFields(p *page, in *input, creating bool) (*pageChange, fieldError) {
	ch := &pageChange{}
	str := func(name string) (string, bool, fieldError) {
		v, ok, valid := in.str(name)
		if !valid {
			return "", true, fieldError("Invalid value for " + name + ": a string is expected.")
		}
		return v, ok, ""
	}
	encode := func(v string) string {
		v = sanitise(v)
		if in.form && s.mutated("double-encode-form") {
			v = sanitise(v)
		}
		return v
	}
	if v, ok, err := str("title"); err != "" {
		return nil, err
	} else if ok {
		t := encode(v)
		ch.titleChanged = t != p.title
		p.title = t
	}
	if v, ok, err := str("content"); err != "" {
		return nil, err
	} else if ok {
		p.content = v
	}
	if v, ok, err := str("description"); err != "" {
		return nil, err
	} else if ok && !(creating && s.mutated("create-ignores-description")) {
		p.description = encode(v)
	}
	if v, ok, err := str("tags"); err != "" {
		return nil, err
	} else if ok {
		ch.tagNames = map[string]string{}
		p.tags = nil
		for _, raw := range strings.Split(v, ",") {
			raw = strings.TrimSpace(raw)
			if raw == "" {
				continue
			}
			name := encode(raw)
			key := slugify(name, false)
			if key == "" {
				continue
			}
			if _, dup := ch.tagNames[key]; dup {
				continue
			}
			ch.tagNames[key] = name
			p.tags = append(p.tags, key)
		}
	}
	if v, ok, err := str("category"); err != "" {
		return nil, err
	} else if ok {
		v = strings.TrimSpace(v)
		if v != "" && s.cats[v] == nil {
			return nil, fieldError("Category not found: " + v)
		}
		p.category = v
	}
	if v, ok, err := str("type"); err != "" {
		return nil, err
	} else if ok && v != "" {
		valid := pageTypes[v] || (creating && s.mutated("invalid-type-accepted")) ||
			(!creating && s.mutated("edit-invalid-type-accepted"))
		switch {
		case !valid && s.mutated("benign-invalid-type-ignored"):
			// Accepted but not stored (the spec lists no validation of
			// type): a new page is a draft, an edited page keeps its type.
			if creating {
				p.typ = "draft"
			}
		case !valid:
			return nil, fieldError("Invalid page type: " + v)
		case creating || !s.mutated("edit-ignores-type"):
			p.typ = v
			ch.typeSent = true
		}
	}
	if v, ok, err := str("date"); err != "" {
		return nil, err
	} else if ok && strings.TrimSpace(v) != "" {
		t, perr := time.Parse(dateLayout, strings.TrimSpace(v))
		if perr != nil {
			return nil, fieldError("Invalid date, the format is YYYY-MM-DD HH:MM:SS: " + v)
		}
		p.date = t.Format(dateLayout)
		ch.dateSent = true
	}
	if v, ok, err := str("slug"); err != "" {
		return nil, err
	} else if ok && strings.TrimSpace(v) != "" {
		ch.slug = slugify(v, false)
		if ch.slug == "" {
			return nil, fieldError("Invalid slug: " + v)
		}
		ch.slugSent = true
	}
	if v, ok, err := str("parent"); err != "" {
		return nil, err
	} else if ok {
		ch.parent = strings.Trim(strings.TrimSpace(v), "/")
		ch.parentSent = true
	}
	if v, ok, err := str("position"); err != "" {
		return nil, err
	} else if ok && strings.TrimSpace(v) != "" {
		n, perr := strconv.Atoi(strings.TrimSpace(v))
		if perr != nil {
			return nil, fieldError("Invalid position, an integer is expected: " + v)
		}
		p.position = n
	}
	if v, ok, err := str("coverImage"); err != "" {
		return nil, err
	} else if ok {
		v = strings.TrimSpace(v)
		if hasTraversal(v) {
			return nil, fieldError("Invalid cover image: " + v)
		}
		p.coverImage = v
	}
	if v, ok, err := str("template"); err != "" {
		return nil, err
	} else if ok {
		p.template = encode(v)
	}
	for _, f := range []struct {
		name string
		dst  *bool
	}{{"noindex", &p.noindex}, {"nofollow", &p.nofollow}, {"noarchive", &p.noarchive}} {
		if in.has(f.name) {
			if _, _, valid := in.str(f.name); !valid {
				return nil, fieldError("Invalid value for " + f.name + ": a boolean is expected.")
			}
			*f.dst = in.flag(f.name, false) || in.token(f.name) == "1"
		}
	}
	// A published page with a future date is stored as scheduled, like the
	// previous release (the spec says nothing about scheduling).
	if p.typ == "published" && (ch.typeSent || ch.dateSent) && !s.mutated("benign-no-auto-schedule") {
		if t, err := time.ParseInLocation(dateLayout, p.date, s.location()); err == nil && t.After(s.now()) {
			p.typ = "scheduled"
		}
	}
	return ch, ""
}

// checkParent validates a parent key for the page whose current key is self
// ("" when creating).
func (s *Server) checkParent(parent, self string) fieldError {
	if parent == "" {
		return ""
	}
	pp := s.pages[parent]
	if pp == nil || hasTraversal(parent) {
		return fieldError("Parent page not found: " + parent)
	}
	if strings.Contains(parent, "/") {
		return fieldError("A child page cannot be a parent: " + parent)
	}
	if self != "" {
		if parent == self {
			return fieldError("A page cannot be its own parent.")
		}
		if len(s.children(self)) > 0 {
			return fieldError("A page with child pages cannot become a child page.")
		}
	}
	return ""
}

// commitTags creates the tags named by a change that do not exist yet.
func (s *Server) commitTags(ch *pageChange) {
	for k, name := range ch.tagNames {
		if s.tags[k] == nil {
			s.tags[k] = &term{key: k, name: name}
		}
	}
	s.pruneTags()
}

// createPageH answers POST /api/pages (spec 4.3).
func (s *Server) createPageH(r *http.Request, _ route, in *input, author string) response {
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
	ch, ferr := s.applyFields(p, in, true)
	if ferr != "" {
		return failure(http.StatusBadRequest, string(ferr))
	}
	parent := ""
	if ch.parentSent && !s.mutated("parent-ignored") {
		parent = ch.parent
	}
	if err := s.checkParent(parent, ""); err != "" {
		return failure(http.StatusBadRequest, string(err))
	}
	// Nothing can fail from here on: the page takes its place in the
	// creation order (the slug-not-from-title mutant numbers slugs by it).
	p.seq = s.nextSeq()
	slug := ch.slug
	if !ch.slugSent {
		slug = slugify(p.title, s.mutated("benign-slug-keeps-case"))
		if s.mutated("slug-not-from-title") {
			slug = "page-" + strconv.FormatInt(p.seq, 10)
		}
	}
	if slug == "" {
		slug = "empty"
	}
	key := slug
	if parent != "" {
		key = parent + "/" + slug
	}
	p.key = s.uniqueKey(key, nil)
	s.pages[p.key] = p
	s.commitTags(ch)
	if s.mutated("create-returns-key-only") {
		return success(http.StatusOK, "Page created.", kv{"data", obj{{"key", p.key}}})
	}
	code := http.StatusCreated
	if s.mutated("create-returns-200") {
		code = http.StatusOK
	}
	return success(code, "Page created.", kv{"data", s.pageObj(p, baseURL(r))})
}

// editPageH answers PUT /api/pages/{key} (spec 4.4). It acts on the full
// key, hierarchical or not.
func (s *Server) editPageH(r *http.Request, rt route, in *input, _ string) response {
	if !validKey(rt) {
		return failure(http.StatusBadRequest, "Invalid page key.")
	}
	old := s.pages[rt.key]
	if old == nil {
		if s.mutated("edit-missing-200") {
			return failure(http.StatusOK, "Error trying to edit the page.")
		}
		return failure(http.StatusNotFound, "Page not found.")
	}
	if s.mutated("benign-slug-on-edit-400") && in.has("slug") {
		// slug is not listed for edit (spec 4.4): refusing it is allowed.
		return failure(http.StatusBadRequest, "slug cannot be sent on edit; change the title instead.")
	}
	p := old.clone()
	if s.mutated("edit-resets-omitted-fields") {
		p.description, p.content, p.tags, p.category = "", "", nil, ""
	}
	ch, ferr := s.applyFields(p, in, false)
	if ferr != "" {
		return failure(http.StatusBadRequest, string(ferr))
	}
	parent := parentOf(old.key)
	if ch.parentSent {
		parent = ch.parent
	}
	if parent != parentOf(old.key) {
		if err := s.checkParent(parent, old.key); err != "" {
			return failure(http.StatusBadRequest, string(err))
		}
	}
	slug := lastSegment(old.key)
	switch {
	case ch.slugSent:
		slug = ch.slug
	case ch.titleChanged && !s.mutated("benign-title-edit-keeps-key"):
		slug = slugify(p.title, s.mutated("benign-slug-keeps-case"))
		if slug == "" {
			slug = "empty"
		}
	}
	key := slug
	if parent != "" {
		key = parent + "/" + slug
	}
	if key != old.key {
		key = s.uniqueKey(key, old)
	}
	if s.mutated("rename-new-uuid") && key != old.key {
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
	s.commitTags(ch)
	data := s.pageObj(p, baseURL(r))
	if s.mutated("edit-reports-old-key") {
		data = data.set("key", old.key)
	}
	if s.mutated("edit-returns-key-only") {
		data = obj{{"key", data[0].v}}
	}
	return success(http.StatusOK, "Page edited.", kv{"data", data})
}

// deletePageH answers DELETE /api/pages/{key} (spec 4.5). Child pages of a
// deleted page are kept and become top-level pages (key = their slug, with
// the usual -0, -1 suffix on a collision).
func (s *Server) deletePageH(r *http.Request, rt route, _ *input, _ string) response {
	if !validKey(rt) {
		return failure(http.StatusBadRequest, "Invalid page key.")
	}
	p := s.pages[rt.key]
	if p == nil {
		if s.mutated("delete-missing-200") {
			return success(http.StatusOK, "Page deleted.")
		}
		return failure(http.StatusNotFound, "Page not found.")
	}
	if s.mutated("delete-soft") {
		return success(http.StatusOK, "Page deleted.")
	}
	delete(s.pages, p.key)
	delete(s.files, p.uuid)
	for _, c := range s.children(p.key) {
		delete(s.pages, c.key)
		c.key = s.uniqueKey(lastSegment(c.key), nil)
		s.pages[c.key] = c
	}
	s.pruneTags()
	if s.mutated("delete-returns-data") {
		return success(http.StatusOK, "Page deleted.", kv{"data", s.pageObj(p, baseURL(r))})
	}
	return success(http.StatusOK, "Page deleted.")
}

func untaggedOnly(ps []*page) []*page {
	var out []*page
	for _, p := range ps {
		if len(p.tags) == 0 {
			out = append(out, p)
		}
	}
	return out
}
