package sitemodel

import (
	"slices"

	"github.com/tidwall/gjson"
)

// termKind is what tags and categories differ in: their rules, and how a
// page names the terms it carries.
type termKind struct {
	noun, endpoint       string
	complete, consistent string
	// carried are the keys of the terms of this kind a page's fields name;
	// ok is false when the fields learned do not say.
	carried func(fields map[string]learned) (keys []string, ok bool)
}

var (
	tagKind = termKind{noun: "tag", endpoint: "tags", complete: "TAG-LIST-COMPLETE", consistent: "TAG-LIST-CONSISTENT",
		carried: func(fields map[string]learned) ([]string, bool) {
			tags, ok := fields["tags"]
			if !ok || !tags.val.IsObject() {
				return nil, false
			}
			var keys []string
			tags.val.ForEach(func(k, _ gjson.Result) bool {
				keys = append(keys, k.String())
				return true
			})
			return keys, true
		}}
	catKind = termKind{noun: "category", endpoint: "categories", complete: "CAT-LIST-COMPLETE", consistent: "CAT-LIST-CONSISTENT",
		carried: func(fields map[string]learned) ([]string, bool) {
			c, ok := fields["category"]
			if !ok || c.val.Type != gjson.String {
				return nil, false
			}
			if c.val.Str == "" {
				return nil, true
			}
			return []string{c.val.Str}, true
		}}
)

func kindOf(endpoint string) termKind {
	if endpoint == "tags" {
		return tagKind
	}
	return catKind
}

// judgeRead judges one read against the model.
func (m *model) judgeRead(s *Seen) {
	for _, p := range s.pages {
		m.judgePage(s.Ex, p)
	}
	if s.single != nil {
		m.judgeSingle(s)
	}
	if s.list != nil {
		m.judgeListing(s)
	}
	for _, t := range s.terms {
		m.judgeTerm(s, t)
	}
}

// judgeSingle: a key of the run the model holds as live answers 200 (4.2),
// one it holds as gone answers 404 (3.2, 3.3).
func (m *model) judgeSingle(s *Seen) {
	f := m.pages[s.single.key]
	if f == nil || f.uncertain {
		return
	}
	switch {
	case f.state == gone && (s.single.found || s.single.gone):
		m.v.Judged[f.goneRule]++
		if s.single.found && len(s.pages) == 0 { // else judgePage found it
			m.find(f.goneRule, s.Ex, "GET /api/pages/%s answered 200, though the page was %s", s.single.key, f.goneBy)
		}
	case f.state == live && (s.single.found || s.single.gone):
		m.v.Judged[RuleGetOK]++
		if s.single.gone {
			m.find(RuleGetOK, s.Ex, "GET /api/pages/%s answered 404, though the run created the page (or renamed a page to "+
				"it) and has not deleted or renamed it since", s.single.key)
		}
	}
}

// judgeListing: a listing of every page of its types (numberOfItems -1)
// lists each live page of the run whose type, as last shown, is one of
// them (4.1). A page of another type that it lists is judged by the type
// filter rules on the item itself; a gone one, by judgePage.
func (m *model) judgeListing(s *Seen) {
	for _, key := range m.keys() {
		f := m.pages[key]
		if f.state == gone && !f.uncertain && (s.list.only == nil || s.list.only[key]) {
			m.v.Judged[f.goneRule]++ // listed, judgePage found it
			continue
		}
		typ, ok := f.fields["type"]
		if f.state != live || f.uncertain || !ok || !slices.Contains(s.list.types, typ.val.String()) ||
			s.list.only != nil && !s.list.only[key] {
			continue
		}
		m.v.Judged[RuleTypeFilters]++
		if !s.list.keys[key] {
			m.find(RuleTypeFilters, s.Ex, "%s %s (which asks for every page of the types %v) does not list page %s, "+
				"whose type is %s (as %s showed it)", s.Ex.Method, s.Ex.URL, s.list.types, key, typ.val.String(), typ.from)
		}
	}
}

// judgeTerm: a view of a term names no gone key of the run and no live page
// that does not carry it (2.2, 2.3: TAG/CAT-LIST-CONSISTENT), and names
// every live published page that carries it (TAG/CAT-LIST-COMPLETE; pages
// of other types may be named or not, as the rules' Readings say).
func (m *model) judgeTerm(s *Seen, t termSaw) {
	k := t.kind
	for _, key := range m.keys() {
		f := m.pages[key]
		if f.uncertain {
			continue
		}
		named := t.names[key]
		if f.state == gone {
			m.v.Judged[k.consistent]++
			if named {
				m.find(k.consistent, s.Ex, "%s names page %s, %s", t.where, key, f.goneBy)
			}
			continue
		}
		carried, ok := k.carried(f.fields)
		if f.state != live || !ok {
			continue
		}
		carries := slices.Contains(carried, t.term)
		if named || !carries {
			m.v.Judged[k.consistent]++
		}
		if named && !carries {
			m.find(k.consistent, s.Ex, "%s names page %s, which does not carry %s %q (as %s showed it)", t.where, key, k.noun,
				t.term, f.fields[fieldOf(k)].from)
		}
		if carries && f.fields["type"].val.String() == "published" && !f.timePublished {
			m.v.Judged[k.complete]++
			if !named {
				m.find(k.complete, s.Ex, "%s does not name page %s, a published page that carries %s %q (as %s showed it)",
					t.where, key, k.noun, t.term, f.fields[fieldOf(k)].from)
			}
		}
	}
}

// fieldOf is the page field that names terms of kind k.
func fieldOf(k termKind) string {
	if k.noun == "tag" {
		return "tags"
	}
	return "category"
}
