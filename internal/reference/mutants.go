package reference

import (
	"fmt"
	"sort"
	"strings"
)

// Mutant is a switch that makes the server break one rule of the spec in a
// way a client can observe. Rules holds the IDs of the catalogue rules
// (internal/spec) that the mutant breaks. A Benign mutant changes only what
// the spec leaves open: a correct suite must still pass against it, and its
// Rules is empty.
type Mutant struct {
	Name        string
	Description string
	Rules       []string
	Benign      bool
}

// legacyParts are the mutants that together make the server behave like
// the previous release (3.21.1) where it differs from the spec.
var legacyParts = []string{
	"handler-errors-200",
	"create-returns-key-only",
	"edit-returns-key-only",
	"list-no-meta",
	"numberofitems-as-string",
	"zero-size-empty",
	"pagenumber-zero-empty",
	"bad-paging-500",
	"tags-as-string",
	"date-display-format",
	"category-false-when-none",
	"invalid-type-accepted",
	"edit-invalid-type-accepted",
	"double-encode-form",
	"form-put-rejected",
	"nocache-only-with-auth",
	"tag-list-without-description",
	"tag-single-without-list",
	"category-single-without-list",
	"user-list-full-profile",
	"user-empty-false",
	"settings-put-resets-homepage",
	"settings-customfields-escaped",
}

