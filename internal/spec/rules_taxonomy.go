package spec

// taxonomyRules: spec sections 2.2, 2.3, 4.6 and 4.7 (tags and categories).
var taxonomyRules = []Rule{
	{ID: "TAG-LIST-SHAPE", Section: "2.2, 4.6", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{ListTags},
		Text: "GET /api/tags answers 200 with data, an array of tags (key, name, description, template strings; list an array of page keys)."},
	{ID: "TAG-GET-SHAPE", Section: "2.2, 4.6", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetTag},
		Text: "GET /api/tags/{key} answers 200 with the tag, its list of page keys and pages, an array of page objects."},
	{ID: "TAG-PAGES-MATCH-LIST", Section: "2.2", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetTag},
		Text:    "A single tag's pages are exactly the pages its list names, expanded into full page objects.",
		Reading: "Compared as sets of keys; order is not asserted."},
	{ID: "TAG-LIST-CONSISTENT", Section: "2.2", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetTag, GetPage},
		Text: "Every page a tag's list names uses the tag: the page's tags object has the tag's key."},
	{ID: "TAG-GET-404", Section: "4.6, 7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetTag},
		Text: "GET of a tag key that does not exist answers 404 with a handler-error body."},
	{ID: "CAT-LIST-SHAPE", Section: "2.3, 4.7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{ListCategories},
		Text: "GET /api/categories answers 200 with data, an array of categories (key, name, description, template strings; list an array of page keys)."},
	{ID: "CAT-GET-SHAPE", Section: "2.3, 4.7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetCategory},
		Text: "GET /api/categories/{key} answers 200 with the category, its list of page keys and pages, an array of page objects."},
	{ID: "CAT-PAGES-MATCH-LIST", Section: "2.3", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetCategory},
		Text:    "A single category's pages are exactly the pages its list names, expanded into full page objects.",
		Reading: "Compared as sets of keys; order is not asserted."},
	{ID: "CAT-LIST-CONSISTENT", Section: "2.1, 2.3", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetCategory, GetPage},
		Text: "Every page a category's list names has that category's key as its category."},
	{ID: "CAT-GET-404", Section: "4.7, 7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetCategory},
		Text: "GET of a category key that does not exist answers 404 with a handler-error body."},
}
