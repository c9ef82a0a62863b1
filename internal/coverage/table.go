package coverage

import (
	"strings"
	"sync"
)

// Section is one part of the spec whose fields the map covers: its rows
// and the ways (columns) that apply to them.
type Section struct {
	ID    string // "page", "body", ...: the first part of a cell ID
	Title string // "2.1 Page object"
	// RowHeading names what a row is ("" for a field).
	RowHeading string
	Ways       []Way
	Rows       []Row
}

// Row is one field of a section and its cells. A way of the section that
// Cells lacks does not apply to the field (the list profile has no codepen
// to compare, say): no cell.
type Row struct {
	Field string
	Cells map[Way]Cell
}

// Cell is what the table says of one cell: the rules whose specs fill it,
// or why the spec makes it untestable.
type Cell struct {
	Rules      []string
	Untestable string
}

// Testable reports whether a run is expected to fill the cell.
func (c Cell) Testable() bool { return c.Untestable == "" }

// Table returns the sections of the map in report order (a fresh copy).
func Table() []Section { return table() }

// index is every cell of the table by ID, built once: Lookup runs for
// every exchange a spec judged.
var index = sync.OnceValue(func() map[ID]Cell {
	out := map[ID]Cell{}
	for _, s := range table() {
		for _, r := range s.Rows {
			for w, c := range r.Cells {
				out[CellID(s.ID, r.Field, w)] = c
			}
		}
	}
	return out
})

// Lookup returns the cell id names, false when the table has none. The
// cell is shared: do not change it.
func Lookup(id ID) (Cell, bool) {
	c, ok := index()[id]
	return c, ok
}

// IDs lists every cell of the table, testable or not, in report order.
func IDs() []ID {
	var out []ID
	for _, s := range table() {
		for _, r := range s.Rows {
			for _, w := range s.Ways {
				if _, ok := r.Cells[w]; ok {
					out = append(out, CellID(s.ID, r.Field, w))
				}
			}
		}
	}
	return out
}

// rules is a cell filled by the rules named (space-separated).
func rules(ids string) Cell { return Cell{Rules: strings.Fields(ids)} }

// untestable is a cell the spec makes untestable, with the reason.
func untestable(why string) Cell { return Cell{Untestable: why} }

// Why the spec makes some cells untestable.
const (
	notInPageObject = "the page object (2.1) has no such field: no answer shows what was stored"
	slugNotForEdit  = "4.4 does not list slug for edit: a server may ignore it or refuse it"
	parentOnEdit    = "what a parent sent on edit does is not shown: 3.2 names only a title or slug change as moving a page"
	themeUnknown    = "no endpoint names another theme the site has, and a theme it lacks could leave the site without one"
	oneFileView     = "file records show in one view only: the answers of the uploads are not shown (4.12, 4.13)"
	oneSettingsView = "the settings show in one view only: an update answers without data (4.10)"
)

// pageKind are the rules whose responses carry page objects, each held
// against its schema (2.1 in every answer that has one).
const pageKind = "PAGE-LIST-SHAPE PAGE-OBJECT-SHAPE PAGE-CREATE-201 PAGE-EDIT-OK TAG-GET-SHAPE CAT-GET-SHAPE"

func table() []Section {
	return []Section{
		querySection(), bodySection(), updateSection(), tokenSection(),
		pageSection(), termSection("tag", "2.2 Tag", "TAG"), termSection("category", "2.3 Category", "CAT"),
		userSection(), fileSection(), settingsSection(), writeSection(),
	}
}

