package reference

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/conformance-suite/conformance/internal/coverage"
)

// Cell mutants: one for every testable cell of the spec coverage map
// (internal/coverage), each breaking that cell's fact and, as far as a
// server can, nothing else: an input of the page list, a page or settings
// body field or a token placement the server ignores, blanks or accepts
// when it should not; a field of a record that has another kind in one
// view, or another value in one view than in the others. A cell the table
// of named mutants already breaks exactly (cellNamed) uses that mutant.
// Their names are coverage.ID.MutantName ("cell-page-title-kind"); the
// rules they name are the cell's (the self-test requires each to be caught
// by one of them).

// cellNamed are the cells an existing mutant breaks as a cell mutant would.
var cellNamed = map[coverage.ID]Mutant{
	"query.sticky.sent":           StickyFilterIgnored,
	"query.static.omitted":        DefaultIncludesStatic,
	"query.numberOfItems.omitted": DefaultSizeMisreported,
	"body.description.create":     CreateIgnoresDescription,
	"body.parent.create":          ParentIgnored,
	"body.type.edit":              EditIgnoresType,
	"body.content.kept":           EditBlanksOmittedContent,
	"body.description.kept":       EditBlanksOmittedDescription,
	"body.tags.kept":              EditBlanksOmittedTags,
	"body.category.kept":          EditBlanksOmittedCategory,
	"body.date.kept":              EditBlanksOmittedDate,
	"body.type.kept":              EditBlanksOmittedType,
	"body.coverImage.kept":        EditBlanksOmittedCoverImage,
	"settings.customFields.kind":  SettingsCustomFieldsObject,
	"file.size.kind":              FileSizeAsString,
}

// CellMutant is the mutant that breaks cell id: a mutant of the table, or
// the cell's own ("cell-…"); false for a cell the table lacks or one that
// is not testable.
func CellMutant(id coverage.ID) (Mutant, bool) {
	c, ok := coverage.Lookup(id)
	if !ok || !c.Testable() {
		return "", false
	}
	if m, ok := cellNamed[id]; ok {
		return m, true
	}
	return Mutant(id.MutantName()), true
}

// cellTable describes the cell mutants of every testable cell that no
// mutant of the table breaks.
func cellTable() []MutantInfo {
	var out []MutantInfo
	for _, id := range coverage.IDs() {
		c, _ := coverage.Lookup(id)
		if _, named := cellNamed[id]; named || !c.Testable() {
			continue
		}
		out = append(out, MutantInfo{Name: Mutant(id.MutantName()), Rules: slices.Clone(c.Rules), Description: cellDescription(id)})
	}
	return out
}

// cellsByName maps each cell mutant's name to its cell.
var cellsByName = func() map[Mutant]coverage.ID {
	out := map[Mutant]coverage.ID{}
	for _, id := range coverage.IDs() {
		out[Mutant(id.MutantName())] = id
	}
	return out
}()

// enabledCells are the cells whose mutants are switched on.
func enabledCells(enabled map[Mutant]bool) []coverage.ID {
	var out []coverage.ID
	for m := range enabled {
		if id, ok := cellsByName[m]; ok {
			out = append(out, id)
		}
	}
	return out
}

// cellDescription says what the cell mutant of id does.
func cellDescription(id coverage.ID) string {
	section, field, way := id.Parts()
	switch section {
	case "query":
		if way == coverage.Sent {
			return fmt.Sprintf("GET /api/pages ignores %s when it is sent (as if left out).", field)
		}
		return fmt.Sprintf("GET /api/pages without %s acts as if %s=%s.", field, field, omittedAs(field))
	case "body":
		switch way {
		case coverage.Create:
			return fmt.Sprintf("POST /api/pages ignores %s.", field)
		case coverage.Edit:
			return fmt.Sprintf("PUT /api/pages/{key} ignores %s.", field)
		}
		return fmt.Sprintf("PUT /api/pages/{key} without %s changes it (%s).", field, keptBreak(field))
	case "update":
		if way == coverage.Edit {
			return fmt.Sprintf("PUT /api/settings ignores %s.", field)
		}
		return fmt.Sprintf("PUT /api/settings without %s empties it.", field)
	case "write":
		return writeDescription(field, way)
	case "token":
		switch way {
		case coverage.Valid:
			return fmt.Sprintf("A valid %s is ignored: %s.", tokenWords(field), "the request is answered as without it")
		case coverage.Missing:
			return fmt.Sprintf("A request that should carry %s but has none is answered as if it had the valid one.", tokenWords(field))
		}
		return fmt.Sprintf("A wrong %s is accepted as the valid one.", tokenWords(field))
	}
	at, _ := cellView(section, field, way)
	if way == coverage.Kind {
		return fmt.Sprintf("The %s field %s has a kind its schema does not allow in %s.", section, field, at.where(field))
	}
	return fmt.Sprintf("The %s field %s reads otherwise in %s than in the other views.", section, field, at.where(field))
}

