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
		if in.form && s.mutated(DoubleEncodeForm) {
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
	} else if ok && !(creating && s.mutated(CreateIgnoresDescription)) {
		p.description = encode(v)
	}
	if v, ok, err := str("tags"); err != "" {
		return nil, err
	} else if ok {
		ch.tagNames, p.tags = tagsOf(v)
		p.tagNames = ch.tagNames // host: Pages::edit and Pages::add store the page's own tags map
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
		valid := pageTypes[v] || (creating && s.mutated(InvalidTypeAccepted)) ||
			(!creating && s.mutated(EditInvalidTypeAccepted))
		switch {
		case !valid && s.mutated(BenignInvalidTypeIgnored):
			// Accepted but not stored (the spec lists no validation of
			// type): a new page is a draft, an edited page keeps its type.
			if creating {
				p.typ = "draft"
			}
		case !valid:
			return nil, fieldError("Invalid page type: " + v)
		case creating || !s.mutated(EditIgnoresType):
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
	} else if ok && !phpEmpty(v) {
		// A slug of blanks or punctuation only gives "empty", as the host's.
		ch.slug = slugOf(v, false)
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
	// host: Pages::add and Pages::edit in bl-kernel/pages.class.php
	if p.typ == "published" && (ch.typeSent || ch.dateSent) && !s.mutated(BenignNoAutoSchedule) {
		if t, err := time.ParseInLocation(dateLayout, p.date, s.location()); err == nil && t.After(s.now()) {
			p.typ = "scheduled"
		}
	}
	return ch, ""
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
