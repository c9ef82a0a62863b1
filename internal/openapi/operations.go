package openapi

import (
	"strings"

	"github.com/conformance-suite/conformance/internal/spec"
)

// operation is what the spec says about one endpoint of section 4's table.
type operation struct {
	id      string // operationId
	tag     string // OpenAPI tag: the resource family
	summary string // the table's Purpose column
	section string // where the spec describes it
	// pathParam names the path template's parameter ("key", "username").
	pathParam string
	pathDoc   string
	query     []map[string]any // query parameters besides the tokens
	body      map[string]any   // requestBody; nil when none
	okStatus  string           // the success status; "" when not shown
	okSchema  string           // component of the success body
	errors    []string         // components.responses of its errors, by status
}

// pageFields are the body fields of POST /api/pages (4.3) besides the
// tokens; PUT /api/pages/{key} takes the same except slug (4.4).
func pageFields(withSlug bool) map[string]any {
	str := func(doc string) map[string]any { return map[string]any{"type": "string", "description": doc} }
	flag := func(doc string) map[string]any { return map[string]any{"type": "boolean", "description": doc} }
	date := schemaRef("dateTime")
	date["description"] = "Publish date, YYYY-MM-DD HH:MM:SS."
	f := map[string]any{
		"title":       str("Page title."),
		"content":     str("Page content; Markdown and HTML supported."),
		"description": str("Short description."),
		"tags":        str("Comma-separated tags."),
		"category":    str("Category key."),
		"type": map[string]any{"type": "string", "enum": []string{"published", "draft", "static", "sticky", "scheduled"},
			"description": "Page type (section 3)."},
		"date":       date,
		"parent":     str("Key of the parent page (creates a child page)."),
		"position":   map[string]any{"type": "integer", "description": "Page position."},
		"coverImage": str("Cover image filename or URL."),
		"template":   str("Theme template name."),
		"noindex":    flag("Set the noindex meta tag."),
		"nofollow":   flag("Set the nofollow meta tag."),
		"noarchive":  flag("Set the noarchive meta tag."),
	}
	if withSlug {
		f["slug"] = str("URL slug; derived from the title if omitted.")
	}
	return f
}

// tokenFields are the two tokens as body fields: where POST and PUT carry
// them (section 5 rule 3).
func tokenFields() map[string]any {
	return map[string]any{
		"token":          map[string]any{"type": "string", "description": "API token (section 5)."},
		"authentication": map[string]any{"type": "string", "description": "Authentication token of an Administrator (section 5)."},
	}
}

// writeBody is a request body of JSON or form fields (general rule 3): the
// tokens, required, and fields; extra, when set, is allOf'ed in (settings).
func writeBody(doc string, fields map[string]any, extra map[string]any) map[string]any {
	props := tokenFields()
	for k, v := range fields {
		props[k] = v
	}
	schema := map[string]any{"type": "object", "required": []string{"token", "authentication"}, "properties": props}
	if extra != nil {
		schema["allOf"] = []any{extra}
	}
	return map[string]any{
		"required":    true,
		"description": doc,
		"content": map[string]any{
			"application/json":                  map[string]any{"schema": schema},
			"application/x-www-form-urlencoded": map[string]any{"schema": schema},
		},
	}
}

// uploadBody is the body of the two upload endpoints, whose fields the spec
// does not show (4.12, 4.13): only the tokens are stated.
func uploadBody(section string) map[string]any {
	schema := map[string]any{"type": "object", "required": []string{"token", "authentication"}, "properties": tokenFields()}
	return map[string]any{
		"required": true,
		"description": "Request fields: not shown in the spec (" + section + ") beyond the two tokens. " +
			"The suite sends a multipart/form-data body with the tokens as text parts and the file in a part " +
			"named \"file\" (\"image\" for POST /api/images); that is the suite's choice, not the spec's.",
		"content": map[string]any{"multipart/form-data": map[string]any{"schema": schema}},
	}
}

func queryParam(name, typ string, def any, doc string) map[string]any {
	return map[string]any{"name": name, "in": "query", "required": false, "description": doc,
		"schema": map[string]any{"type": typ, "default": def}}
}

// pageListQuery is the table of 4.1 but for the token, which the apiToken
// security scheme carries.
func pageListQuery() []map[string]any {
	return []map[string]any{
		queryParam("published", "boolean", true, "Include published pages."),
		queryParam("static", "boolean", false, "Include static pages."),
		queryParam("sticky", "boolean", false, "Include sticky pages."),
		queryParam("draft", "boolean", false, "Include draft pages."),
		queryParam("scheduled", "boolean", false, "Include scheduled pages."),
		queryParam("untagged", "boolean", false, "Keep only pages without tags in the returned slice; applied after "+
			"pagination, so the slice can hold fewer items than the page size (meta.total does not reflect it)."),
		queryParam("numberOfItems", "integer", 15, "Page size; -1 returns all matching pages; any other non-positive "+
			"value falls back to the plugin default. The default is a plugin setting, 15 unless changed."),
		queryParam("pageNumber", "integer", 1, "Page number; values below 1 are treated as 1. A page past the last "+
			"one answers 200 with an empty data array and meta.hasMore false."),
	}
}

