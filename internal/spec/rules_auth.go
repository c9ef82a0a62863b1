package spec

// authRules: spec section 5 (authentication) and the 400/401 rows of
// section 7, checked on every endpoint.
var authRules = []Rule{
	{ID: "AUTH-MISSING-TOKEN-400", Section: "5.6, 7", Level: Must, Area: AreaAuth,
		Text: "A request without the API token answers 400 with a message saying the API token is missing.",
		Reading: "Checked on all 16 endpoints, each request carrying some other harmless input (a request with no input " +
			"at all may be refused for that first). \"A message saying the API token is missing\" fixes no wording or " +
			"language: any non-empty message string passes (\"Missing API token.\", \"Clé manquante.\"), and its text is " +
			"recorded as an observation. On endpoints that need the authentication token the valid one goes " +
			"along, so the API token is the only thing missing; where the run may not send it (read-only runs, on " +
			"write endpoints), the request lacks both tokens and 5.5 (401) and 5.6 (400) both describe it: a 401 is " +
			"accepted, and leaves that request not checked (it shows nothing of 5.6). The early-error body shape is " +
			"ENV-EARLY-ERROR-SHAPE's."},
	{ID: "AUTH-INVALID-TOKEN-401", Section: "5.6, 7", Level: Must, Area: AreaAuth,
		Text: "A request with an invalid API token answers 401.",
		Reading: "Checked on all 16 endpoints with a well-formed wrong token. On endpoints that need the " +
			"authentication token the valid one goes along where the run may send it, so the API token is the only " +
			"thing wrong."},
	{ID: "AUTH-READ-TOKEN-ONLY", Section: "5.1", Level: Must, Area: AreaAuth,
		Text: "Read endpoints succeed with the API token alone.",
		Reading: "The nine GET endpoints other than settings answer 200 with only the token parameter; keys are " +
			"taken from the list endpoints (pages of every type; for the files endpoint a key without /, since 4.11 " +
			"does not say what a hierarchical files key names)."},
	{ID: "AUTH-WRITE-NEEDS-AUTH", Section: "5.2, 5.5, 7", Level: Must, Area: AreaAuth,
		Endpoints: []Endpoint{CreatePage, EditPage, DeletePage, EditSettings, UploadImage, UploadFile},
		Text:      "A write endpoint called without the authentication token answers 401.",
		Reading: "A read-only run sends only the probes that cannot change a site even if wrongly accepted (edit and " +
			"delete of a page key that does not exist, a file upload to a page that does not exist); create, image upload " +
			"and settings update are checked only when writes (settings writes) are allowed. A probe naming a page that " +
			"does not exist is described both by 5.5 (401) and by 4.4, 4.5 and 7 (404: no page has the key), and the spec " +
			"does not say which a server checks first, so it may answer 401 or 404; a 404 shows nothing of the " +
			"authentication check, and leaves that probe not checked (a read-only run whose probes all get 404 leaves the " +
			"rule not checked). A run that writes sends no probe naming a page that does not exist: its edit, delete and " +
			"file upload (POST /api/files/{key}) go to a page the run created, where the authentication token is the only " +
			"thing wrong, and must answer 401; a file such an upload stores after all is listed in the run summary (the " +
			"API cannot delete uploads). The 401 body shape is not asserted: section 7 lists neither shape for it. A " +
			"401 whose body the connection cuts (a server that refuses a write and hangs up, behind a proxy) counts: " +
			"its status arrived whole."},
	{ID: "AUTH-WRITE-INVALID-AUTH", Section: "5.2, 5.5, 7", Level: Must, Area: AreaAuth,
		Endpoints: []Endpoint{CreatePage, EditPage, DeletePage, EditSettings, UploadImage, UploadFile},
		Text:      "A write endpoint called with an invalid authentication token answers 401.",
		Reading: "Sent like AUTH-WRITE-NEEDS-AUTH's probes (in a read-only run) and writes to run-created pages (in a run " +
			"that writes), with a well-formed wrong authentication token; the same statuses are accepted (401, or 404 for " +
			"a page that does not exist, which leaves that probe not checked)."},
	{ID: "AUTH-SETTINGS-READ-NEEDS-AUTH", Section: "4.9, 5.2", Level: Must, Area: AreaAuth,
		Endpoints: []Endpoint{GetSettings},
		Text:      "GET /api/settings without a valid authentication token answers 401."},
	{ID: "AUTH-REFUSED-WRITE-NO-EFFECT", Section: "5.5", Level: Must, Area: AreaAuth, Writes: true,
		Endpoints: []Endpoint{CreatePage, EditPage, DeletePage, EditSettings, UploadFile},
		Text:      "A write refused for lack of a valid authentication token changes nothing.",
		Reading: "Each write is sent with the API token only, and only what it tried to change is compared (a server " +
			"may change other fields on its own, such as a read time or a counter): a create with a run-marked slug " +
			"must leave no page at that key; an edit of a run-created page must leave its description and content " +
			"(content and contentRaw) as they were; a delete of one must leave it readable; a file upload to one must " +
			"leave its file list empty (a file stored is listed in the run summary); a settings update trying to " +
			"change one text setting must leave that setting as it was (a change is undone and the restore verified)."},
	{ID: "AUTH-TOKEN-IN-QUERY", Section: "5.3", Level: Must, Area: AreaAuth,
		Text: "GET and DELETE accept the tokens in the query string."},
	{ID: "AUTH-TOKEN-IN-BODY", Section: "5.3, 5.4", Level: Must, Area: AreaAuth, Writes: true,
		Text:    "POST and PUT accept token and authentication in a JSON or form-encoded body.",
		Reading: "Accepted means a 2xx answer; which 2xx each endpoint gives is its own rule."},
	{ID: "AUTH-DELETE-JSON-BODY", Section: "4", Level: Must, Area: AreaAuth, Writes: true,
		Endpoints: []Endpoint{DeletePage},
		Text:      "DELETE also accepts the tokens in a JSON body."},
	{ID: "AUTH-PARAM-NAME", Section: "5.4", Level: Must, Area: AreaAuth,
		Text: "The authentication token is sent alongside token under the parameter name authentication.",
		Reading: "Checked on GET /api/settings (query string) and, when writes are allowed, on a page create and " +
			"edit (JSON body): each succeeds with the token named authentication."},
	{ID: "AUTH-UNKNOWN-ENDPOINT-401", Section: "7", Level: Must, Area: AreaAuth,
		Text: "An unknown endpoint answers 401 with an early-error body.",
		Reading: "Section 7 says \"endpoint\" both for a path ({base_url}/api/{endpoint}) and for a row of section 4's " +
			"table (method and path), so both readings are accepted. A path no endpoint has (GET /api/nonexistent, a " +
			"run-marked name) must answer 401. A known path with a method the table does not list for it (PATCH " +
			"/api/pages, PUT or DELETE /api/pages without a key, POST /api/pages/{key}, PUT /api/tags, GET /api/images) " +
			"may answer 401 (an unknown endpoint), 400 (an invalid page key, or no token found where the spec does not " +
			"place it, as for PATCH), 404 or 405, with a JSON object body, and must change nothing (a body describing " +
			"a run-marked draft must make no page); which status the target gives is recorded as an observation. " +
			"Every request carries a valid API token, so the answer cannot be a token error, and no authentication " +
			"token. The token goes where the spec puts it for the method (the query string for PATCH, which the " +
			"spec does not place). Only the status is asserted here; the early-error body is ENV-EARLY-ERROR-SHAPE's. " +
			"Whether endpoint names are case-sensitive (/api/Pages) is not stated, so not asserted."},
	{ID: "AUTH-NO-TOKEN-IN-ANSWER", Section: "2.4, 5", Level: Should, Area: AreaAuth, ExploreOnly: true,
		Text: "No answer carries the API token or the authentication token of the request.",
		Reading: "2.4 says the authentication token is never returned, and section 5 makes both tokens secrets of the " +
			"installation and of an administrator; an answer that repeats one (an error message quoting the request, say) " +
			"puts it into logs, caches and reports. Read for every answer and both tokens: checked by conformance explore on " +
			"the body and headers of every answer to a generated request, for tokens of 16 characters or more (shorter ones " +
			"could occur by chance). USER-NO-SENSITIVE-FIELDS checks users answers in the normal run."},
	{ID: "AUTH-TOKEN-ROTATION", Section: "5.7", Level: Must, Area: AreaAuth,
		Text:        "Rotating the API or authentication token invalidates the old value.",
		NotTestable: "rotation is an administrator's action in the admin panel, which the API does not expose"},
	{ID: "AUTH-TOKEN-FORMAT", Section: "5.8", Level: Must, Area: AreaAuth,
		Text:        "Newly generated API tokens are 64 hexadecimal characters; older, longer tokens keep working.",
		NotTestable: "token generation happens on the server; a client cannot tell a new token from an old one"},
}
