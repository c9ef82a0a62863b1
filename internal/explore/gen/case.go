// Package gen generates the inputs `conformance explore` sends, from the
// spec's own types (sections 4.1, 4.3, 4.4, 4.10 and 5), with
// pgregory.net/rapid: every value is drawn from rapid's bit stream, so a
// failing input shrinks (fewer fields, shorter strings, simpler values)
// without code of ours.
//
// A generated input is a Case: plain data, which a replay file keeps and
// `conformance explore --replay` sends again. Values that depend on the run
// (the run marker of every page created, the run's tokens) are not in it:
// Slug and Marker are placeholders the explorer fills in when it sends.
package gen

import (
	"net/http"
	"strings"
)

// Kind is what a case exercises.
type Kind string

// The kinds of case, one rapid property each.
const (
	KindList     Kind = "list"     // GET /api/pages with generated parameters (4.1)
	KindRead     Kind = "read"     // GET of one resource by a generated key (4.2, 4.6 to 4.8, 4.11)
	KindToken    Kind = "token"    // tokens missing, empty, wrong or misplaced (5)
	KindBody     Kind = "body"     // bodies that are not JSON, wrong Content-Types (1)
	KindCreate   Kind = "create"   // POST /api/pages with a generated body (4.3)
	KindEdit     Kind = "edit"     // PUT /api/pages/{key} of a page of the run (4.4)
	KindRefused  Kind = "refused"  // a write without a valid authentication token (5.5)
	KindSettings Kind = "settings" // PUT /api/settings with generated fields (4.10)
)

// Placeholders in a case's strings, filled in when the case is sent.
const (
	// Slug stands for a slug carrying the run marker, new for each
	// sending (conformance-<run>-<n>).
	Slug = "{slug}"
	// Marker stands for the run marker alone (conformance-<run>-), in
	// a title whose slug the server may derive from it.
	Marker = "{marker}"
)

// Token says what a case sends of one token.
type Token string

// The ways a case may carry a token.
const (
	TokenValid   Token = ""        // where the spec puts it (the default)
	TokenMissing Token = "missing" // not at all
	TokenEmpty   Token = "empty"   // the parameter, with an empty value
	TokenWrong   Token = "wrong"   // a well-formed wrong value
	// TokenElsewhere: the valid token, where the spec does not put it for
	// the method (the body of a GET, the query string of a PUT); the API
	// token only.
	TokenElsewhere Token = "elsewhere"
)

// Param is one query parameter, in the order sent.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Class is the boundary class the value was drawn in (classes.go).
	Class string `json:"class,omitempty"`
}

// Field is one body field. Value is what JSON would decode: a string, a
// number, a bool, a list or an object. Invalid says the spec does not
// promise the value is taken: it is of a kind or form the spec does not
// allow for the field, or names what the site may not have (a category,
// a cover image, a template, a parent). The server may refuse it with
// 400, or accept it and store something of its own.
//
// Limit says the value is at an edge of its type where a server may have
// a limit the spec does not show (a length, a character it will not
// store): it may refuse it with 400, but a value it takes reads back as
// sent. Class is the boundary class the value was drawn in (classes.go).
type Field struct {
	Name    string `json:"name"`
	Value   any    `json:"value"`
	Invalid bool   `json:"invalid,omitempty"`
	Limit   bool   `json:"limit,omitempty"`
	Class   string `json:"class,omitempty"`
	// plain is what an Invalid field sends in a case that sends no
	// invalid value (settle; nil: it is left out there).
	plain *Field
}

// Case is one generated input.
type Case struct {
	Kind Kind `json:"kind"`
	// Method of a token or body case ("" for the kind's own).
	Method string `json:"method,omitempty"`
	// Endpoint is the resource a read, token or body case addresses:
	// pages, tags, categories, users, files or settings.
	Endpoint string `json:"endpoint,omitempty"`
	// Key is the path after the endpoint, already escaped ("" for none).
	Key string `json:"key,omitempty"`
	// KeyClass says what Key names: existing, missing, child, traversal,
	// encoded or long.
	KeyClass string  `json:"keyClass,omitempty"`
	Query    []Param `json:"query,omitempty"`
	Fields   []Field `json:"fields,omitempty"`
	// Form sends Fields form-encoded instead of as JSON.
	Form bool `json:"form,omitempty"`
	// Raw, when set, is the whole body, sent with ContentType (none when
	// empty); WithTokens puts the run's tokens into a raw JSON object.
	Raw         string `json:"raw,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	WithTokens  bool   `json:"withTokens,omitempty"`
	APIToken    Token  `json:"apiToken,omitempty"`
	AuthToken   Token  `json:"authToken,omitempty"`
	// Target is what a refused write tries: create, edit, delete or
	// settings.
	Target string `json:"target,omitempty"`
}

// Field returns the named field and whether the case sends it.
func (c Case) Field(name string) (Field, bool) {
	for _, f := range c.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// Param returns the named query parameter and whether the case sends it.
func (c Case) Param(name string) (string, bool) {
	for _, p := range c.Query {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// NeedsAuth reports whether the request of a case needs the
// authentication token besides the API token (5): a write, or a read of
// the settings.
func (c Case) NeedsAuth() bool { return c.Method != http.MethodGet || c.Endpoint == "settings" }

// Valid reports whether every field the case sends is of a kind and form
// the spec allows, and none at an edge a server may refuse (Limit).
func (c Case) Valid() bool {
	for _, f := range c.Fields {
		if f.Invalid || f.Limit {
			return false
		}
	}
	return true
}

// Size measures how big a case is: the fields and parameters it sends
// and the characters of their values (a shrunk case is small by both).
func (c Case) Size() (fields, chars int) {
	for _, p := range c.Query {
		fields++
		chars += len(p.Value)
	}
	for _, f := range c.Fields {
		fields++
		if s, ok := f.Value.(string); ok {
			chars += len(s)
		} else {
			chars += 4
		}
	}
	return fields, chars + len(c.Raw) + len(c.Key)
}

// Fill replaces the placeholders of s: Slug by slug, Marker by marker.
func Fill(s, slug, marker string) string {
	return strings.NewReplacer(Slug, slug, Marker, marker).Replace(s)
}
