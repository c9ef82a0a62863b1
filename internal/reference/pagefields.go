package reference

// The page fields a create or edit sends: validated, then applied.

import (
	"strconv"
	"strings"
	"time"
)

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
func (s *view) applyFields(p *page, in *input, creating bool) (*pageChange, fieldError) {
	w := &fieldWork{s: s, p: p, ch: &pageChange{}, in: in, creating: creating}
	for _, f := range stringFields {
		v, ok, valid := in.str(f.name)
		if !valid {
			return nil, fieldError("Invalid value for " + f.name + ": a string is expected.")
		}
		if !ok {
			continue
		}
		if err := f.apply(w, v); err != "" {
			return nil, err
		}
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
	w.schedule()
	return w.ch, ""
}

// fieldWork is the page a create or edit changes, field by field.
type fieldWork struct {
	s        *view
	p        *page
	ch       *pageChange
	in       *input
	creating bool
}

// stringFields are the string fields of a page write, in the order they are
// checked: each applies a value sent.
var stringFields = []struct {
	name  string
	apply func(w *fieldWork, v string) fieldError
}{
	{"title", (*fieldWork).title},
	{"content", func(w *fieldWork, v string) fieldError { w.p.content = v; return "" }},
	{"description", (*fieldWork).description},
	{"tags", func(w *fieldWork, v string) fieldError {
		w.ch.tagNames, w.p.tags = tagsOf(v)
		w.p.tagNames = w.ch.tagNames // host: Pages::edit and Pages::add store the page's own tags map
		return ""
	}},
	{"category", (*fieldWork).category},
	{"type", (*fieldWork).pageType},
	{"date", (*fieldWork).date},
	{"slug", func(w *fieldWork, v string) fieldError {
		if !phpEmpty(v) {
			// A slug of blanks or punctuation only gives "empty", as the host's.
			w.ch.slug = slugOf(v, false)
			w.ch.slugSent = true
		}
		return ""
	}},
	{"parent", func(w *fieldWork, v string) fieldError {
		w.ch.parent = strings.Trim(strings.TrimSpace(v), "/")
		w.ch.parentSent = true
		return ""
	}},
	{"position", (*fieldWork).position},
	{"coverImage", func(w *fieldWork, v string) fieldError {
		v = strings.TrimSpace(v)
		if hasTraversal(v) {
			return fieldError("Invalid cover image: " + v)
		}
		w.p.coverImage = v
		return ""
	}},
	{"template", func(w *fieldWork, v string) fieldError { w.p.template = w.encode(v); return "" }},
}

// encode is v HTML-encoded for storage.
func (w *fieldWork) encode(v string) string {
	v = sanitise(v)
	if w.in.form && w.s.mutated(DoubleEncodeForm) {
		v = sanitise(v)
	}
	return v
}

func (w *fieldWork) title(v string) fieldError {
	t := w.encode(v)
	w.ch.titleChanged = t != w.p.title
	w.p.title = t
	return ""
}

func (w *fieldWork) description(v string) fieldError {
	if !(w.creating && w.s.mutated(CreateIgnoresDescription)) {
		w.p.description = w.encode(v)
	}
	return ""
}

func (w *fieldWork) category(v string) fieldError {
	v = strings.TrimSpace(v)
	if v != "" && w.s.cats[v] == nil {
		return fieldError("Category not found: " + v)
	}
	w.p.category = v
	return ""
}

func (w *fieldWork) pageType(v string) fieldError {
	if v == "" {
		return ""
	}
	s := w.s
	valid := pageTypes[v] || (w.creating && s.mutated(InvalidTypeAccepted)) ||
		(!w.creating && s.mutated(EditInvalidTypeAccepted))
	switch {
	case !valid && s.mutated(BenignInvalidTypeIgnored):
		// Accepted but not stored (the spec lists no validation of
		// type): a new page is a draft, an edited page keeps its type.
		if w.creating {
			w.p.typ = "draft"
		}
	case !valid:
		return fieldError("Invalid page type: " + v)
	case w.creating || !s.mutated(EditIgnoresType):
		w.p.typ = v
		w.ch.typeSent = true
	}
	return ""
}

func (w *fieldWork) date(v string) fieldError {
	if strings.TrimSpace(v) == "" {
		return ""
	}
	t, err := time.Parse(dateLayout, strings.TrimSpace(v))
	if err != nil {
		return fieldError("Invalid date, the format is YYYY-MM-DD HH:MM:SS: " + v)
	}
	w.p.date = t.Format(dateLayout)
	w.ch.dateSent = true
	return ""
}

func (w *fieldWork) position(v string) fieldError {
	if strings.TrimSpace(v) == "" {
		return ""
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return fieldError("Invalid position, an integer is expected: " + v)
	}
	w.p.position = n
	return ""
}

// schedule stores a published page with a future date as scheduled, like
// the previous release (the spec says nothing about scheduling).
// host: Pages::add and Pages::edit in bl-kernel/pages.class.php
func (w *fieldWork) schedule() {
	s, p := w.s, w.p
	if p.typ == "published" && (w.ch.typeSent || w.ch.dateSent) && !s.mutated(BenignNoAutoSchedule) {
		if t, err := time.ParseInLocation(dateLayout, p.date, s.location()); err == nil && t.After(s.now()) {
			p.typ = "scheduled"
		}
	}
}

// tagsOf reads a comma-separated tags value: each name trimmed and kept
// as sent (the core does not encode tag names), its key the cleanURL of
// it; a name whose key is already there renames that tag (the last name
// wins, in the first one's place). A name without a key ("", "!!!") is
// left out (the host would store a tag with the empty key).
// host: Pages::generateTags in bl-kernel/pages.class.php
func tagsOf(v string) (names map[string]string, keys []string) {
	names = map[string]string{}
	for _, raw := range strings.Split(v, ",") {
		name := strings.Trim(raw, phpSpace)
		key := cleanURL(name, false)
		if key == "" {
			continue
		}
		if _, dup := names[key]; !dup {
			keys = append(keys, key)
		}
		names[key] = name
	}
	return names, keys
}

// checkParent validates a parent key for the page whose current key is self
// ("" when creating).
func (s *view) checkParent(parent, self string) fieldError {
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
