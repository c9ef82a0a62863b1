package spec

// usersRules: spec sections 2.4 and 4.8 (public user profiles).
var usersRules = []Rule{
	{ID: "USER-LIST-SHAPE", Section: "2.4, 4.8", Level: Must, Area: AreaUsers, Endpoints: []Endpoint{ListUsers},
		Text: "GET /api/users answers 200 with data, an object keyed by username whose values are profiles with the 15 list fields, all strings.",
		Reading: "2.4 says all values are strings: every value of a profile, extra fields too, must be a string (so an empty " +
			"field is \"\", never false or null). A list holding no profile shows only the envelope: the rule is then reported " +
			"not checked."},
	{ID: "USER-LIST-KEYED-BY-USERNAME", Section: "2.4", Level: Must, Area: AreaUsers, Endpoints: []Endpoint{ListUsers},
		Text: "Each key of the users list is the username of the profile it holds."},
	{ID: "USER-LIST-SUBSET", Section: "2.4", Level: Must, Area: AreaUsers, Endpoints: []Endpoint{ListUsers},
		Text:    "List profiles carry the list subset only: codepen, xing, telegram and vk are not in the list.",
		Reading: "The spec's table marks these four fields \"no\" for the list; other extra fields are not asserted."},
	{ID: "USER-GET-SHAPE", Section: "2.4, 4.8", Level: Must, Area: AreaUsers, Endpoints: []Endpoint{GetUser},
		Text: "GET /api/users/{username} answers 200 with the full profile: all 19 fields, all strings, for that username.",
		Reading: "Checked on up to 10 usernames taken from the list's profiles (or, when the list gives none, from page authors). " +
			"2.4 says all values are strings: every value of the profile, extra fields too, must be a string."},
	{ID: "USER-NO-SENSITIVE-FIELDS", Section: "2.4", Level: Must, Area: AreaUsers, Endpoints: []Endpoint{ListUsers, GetUser},
		Text: "No profile ever carries email, role, password hash or authentication token.",
		Reading: "Checked by field name (email, role, password, passwordHash, salt, token, tokenAuth, authentication, " +
			"tokenRemember, case-insensitive: salt belongs to the password hash, tokenRemember is a login token) in the list and " +
			"in each single profile read, and by value: neither of the run's own tokens appears anywhere in a users response " +
			"body (tokens shorter than 16 characters, which could occur by chance, are not looked for)."},
	{ID: "USER-VIEWS-AGREE", Section: "2.4, 4.8", Level: Must, Area: AreaUsers, Endpoints: []Endpoint{ListUsers, GetUser},
		Text: "A user's profile in GET /api/users and in GET /api/users/{username} agree on the 15 fields of the list.",
		Reading: "2.4 lists one set of public profile fields, the list showing a subset: each of the 15 it shows must read " +
			"the same in the single profile (parsed JSON). Checked on the profiles USER-GET-SHAPE reads (up to 10). A field " +
			"a view lacks is the shape rules' concern. No profile in both views: not checked."},
	{ID: "USER-GET-404", Section: "4.8, 7", Level: Must, Area: AreaUsers, Endpoints: []Endpoint{GetUser},
		Text: "GET of a username that does not exist answers 404 with a handler-error body."},
}