// querySection: the query parameters of GET /api/pages (4.1); the token is
// the token section's.
func querySection() Section {
	s := Section{ID: "query", Title: "4.1 GET /api/pages query parameters", Ways: []Way{Sent, Omitted}}
	for _, ty := range []string{"published", "static", "sticky", "draft", "scheduled"} {
		s.Rows = append(s.Rows, Row{Field: ty, Cells: map[Way]Cell{
			Sent:    rules("PAGE-LIST-TYPE-FILTERS"),
			Omitted: rules("PAGE-LIST-DEFAULT-FILTER"),
		}})
	}
	s.Rows = append(s.Rows,
		Row{Field: "untagged", Cells: map[Way]Cell{
			Sent:    rules("PAGE-LIST-UNTAGGED-AFTER-PAGINATION PAGE-LIST-TOTAL-IGNORES-UNTAGGED"),
			Omitted: rules("PAGE-LIST-DEFAULT-FILTER PAGE-LIST-TYPE-FILTERS PAGE-LIST-UNTAGGED-AFTER-PAGINATION"),
		}},
		Row{Field: "numberOfItems", Cells: map[Way]Cell{
			Sent:    rules("PAGE-LIST-ALL PAGE-LIST-NONPOSITIVE-SIZE PAGE-LIST-META-CONSISTENT PAGE-LIST-WALK"),
			Omitted: rules("PAGE-LIST-DEFAULT-SIZE"),
		}},
		Row{Field: "pageNumber", Cells: map[Way]Cell{
			Sent:    rules("PAGE-LIST-PAST-END PAGE-LIST-PAGENUMBER-BELOW-1 PAGE-LIST-META-CONSISTENT PAGE-LIST-WALK"),
			Omitted: rules("PAGE-LIST-DEFAULT-SIZE PAGE-LIST-DEFAULT-FILTER"),
		}},
	)
	return s
}

// bodySection: the body fields of POST /api/pages (4.3) and PUT
// /api/pages/{key} (4.4); the tokens are the token section's.
func bodySection() Section {
	s := Section{ID: "body", Title: "4.3, 4.4 Page create and edit body fields", Ways: []Way{Create, Edit, Kept}}
	row := func(field, create, edit string) Row {
		return Row{Field: field, Cells: map[Way]Cell{Create: rules(create), Edit: rules(edit), Kept: rules("PAGE-EDIT-PARTIAL")}}
	}
	s.Rows = []Row{
		row("title", "PAGE-CREATE-FIELDS PAGE-TITLE-ENCODED", "PAGE-EDIT-PARTIAL PAGE-EDIT-KEY-CHANGE"),
		row("content", "PAGE-CREATE-FIELDS PAGE-CONTENT-MARKDOWN", "PAGE-EDIT-PARTIAL"),
		row("description", "PAGE-CREATE-FIELDS", "PAGE-EDIT-PARTIAL PAGE-EDIT-OK PAGE-EDIT-HIERARCHICAL"),
		row("tags", "PAGE-CREATE-FIELDS PAGE-TAGS-MAP", "PAGE-EDIT-PARTIAL"),
		row("category", "PAGE-CREATE-FIELDS", "PAGE-EDIT-PARTIAL"),
		row("type", "PAGE-TYPE-ROUNDTRIP PAGE-CREATE-FIELDS", "PAGE-TYPE-ROUNDTRIP"),
		row("date", "PAGE-CREATE-FIELDS", "PAGE-EDIT-PARTIAL"),
		{Field: "slug", Cells: map[Way]Cell{Create: rules("PAGE-CREATE-FIELDS"), Edit: untestable(slugNotForEdit),
			Kept: rules("PAGE-EDIT-PARTIAL")}},
		{Field: "parent", Cells: map[Way]Cell{Create: rules("PAGE-CREATE-PARENT"), Edit: untestable(parentOnEdit),
			Kept: rules("PAGE-EDIT-HIERARCHICAL")}},
	}
	for _, f := range []string{"position", "template", "noindex", "nofollow", "noarchive"} {
		s.Rows = append(s.Rows, Row{Field: f, Cells: map[Way]Cell{
			Create: untestable(notInPageObject), Edit: untestable(notInPageObject), Kept: untestable(notInPageObject)}})
	}
	s.Rows = append(s.Rows, row("coverImage", "PAGE-CREATE-FIELDS PAGE-COVER-IMAGE-ABSOLUTE", "PAGE-EDIT-PARTIAL"))
	return s
}

// SettingsFields are the settings fields 2.6 names, in its order.
func SettingsFields() []string {
	return []string{"title", "slogan", "description", "language", "locale", "timezone", "theme", "homepage",
		"uriPage", "uriBlog", "uriTag", "uriCategory", "customFields"}
}

