// Package reference is the suite's reference server: an
// http.Handler that answers like a conforming implementation of the Content
// Management HTTP API specification (shared spec, sections 1, 2, 4, 5, 7
// and 8), seeded from the fixtures package, and that can be switched to
// answer like named broken or differently-conforming ones.
//
//	s, err := reference.New(reference.Options{Token: reference.NewToken(), AuthToken: "..."})
//	srv := httptest.NewServer(s)
//
// Each New starts from the fixtures again. A Mutant names a switch
// (Options.Mutants; Mutants lists them all): a constant of mutant_names.go
// or, for the newer ones, a variable declared beside the behaviour it
// switches (declare). A mutant breaks named rules of the rule catalogue
// (internal/spec) in a way a client can observe, so that the conformance
// suite can be shown to catch the break; a benign variant (benign-*)
// changes only what the spec leaves open, and a correct suite must still
// pass against it; a hazard (MutantInfo.Hazard, foreign-writer) is
// neither: something that befalls a real site during a run, which the
// suite must notice. A Profile (Options.Profile) switches on a whole set
// of benign variants: Divergent is every choice the spec allows that the
// reference does not make. Server.Storage snapshots what the server
// stores, hidden parts included, for before/after tests.
//
// The handlers read as a conforming server's. A mutant whose whole effect
// is on the input a handler reads or on its answer is applied around the
// handlers of its endpoint (answerMutants, answers.go); one on the page
// object around its rendering (pageObjMutants); one on the status, headers
// or envelope of every answer in write. The rest stay inside, each a small
// switch where the behaviour it changes is decided. A declared mutant is
// declared in the file of its switch (answers.go, beside its row of
// answerMutants, for one around the handlers).
//
// # Storage in files
//
// By default the server keeps its state in memory under a mutex that each
// request holds from start to end, so requests side by side never see
// each other half done. With Options.StorageDir (serve-reference
// --storage-dir) it keeps the pages (every field, the hidden custom fields
// included), the tags, the categories and the settings as the host does:
// one JSON index file each (pages.json, tags.json, categories.json,
// settings.json), which New seeds from the fixtures (replacing what the
// directory held). Every request reads every index file
// whole at its start, without a lock, and works on what it read; a file
// that is missing, empty, cut or not the expected JSON reads as an empty
// index. A write request then takes its work time (Options.StorageWorkTime)
// and rewrites the files it touched, whole: truncate, then write in chunks
// with a pause before each (Options.StorageChunkPause). A page write
// (create, edit, delete, or a refused write that applied) rewrites the
// pages, tags and categories, as the host re-indexes them; a settings
// update rewrites the settings (and the pages, when it changed their
// custom fields). Only a writers' lock per file, held while the file is
// rewritten, guards writers from each other, like the host's LOCK_EX;
// nothing makes the read, the work and the rewrite one step (the server's
// mutex guards only the uploads while a handler works on its own copy of
// the indexes). So, as on the
// host, a request that reads during a rewrite sees an empty or cut index
// (a site without content), and a write that overlaps another saves its
// stale or empty view plus its change: pages, tags and categories are lost.
// One request at a time loses nothing.
//
// The creation order is stored with each page and the next one derived
// from the pages read. The users are not stored in files: no endpoint
// writes them. Uploads (the files of each page and the images) stay in
// memory in both modes: the host writes each upload once as a file of its
// own, so uploads do not share the indexes' lost-update hazard, and
// making them files would show nothing more. Server.Storage reads the
// index files in this mode.
//
// # Order of checks
//
// Like the previous release (3.21.1): an unreadable body (invalid JSON, a
// JSON array, a bad multipart body, over 10 MB) is 400 {"message":"Missing
// method inputs."}; then a missing API token is 400 {"message":"Missing API
// token."}; a wrong one 401 {"message":"Invalid API token."}; then an
// unknown endpoint or method, or a write endpoint (or GET /api/settings)
// without an administrator's authentication token, is 401 {"message":"Access
// denied or invalid endpoint."}; then the handler runs. Handler failures are
// {"status":"1","message":...} with 400 or 404. Every response carries
// Content-Type application/json, Access-Control-Allow-Origin * and the
// no-cache headers. Paths outside /api get a JSON 404.
//
// # Where the spec is silent
//
// These follow the previous release unless said otherwise. Where an item
// says "as the host", the code cites the function of the host system
// (Bludit 3.21.1) it mirrors, in a "host:" comment line.
//
//   - Tokens: GET, DELETE and other methods read the query string (a JSON
//     body fills in what the query lacks); POST and PUT read the body only
//     (JSON whatever the Content-Type, form, or multipart), never the query.
//   - List filters: only the string "true" (or JSON true) is true. A
//     decimal numberOfItems or pageNumber is truncated ("2.5" is 2); a
//     non-numeric one uses the default. numberOfItems=-1 reports -1 in both
//     numberOfItems and meta.pageSize, and meta.pageNumber 1.
//   - Order: pages newest first (date, then creation order); tag and
//     category lists sorted by key (as the host: dbList::sortAlphanumeric);
//     a tag's or category's list and pages newest first; files newest upload
//     first (a monotonic counter, so uploads within one second keep their
//     order).
//   - Tag and category lists (and a single view's pages) name published,
//     static and sticky pages only, as the host (Tags::reindex,
//     Categories::reindex). As the host, every page write rebuilds the tag
//     index from those pages: a tag exists only while one of them carries
//     it (a tag of drafts or scheduled pages only is not listed, and its
//     GET is 404), it keeps no description or template (a seeded one is
//     gone after the first page write: the seed has none), and its name is
//     the one the newest of them stored, while each page's tags object
//     shows the names that page stored. Categories exist on their own and
//     keep their fields. benign-tags-of-any-page keeps a tag while any
//     page carries it, with its description, and one name everywhere.
//   - Keys, as the host (Pages::generateSlug, Pages::generateKey,
//     Text::cleanUrl with extremeFriendly on, the default): without a slug
//     the text is the HTML-encoded title, or the content when the title is
//     empty or "0", its HTML tags and line breaks removed, cut to 60
//     characters; the key is that text lowercased, each run of ASCII
//     punctuation and spaces made one '-', line breaks removed, dashes
//     trimmed; other characters are kept ("Café Ñandú über" gives
//     café-ñandú-über, "Rock’n’Roll" rock’n’roll). A text or result that is
//     empty, blank or "0" gives "empty". A taken key gets -0, -1... (a
//     renamed page's own key counts as taken). An explicit slug (not cut;
//     "" or "0" is no slug) is cleaned the same way and is accepted on edit
//     too. Tags, as the host (Pages::generateTags): names are trimmed and
//     stored as sent, not encoded, and keys derived from them as sent
//     ("a&b" gives a-b, "<t>" t); of names with one key the last wins; a
//     name whose key is empty is left out (the host stores a tag "").
//   - Edit: a title change re-derives the key (spec section 3 allows it);
//     children move with their parent. PUT and DELETE act on the full key
//     (the previous release acted on the parent: the spec does not allow
//     that). Hierarchy is two levels: a parent must be a top-level page, and
//     a page with children cannot become a child. Deleting a parent keeps
//     its children as top-level pages. An edit or delete of a missing page
//     is 404 with the plugin's message ("Error trying to edit the page.",
//     "Error trying to delete the page.").
//   - Validation (400): type outside the five values, unknown category,
//     missing parent, date not "YYYY-MM-DD HH:MM:SS", non-integer position,
//     arrays or objects where a string is expected. An empty date or type
//     counts as not sent. The previous release validated nothing.
//   - A published page with a future date is stored as scheduled, as the
//     host (Pages::add, Pages::edit); a scheduled page stays scheduled. uuid
//     is 32 lowercase hex characters (the host's md5 shape); permalink is
//     the base URL, the uriPage setting and the full key, as the host
//     (Page::permalink): {base}/{key} for uriPage "/", {base}/p/{key} for
//     "/p/", {base}/p/parent/child for a child page; dateUTC is the date
//     in UTC (Date::convertToUTC).
//   - Every text value (title, description, template, string settings) is
//     HTML-encoded once (& < > "; Sanitize::html), from JSON and forms
//     alike; tag names are not (see Keys); content is stored as sent,
//     contentRaw is its encoded form, and content its Markdown rendering
//     (raw HTML kept). customFields is encoded too, as on the host.
//   - Settings PUT, as the host's editSettings and Site::set
//     (settings_host.go): unknown fields are ignored; a new language sets
//     locale (over a locale sent with it); path prefixes get slashes;
//     uriBlog is "" without a homepage and "/blog/" for a homepage sent
//     without one; values are converted to the field's type ("12abc" is
//     12, "true" a boolean); customFields must be valid JSON text, and a
//     non-scalar value is refused: 400, nothing changes. The fields a
//     customFields value defines stay on every page's record for good.
//     benign-settings-as-sent (the literal profile) stores each value as
//     sent instead, and refuses a value that does not fit the type.
//   - Files: GET of a page that does not exist is 200 with []. A key with
//     ".." or NUL (raw or decoded) is 400 {"status":"1","message":"Invalid
//     page key."}, for page keys too. POST /api/files/{key} takes the part
//     "file" (404 for a missing page); as the host (pluginAPI::uploadFile),
//     the stored name is the whole name with each run of ASCII punctuation
//     and spaces made one '-' (case kept, nothing trimmed), plus the
//     extension ("test.txt" is "test-txt.txt"), and an upload of a name the
//     page has overwrites it. POST /api/images takes the part "image" and an
//     optional page "uuid"; as the host (transformImage), the name is kept,
//     its stem cleaned the same way, with _0, _1... on a collision. Both
//     refuse with 400 an extension outside the host's lists
//     (ALLOWED_FILE_EXTENSIONS, ALLOWED_IMG_EXTENSION). The response shapes
//     and messages are the previous release's.
//   - Users: every profile value is a string, "" when empty.
//
// # What of the host is not modelled
//
// These the host does and the reference does not, because no rule of a
// normal run reaches them or the spec's release may differ: the previous
// release's plugin decoding entities in JSON content before storing it
// ("&amp;" stored "&"); a child whose slug cleans to nothing keyed
// "parent/"; a child's type forced to its parent's; the scheduler
// publishing scheduled pages; a title with invalid UTF-8 stored as ""; a
// tag stored with an empty key for "a,,b"; an upload's part checked before
// its page; a MIME type read from the content; the single tag view's own
// shape ({key, name, permalink, pages}).
package reference
