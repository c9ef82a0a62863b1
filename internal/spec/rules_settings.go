package spec

// settingsRules: spec sections 2.6, 4.9 and 4.10.
var settingsRules = []Rule{
	{ID: "SETTINGS-GET-SHAPE", Section: "2.6, 4.9", Level: Must, Area: AreaSettings, Endpoints: []Endpoint{GetSettings},
		Text: "GET /api/settings answers 200 with data, a flat object; the named fields, when present, are strings.",
		Reading: "No field is required, since the set depends on the host version (2.6, 9.4); customFields is a string " +
			"holding JSON text when present. With settings writes allowed, a second case sets customFields to JSON holding a field " +
			"of the run's own and reads it back (then restores it), since a value without strings cannot tell JSON from HTML-escaped text; " +
			"on a target whose settings have no customFields (a host version without it, or one that adds it when first set and " +
			"could not remove it again), that case is not checked and nothing is sent."},
	{ID: "SETTINGS-EDIT-OK", Section: "4.10", Level: Must, Area: AreaSettings, Writes: true, Endpoints: []Endpoint{EditSettings},
		Text:    "PUT /api/settings answers 200 with status \"0\", a message and no data.",
		Reading: "Checked on a PUT of slogan to a value carrying the run marker; every field is restored and verified after."},
	{ID: "SETTINGS-EDIT-PARTIAL", Section: "4.10", Level: Must, Area: AreaSettings, Writes: true, Endpoints: []Endpoint{EditSettings, GetSettings},
		Text: "PUT changes only the fields present: the change shows in the next GET and every other field keeps its value.",
		Reading: "Checked by changing slogan alone: the next GET must show it and the whole map, slogan aside, must equal the map " +
			"read before; every field is restored and verified after."},
	{ID: "SETTINGS-CUSTOMFIELDS-400", Section: "2.6, 4.10, 7", Level: Must, Area: AreaSettings, Writes: true, Endpoints: []Endpoint{EditSettings},
		Text: "PUT with customFields that is not valid JSON answers 400 with a handler-error body and changes nothing.",
		Reading: "Sent customFields {not json}; the whole settings map is compared before and after (and restored if the server took it). " +
			"On a target whose settings have no customFields field, nothing is sent (a wrongly accepted value could not be removed): not checked."},
	{ID: "SETTINGS-FIELD-SET", Section: "2.6, 9.4", Level: Must, Area: AreaSettings,
		Text:        "The full list of settings fields and their types.",
		NotTestable: "not shown beyond the named fields; it depends on the host system version and theme"},
}