// updateSection: the settings fields 2.6 names, as PUT /api/settings sends
// them (4.10).
func updateSection() Section {
	s := Section{ID: "update", Title: "4.10 PUT /api/settings fields (those 2.6 names)", Ways: []Way{Edit, Kept}}
	for _, f := range SettingsFields() {
		edit := rules("SETTINGS-EDIT-PARTIAL")
		switch f {
		case "theme":
			edit = untestable(themeUnknown)
		case "customFields":
			edit = rules("SETTINGS-EDIT-PARTIAL SETTINGS-GET-SHAPE")
		}
		s.Rows = append(s.Rows, Row{Field: f, Cells: map[Way]Cell{Edit: edit, Kept: rules("SETTINGS-EDIT-PARTIAL")}})
	}
	return s
}

// Placements of the tokens (5.3, 5.4, 4): the token section's rows.
const (
	TokenQueryGet       = "token-query-get"
	TokenQueryDelete    = "token-query-delete"
	TokenBodyPost       = "token-body-post"
	TokenBodyPut        = "token-body-put"
	TokenJSONDelete     = "token-jsonbody-delete"
	AuthQueryGet        = "authentication-query-get"
	AuthQueryDelete     = "authentication-query-delete"
	AuthBodyPost        = "authentication-body-post"
	AuthBodyPut         = "authentication-body-put"
	AuthJSONDelete      = "authentication-jsonbody-delete"
	tokenRefusals       = "AUTH-MISSING-TOKEN-400 ENV-EARLY-ERROR-SHAPE"
	tokenWrongRefusals  = "AUTH-INVALID-TOKEN-401 ENV-EARLY-ERROR-SHAPE"
	authMissingRefusals = "AUTH-WRITE-NEEDS-AUTH AUTH-REFUSED-WRITE-NO-EFFECT"
	authWrongRefusals   = "AUTH-WRITE-INVALID-AUTH AUTH-REFUSED-WRITE-NO-EFFECT"
)

// tokenSection: where the tokens travel (5.3, 5.4; DELETE may also carry
// them in a JSON body, 4), each placement sent valid, missing and wrong.
func tokenSection() Section {
	s := Section{ID: "token", Title: "5 Tokens, by where they travel", Ways: []Way{Valid, Missing, Wrong}}
	three := func(field, valid, missing, wrong string) Row {
		return Row{Field: field, Cells: map[Way]Cell{Valid: rules(valid), Missing: rules(missing), Wrong: rules(wrong)}}
	}
	s.Rows = []Row{
		three(TokenQueryGet, "AUTH-TOKEN-IN-QUERY AUTH-READ-TOKEN-ONLY", tokenRefusals, tokenWrongRefusals),
		three(TokenQueryDelete, "AUTH-TOKEN-IN-QUERY PAGE-DELETE-OK", tokenRefusals, tokenWrongRefusals),
		three(TokenBodyPost, "AUTH-TOKEN-IN-BODY PAGE-CREATE-201", tokenRefusals, tokenWrongRefusals),
		three(TokenBodyPut, "AUTH-TOKEN-IN-BODY PAGE-EDIT-OK SETTINGS-EDIT-OK", tokenRefusals, tokenWrongRefusals),
		{Field: TokenJSONDelete, Cells: map[Way]Cell{Valid: rules("AUTH-DELETE-JSON-BODY")}},
		three(AuthQueryGet, "AUTH-SETTINGS-READ-NEEDS-AUTH SETTINGS-GET-SHAPE", "AUTH-SETTINGS-READ-NEEDS-AUTH",
			"AUTH-SETTINGS-READ-NEEDS-AUTH"),
		three(AuthQueryDelete, "AUTH-TOKEN-IN-QUERY PAGE-DELETE-OK", authMissingRefusals, authWrongRefusals),
		three(AuthBodyPost, "AUTH-TOKEN-IN-BODY PAGE-CREATE-201", authMissingRefusals, authWrongRefusals),
		three(AuthBodyPut, "AUTH-TOKEN-IN-BODY PAGE-EDIT-OK SETTINGS-EDIT-OK", authMissingRefusals, authWrongRefusals),
		{Field: AuthJSONDelete, Cells: map[Way]Cell{Valid: rules("AUTH-DELETE-JSON-BODY")}},
	}
	return s
}

