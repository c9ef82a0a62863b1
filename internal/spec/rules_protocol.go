package spec

// protocolRules: spec sections 1 (general rules, envelope), 5 rule 9
// (headers), 7 (body shapes) and 9 (versioning), which hold for every
// endpoint and every outcome.
var protocolRules = []Rule{
	{ID: "GEN-CONTENT-TYPE-JSON", Section: "1", Level: Must, Area: AreaProtocol, CrossCutting: true,
		Text:    "Every response has Content-Type application/json.",
		Reading: "Media type parameters such as charset=utf-8 are allowed; only the media type is compared."},
	{ID: "GEN-BODY-JSON", Section: "1, 7", Level: Must, Area: AreaProtocol, CrossCutting: true,
		Text: "Every response body, success or failure, is a JSON document.",
		Reading: "Checked on every exchange the run records under {base_url}/api/, whatever its status (early " +
			"errors, 404s and 500s included). An empty body is not JSON. A body longer than the client's read limit " +
			"is not judged. Responses to HEAD are not judged (they have no body)."},
	{ID: "GEN-CORS-ANY-ORIGIN", Section: "5.9", Level: Must, Area: AreaProtocol, CrossCutting: true,
		Text: "Every response allows cross-origin access from any origin.",
		Reading: "Every request carries Origin: https://conformance-client.example, as a cross-origin client's would; " +
			"Access-Control-Allow-Origin must be * or echo that origin."},
	{ID: "GEN-NO-CACHE", Section: "5.9", Level: Must, Area: AreaProtocol, CrossCutting: true,
		Text: "Every response carries no-cache headers.",
		Reading: "Satisfied by Cache-Control containing no-store or no-cache, or by Pragma: no-cache; " +
			"Expires is not required."},
	{ID: "ENV-STATUS-AGREES", Section: "1, 7, 9.2", Level: Must, Area: AreaProtocol, CrossCutting: true,
		Text:    "The status field, when present, agrees with the HTTP status: \"0\" with 2xx, \"1\" with 4xx and 5xx.",
		Reading: "A body without status is judged by the early-error rule, not here; status must be a string."},
	{ID: "ENV-MESSAGE-STRING", Section: "1, 7", Level: Must, Area: AreaProtocol, CrossCutting: true,
		Text:    "Every JSON response object carries message as a string.",
		Reading: "Successful upload answers are not judged: the spec does not show their shape (4.12, 4.13)."},
	{ID: "ENV-SUCCESS-SHAPE", Section: "1", Level: Must, Area: AreaProtocol,
		Text: "A successful response is an object with status \"0\", a message string and the endpoint's data.",
		Reading: "Checked (schema envelope-success.json) on a success of each GET endpoint, with data present, and " +
			"of page create, edit and delete when writes are allowed (a delete omits data). A request that does not " +
			"succeed is not judged here: its status code is the endpoint's rule."},
	{ID: "ENV-HANDLER-ERROR-SHAPE", Section: "7", Level: Must, Area: AreaProtocol,
		Text: "A handler error (404 not found, 400 validation) is an object with status \"1\" and a message string.",
		Reading: "Checked (schema error-handler.json) on the 404 of a missing key on each single-resource endpoint " +
			"(page, tag, category, user; page edit and delete when writes are allowed): on every 404 the run got to " +
			"such a request with every token valid and a key carrying the run marker (the endpoint rules send them), " +
			"and on a request of its own for an endpoint no other check of the run asked. An answer other than 404 " +
			"is not judged here: its status code is the endpoint's rule. The 400s of the validation rules are " +
			"checked by their own specs."},
	{ID: "ENV-EARLY-ERROR-SHAPE", Section: "7", Level: Must, Area: AreaProtocol,
		Text: "An early error (missing or invalid API token, unknown endpoint) is an object with only message: no status field.",
		Reading: "\"Only message\" is read as \"message and no status\"; other extra fields are not asserted " +
			"(schema error-early.json). Checked on all 16 endpoints, for a request without the API token (answered " +
			"400) and one with a wrong API token (answered 400 or 401; which is AUTH-INVALID-TOKEN-401's concern): on " +
			"every such answer the run got (the auth rules send them), and on requests of its own, sent as the auth " +
			"rules send them, for what no other check of the run asked; where a read-only run cannot send the valid authentication token " +
			"along, a 401 to the request without the API token may be 5.5's (whose body the spec does not shape) and " +
			"is not judged. An unknown endpoint is checked on every answer to a path no endpoint has (any 4xx; GET " +
			"/api/nonexistent when no other check asked one). " +
			"A known path with a method the table does not list is not an early error under every reading of " +
			"\"endpoint\" (see AUTH-UNKNOWN-ENDPOINT-401): a server may answer it from a handler (405, 404), so its " +
			"body is not judged here. An answer whose body the connection cut is not judged."},
	{ID: "GEN-URL-SHAPE", Section: "1, 9.1", Level: Must, Area: AreaProtocol,
		Text: "The API answers under {base_url}/api/{endpoint}, with no version segment.",
		Reading: "GET {base_url}/api/pages with the API token answers 200 with the page list (data an array). A target " +
			"where it answers anything else is not checked at all: the preflight stops the run with exit 3, since every " +
			"other answer would come from something that is not the API at this base URL."},
	{ID: "GEN-JSON-BODY", Section: "1", Level: Must, Area: AreaProtocol, Writes: true,
		Endpoints: []Endpoint{CreatePage, EditPage},
		Text:      "POST and PUT accept a JSON body (Content-Type: application/json).",
		Reading: "Checked on page create and edit: 201/200 with status \"0\", and the value sent reads back with GET: the " +
			"create's title as sent or HTML-encoded (how many times is PAGE-TITLE-ENCODED's), the edit's description " +
			"exactly. Both are plain words of the run, which HTML-encoding leaves as they are."},
	{ID: "GEN-FORM-BODY", Section: "1", Level: Must, Area: AreaProtocol, Writes: true,
		Endpoints: []Endpoint{CreatePage, EditPage},
		Text:      "POST and PUT accept a form-encoded body (application/x-www-form-urlencoded).",
		Reading: "Checked on page create and edit: 201/200 with status \"0\", and the value sent reads back with GET, as sent " +
			"or HTML-encoded any number of times (how many times is GEN-FORM-SANITISED-ONCE's and PAGE-TITLE-ENCODED's): the " +
			"create's title, which holds an ampersand and markup; the edit's description, plain words of the run, exactly."},
	{ID: "GEN-FORM-SANITISED-ONCE", Section: "1, 9.3", Level: Must, Area: AreaProtocol, Writes: true,
		Endpoints: []Endpoint{CreatePage, EditPage},
		Text:      "Form-encoded values are sanitised exactly once: an ampersand reads back encoded once, never twice.",
		Reading: "Checked on page create and edit, and (with settings writes allowed) on a form-encoded PUT /api/settings. " +
			"title and contentRaw read back encoded exactly once, in any entity form (see PAGE-TITLE-ENCODED); " +
			"description may read back as sent or encoded once, never twice. The edit case sends a run-marked slug beside the " +
			"new title; slug is not listed for edit, so when the server refuses it (400) the edit is sent again without it. " +
			"The settings case sends slogan with an ampersand: the spec does not say settings are stored encoded, so it may " +
			"read back as sent or encoded once, never twice; a refused form PUT leaves that case not checked."},
	{ID: "GEN-NO-CRASH", Section: "4, 7, 9.3", Level: Should, Area: AreaProtocol, ExploreOnly: true,
		Text: "No input of a client makes the server fail: no answer is 5xx, except the 500 of a delete that failed after the page was found.",
		Reading: "Section 4 lists the codes of every endpoint and section 7 gives 500 to a server-side failure such as a delete " +
			"that failed after the page was found (4.5); 9.3 says odd input no longer crashes. So a 5xx answer to any other " +
			"request is a failure of the server, not an answer of the spec, whatever the input (valid or not, in any " +
			"encoding). A 500 to a DELETE is accepted. Checked by conformance explore on every answer to a generated request " +
			"(the normal run judges its 5xx answers by each endpoint's rule); odd paging values of GET /api/pages are " +
			"PAGE-LIST-BAD-PAGING-NO-CRASH's."},
	{ID: "GEN-PLUGIN-ACTIVE", Section: "1", Level: Must, Area: AreaProtocol,
		Text:        "The API plugin is activated by an administrator.",
		NotTestable: "an administrator's action; preflight detects an inactive plugin (HTML instead of JSON) and stops the run with exit 3"},
	{ID: "GEN-VERSION-SCHEME", Section: "9", Level: Must, Area: AreaProtocol,
		Text:        "Version numbering scheme.",
		NotTestable: "not shown in the spec"},
	{ID: "GEN-EVENTS", Section: "6", Level: Must, Area: AreaProtocol,
		Text:        "Events.",
		NotTestable: "not shown in the spec"},
	{ID: "GEN-RATE-LIMITS", Section: "8", Level: Must, Area: AreaProtocol,
		Text:        "Rate limits.",
		NotTestable: "not shown in the spec"},
	{ID: "GEN-SERVER-ERROR-500", Section: "4.5, 7", Level: Must, Area: AreaProtocol,
		Text:        "A server-side failure after the resource was found (e.g. a failed delete) answers 500.",
		NotTestable: "a client cannot make a conforming server fail internally; the body shape of any 500 the run meets is still checked by GEN-BODY-JSON"},
}