func tokenWords(field string) string {
	param, rest, _ := strings.Cut(field, "-")
	return fmt.Sprintf("%s token in the %s", param, strings.ReplaceAll(rest, "-", " of a "))
}

// omittedAs is the value a query parameter left out acts as.
func omittedAs(param string) string {
	switch param {
	case "published":
		return "false"
	case "pageNumber":
		return "2"
	}
	return "true"
}

// keptBreak says how a body field left out of an edit is changed.
func keptBreak(field string) string {
	switch field {
	case "title":
		return "emptied"
	case "slug":
		return "the page moves to the slug moved-<slug>"
	case "parent":
		return "the page moves to the top level"
	}
	return "emptied"
}

func endpointOf(section string) string {
	if section == "category" {
		return "categories"
	}
	return section + "s"
}

// breakInput applies the input side of the enabled cell mutants to a
// request (before its tokens are checked): r's method and path, and in.
func (s *Server) breakInput(r *http.Request, in *input) {
	endpoint, key := apiPath(r.URL.Path)
	q := r.URL.Query()
	for _, id := range s.cells {
		section, field, way := id.Parts()
		switch section {
		case "query":
			if r.Method != http.MethodGet || endpoint != "pages" || key != "" {
				continue
			}
			if way == coverage.Sent && in.has(field) {
				delete(in.vals, field)
			} else if way == coverage.Omitted && !in.has(field) {
				in.vals[field] = omittedAs(field)
			}
		case "body":
			s.breakBody(r.Method, endpoint, key, field, way, in)
		case "update":
			if r.Method != http.MethodPut || endpoint != "settings" {
				continue
			}
			if way == coverage.Edit {
				delete(in.vals, field)
			} else if !in.has(field) {
				in.vals[field] = ""
				if field == "customFields" {
					in.vals[field] = "{}"
				}
			}
		case "token":
			s.breakToken(r.Method, endpoint, q, field, way, in)
		}
	}
}

// breakBody breaks a page body field.
func (s *Server) breakBody(method, endpoint, key, field string, way coverage.Way, in *input) {
	if endpoint != "pages" {
		return
	}
	switch {
	case way == coverage.Create && method == http.MethodPost && key == "":
		delete(in.vals, field)
	case way == coverage.Edit && method == http.MethodPut && key != "":
		delete(in.vals, field)
	case way == coverage.Kept && method == http.MethodPut && key != "" && !in.has(field):
		switch field {
		case "slug":
			in.vals["slug"] = "moved-" + lastSegment(key)
		default: // title, parent (to the top level)
			in.vals[field] = ""
		}
	}
}

// breakToken breaks a token placement: row names the token and where it
// travels (coverage.TokenQueryGet, ...).
func (s *Server) breakToken(method, endpoint string, q url.Values, row string, way coverage.Way, in *input) {
	param, rest, _ := strings.Cut(row, "-")
	if param == "authentication" && method == http.MethodGet && endpoint != "settings" {
		return
	}
	if !tokenTravels(rest, method, q.Get(param) != "", way, in.has(param)) {
		return
	}
	valid := s.opts.Token
	if param == "authentication" {
		valid = s.opts.AuthToken
	}
	got := in.token(param)
	switch {
	case way == coverage.Valid && got == valid:
		delete(in.vals, param)
	case way == coverage.Missing && got == "":
		in.vals[param] = valid
	case way == coverage.Wrong && got != "" && got != valid:
		in.vals[param] = valid
	}
}

// tokenTravels reports whether a request of method is one that the token
// placement rest ("query-get", ...) is about: inQuery, whether the token is
// in the query; has, whether the request has it anywhere.
func tokenTravels(rest, method string, inQuery bool, way coverage.Way, has bool) bool {
	switch rest {
	case "query-get":
		return method == http.MethodGet && (inQuery || way == coverage.Missing)
	case "query-delete":
		return method == http.MethodDelete && (inQuery || way == coverage.Missing)
	case "jsonbody-delete":
		return method == http.MethodDelete && !inQuery && has
	case "body-post":
		return method == http.MethodPost
	case "body-put":
		return method == http.MethodPut
	}
	return false
}

// apiPath splits an API path into its endpoint and key.
func apiPath(path string) (endpoint, key string) {
	rest := strings.TrimPrefix(strings.TrimPrefix(path, "/api"), "/")
	endpoint, key, _ = strings.Cut(rest, "/")
	return endpoint, key
}
