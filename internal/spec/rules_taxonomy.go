package spec

// taxonomyRules: spec sections 2.2, 2.3, 4.6 and 4.7 (tags and categories).
var taxonomyRules = []Rule{
	{ID: "TAG-LIST-SHAPE", Section: "2.2, 4.6", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{ListTags},
		Text: "GET /api/tags answers 200 with data, an array of tags (key, name, description, template strings; list an array of page keys), without pages.",
		Reading: "4.6 says the list comes without pages, so a list item carrying pages fails; other extra fields are allowed. " +
			"An empty list shows no item: the run then creates a draft with a tag of its own when it may, otherwise (or when " +
			"the list stays empty) the rule is reported not checked. The entries of list (page keys, strings) are judged in a " +
			"case of their own, on a list that names a page; when none does, that case is not checked."},
	{ID: "TAG-GET-SHAPE", Section: "2.2, 4.6", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetTag},
		Text: "GET /api/tags/{key} answers 200 with the tag, its list of page keys and pages, an array of page objects.",
		Reading: "Checked on up to 10 tags the list names, those naming pages first and of those the ones naming fewest " +
			"(a single view expands each page in full); each item of pages is validated as a full " +
			"page object. A second case judges pages on the tags whose list names pages; when no single view holds a page " +
			"(a draft the run creates with a tag of its own may make one), that case is not checked."},
	{ID: "TAG-PAGES-MATCH-LIST", Section: "2.2", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetTag},
		Text: "A single tag's pages are exactly the pages its list names, expanded into full page objects.",
		Reading: "Compared as multisets of keys; order is not asserted. When the single view has no list (a TAG-GET-SHAPE failure), " +
			"the list GET /api/tags gives is used. Judged too on every answer of GET /api/tags/{key} the run receives, whichever " +
			"spec asked for it (the views the page writes read right after each write included; a streamed answer's pages as " +
			"the stream kept them): an answer 200 with a list and pages, read whole; one without them is the shape rules' concern."},
	{ID: "TAG-LIST-CONSISTENT", Section: "2.2", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetTag, GetPage},
		Text: "Every page a tag's list names uses the tag: the page's tags object has the tag's key.",
		Reading: "Checked on every page a tag names in GET /api/tags and in GET /api/tags/{key} (up to 10 tags), each as " +
			"the every-type page listing shows it (read once for the run); a page that listing lacks is read with " +
			"GET /api/pages/{key} (up to 20 per tag). Which page types a tag lists is not asserted: the spec does not say whether drafts are listed. " +
			"When no tag names a page, a draft the run creates may make one appear; otherwise the rule is not checked. With " +
			"writes allowed, a tag the run's page no longer carries (an edit gave it another) or whose page it deleted must " +
			"name it no more, under its old key or its new, in the single view and the list (a tag no page uses may also be gone: 404); " +
			"after an edit that renamed it, the single view of each tag it still carries, read beside it, names it no more by its " +
			"old key (no page has that key). Every answer of GET /api/tags/{key} the run receives is judged too: each page of its " +
			"pages carries the tag (a page whose tags is no object is the shape rules' concern). " +
			"With writes, every tag view of the run (single or in the list) is also judged against the run's writes " +
			"(rules/sitemodel): it names no page of the run that does not carry the tag as last read since its last " +
			"write, no deleted page and no old key of a renamed one."},
	{ID: "TAG-LIST-COMPLETE", Section: "2.2, 4.6", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{ListTags, GetTag, ListPages},
		Text: "A tag's list names every published page that uses the tag.",
		Reading: "The converse of TAG-LIST-CONSISTENT. 2.2 says list holds the keys of the pages that use the tag; whether " +
			"drafts, scheduled, static or sticky pages count is open, so they are neither required nor refused, and only " +
			"published pages must be named. Every published page of the every-type page listing (read once for the run, " +
			"a stream of any size) is compared with the list of each tag it carries, in GET /api/tags (every such tag) and " +
			"in GET /api/tags/{key} (the tags TAG-GET-SHAPE reads that published pages carry). When no " +
			"published page carries a tag, no list could miss one: not checked. With writes allowed, the run's published " +
			"pages are looked for right after their writes too: after a create with a tag of the run's, and after an edit " +
			"that publishes a page with another tag, the tag's single view and its item in GET /api/tags name the page. " +
			"With writes, every tag view of the run (single or in the list) is also judged against the run's pages as " +
			"last read since their last writes (rules/sitemodel): it names each of them that is published and carries " +
			"it, except a page that turned from scheduled to published without a write (the host files it at the next " +
			"write; 3 does not say when)."},
	{ID: "TAG-GET-404", Section: "4.6, 7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetTag},
		Text: "GET of a tag key that does not exist answers 404 with a handler-error body."},
	{ID: "TAG-VIEWS-AGREE", Section: "2.2, 4.6", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{ListTags, GetTag},
		Text: "A tag reads the same in GET /api/tags and GET /api/tags/{key}: key, name, description, template and list agree.",
		Reading: "4.6 gives the single view the list's fields plus pages. list is compared as a set of page keys (no order " +
			"is stated), the other fields as parsed JSON, between reads with no write between: the tags whose single view " +
			"the reads read (up to 10), and the tags of the run's pages after its writes. A field a view lacks is the " +
			"shape rules' concern. A site without tags: not checked."},
	{ID: "TAG-NAME-IN-PAGES", Section: "2.1, 2.2", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{ListTags, GetTag, ListPages},
		Text: "The name a page's tags object gives a tag key is that tag's name, as GET /api/tags and GET /api/tags/{key} give it.",
		Reading: "2.1 says tags maps tag key to tag name and 2.2 that a tag's name is its display name: the same fact in " +
			"two places. Compared exactly on every page of the listing of every type and the pages of the tags read, " +
			"with no write between, and on the run's tagged pages after its writes. Where the pages of one tag spell its " +
			"name differently (\"News\" and \"NEWS\", one key), 2.1 also reads as each page's own name, which the host " +
			"keeps (it names the tag after its newest page): then the tag's name must be one of the pages' spellings. Every answer " +
			"of GET /api/tags/{key} the run receives is judged too, on the pages it holds, with the same exception. A key no tag list names is " +
			"TAG-LIST-COMPLETE's and TAG-LIST-CONSISTENT's concern. No page with a tag: not checked."},
	{ID: "CAT-LIST-SHAPE", Section: "2.3, 4.7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{ListCategories},
		Text: "GET /api/categories answers 200 with data, an array of categories (key, name, description, template strings; list an array of page keys), without pages.",
		Reading: "4.7 says the list comes without pages, so a list item carrying pages fails; other extra fields are allowed. " +
			"An empty list shows no item, and the API cannot create a category: the rule is then reported not checked. The " +
			"entries of list (page keys, strings) are judged in a case of their own, on a list that names a page; when none " +
			"does (a draft the run creates in an existing category may make one), that case is not checked."},
	{ID: "CAT-GET-SHAPE", Section: "2.3, 4.7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetCategory},
		Text: "GET /api/categories/{key} answers 200 with the category, its list of page keys and pages, an array of page objects.",
		Reading: "Checked on up to 10 categories the list names, those naming pages first and of those the ones naming " +
			"fewest (a single view expands each page in full); each item of pages is validated as " +
			"a full page object. A second case judges pages on the categories whose list names pages; when no single view " +
			"holds a page, that case is not checked."},
	{ID: "CAT-PAGES-MATCH-LIST", Section: "2.3", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetCategory},
		Text: "A single category's pages are exactly the pages its list names, expanded into full page objects.",
		Reading: "Compared as multisets of keys; order is not asserted. When the single view has no list (a CAT-GET-SHAPE failure), " +
			"the list GET /api/categories gives is used. Judged too on every answer of GET /api/categories/{key} the run " +
			"receives, as TAG-PAGES-MATCH-LIST is on the tags'."},
	{ID: "CAT-LIST-CONSISTENT", Section: "2.1, 2.3", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetCategory, GetPage},
		Text: "Every page a category's list names has that category's key as its category.",
		Reading: "Checked on every page a category names in GET /api/categories and in GET /api/categories/{key} (up to 10 " +
			"categories), each as the every-type page listing shows it (read once for the run); a page that listing lacks " +
			"is read with GET /api/pages/{key} (up to 20 per category). Which page types a category lists is not asserted. When no category " +
			"names a page, a draft the run creates in an existing category may make one appear; otherwise the rule is not checked. " +
			"With writes allowed, a category the run's page left (an edit gave it another) or whose page it deleted must name " +
			"it no more, and the category of a page an edit renamed must name it no more by its old key, as for " +
			"TAG-LIST-CONSISTENT. Every answer of GET /api/categories/{key} the run receives is judged too: each page of its " +
			"pages has the category (a page whose category is no string is the shape rules' concern). " +
			"With writes, every category view of the run (single or in the list) is also judged against the run's " +
			"writes (rules/sitemodel): it names no page of the run whose category, as last read since its last write, " +
			"is another, no deleted page and no old key of a renamed one."},
	{ID: "CAT-LIST-COMPLETE", Section: "2.3, 4.7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{ListCategories, GetCategory, ListPages},
		Text: "A category's list names every published page of the category.",
		Reading: "The converse of CAT-LIST-CONSISTENT. Whether drafts, scheduled, static or sticky pages are listed is open, " +
			"so they are neither required nor refused, and only published pages must be named. Every published page of the " +
			"every-type page listing (read once for the run, a stream of any size) is compared with the list of its " +
			"category, in GET /api/categories (every such category) and in GET /api/categories/{key} (the categories " +
			"CAT-GET-SHAPE reads that published pages carry). When no published page has a category: not checked. " +
			"With writes allowed, the run's published pages are looked for right after their writes, as for TAG-LIST-COMPLETE. " +
			"With writes, every category view of the run (single or in the list) is also judged against the run's " +
			"pages as last read since their last writes (rules/sitemodel): it names each of them that is published and" +
			" has the category, except a page that turned from scheduled to published without a write."},
	{ID: "CAT-VIEWS-AGREE", Section: "2.3, 4.7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{ListCategories, GetCategory},
		Text: "A category reads the same in GET /api/categories and GET /api/categories/{key}: key, name, description, " +
			"template and list agree.",
		Reading: "As TAG-VIEWS-AGREE: list compared as a set of page keys, the other fields as parsed JSON, between reads " +
			"with no write between: the categories whose single view the reads read (up to 10), and the categories of the " +
			"run's pages after its writes. A site without categories: not checked."},
	{ID: "CAT-GET-404", Section: "4.7, 7", Level: Must, Area: AreaTaxonomy, Endpoints: []Endpoint{GetCategory},
		Text: "GET of a category key that does not exist answers 404 with a handler-error body."},
}
