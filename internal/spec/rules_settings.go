package spec

// settingsRules: spec sections 2.6, 4.9 and 4.10.
var settingsRules = []Rule{
	{ID: "SETTINGS-GET-SHAPE", Section: "2.6, 4.9", Level: Must, Area: AreaSettings, Endpoints: []Endpoint{GetSettings},
		Text: "GET /api/settings answers 200 with data, a flat map carrying the fields 2.6 names; customFields, when present, is JSON text.",
		Reading: "Flat: no value is an object or an array. 2.6 names title, slogan, description, language, locale, timezone, theme, " +
			"homepage, uriPage, uriBlog, uriTag, uriCategory and customFields: all must be there but customFields, which a host " +
			"version may not have (9.4), so data {} fails. Their kinds are examples (2.6, \"Example kind\"): any scalar passes; " +
			"only customFields has a stated type, a string holding JSON text: JSON text as sent, or HTML-encoded once, which " +
			"spec 1.4 allows (the host's core sanitises every settings value once, customFields too), are both accepted; " +
			"encoded twice is not JSON text. With settings writes allowed, a second case sends " +
			"the site's own customFields back with the label of one field changed (in SETTINGS-EDIT-PARTIAL's update of every " +
			"other field, or alone when the site refuses that update with 400), reads it back as JSON text and restores it " +
			"(a value without strings cannot tell JSON from HTML-escaped text). It never sends a field name the site does not " +
			"have: the host adds every field it is ever given to every page, for good. So on a site with no custom field " +
			"(customFields \"{}\" or absent) that case is not checked: the only way to check it would leave a field on every page."},
	{ID: "SETTINGS-EDIT-OK", Section: "4.10", Level: Must, Area: AreaSettings, Writes: true, Endpoints: []Endpoint{EditSettings},
		Text: "PUT /api/settings answers 200 with status \"0\", a message and no data.",
		Reading: "Checked on the first update of the settings specs (every other field 2.6 names, see SETTINGS-EDIT-PARTIAL), " +
			"or, when the site refuses those values (which values a field takes is not shown), on a PUT of slogan to a " +
			"value carrying the run marker; every field is restored and verified after."},
	{ID: "SETTINGS-EDIT-PARTIAL", Section: "4.10", Level: Must, Area: AreaSettings, Writes: true, Endpoints: []Endpoint{EditSettings, GetSettings},
		Text: "PUT changes only the fields present: the change shows in the next GET and every other field keeps its value.",
		Reading: "Checked from both sides, with three updates. The first sends every field 2.6 names that the site has but slogan, " +
			"theme (no endpoint names another theme the site has) and locale, each with a new value of its example kind: run-marked " +
			"texts for title, description, homepage and the four path prefixes, another language and timezone, and " +
			"customFields only as the site's own definition with one label changed (never a field name the site lacks); the " +
			"next GET must show each (customFields: the label sent; a path prefix with its leading and trailing slashes aside, " +
			"which the host adds) and every other field as before, but locale when the language changed: a field the server " +
			"derives from another field of the same update is not a field not sent that changed (the host sets locale from the " +
			"new language's file, over a locale sent with it), so its new value is only recorded. A site that refuses " +
			"these values leaves that case not checked (2.6 gives only example kinds). The second changes locale alone, after " +
			"the language, sent without spaces: it must read back as the same comma-separated list (spaces around the commas " +
			"aside), every other field as before. The third changes slogan alone, form-encoded, to a value with an ampersand: " +
			"the next GET must show it (as sent or HTML-encoded, however many times: how many is GEN-FORM-SANITISED-ONCE's), " +
			"and every other field, named in 2.6 or not, must read as before (locale too: it is no longer the language's own " +
			"then, so a server that sets it from the language on every update is seen). The set of other fields " +
			"is the host's (2.6), and one may change by itself (a read counter, a time): fields that differ between two reads " +
			"before the PUT, or between two reads 1.1 s apart after it, are volatile, not compared, and recorded as an " +
			"observation. Every field is restored and verified after (a field the restore's update rewrites, such as locale " +
			"after language, is sent again alone). conformance explore changes title, slogan and description with generated text " +
			"(JSON or form-encoded): each must read back as sent or HTML-encoded once, every field not sent as before."},
	{ID: "SETTINGS-CUSTOMFIELDS-400", Section: "2.6, 4.10, 7", Level: Must, Area: AreaSettings, Writes: true, Endpoints: []Endpoint{EditSettings},
		Text: "PUT with customFields that is not valid JSON answers 400 with a handler-error body and changes nothing.",
		Reading: "Sent customFields {not json}; customFields, the field the write tried to change, must read back as before " +
			"(and the settings are restored if the server took it). An invalid value names no custom field, so this is sent " +
			"whatever the site's custom fields; on a target whose settings have no customFields field nothing is sent (a " +
			"wrongly accepted value could not be removed): not checked."},
	{ID: "SETTINGS-FIELD-SET", Section: "2.6, 9.4", Level: Must, Area: AreaSettings,
		Text:        "The full list of settings fields and their types.",
		NotTestable: "not shown beyond the named fields; it depends on the host system version and theme"},
}