const (
	keyDoc       = "Page key."
	pageKeyDoc   = "Page key. It may be hierarchical (parent/child): the slash is sent as it is, not percent-encoded, which OpenAPI path templating cannot express."
	filesKeyDoc  = "Page key. A key containing .. or a null byte answers 400 (4.11)."
	usernameDoc  = "Username."
	readErrors   = "missing-token invalid-token"
	notFound     = " not-found"
	writeErrors  = "write-400 write-401"
	deleteErrors = "missing-token write-401 not-found delete-500"
)

// operations holds every endpoint of section 4's table; the test checks
// that it holds exactly spec.Endpoints().
var operations = map[spec.Endpoint]operation{
	spec.ListPages: {id: "listPages", tag: "pages", summary: "List pages", section: "4.1",
		query: pageListQuery(), okStatus: "200", okSchema: "page-list", errors: strings.Fields(readErrors)},
	spec.GetPage: {id: "getPage", tag: "pages", summary: "One page", section: "4.2", pathParam: "key", pathDoc: pageKeyDoc,
		okStatus: "200", okSchema: "page-response", errors: strings.Fields(readErrors + notFound)},
	spec.CreatePage: {id: "createPage", tag: "pages", summary: "Create page", section: "4.3",
		body: writeBody("Which fields are required on create is not shown in the spec (4.3); only the tokens are.",
			pageFields(true), nil),
		okStatus: "201", okSchema: "page-response", errors: strings.Fields(writeErrors)},
	spec.EditPage: {id: "editPage", tag: "pages", summary: "Edit page", section: "4.4", pathParam: "key", pathDoc: pageKeyDoc,
		body: writeBody("Only fields present in the body change; omitted fields keep their value. "+
			"The key may change with the title or slug: the new key is data.key.", pageFields(false), nil),
		okStatus: "200", okSchema: "page-response", errors: strings.Fields(writeErrors + notFound)},
	spec.DeletePage: {id: "deletePage", tag: "pages", summary: "Delete page", section: "4.5", pathParam: "key", pathDoc: pageKeyDoc,
		body: optionalTokenBody(), okStatus: "200", okSchema: "delete-response", errors: strings.Fields(deleteErrors)},
	spec.ListTags: {id: "listTags", tag: "tags", summary: "List tags", section: "4.6",
		okStatus: "200", okSchema: "tag-list-response", errors: strings.Fields(readErrors)},
	spec.GetTag: {id: "getTag", tag: "tags", summary: "One tag with pages", section: "4.6", pathParam: "key", pathDoc: "Tag key.",
		okStatus: "200", okSchema: "tag-response", errors: strings.Fields(readErrors + notFound)},
	spec.ListCategories: {id: "listCategories", tag: "categories", summary: "List categories", section: "4.7",
		okStatus: "200", okSchema: "category-list-response", errors: strings.Fields(readErrors)},
	spec.GetCategory: {id: "getCategory", tag: "categories", summary: "One category with pages", section: "4.7",
		pathParam: "key", pathDoc: "Category key.",
		okStatus: "200", okSchema: "category-response", errors: strings.Fields(readErrors + notFound)},
	spec.ListUsers: {id: "listUsers", tag: "users", summary: "List user profiles", section: "4.8",
		okStatus: "200", okSchema: "user-list-response", errors: strings.Fields(readErrors)},
	spec.GetUser: {id: "getUser", tag: "users", summary: "One user profile", section: "4.8", pathParam: "username", pathDoc: usernameDoc,
		okStatus: "200", okSchema: "user-response", errors: strings.Fields(readErrors + notFound)},
	spec.GetSettings: {id: "getSettings", tag: "settings", summary: "Read settings", section: "4.9",
		okStatus: "200", okSchema: "settings-response", errors: strings.Fields("missing-token write-401")},
	spec.EditSettings: {id: "editSettings", tag: "settings", summary: "Update settings", section: "4.10",
		body: writeBody("Any settings fields to change, besides the tokens; only fields present change. "+
			"Invalid customFields JSON answers 400.", nil, schemaRef("settings")),
		okStatus: "200", okSchema: "settings-edit-response", errors: strings.Fields(writeErrors)},
	spec.UploadImage: {id: "uploadImage", tag: "files", summary: "Upload an image", section: "4.12",
		body: uploadBody("4.12"), errors: strings.Fields(writeErrors)},
	spec.ListFiles: {id: "listFiles", tag: "files", summary: "List files of a page", section: "4.11", pathParam: "key", pathDoc: filesKeyDoc,
		okStatus: "200", okSchema: "file-list-response", errors: strings.Fields("files-400 invalid-token")},
	spec.UploadFile: {id: "uploadFile", tag: "files", summary: "Upload a file to a page", section: "4.13",
		pathParam: "key", pathDoc: keyDoc, body: uploadBody("4.13"), errors: strings.Fields(writeErrors)},
}

// optionalTokenBody is DELETE's optional JSON body: "A DELETE request may
// also carry them in a JSON body" (section 4).
func optionalTokenBody() map[string]any {
	return map[string]any{
		"required":    false,
		"description": "The tokens may also be sent in a JSON body instead of the query string (section 4).",
		"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
			"type": "object", "properties": tokenFields()}}},
	}
}
