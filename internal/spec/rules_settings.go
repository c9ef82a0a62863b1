package spec

// settingsRules: spec sections 2.6, 4.9 and 4.10.
var settingsRules = []Rule{
	{ID: "SETTINGS-GET-SHAPE", Section: "2.6, 4.9", Level: Must, Area: AreaSettings, Endpoints: []Endpoint{GetSettings},
		Text: "GET /api/settings answers 200 with data, a flat object; the named fields, when present, are strings.",
		Reading: "No field is required, since the set depends on the host version (2.6, 9.4); customFields is a string " +
			"holding JSON text when present."},
	{ID: "SETTINGS-EDIT-OK", Section: "4.10", Level: Must, Area: AreaSettings, Writes: true, Endpoints: []Endpoint{EditSettings},
		Text: "PUT /api/settings answers 200 with status \"0\", a message and no data."},
	{ID: "SETTINGS-EDIT-PARTIAL", Section: "4.10", Level: Must, Area: AreaSettings, Writes: true, Endpoints: []Endpoint{EditSettings, GetSettings},
		Text: "PUT changes only the fields present: the change shows in the next GET and every other field keeps its value."},
	{ID: "SETTINGS-CUSTOMFIELDS-400", Section: "2.6, 4.10, 7", Level: Must, Area: AreaSettings, Writes: true, Endpoints: []Endpoint{EditSettings},
		Text: "PUT with customFields that is not valid JSON answers 400 with a handler-error body and changes nothing."},
	{ID: "SETTINGS-FIELD-SET", Section: "2.6, 9.4", Level: Must, Area: AreaSettings,
		Text:        "The full list of settings fields and their types.",
		NotTestable: "not shown beyond the named fields; it depends on the host system version and theme"},
}
