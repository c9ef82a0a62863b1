// Package coverage is the spec coverage map: for every request input of the
// spec (the page list's query parameters, the page and settings body
// fields, where the tokens travel) and every response field of sections 2.1
// to 2.6, what a run did with it: sent with a new value and read back,
// omitted and shown unchanged, checked for kind on every response that
// carries it, compared across the views that show it.
//
// The map is measured, not declared. The table (table.go) says which cells
// exist, which rules may fill each and which the spec makes untestable; a
// run fills a cell only when one of those rules asserted it on real data:
// the framework records a mark when a suite compares a value it sent with
// the one read back, when a field's values in two views are compared, when
// a response is held against the schema of its endpoint, and, from the
// exchanges each spec judged, which query parameters and token placements
// an assertion ran on (Recorder). Build turns the table and the marks into
// the Map that reports carry.
//
// It imports nothing of the suite: the framework feeds it, the reports and
// the reference server's cell mutants read it.
package coverage

import "strings"

// Way is a column of the map: one thing a run can do with a field.
type Way string

// The ways. Each section uses some of them (Section.Ways).
const (
	// Create: sent on create with a value, read back.
	Create Way = "create"
	// Edit: sent in an update with a new value, read back.
	Edit Way = "edit"
	// Kept: omitted from an update, read back unchanged.
	Kept Way = "kept"
	// Sent: a query parameter sent, its effect checked.
	Sent Way = "sent"
	// Omitted: a query parameter left out, its default checked.
	Omitted Way = "omitted"
	// Valid: a token sent with its valid value there, the request accepted.
	Valid Way = "valid"
	// Missing: a token left out, the request refused.
	Missing Way = "missing"
	// Wrong: a token sent with a wrong value, the request refused.
	Wrong Way = "wrong"
	// Kind: the field's kind checked on every response that carries it.
	Kind Way = "kind"
	// Views: the field compared across the views that show it.
	Views Way = "views"
)

// Title says what a way means, for a column heading.
func (w Way) Title() string {
	switch w {
	case Create:
		return "sent on create, read back"
	case Edit:
		return "sent in an update with a new value, read back"
	case Kept:
		return "omitted from an update, read back unchanged"
	case Sent:
		return "sent, its effect checked"
	case Omitted:
		return "omitted, its default checked"
	case Valid:
		return "valid, accepted"
	case Missing:
		return "missing, refused"
	case Wrong:
		return "wrong, refused"
	case Kind:
		return "kind checked on every response carrying it"
	case Views:
		return "compared across the views that show it"
	case ViewList:
		return "the page list under a type filter"
	case ViewSingle:
		return "the page at its key"
	case ViewOldKey:
		return "the key the page had"
	case ViewTagList:
		return "the tag list"
	case ViewTag:
		return "the single tag"
	case ViewCatList:
		return "the category list"
	case ViewCategory:
		return "the single category"
	case ViewFiles:
		return "the page's files"
	}
	return string(w)
}

// ID names one cell: "<section>.<field>.<way>", e.g. "page.title.kind" or
// "body.content.edit". Field names never hold a dot.
type ID string

// CellID is the ID of the cell of field in section, way.
func CellID(section, field string, w Way) ID {
	return ID(section + "." + field + "." + string(w))
}

// Parts splits an ID into its section, field and way.
func (id ID) Parts() (section, field string, w Way) {
	s := string(id)
	section, rest, _ := strings.Cut(s, ".")
	i := strings.LastIndex(rest, ".")
	if i < 0 {
		return section, rest, ""
	}
	return section, rest[:i], Way(rest[i+1:])
}

// MutantName is the name of the reference server's mutant that breaks
// exactly the cell id, in lowercase ("cell-page-coverimage-kind").
func (id ID) MutantName() string {
	return "cell-" + strings.ToLower(strings.NewReplacer(".", "-", "_", "-").Replace(string(id)))
}