// registry lists every mutant. Rule IDs are literals on purpose: this
// package does not import internal/spec, and a test elsewhere cross-checks
// the IDs against the catalogue.
var registry = []Mutant{
	// --- protocol: headers, envelope, body encodings ---
	{Name: "text-html-on-errors", Rules: []string{"GEN-CONTENT-TYPE-JSON"},
		Description: "Error responses (4xx/5xx) carry Content-Type text/html; charset=UTF-8 (the body is still JSON)."},
	{Name: "empty-body-on-404", Rules: []string{"GEN-BODY-JSON"},
		Description: "GET /api/pages/{key} of a missing key answers 404 with an empty body."},
	{Name: "no-cors-on-errors", Rules: []string{"GEN-CORS-ANY-ORIGIN"},
		Description: "Error responses (4xx/5xx) carry no Access-Control-Allow-Origin header."},
	{Name: "nocache-only-on-success", Rules: []string{"GEN-NO-CACHE"},
		Description: "The no-cache headers are sent on successful responses only."},
	{Name: "nocache-only-with-auth", Rules: []string{"GEN-NO-CACHE"},
		Description: "The no-cache headers are sent only when the request carried a valid admin authentication token, like the previous release."},
	{Name: "status-zero-on-errors", Rules: []string{"ENV-STATUS-AGREES", "ENV-HANDLER-ERROR-SHAPE"},
		Description: "Handler errors (404, 400) carry status \"0\" instead of \"1\"."},
	{Name: "message-null-on-success", Rules: []string{"ENV-MESSAGE-STRING", "ENV-SUCCESS-SHAPE"},
		Description: "Successful responses carry message null."},
	{Name: "status-as-number", Rules: []string{"ENV-SUCCESS-SHAPE", "ENV-STATUS-AGREES"},
		Description: "Successful responses carry status as the number 0 instead of the string \"0\"."},
	{Name: "handler-errors-without-status", Rules: []string{"ENV-HANDLER-ERROR-SHAPE"},
		Description: "Handler errors (404, 400) carry only message, no status field."},
	{Name: "status-field-on-early-errors", Rules: []string{"ENV-EARLY-ERROR-SHAPE"},
		Description: "Early errors (missing or invalid token, unknown endpoint) carry status \"1\"."},
	{Name: "api-under-v1", Rules: []string{"GEN-URL-SHAPE"},
		Description: "The API answers under /api/v1/{endpoint}; /api/{endpoint} answers 404."},
	{Name: "json-body-rejected", Rules: []string{"GEN-JSON-BODY", "AUTH-TOKEN-IN-BODY"},
		Description: "POST and PUT bodies sent as application/json are refused with 400 \"Missing method inputs.\"."},
	{Name: "form-put-rejected", Rules: []string{"GEN-FORM-BODY"},
		Description: "A form-encoded PUT is refused with 400 \"Missing method inputs.\" (the previous release's behaviour)."},
	{Name: "double-encode-form", Rules: []string{"GEN-FORM-SANITISED-ONCE", "PAGE-TITLE-ENCODED"},
		Description: "Form-encoded page values are HTML-encoded twice: \"Salt & Pepper\" reads back \"Salt &amp;amp; Pepper\"."},
	{Name: "handler-errors-200", Rules: []string{"PAGE-GET-404", "PAGE-EDIT-404", "PAGE-DELETE-404", "PAGE-DELETE-GONE",
		"PAGE-CREATE-INVALID-TYPE", "PAGE-EDIT-INVALID-400", "TAG-GET-404", "CAT-GET-404", "USER-GET-404",
		"SETTINGS-CUSTOMFIELDS-400", "FILES-TRAVERSAL-400", "FILES-UPLOAD-REFUSED-400", "ENV-STATUS-AGREES"},
		Description: "Every handler failure (404, 400) is answered with HTTP 200 and status \"1\", like earlier releases."},

	// --- auth ---
	{Name: "missing-token-401", Rules: []string{"AUTH-MISSING-TOKEN-400"},
		Description: "A request without the API token answers 401 instead of 400."},
	{Name: "invalid-token-accepted", Rules: []string{"AUTH-INVALID-TOKEN-401"},
		Description: "Any non-empty API token is accepted."},
	{Name: "403-instead-of-401", Rules: []string{"AUTH-INVALID-TOKEN-401", "AUTH-WRITE-NEEDS-AUTH", "AUTH-WRITE-INVALID-AUTH",
		"AUTH-SETTINGS-READ-NEEDS-AUTH", "AUTH-UNKNOWN-ENDPOINT-401"},
		Description: "Every 401 answer is sent as 403."},
	{Name: "user-reads-need-auth", Rules: []string{"AUTH-READ-TOKEN-ONLY"},
		Description: "GET /api/users and GET /api/users/{username} also demand the authentication token (401 without it)."},
	{Name: "create-without-auth", Rules: []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-REFUSED-WRITE-NO-EFFECT"},
		Description: "POST /api/pages works without the authentication token."},
	{Name: "delete-without-auth", Rules: []string{"AUTH-WRITE-NEEDS-AUTH", "AUTH-REFUSED-WRITE-NO-EFFECT"},
		Description: "DELETE /api/pages/{key} works without the authentication token (a missing key answers 404, not 401)."},
	{Name: "any-auth-accepted", Rules: []string{"AUTH-WRITE-INVALID-AUTH", "AUTH-SETTINGS-READ-NEEDS-AUTH"},
		Description: "Any non-empty authentication token is accepted."},
	{Name: "settings-readable-without-auth", Rules: []string{"AUTH-SETTINGS-READ-NEEDS-AUTH"},
		Description: "GET /api/settings works with the API token alone."},
	{Name: "refused-write-applies", Rules: []string{"AUTH-REFUSED-WRITE-NO-EFFECT"},
		Description: "A write (create, edit, delete, settings update, upload) without a valid authentication token answers 401 but is applied."},
	{Name: "delete-ignores-query-tokens", Rules: []string{"AUTH-TOKEN-IN-QUERY"},
		Description: "DELETE ignores tokens in the query string (only a JSON body is read)."},
	{Name: "body-tokens-json-only", Rules: []string{"AUTH-TOKEN-IN-BODY", "GEN-FORM-BODY"},
		Description: "Tokens in a form-encoded or multipart body are ignored; only JSON bodies carry them."},
	{Name: "delete-json-body-ignored", Rules: []string{"AUTH-DELETE-JSON-BODY"},
		Description: "DELETE ignores tokens in a JSON body (only the query string is read)."},
	{Name: "auth-param-renamed-on-writes", Rules: []string{"AUTH-PARAM-NAME", "AUTH-TOKEN-IN-BODY"},
		Description: "Write endpoints read the authentication token from the parameter auth instead of authentication " +
			"(GET /api/settings still reads authentication)."},
	{Name: "unknown-endpoint-404", Rules: []string{"AUTH-UNKNOWN-ENDPOINT-401"},
		Description: "An unknown endpoint or a wrong method answers 404 instead of 401."},
	{Name: "wrong-method-405", Rules: []string{"AUTH-UNKNOWN-ENDPOINT-401"},
		Description: "A known endpoint with a method it does not have answers 405 instead of 401."},

	// --- page object ---
	{Name: "tags-as-string", Rules: []string{"PAGE-OBJECT-SHAPE", "PAGE-TAGS-MAP"},
		Description: "A page's tags is a comma-separated string of names, like the previous release."},
	{Name: "tags-map-values-are-keys", Rules: []string{"PAGE-TAGS-MAP"},
		Description: "A page's tags object maps tag key to tag key instead of tag name."},
	{Name: "date-display-format", Rules: []string{"PAGE-OBJECT-SHAPE"},
		Description: "A page's date is in the display format \"January 2, 2006\"."},
	{Name: "category-false-when-none", Rules: []string{"PAGE-OBJECT-SHAPE"},
		Description: "A page without a category has category false instead of \"\"."},
	{Name: "cover-image-null", Rules: []string{"PAGE-OBJECT-SHAPE"},
		Description: "A page without a cover image has coverImage and coverImageFilename null instead of false."},
	{Name: "slug-is-full-key", Rules: []string{"PAGE-SLUG-LAST-SEGMENT"},
		Description: "A child page's slug is its full key parent/child."},
	{Name: "relative-permalink", Rules: []string{"PAGE-PERMALINK-ABSOLUTE"},
		Description: "A page's permalink is the path /{key} without scheme and host."},
	{Name: "title-not-encoded", Rules: []string{"PAGE-TITLE-ENCODED"},
		Description: "title reads back as sent, not HTML-encoded."},
	{Name: "content-not-rendered", Rules: []string{"PAGE-CONTENT-MARKDOWN"},
		Description: "content is the Markdown source instead of rendered HTML."},

	// --- page list ---
	{Name: "list-no-meta", Rules: []string{"PAGE-LIST-SHAPE"},
		Description: "The page list has no meta object."},
	{Name: "numberofitems-as-string", Rules: []string{"PAGE-LIST-SHAPE"},
		Description: "The page list's numberOfItems is a string (\"15\")."},
	{Name: "default-includes-static", Rules: []string{"PAGE-LIST-DEFAULT-FILTER"},
		Description: "Without type filters the list also holds static and sticky pages."},
	{Name: "sticky-filter-ignored", Rules: []string{"PAGE-LIST-TYPE-FILTERS"},
		Description: "sticky=true does not include sticky pages."},
	{Name: "default-size-misreported", Rules: []string{"PAGE-LIST-DEFAULT-SIZE", "PAGE-LIST-META-CONSISTENT"},
		Description: "Without numberOfItems, 10 pages are served while numberOfItems and meta.pageSize say 15."},
	{Name: "all-capped", Rules: []string{"PAGE-LIST-ALL"},
		Description: "numberOfItems=-1 returns at most 15 pages."},
	{Name: "zero-size-empty", Rules: []string{"PAGE-LIST-NONPOSITIVE-SIZE"},
		Description: "numberOfItems 0 or negative (other than -1) gives an empty data array, like the previous release."},
	{Name: "pagenumber-zero-empty", Rules: []string{"PAGE-LIST-PAGENUMBER-BELOW-1"},
		Description: "pageNumber 0 or negative gives an empty data array, like the previous release."},
	{Name: "past-end-404", Rules: []string{"PAGE-LIST-PAST-END"},
		Description: "A pageNumber beyond the last page answers 404."},
	{Name: "hasmore-wrong-on-last-page", Rules: []string{"PAGE-LIST-META-CONSISTENT"},
		Description: "meta.hasMore is true on the last non-empty page."},
	{Name: "meta-pagenumber-zero-based", Rules: []string{"PAGE-LIST-META-CONSISTENT"},
		Description: "meta.pageNumber is one less than the page served."},
	{Name: "page-size-off-by-one", Rules: []string{"PAGE-LIST-WALK", "PAGE-LIST-META-CONSISTENT"},
		Description: "A full page holds one page fewer than pageSize, so walking the list skips pages."},
	{Name: "pages-overlap", Rules: []string{"PAGE-LIST-WALK"},
		Description: "Every page after the first starts one item early, so walking the list repeats pages."},
	{Name: "untagged-before-pagination", Rules: []string{"PAGE-LIST-UNTAGGED-AFTER-PAGINATION"},
		Description: "untagged=true filters before pagination, so a page slice is filled with untagged pages."},
	{Name: "meta-total-counts-untagged", Rules: []string{"PAGE-LIST-TOTAL-IGNORES-UNTAGGED"},
		Description: "With untagged=true, meta.total counts only the untagged pages."},
	{Name: "bad-paging-500", Rules: []string{"PAGE-LIST-BAD-PAGING-NO-CRASH"},
		Description: "A non-numeric or empty numberOfItems or pageNumber answers 500 (with a JSON body)."},

	// --- single page, create, edit, delete ---
	{Name: "get-page-in-array", Rules: []string{"PAGE-GET-OK"},
		Description: "GET /api/pages/{key} wraps the page object in a one-item array."},
	{Name: "hierarchical-reads-parent", Rules: []string{"PAGE-GET-HIERARCHICAL"},
		Description: "GET /api/pages/parent/child returns the parent page."},
	{Name: "missing-page-200", Rules: []string{"PAGE-GET-404", "ENV-STATUS-AGREES"},
		Description: "GET of a missing page answers 200 with status \"1\"."},
	{Name: "create-returns-200", Rules: []string{"PAGE-CREATE-201"},
		Description: "POST /api/pages answers 200 instead of 201."},
	{Name: "create-returns-key-only", Rules: []string{"PAGE-CREATE-201", "PAGE-CREATE-FIELDS"},
		Description: "POST /api/pages answers 200 with data {key} only, like earlier releases."},
	{Name: "create-ignores-description", Rules: []string{"PAGE-CREATE-FIELDS"},
		Description: "The description sent on create is dropped."},
	{Name: "slug-not-from-title", Rules: []string{"PAGE-CREATE-SLUG-FROM-TITLE"},
		Description: "A create without slug gets the slug page-<n> (a counter) instead of one derived from the title."},
	{Name: "parent-ignored", Rules: []string{"PAGE-CREATE-PARENT"},
		Description: "parent is ignored on create: the page is created at the top level."},
	{Name: "edit-ignores-type", Rules: []string{"PAGE-TYPE-ROUNDTRIP"},
		Description: "A valid type sent on edit is not applied."},
	{Name: "invalid-type-accepted", Rules: []string{"PAGE-CREATE-INVALID-TYPE"},
		Description: "A create with a type outside the five values is accepted and stored."},
	{Name: "edit-returns-key-only", Rules: []string{"PAGE-EDIT-OK"},
		Description: "PUT /api/pages/{key} answers data {key} only, like earlier releases."},
	{Name: "edit-resets-omitted-fields", Rules: []string{"PAGE-EDIT-PARTIAL"},
		Description: "An edit clears description, content, tags and category when they are not sent."},
	{Name: "edit-reports-old-key", Rules: []string{"PAGE-EDIT-KEY-CHANGE"},
		Description: "When an edit changes the key, data.key is still the old key."},
	{Name: "rename-new-uuid", Rules: []string{"PAGE-UUID-STABLE"},
		Description: "A page gets a new uuid when an edit changes its key."},
	{Name: "edit-missing-200", Rules: []string{"PAGE-EDIT-404", "ENV-STATUS-AGREES"},
		Description: "PUT of a missing key answers 200 with status \"1\"."},
	{Name: "edit-invalid-type-accepted", Rules: []string{"PAGE-EDIT-INVALID-400"},
		Description: "An edit with a type outside the five values is accepted and stored."},
	{Name: "delete-returns-data", Rules: []string{"PAGE-DELETE-OK"},
		Description: "DELETE /api/pages/{key} answers with data, the deleted page."},
	{Name: "delete-soft", Rules: []string{"PAGE-DELETE-GONE"},
		Description: "DELETE answers success but the page stays readable."},
	{Name: "delete-missing-200", Rules: []string{"PAGE-DELETE-404", "PAGE-DELETE-GONE"},
		Description: "DELETE of a missing key answers 200 with status \"0\"."},

	// --- tags and categories ---
	{Name: "tag-list-without-description", Rules: []string{"TAG-LIST-SHAPE"},
		Description: "Tag list items have no description and template, like the previous release."},
	{Name: "tag-single-without-list", Rules: []string{"TAG-GET-SHAPE"},
		Description: "A single tag has no list field, like the previous release."},
	{Name: "tag-pages-mismatch", Rules: []string{"TAG-PAGES-MATCH-LIST"},
		Description: "A single tag's pages leave out the first page its list names."},
	{Name: "tag-list-stale", Rules: []string{"TAG-LIST-CONSISTENT"},
		Description: "A tag's list (and pages) also names a published page that does not use the tag."},
	{Name: "tag-missing-200", Rules: []string{"TAG-GET-404", "ENV-STATUS-AGREES"},
		Description: "GET of a missing tag answers 200 with status \"1\"."},
	{Name: "category-list-without-template", Rules: []string{"CAT-LIST-SHAPE"},
		Description: "Category list items have no template field."},
	{Name: "category-single-without-list", Rules: []string{"CAT-GET-SHAPE"},
		Description: "A single category has no list field, like the previous release."},
	{Name: "category-pages-mismatch", Rules: []string{"CAT-PAGES-MATCH-LIST"},
		Description: "A single category's pages leave out the first page its list names."},
	{Name: "category-list-stale", Rules: []string{"CAT-LIST-CONSISTENT"},
		Description: "A category's list (and pages) also names a published page of another category."},
	{Name: "category-missing-200", Rules: []string{"CAT-GET-404", "ENV-STATUS-AGREES"},
		Description: "GET of a missing category answers 200 with status \"1\"."},

	// --- users ---
	{Name: "user-empty-false", Rules: []string{"USER-LIST-SHAPE", "USER-GET-SHAPE"},
		Description: "Empty profile fields are false instead of \"\", like the previous release."},
	{Name: "users-list-as-array", Rules: []string{"USER-LIST-SHAPE", "USER-LIST-KEYED-BY-USERNAME"},
		Description: "The users list data is an array of profiles instead of an object keyed by username."},
	{Name: "users-keyed-by-position", Rules: []string{"USER-LIST-KEYED-BY-USERNAME"},
		Description: "The users list is keyed by \"1\", \"2\", ... instead of by username."},
	{Name: "user-list-full-profile", Rules: []string{"USER-LIST-SUBSET"},
		Description: "List profiles carry all 19 fields (codepen, xing, telegram, vk too), like the previous release."},
	{Name: "user-single-partial", Rules: []string{"USER-GET-SHAPE"},
		Description: "The single profile carries only the 15 list fields."},
	{Name: "user-leaks-email", Rules: []string{"USER-NO-SENSITIVE-FIELDS"},
		Description: "Profiles carry the user's email."},
	{Name: "user-missing-200", Rules: []string{"USER-GET-404", "ENV-STATUS-AGREES"},
		Description: "GET of a missing username answers 200 with status \"1\"."},

	// --- settings ---
	{Name: "settings-customfields-escaped", Rules: []string{"SETTINGS-GET-SHAPE"},
		Description: "GET /api/settings returns customFields HTML-escaped, so it is not JSON text, like the previous release."},
	{Name: "settings-customfields-object", Rules: []string{"SETTINGS-GET-SHAPE"},
		Description: "GET /api/settings returns customFields as a JSON object instead of a string."},
	{Name: "settings-edit-returns-data", Rules: []string{"SETTINGS-EDIT-OK"},
		Description: "PUT /api/settings answers with data, the settings."},
	{Name: "settings-put-resets-homepage", Rules: []string{"SETTINGS-EDIT-PARTIAL"},
		Description: "Every PUT /api/settings resets homepage, pageNotFound and uriBlog to \"\" unless sent, like the previous release."},
	{Name: "settings-put-ignored", Rules: []string{"SETTINGS-EDIT-PARTIAL"},
		Description: "PUT /api/settings answers success but changes nothing."},
	{Name: "customfields-invalid-accepted", Rules: []string{"SETTINGS-CUSTOMFIELDS-400"},
		Description: "Invalid customFields JSON is stored and the PUT succeeds."},
	{Name: "settings-invalid-200", Rules: []string{"SETTINGS-CUSTOMFIELDS-400", "ENV-STATUS-AGREES"},
		Description: "A refused settings update answers 200 with status \"1\", like the previous release."},

	// --- files ---
	{Name: "file-size-as-string", Rules: []string{"FILES-LIST-SHAPE"},
		Description: "File records carry size as a string."},
	{Name: "file-thumbnail-false", Rules: []string{"FILES-LIST-SHAPE"},
		Description: "File records without a thumbnail carry thumbnail false instead of \"\"."},
	{Name: "files-unsorted", Rules: []string{"FILES-NEWEST-FIRST"},
		Description: "Files are listed oldest first."},
	{Name: "traversal-allowed", Rules: []string{"FILES-TRAVERSAL-400"},
		Description: "A files key holding .. or a NUL byte is not refused (200 with an empty list)."},
	{Name: "upload-not-listed", Rules: []string{"FILES-UPLOAD-ROUNDTRIP"},
		Description: "POST /api/files/{key} answers success but the file is not listed."},
	{Name: "upload-refused-200", Rules: []string{"FILES-UPLOAD-REFUSED-400", "ENV-STATUS-AGREES"},
		Description: "An upload refused for its extension answers 200 with status \"1\", like the previous release."},

	// --- combination ---
	{Name: "legacy-3.21",
		Description: "Behaves like the previous release (3.21.1) where it differs from the spec: every handler failure " +
			"answered 200, create/edit return data {key}, no meta, tags as a string, display dates, double-encoded " +
			"forms, form PUT refused, settings PUT resets homepage/pageNotFound/uriBlog, and more (mutants: " +
			strings.Join(legacyParts, ", ") + ")."},

	// --- benign: the spec allows these, a correct suite must pass ---
	{Name: "benign-extra-fields", Benign: true,
		Description: "Every record object (envelope, page, tag, profile, file record...) carries an extra field extraField."},
	{Name: "benign-key-order", Benign: true,
		Description: "Members of every JSON object are written in reverse order."},
	{Name: "benign-charset", Benign: true,
		Description: "Content-Type is application/json; charset=utf-8."},
	{Name: "benign-escaped-slashes", Benign: true,
		Description: "JSON strings escape / as \\/ and non-ASCII characters as \\uXXXX, like the previous release."},
	{Name: "benign-extra-headers", Benign: true,
		Description: "Responses carry extra headers (X-Powered-By, X-Request-Id, Vary, Access-Control-Allow-Methods...)."},
	{Name: "benign-any-upload-extension", Benign: true,
		Description: "Uploads accept every file extension (the allowed extensions are not shown in the spec)."},
	{Name: "benign-title-edit-keeps-key", Benign: true,
		Description: "A title-only edit keeps the key, like the previous release (the spec says the key may change)."},
	{Name: "benign-all-reports-total", Benign: true,
		Description: "For numberOfItems=-1, numberOfItems and meta.pageSize report the number of matching pages instead of -1."},
	{Name: "benign-default-page-size-10", Benign: true,
		Description: "The plugin's default page size is 10 instead of 15 (a plugin setting), reported consistently."},
	{Name: "benign-bad-paging-400", Benign: true,
		Description: "A non-numeric numberOfItems or pageNumber answers 400 with a handler-error body instead of using the default."},
	{Name: "benign-no-auto-schedule", Benign: true,
		Description: "A published page with a future date stays published instead of becoming scheduled."},
	{Name: "benign-term-lists-all-types", Benign: true,
		Description: "Tag and category lists also name draft and scheduled pages."},
	{Name: "benign-files-missing-page-404", Benign: true,
		Description: "GET /api/files/{key} of a page that does not exist answers 404 instead of 200 with an empty list."},
	{Name: "benign-traversal-early-body", Benign: true,
		Description: "The 400 for a files key with .. or NUL has only message, no status (the previous release's shape)."},
	{Name: "benign-slug-keeps-case", Benign: true,
		Description: "A slug derived from a title keeps its case (\"Alpha Post\" gives \"Alpha-Post\"); the spec does not say how slugs are derived."},
	{Name: "benign-numeric-entities", Benign: true,
		Description: "Page titles, descriptions and contentRaw are HTML-encoded with numeric references (&#38; &#60; &#62; &#34;) " +
			"instead of &amp; &lt; &gt; &quot;."},
	{Name: "benign-invalid-type-ignored", Benign: true,
		Description: "A type outside the five values is accepted and not stored: a create makes a draft, an edit keeps the page's type " +
			"(the other fields sent apply)."},
	{Name: "benign-404-before-auth", Benign: true,
		Description: "PUT and DELETE /api/pages/{key} and POST /api/files/{key} of a page that does not exist answer 404 " +
			"(handler error) before the authentication token is checked."},
	{Name: "benign-slug-on-edit-400", Benign: true,
		Description: "An edit that sends slug (not listed for edit in 4.4) is refused with 400 and a handler-error body."},
	{Name: "benign-size-in-kib", Benign: true,
		Description: "File records give size in KiB, an integer rounded up, instead of bytes (the spec does not state the unit)."},
	{Name: "benign-other-messages", Benign: true,
		Description: "Every message is worded differently (\"API key required.\" for a missing API token...)."},
	{Name: "benign-cors-echo-origin", Benign: true,
		Description: "Access-Control-Allow-Origin echoes the request's Origin header instead of *, and is absent when the request has no Origin."},
}

func init() {
	for i := range registry {
		if registry[i].Name == "legacy-3.21" {
			registry[i].Rules = legacyRules()
		}
	}
}

// legacyRules is the union of the rules the legacy parts break.
func legacyRules() []string {
	seen := map[string]bool{}
	var out []string
	for _, part := range legacyParts {
		for _, m := range registry {
			if m.Name != part {
				continue
			}
			for _, id := range m.Rules {
				if !seen[id] {
					seen[id] = true
					out = append(out, id)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// Mutants returns the registry, sorted by name (a copy).
func Mutants() []Mutant {
	out := make([]Mutant, len(registry))
	for i, m := range registry {
		m.Rules = append([]string(nil), m.Rules...)
		out[i] = m
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// resolveMutants checks the names and expands combinations.
func resolveMutants(names []string) (map[string]bool, error) {
	known := map[string]bool{}
	for _, m := range registry {
		known[m.Name] = true
	}
	enabled := map[string]bool{}
	for _, n := range names {
		if !known[n] {
			return nil, fmt.Errorf("reference: unknown mutant %q", n)
		}
		enabled[n] = true
		if n == "legacy-3.21" {
			for _, p := range legacyParts {
				enabled[p] = true
			}
		}
	}
	return enabled, nil
}
