package spec

// authRules: spec section 5 (authentication) and the 400/401 rows of
// section 7, checked on every endpoint.
var authRules = []Rule{
	{ID: "AUTH-MISSING-TOKEN-400", Section: "5.6, 7", Level: Must, Area: AreaAuth,
		Text: "A request without the API token answers 400 with a message saying the API token is missing.",
		Reading: "Checked on all 16 endpoints, each request carrying some other harmless input (a request with no input " +
			"at all may be refused for that first). The message must name the token, as \"token\" or \"API\" " +
			"(case-insensitive: \"Missing API token.\", \"API key required\"); its exact words and language are not asserted. On endpoints that need the authentication token the valid one goes " +
			"along, so the API token is the only thing missing; where the run may not send it (read-only runs, on " +
			"write endpoints), the request lacks both tokens, 5.5 (401) and 5.6 (400) both describe it, and either " +
			"answer is accepted. The early-error body shape is ENV-EARLY-ERROR-SHAPE's."},
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
		Reading: "In read-only runs only the probes that cannot change a site even if wrongly accepted are sent " +
			"(edit and delete of a page key that does not exist, a file upload to a page that does not exist); " +
			"create, image upload and settings update are checked only when writes (settings writes) are allowed. " +
			"A probe naming a page that does not exist is described both by 5.5 (401) and by 4.4, 4.5 and 7 (404: no " +
			"page has the key), and the spec does not say which a server checks first, so it may answer 401 or 404. " +
			"When writes are allowed, an edit and a delete of a page the run created, where the authentication token " +
			"is the only thing wrong, must answer 401. The 401 body shape is not asserted: section 7 lists neither " +
			"shape for it."},
	{ID: "AUTH-WRITE-INVALID-AUTH", Section: "5.2, 5.5, 7", Level: Must, Area: AreaAuth,
		Endpoints: []Endpoint{CreatePage, EditPage, DeletePage, EditSettings, UploadImage, UploadFile},
		Text:      "A write endpoint called with an invalid authentication token answers 401.",
		Reading: "Sent like AUTH-WRITE-NEEDS-AUTH's probes and run-created pages, with a well-formed wrong authentication " +
			"token; the same statuses are accepted (401, or 404 for a page that does not exist)."},
	{ID: "AUTH-SETTINGS-READ-NEEDS-AUTH", Section: "4.9, 5.2", Level: Must, Area: AreaAuth,
		Endpoints: []Endpoint{GetSettings},
		Text:      "GET /api/settings without a valid authentication token answers 401."},
	{ID: "AUTH-REFUSED-WRITE-NO-EFFECT", Section: "5.5", Level: Must, Area: AreaAuth, Writes: true,
		Endpoints: []Endpoint{CreatePage, EditPage, DeletePage, EditSettings},
		Text:      "A write refused for lack of a valid authentication token changes nothing.",
		Reading: "Each write is sent with the API token only: a create with a run-marked slug must leave no page at " +
			"that key; an edit of a run-created page must leave the page as it was; a delete of one must leave it " +
			"readable; a settings update trying to change one text setting must leave every setting as it was (a " +
			"change is undone and the restore verified)."},
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
		Text: "An unknown endpoint, or a known path with a method it does not have, answers 401 with an early-error body.",
		Reading: "Sent with a valid API token, so the answer cannot be a token error; a wrong method is sent only " +
			"with methods that cannot change anything on a conforming server (PATCH, DELETE/PUT on list paths, POST " +
			"on a page key). The token goes where the spec puts it for the method; the spec does not place it for " +
			"PATCH, so it goes in the query string there and a 400 (the server found no token) is accepted as well. " +
			"Only the status is asserted here; the early-error body is ENV-EARLY-ERROR-SHAPE's. Whether endpoint " +
			"names are case-sensitive (/api/Pages) is not stated, so not asserted."},
	{ID: "AUTH-TOKEN-ROTATION", Section: "5.7", Level: Must, Area: AreaAuth,
		Text:        "Rotating the API or authentication token invalidates the old value.",
		NotTestable: "rotation is an administrator's action in the admin panel, which the API does not expose"},
	{ID: "AUTH-TOKEN-FORMAT", Section: "5.8", Level: Must, Area: AreaAuth,
		Text:        "Newly generated API tokens are 64 hexadecimal characters; older, longer tokens keep working.",
		NotTestable: "token generation happens on the server; a client cannot tell a new token from an old one"},
}