// PageFields are the 17 fields of the page object (2.1), in its order.
func PageFields() []string {
	return []string{"key", "uuid", "title", "description", "type", "slug", "content", "contentRaw", "date", "dateRaw",
		"dateUTC", "tags", "username", "category", "permalink", "coverImage", "coverImageFilename"}
}

// pageSection: the page object (2.1), wherever it is shown: the page list,
// the single page, the create and edit answers, and the pages of a tag or
// category.
func pageSection() Section {
	s := Section{ID: "page", Title: "2.1 Page object", Ways: []Way{Kind, Views}}
	for _, f := range PageFields() {
		s.Rows = append(s.Rows, Row{Field: f, Cells: map[Way]Cell{Kind: rules(pageKind), Views: rules("PAGE-VIEWS-AGREE")}})
	}
	return s
}

// TermFields are the fields of a tag or category (2.2, 2.3).
func TermFields() []string {
	return []string{"key", "name", "description", "template", "list", "pages"}
}

// termSection: a tag (2.2) or a category (2.3), in the list and the single
// view.
func termSection(id, title, rule string) Section {
	s := Section{ID: id, Title: title, Ways: []Way{Kind, Views}}
	for _, f := range TermFields() {
		kind := rule + "-LIST-SHAPE " + rule + "-GET-SHAPE"
		views := rule + "-VIEWS-AGREE"
		switch f {
		case "list":
			// Also the pages that carry the term, after the run's writes.
			views += " " + rule + "-LIST-COMPLETE " + rule + "-LIST-CONSISTENT"
		case "pages":
			kind = rule + "-GET-SHAPE"
			views = "PAGE-VIEWS-AGREE"
		case "name":
			if rule == "TAG" {
				views += " TAG-NAME-IN-PAGES"
			}
		}
		s.Rows = append(s.Rows, Row{Field: f, Cells: map[Way]Cell{Kind: rules(kind), Views: rules(views)}})
	}
	return s
}

// UserFields are the 19 fields of a user profile (2.4), those of the list
// first.
func UserFields() []string {
	return append(UserListFields(), "codepen", "xing", "telegram", "vk")
}

// UserListFields are the 15 fields of a profile in the users list (2.4).
func UserListFields() []string {
	return []string{"username", "firstName", "lastName", "nickname", "description", "twitter", "facebook", "instagram",
		"github", "gitlab", "linkedin", "mastodon", "bluesky", "youtube", "profilePicture"}
}

// userSection: the user profile (2.4); the list shows 15 of its fields.
func userSection() Section {
	s := Section{ID: "user", Title: "2.4 User profile", Ways: []Way{Kind, Views}}
	for _, f := range UserListFields() {
		views := rules("USER-VIEWS-AGREE")
		if f == "username" {
			// Also the key of the list's data (2.4, 4.8).
			views = rules("USER-VIEWS-AGREE USER-LIST-KEYED-BY-USERNAME")
		}
		s.Rows = append(s.Rows, Row{Field: f, Cells: map[Way]Cell{Kind: rules("USER-LIST-SHAPE USER-GET-SHAPE"), Views: views}})
	}
	for _, f := range []string{"codepen", "xing", "telegram", "vk"} {
		// Only the single profile shows these: nothing to compare.
		s.Rows = append(s.Rows, Row{Field: f, Cells: map[Way]Cell{Kind: rules("USER-GET-SHAPE")}})
	}
	return s
}

// FileFields are the fields of a file record (2.5).
func FileFields() []string { return []string{"file", "filename", "mime", "size", "thumbnail"} }

func fileSection() Section {
	s := Section{ID: "file", Title: "2.5 File record", Ways: []Way{Kind, Views}}
	for _, f := range FileFields() {
		s.Rows = append(s.Rows, Row{Field: f, Cells: map[Way]Cell{Kind: rules("FILES-LIST-SHAPE"), Views: untestable(oneFileView)}})
	}
	return s
}

func settingsSection() Section {
	s := Section{ID: "settings", Title: "2.6 Settings (the fields it names)", Ways: []Way{Kind, Views}}
	for _, f := range SettingsFields() {
		s.Rows = append(s.Rows, Row{Field: f, Cells: map[Way]Cell{Kind: rules("SETTINGS-GET-SHAPE"), Views: untestable(oneSettingsView)}})
	}
	return s
}
