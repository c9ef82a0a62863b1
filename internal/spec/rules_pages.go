package spec

// pagesRules: spec sections 2.1 (page object), 3 (states), 4.1 to 4.5
// (page endpoints) and 8 (limits).
var pagesRules = []Rule{
	// 2.1 page object
	{ID: "PAGE-OBJECT-SHAPE", Section: "2.1", Level: Must, Area: AreaPages,
		Endpoints: []Endpoint{ListPages, GetPage, CreatePage, EditPage},
		Text: "A page object has the 17 fields of section 2.1 with their types: tags an object, coverImage and " +
			"coverImageFilename a string or false, type one of five values, dates YYYY-MM-DD HH:MM:SS.",
		Reading: "Extra fields are allowed, and may change from one read to the next: comparisons between two reads of a " +
			"page compare the fields of section 2.1. date is the display form: only its form YYYY-MM-DD HH:MM:SS is " +
			"checked, not its value (it may differ from dateRaw, e.g. shown in the reader's timezone). Every page of the " +
			"every-type listing (numberOfItems=-1) is checked whole as the listing is read, a stream of any size."},
	{ID: "PAGE-SLUG-LAST-SEGMENT", Section: "2.1", Level: Must, Area: AreaPages,
		Endpoints: []Endpoint{ListPages, GetPage},
		Text:      "A page's slug is the last segment of its key."},
	{ID: "PAGE-PERMALINK-ABSOLUTE", Section: "2.1", Level: Must, Area: AreaPages,
		Endpoints: []Endpoint{ListPages, GetPage},
		Text:      "A page's permalink is a full (absolute) URL.",
		Reading:   "An absolute http or https URL; its path is not asserted."},
	{ID: "PAGE-UUID-UNIQUE", Section: "2.1", Level: Must, Area: AreaPages,
		Endpoints: []Endpoint{ListPages},
		Text:      "uuid is a unique identifier: no two pages share one.",
		Reading: "Checked over the listing of every type (children included); a uuid that is not a string is " +
			"PAGE-OBJECT-SHAPE's concern. Fewer than two pages: not checked."},
	{ID: "PAGE-COVER-IMAGE-ABSOLUTE", Section: "2.1", Level: Must, Area: AreaPages,
		Endpoints: []Endpoint{ListPages, CreatePage},
		Text:      "coverImage, when it is not false, is the absolute URL of the cover image.",
		Reading: "An absolute http or https URL, as for permalink; its path is not asserted, and a page without a cover " +
			"image has false (any other kind is PAGE-OBJECT-SHAPE's concern). Checked on every page read that has a " +
			"cover image (the listing of every type), and on a page the run creates with one when writes are allowed; " +
			"with neither, not checked."},

	{ID: "PAGE-VIEWS-AGREE", Section: "2.1, 4.1-4.4, 4.6, 4.7", Level: Must, Area: AreaPages,
		Endpoints: []Endpoint{ListPages, GetPage, CreatePage, EditPage, GetTag, GetCategory},
		Text: "A page reads the same wherever it is shown: its item in GET /api/pages, GET /api/pages/{key}, the pages of " +
			"its tags and category, and the data of a create or edit answer agree on every field of 2.1.",
		Reading: "2.1 names one page object for all of these answers. Compared field by field over the fields of 2.1 (extra " +
			"fields may differ from one answer to the next), as parsed JSON, and only between answers with no write of " +
			"the page between them: the site's pages as the run's reads show them (every item of the listing of every " +
			"type, the pages the tags and categories read list, as their single views and GET /api/pages/{key} give " +
			"them), and the run's own pages (a create's or edit's answer with the page read back, and the listings and " +
			"tag and category views read after it). A field an answer lacks is the shape rules' concern and is not " +
			"compared. Fewer than two views of any page: not checked. " +
			"With writes, every answer of the run is also judged against the run's own pages as they last read since " +
			"their last write (rules/sitemodel: answers replayed in the order they were on the wire); a write of " +
			"another page, or one the API refused, is no write of this page, while a settings update or an upload " +
			"counts as a write of every page (they may change permalinks and cover images), a parent's rename as one " +
			"of its children, and a scheduled page read back as published is accepted."},

	// 4.1 list
	{ID: "PAGE-LIST-SHAPE", Section: "4.1", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "GET /api/pages answers 200 with numberOfItems (integer), meta (total, pageNumber, pageSize integers, " +
			"hasMore boolean) and data, an array of page objects."},
	{ID: "PAGE-LIST-DEFAULT-FILTER", Section: "4.1", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "Without type filters the list holds published pages only.",
		Reading: "Checked on the first page of a request without any parameter and on the whole default listing, which must " +
			"hold exactly the published pages of the every-type listing. Needs a page of another type on the target."},
	{ID: "PAGE-LIST-TYPE-FILTERS", Section: "4.1, 9.3", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "Each type filter (published, static, sticky, draft, scheduled) set to true includes exactly the pages of that type.",
		Reading: "Checked per type with every other filter false; booleans are sent as the string true. Each type's " +
			"listing is walked whole a page at a time (the walk PAGE-LIST-WALK judges; about an eighth of the type's pages " +
			"a page, 5 to 100) and compared with the every-type listing. " +
			"A type the target has no page of is reported not checked unless the run may create one. With writes allowed, the " +
			"run's own pages are looked for after their writes too: a listing read right after a create, an edit of the type " +
			"or a delete lists the page exactly when its type (read back beside it) is one the listing asks for. The order of " +
			"the list is open, so a page is judged missing, or absent, only on the whole listing; where it must be listed, the " +
			"listing's first page and then its last pages are looked in first (the host lists the newest first, and the run's " +
			"pages are dated far in the past). " +
			"With writes, every listing of the run that asks for all pages of its types (numberOfItems -1) and came " +
			"whole is also judged (rules/sitemodel): it lists each live page of the run whose type, as last read since" +
			" its last write, is one of them; a listing read for some pages only says nothing of the others."},
	{ID: "PAGE-LIST-DEFAULT-SIZE", Section: "4.1, 8", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "Without numberOfItems the page size is the plugin setting (15 by default), reported in numberOfItems and meta.pageSize.",
		Reading: "The setting may differ on a real site, so the suite checks that the size used equals the size reported " +
			"and that a first page holds min(size, total) pages; 15 itself is only recorded. The size used shows only " +
			"when more pages match than it: a listing no longer than the size reported (nothing published, say) is not " +
			"checked. Besides, every answer to GET /api/pages of the run without numberOfItems, whichever spec asked for it, " +
			"must report a positive page size (its pages are PAGE-LIST-META-CONSISTENT's)."},
	{ID: "PAGE-LIST-ALL", Section: "4.1, 8", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "numberOfItems=-1 returns all matching pages: len(data) equals meta.total and hasMore is false.",
		Reading: "The spec does not say what numberOfItems and meta.pageSize report for -1: both -1 and the number of " +
			"matching pages are accepted. The answer is read as a stream: its pages are counted and their keys compared " +
			"whatever its size (each page object bounded by --max-body, the answer by 1 GiB). Besides, every answer to " +
			"numberOfItems=-1 of the run, whichever spec asked for it and whatever its filters, must hold as many pages as " +
			"its own meta.total (at most that many with untagged; none is also accepted for a pageNumber after the first, " +
			"which the spec does not say anything of beside -1), with hasMore false."},
	{ID: "PAGE-LIST-NONPOSITIVE-SIZE", Section: "4.1, 8, 9.3", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "numberOfItems 0 or negative (other than -1) falls back to the default page size.",
		Reading: "Checked with 0 and -5 over every type: the answer holds the same pages as the same request without " +
			"numberOfItems, in any order (no order is stated for the list), with the same numberOfItems and meta. When one " +
			"default-size page holds every page, a fallback to the default cannot be told from listing all: not checked. " +
			"Besides, every such answer of the run, whichever spec asked for it, must report a positive page size in both " +
			"numberOfItems and meta.pageSize and hold the pages that size gives (as PAGE-LIST-META-CONSISTENT judges them)."},
	{ID: "PAGE-LIST-PAGENUMBER-BELOW-1", Section: "4.1, 8, 9.3", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "pageNumber 0 or negative is treated as 1: the same pages as page 1.",
		Reading: "Checked with 0 and -1 at numberOfItems=2 over every type: the answer holds the same pages as " +
			"pageNumber=1, in any order (no order is stated for the list), with the same numberOfItems and meta (so " +
			"meta.pageNumber is 1). With no more than 2 pages, page 1 is the only page: not checked. Besides, every such " +
			"answer of the run, whichever spec asked for it, must say meta.pageNumber 1 and hold the pages of page 1 (as " +
			"PAGE-LIST-META-CONSISTENT judges them)."},
	{ID: "PAGE-LIST-PAST-END", Section: "4.1, 8", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "A pageNumber beyond the last page answers 200 with an empty data array and meta.hasMore false.",
		Reading: "Probed over every type at numberOfItems=2, the page after the last and far past it. Besides, every 200 " +
			"answer of the run, whichever spec asked for it, to a page after the last one by its own meta.total and page " +
			"size must hold no page, with hasMore false."},
	{ID: "PAGE-LIST-META-CONSISTENT", Section: "4.1", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "meta agrees with the request and with data on every page: pageNumber is the page served, pageSize equals " +
			"numberOfItems, hasMore is true exactly when later pages hold pages, and data holds the expected count.",
		Reading: "Checked on every page of two walks over every type: one with a small numberOfItems (5, whatever the size of " +
			"the site) and one with the default page size, each visiting at most 12 pages (the first ten and the last two). " +
			"Besides, every 200 answer to GET /api/pages of the run, whichever spec asked for it and whatever its filters, " +
			"is judged on its own: the size used is numberOfItems as sent when positive, else the default, which is a " +
			"plugin setting, so any positive size the answer reports in both numberOfItems and meta.pageSize; the page " +
			"served is pageNumber (1 when not sent); the slice is cut from the answer's own meta.total (whether that is " +
			"right is the filters' rules' and PAGE-LIST-TOTAL-AGREES' concern). data holds exactly min(size, total - " +
			"(page-1) * size) pages, or at most that many when untagged is sent with any value but false (it filters " +
			"after pagination), and hasMore is true exactly when later pages hold pages. A page streamed is counted as it " +
			"arrives. Not judged: an answer not read whole, a member of meta or numberOfItems of another kind (PAGE-LIST-" +
			"SHAPE's concern), numberOfItems or pageNumber that is no plain integer or is sent twice (what it gives is open, " +
			"9.3)."},
	{ID: "PAGE-LIST-WALK", Section: "4.1", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "Walking every page of a filter yields each matching page exactly once, meta.total pages in all.",
		Reading: "Each type's listing alone (the type filter's) is walked whole, at about an eighth of its pages a page " +
			"(5 to 100, so a big site's pages stay small); checked when some type's listing spans several list pages. " +
			"Where meta.total is missing the number of pages of the every-type listing stands in for it (the missing meta " +
			"is PAGE-LIST-SHAPE's concern). No order is stated for the " +
			"list, so neither the order within a page nor any sort is asserted; paging itself implies one sequence that " +
			"the pages are cut from."},
	{ID: "PAGE-LIST-UNTAGGED-AFTER-PAGINATION", Section: "4.1", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "untagged=true keeps only the untagged pages of the same page slice: it filters after pagination.",
		Reading: "On every page of a walk over every type at numberOfItems=5 (the first 12 pages and, when the listing of " +
			"every type shows that none of them tells the two readings apart, the first page that does), the answer with " +
			"untagged=true holds exactly the untagged pages of the same page " +
			"without it, in any order (no order is stated for the list). Reported not checked when the target's pages make " +
			"filtering before and after pagination give the same pages (no tagged page on a list page before one holding " +
			"an untagged page)."},
	{ID: "PAGE-LIST-TOTAL-AGREES", Section: "4.1, 3", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages}, CrossCutting: true,
		Text: "meta.total counts the pages the type filters match: two answers with the same type filters and no write " +
			"between them report the same total, whatever numberOfItems, pageNumber and untagged.",
		Reading: "Judged over every 200 answer to GET /api/pages of the run, whichever spec asked for it: the types a request " +
			"includes are read as 4.1 gives them (published unless sent, the others when sent as true); a request with a " +
			"type parameter other than true or false, or with paging that is open (PAGE-LIST-META-CONSISTENT), is not " +
			"compared. No write between means that no request of the run other than GET, HEAD or OPTIONS was on its way at " +
			"any moment from the first answer's sending to the second one's arrival, and that none sent before got no " +
			"answer (the server may still act on it); the times are compared, not the order the run numbers its " +
			"exchanges in. How a scheduled page becomes published is not shown (3), and a host publishes it when its " +
			"date passes, without a write: so from one answer to a later one, the total of types that include published " +
			"but not scheduled may grow, and that of types that include scheduled but not published may shrink. Fewer " +
			"than two answers to compare: not checked."},
	{ID: "PAGE-LIST-TOTAL-IGNORES-UNTAGGED", Section: "4.1", Level: Must, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "meta.total counts pages matching the type filters only; untagged does not change it."},
	{ID: "PAGE-LIST-BAD-PAGING-NO-CRASH", Section: "9.3", Level: Should, Area: AreaPages, Endpoints: []Endpoint{ListPages},
		Text: "Non-numeric, fractional or empty numberOfItems and pageNumber do not crash the server: the answer has a " +
			"JSON body and is never 5xx.",
		Reading: "The spec says odd paging values no longer crash (they give a list or fall back to defaults) but does not " +
			"say what non-numeric values give, so any answer that is not a crash passes: any status below 500 with a JSON " +
			"body (200 with defaults used or a fraction truncated, 400 or 422 refusing the value, ...). A 200 must be the " +
			"page list (data an array), as 4.1 says. abc, the empty string and 2.5 are probed."},

	// 4.2 single
	{ID: "PAGE-GET-OK", Section: "4.2", Level: Must, Area: AreaPages, Endpoints: []Endpoint{GetPage},
		Text: "GET /api/pages/{key} answers 200 with the page object whose key is the one requested.",
		Reading: "Read for a page of each type found (drafts and scheduled pages too: the spec answers 404 only when no page " +
			"has the key), a child page and a key with non-ASCII characters when the target has them. " +
			"With writes, every GET /api/pages/{key} of the run is also judged against the run's writes " +
			"(rules/sitemodel): a key the run created, or renamed a page to, and has not deleted or renamed since, " +
			"answers 200; a key a write without an answer named is not judged."},
	{ID: "PAGE-GET-HIERARCHICAL", Section: "4.2", Level: Must, Area: AreaPages, Endpoints: []Endpoint{GetPage},
		Text: "A hierarchical key parent/child reads the child page itself."},
	{ID: "PAGE-GET-404", Section: "4.2, 7", Level: Must, Area: AreaPages, Endpoints: []Endpoint{GetPage},
		Text: "GET of a key no page has answers 404 with a handler-error body.",
		Reading: "Probed with a run-marked top-level key and with a run-marked child key under an existing page. A key " +
			"holding .. or a NUL byte (plain or percent-encoded), or a very long one, is also a key no page has, and section 7 " +
			"gives 400 to an invalid page key without saying which keys are invalid: for such keys (conformance explore sends " +
			"them) 400 is accepted besides 404, as on the tag, category and user endpoints."},

	// 4.3 create
	{ID: "PAGE-CREATE-201", Section: "4.3, 9.3", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{CreatePage},
		Text: "POST /api/pages answers 201 with the full page object; data.key is always present.",
		Reading: "Which fields a create requires is not shown (4.3), so every page the run creates carries a complete, " +
			"plausible body: title, content, description, type draft and a run-marked slug, plus what a rule needs. A " +
			"refusal of such a body fails this rule; every other rule that needed the page is then not checked, with " +
			"the server's answer."},
	{ID: "PAGE-CREATE-FIELDS", Section: "4.3", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{CreatePage},
		Text: "The fields sent on create come back in the page object: title, description, content, type, tags, category, date, slug.",
		Reading: "Checked in the create response and in the page read back with GET. title and contentRaw must be the sent " +
			"text HTML-encoded once, in any entity form (see PAGE-TITLE-ENCODED); content is compared as rendered HTML " +
			"containing the plain words sent (the content sent also carries Markdown, for PAGE-CONTENT-MARKDOWN); tags as the set of names, without surrounding spaces; dateRaw must equal the date " +
			"sent, and date (the display form) must have the form YYYY-MM-DD HH:MM:SS, its value being the server's (e.g. " +
			"in the reader's timezone); dateUTC is not compared, the site timezone being unknown; slug as sent. " +
			"description is sent without characters HTML-encoding would change, since the spec does not say whether it " +
			"is encoded. category is sent, and compared, only when GET /api/categories names one. coverImage is sent as a " +
			"filename (4.3: \"cover image filename or URL\") that names no uploaded file: coverImageFilename must not read back as " +
			"another string (2.1); the spec does not say a server keeps a filename that names no file, so false or no field " +
			"is recorded as an observation, unless the page's edit of another such filename (see PAGE-EDIT-PARTIAL) reads " +
			"back as sent: the server keeps them, and the create's loss fails. The values compared exactly are ones a server " +
			"has no reason to change: type draft; the slug, a run-marked string of lowercase letters, digits and hyphens (4.3: " +
			"the slug is derived from the title only when omitted); the category key as GET /api/categories names it; " +
			"dateRaw, a past date in the spec's form (2.1: the publish date, raw form). conformance explore sends generated " +
			"text (ampersands, markup, quotes, character references such as &amp;, non-ASCII): contentRaw must read back " +
			"as that text encoded exactly once, a character reference sent counting as text (&amp; sent reads back " +
			"&amp;amp;: 2.1 makes contentRaw the raw source, encoded by the core), description as sent or encoded once, " +
			"category, dateRaw and slug exactly (title is PAGE-TITLE-ENCODED's); a value of a kind the spec does not allow, " +
			"an unknown category and a malformed date are not compared."},
	{ID: "PAGE-CREATE-SLUG-FROM-TITLE", Section: "4.3", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{CreatePage},
		Text: "Without slug, the slug is derived from the title.",
		Reading: "The derivation rule is not shown (case, separators, dropped words, length and suffixes are the server's): " +
			"the suite checks that the slug is a non-empty string, that it is the page's key (a top-level page), and that it " +
			"keeps at least one word of four or more characters of the title, whatever the case, so that a slug made from " +
			"something else (an ID, a counter, a fixed word) fails. The usual form, the title's lowercase words joined by " +
			"'-', is only recorded as an observation when the slug differs from it."},
	{ID: "PAGE-CREATE-PARENT", Section: "2.1, 4.3", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{CreatePage},
		Text: "parent creates a child page whose key is parent/child.",
		Reading: "A child page is created only where the run can remove it again: not on a target whose reads show the " +
			"previous release's traits (a missing page answered 200, a page list without meta, numberOfItems or tags a " +
			"string), since that release's DELETE of parent/child deletes the parent and leaves the child for good, and " +
			"only after a DELETE of a child key that no page has, under a run page, left that page in place. Otherwise not " +
			"checked, with the reason. The create's data.key and the child read back must be exactly the parent's key (as " +
			"its create answered it), a slash and the run-marked slug sent (2.1: the key is the slug, parent/child for a " +
			"child page; 4.3: the slug is derived only when omitted)."},
	{ID: "PAGE-TYPE-ROUNDTRIP", Section: "3.1", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{CreatePage, EditPage},
		Text: "Each of the five type values supplied on create and on edit is the page's type afterwards.",
		Reading: "A published page with a future date may legitimately be scheduled, so dates sent with each type are in the past " +
			"except for scheduled. The type is read back with GET (and compared in the write response when it carries " +
			"one). On edit each type is reached from another one: draft from scheduled, published from draft, static from " +
			"published, sticky from static, scheduled from sticky. The type read back must be the type sent, exactly. " +
			"conformance explore, whose dates are drawn, also accepts scheduled for a published page with a future date and " +
			"published for a scheduled one (section 3 does not say when a scheduled page is published)."},
	{ID: "PAGE-TITLE-ENCODED", Section: "2.1, 1.4", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{CreatePage},
		Text: "title reads back HTML-encoded exactly once, from a JSON body and from a form body.",
		Reading: "A title ending in Salt & Pepper <b> must read back encoded exactly once, e.g. Salt &amp; Pepper &lt;b&gt; (never " +
			"&amp;amp;): in the page read back with GET, and in the create response when it carries title. The spec names " +
			"no encoder, so any form passes whose single decoding gives the text sent, with no raw < and every & starting " +
			"a character reference: named or numeric references (&amp; or &#38;), and > left as it is. The text holds no " +
			"quote, so how quotes are encoded is not relied on. When the server refuses the form-encoded create, the form " +
			"case is not checked (GEN-FORM-BODY judges that). conformance explore judges the titles of its generated " +
			"creates the same way, text with quotes, entities and non-ASCII included (a character reference sent is text: " +
			"&amp; reads back &amp;amp;)."},
	{ID: "PAGE-CONTENT-MARKDOWN", Section: "2.1", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{CreatePage},
		Text:    "content is the Markdown rendered to HTML and contentRaw the Markdown source.",
		Reading: "**bold** must render as <strong>bold</strong> or <b>bold</b>; contentRaw must contain the source text."},
	{ID: "PAGE-TAGS-MAP", Section: "2.1, 4.3", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{CreatePage},
		Text: "tags sent as a comma-separated string come back as an object of tag key to tag name.",
		Reading: "Sent as \"One, Two\": whether the spaces around a comma belong to the names is not said, so names are " +
			"compared without surrounding spaces. Tag keys are the server's (their derivation is not shown); they must be " +
			"non-empty. Read back in the create response (when it carries tags) and with GET, the names must be exactly the " +
			"names sent, in any order; they hold only letters, digits, spaces and hyphens, which HTML-encoding leaves as " +
			"they are. conformance explore, whose names hold ampersands, markup and quotes, accepts each name as sent or HTML-encoded " +
			"once, and asks only that every name read back is one it sent and that some tag is there: two names may share " +
			"a key."},
	{ID: "PAGE-CREATE-INVALID-TYPE", Section: "3, 4.3, 7", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{CreatePage},
		Text: "A create whose type is not one of the five values is refused with 400 and a handler-error body, or accepted " +
			"without storing that type.",
		Reading: "The spec lists the five values and a 400 for validation failures, but does not say which values a create " +
			"validates; it does say a page's type is one of the five (2.1). Both readings are accepted: a refusal must be " +
			"400 with a handler-error body (that it leaves no page is PAGE-REFUSED-WRITE-NO-EFFECT's); an accepted create must give a page whose type, read back " +
			"and in the response when it carries one, is one of the five (the value ignored or replaced, recorded as an " +
			"observation). Storing the invalid type fails. No other field is probed."},
	{ID: "PAGE-CREATE-KEEPS-OTHERS", Section: "2.1, 4.2, 4.3", Level: Must, Area: AreaPages, Writes: true,
		Endpoints: []Endpoint{CreatePage, GetPage},
		Text: "A create whose slug is another page's key leaves that page as it was, under its key: the create is " +
			"refused, or the new page gets another key.",
		Reading: "4.3 does not say what a create whose slug is taken gives: a refusal (any 4xx, recorded as an observation) " +
			"and a new page under another key (the host appends -0, -1, ...) are both accepted; a key names one page (2.1, " +
			"4.2), so an accepted create's data.key must not be the taken key. The run creates a draft with a run-marked " +
			"slug, a title, description, content, a tag, a past date and, when GET /api/categories names one, a category, " +
			"and reads it; then creates a second draft whose slug is the first page's key, with another title, description " +
			"and content, and reads that key again, whatever the second create answered. The first page must read 200 with " +
			"data.key its key and the fields of 2.1 the run set on it (title, description, contentRaw, type, tags, category, " +
			"dateRaw) as the first read showed them, compared as parsed JSON; other fields, which a server may change by " +
			"itself, are not compared. A 404 fails. The second create without an answer, or a read that answers neither " +
			"200 nor 404, is not checked. Both pages are removed."},
	{ID: "PAGE-CREATE-REQUIRED-FIELDS", Section: "4.3", Level: Must, Area: AreaPages,
		Text:        "Which fields are required on create.",
		NotTestable: "not shown in the spec"},
	{ID: "PAGE-INVALID-KEY-400", Section: "7", Level: Must, Area: AreaPages,
		Text:        "An invalid page key answers 400.",
		NotTestable: "the spec does not say which page keys are invalid, except for the files endpoints (FILES-TRAVERSAL-400)"},

	// 4.4 edit
	{ID: "PAGE-EDIT-OK", Section: "4.4", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{EditPage},
		Text: "PUT /api/pages/{key} answers 200 with the full updated page object.",
		Reading: "\"Updated\" is read as carrying what the edit sent: the answer's data.description must be the description " +
			"the edit sent, exactly. It is plain text (letters, digits, spaces and hyphens), which HTML-encoding leaves as " +
			"it is, since the spec does not say whether description is encoded."},
	{ID: "PAGE-EDIT-PARTIAL", Section: "4.4", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{EditPage},
		Text: "An edit changes only the fields present in the body; omitted fields keep their value (read back to prove it).",
		Reading: "A draft is created with title, description, content, tags, date, a cover image (a run-marked filename: " +
			"coverImage is a \"filename or URL\") and, when the target has one, category. Then two edits, so that every " +
			"field is shown both ways: one sends description alone; the other sends every other field it can change, " +
			"description omitted: a new title, content, tag, date and cover image, and the target's second category when it " +
			"has two. After each, the page read back with GET must hold every field sent (as PAGE-CREATE-FIELDS compares " +
			"them), and the fields of section 2.1 the edit did not send must equal what they were before it (fields outside " +
			"2.1 are not compared). After the second edit the key, slug and permalink may change (3.2) and uuid is " +
			"PAGE-UUID-STABLE's, so they are not compared. A field the created page does not hold (e.g. a cover image the " +
			"server ignored) cannot show a loss: it is named in an observation. The cover image filenames name no uploaded " +
			"file: the edit's reading back false or no coverImageFilename is only an observation when the create's did too " +
			"(as PAGE-CREATE-FIELDS judges it); another string fails. conformance explore reads back each field its " +
			"generated edits send as PAGE-CREATE-FIELDS, PAGE-TITLE-ENCODED and PAGE-TAGS-MAP say for it (type is " +
			"PAGE-TYPE-ROUNDTRIP's; a value a form edit shows encoded twice is GEN-FORM-SANITISED-ONCE's), and the fields of 2.1 they did not send (title, description, contentRaw, type, " +
			"tags, category, dateRaw, coverImage, username) must read as before."},
	{ID: "PAGE-EDIT-KEY-CHANGE", Section: "3.2, 4.4", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{EditPage},
		Text: "When an edit changes the key, data.key is the new key, the page reads under it, and its old key reads 404.",
		Reading: "A title change may or may not change the key: both are accepted, as long as data.key is where the page now is " +
			"(GET data.key answers the edited page). Checked with an edit of the title and with one of the title and slug " +
			"(each also sets another type, for PAGE-TYPE-ROUNDTRIP); slug " +
			"is not listed for edit, so a server may ignore it, or refuse it with 400 (that case is then not checked). The " +
			"page read under data.key must carry the title the edit sent, HTML-encoded once as PAGE-TITLE-ENCODED " +
			"compares it: that is how it is known to be the edited page. When the key changed, the page left its old key " +
			"(3.2) and no page has it now (the run's keys carry its marker), so GET of the old key, read beside the new " +
			"one right after the edit, must answer 404 (4.2); a 200, even one showing the page under its new key, fails. " +
			"With writes, every later answer of the run is also judged (rules/sitemodel): once an edit answered 2xx " +
			"with another data.key, the old key reads 404 and no listing, tag or category view shows it."},
	{ID: "PAGE-UUID-STABLE", Section: "2.1", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{EditPage},
		Text: "uuid does not change when the page is renamed.",
		Reading: "The page is renamed by an edit sending a new title and slug (slug is not listed for edit: if the server " +
			"refuses it with 400, by the title alone). The uuid read back after the edit must equal the one before; if the " +
			"server keeps the key, no rename happened and the rule is reported not checked."},
	{ID: "PAGE-EDIT-404", Section: "4.4, 7", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{EditPage},
		Text:    "PUT of a key no page has answers 404 with a handler-error body.",
		Reading: "Sent with both tokens to a key that carries the run marker and does not exist; it still counts as a write request."},
	{ID: "PAGE-EDIT-INVALID-400", Section: "4.4, 7", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{EditPage},
		Text: "An edit whose type is not one of the five values is refused with 400 and a handler-error body, or accepted " +
			"without storing that type.",
		Reading: "As for PAGE-CREATE-INVALID-TYPE, the spec does not say which values an edit validates, so both readings are " +
			"accepted. The edit also sends a new description. Refused: 400 with a handler-error body (that the page is " +
			"left as it was is PAGE-REFUSED-WRITE-NO-EFFECT's). Accepted: 200 with a " +
			"success envelope, and the page's type, read back and in the response when it carries one, is one of the five " +
			"(recorded as an observation). Storing the invalid type fails."},
	{ID: "PAGE-EDIT-HIERARCHICAL", Section: "4.4, 2.1", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{EditPage},
		Text: "PUT /api/pages/parent/child edits the child page itself (data.key is the child's key); the parent is unchanged.",
		Reading: "First an edit of a child key under the run's parent page that no page has must leave the parent as it was (the " +
			"previous release edits the parent). Then, only where the run can remove a child page again (not on a target " +
			"that behaves like the previous release; see PAGE-CREATE-PARENT), a child page is edited with a new " +
			"description: 200, data.key exactly the child's key, the child reads back with that description exactly (plain " +
			"text, which HTML-encoding leaves as it is), and the fields of section 2.1 of " +
			"the parent are as before. Without a child page, the first part alone is checked and can fail."},
	// 4.5 delete
	{ID: "PAGE-DELETE-OK", Section: "4.5", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{DeletePage},
		Text: "DELETE /api/pages/{key} answers 200 with status \"0\", a message and no data."},
	{ID: "PAGE-DELETE-GONE", Section: "3.3", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{DeletePage, GetPage},
		Text: "After a delete, reading the key answers 404 and a second delete answers 404.",
		Reading: "3.3 says deleting removes the page: a second case deletes a page of the run that has a tag and a " +
			"category, and the listing of its type, the page's tag and category (single views) and the tag and category " +
			"lists, read beside the read of its key, must name it no more; a third, the listing of every type read whole as " +
			"the run ends (the one the run's cleanup looks for its pages in) must not list it. " +
			"With writes, every later answer of the run is also judged (rules/sitemodel): once a delete of a run page " +
			"answered 2xx, no read of its key answers 200 and no listing, tag or category view shows it, until a " +
			"create answers with that key again."},
	{ID: "PAGE-DELETE-404", Section: "4.5, 7", Level: Must, Area: AreaPages, Writes: true, Endpoints: []Endpoint{DeletePage},
		Text:    "DELETE of a key no page has answers 404 with a handler-error body.",
		Reading: "Sent with both tokens to a key that carries the run marker and does not exist; it still counts as a write request."},
	{ID: "PAGE-REFUSED-WRITE-NO-EFFECT", Section: "4.3, 4.4, 4.5, 7", Level: Must, Area: AreaPages, Writes: true,
		Endpoints: []Endpoint{CreatePage, EditPage, DeletePage},
		Text: "A page write refused with a 4xx answer changes nothing it sent or addressed: a refused create leaves no " +
			"page, a refused edit leaves the page as it was, a write to a key no page has leaves no page there.",
		Reading: "Section 7 gives 400 to a validation failure and 404 to a key no page has. The writes judged are refused " +
			"for what they send or address, so a 4xx to them is a refusal, not a write carried out in part (4.4's failed " +
			"persistence); a 5xx (a server-side failure, as 4.5's failed delete) and an accepted write are not judged: that " +
			"case is not checked, its answer being PAGE-CREATE-INVALID-TYPE's, PAGE-EDIT-INVALID-400's, PAGE-EDIT-404's or " +
			"PAGE-DELETE-404's. Each is read back with one GET of what it addressed, and only what the write could have " +
			"changed is compared (a server may change other fields by itself, such as a read time or a counter): the " +
			"create with a type outside the five must leave no page at the run-marked slug it sent; the edit of a run page " +
			"with a type outside the five and a new description must leave the page at its key with its type and " +
			"description as the read just before the edit showed them (parsed JSON); the edit and the delete of a " +
			"run-marked key no page has must leave no page at that key. A GET that answers neither 200 nor 404 is not " +
			"judged. A page a refused write left is removed. conformance explore reads back after every 400, 401 or 404 " +
			"to a page write it sends: no page at the slug or under the parent a refused create named, as many pages of " +
			"every type as just before it, a refused edit's page as it was (every field of 2.1 it sent, and the key), no " +
			"page at a missing key a refused write named."},
	{ID: "PAGE-DELETE-HIERARCHICAL", Section: "4.5, 2.1", Level: Must, Area: AreaPages, Writes: true,
		Endpoints: []Endpoint{DeletePage, GetPage},
		Text:      "DELETE /api/pages/parent/child deletes the child page itself; the parent still reads.",
		Reading: "First a DELETE of a child key under the run's parent page that no page has must leave the parent readable (the " +
			"previous release deletes the parent). Then, only where the run can remove a child page again (see " +
			"PAGE-CREATE-PARENT), a child page is deleted: 200, the child's key then reads 404, and the parent still " +
			"reads. Without a child page, the first part alone is checked and can fail."},

	// 3 states
	{ID: "PAGE-TYPE-TRANSITIONS", Section: "3", Level: Must, Area: AreaPages,
		Text:        "Which type changes are allowed and how a scheduled page becomes published.",
		NotTestable: "not shown in the spec"},
}
