package reference

import (
	"encoding/json"
	"mime"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func TestMutantRegistry(t *testing.T) {
	ms := Mutants()
	if len(ms) < 50 {
		t.Fatalf("only %d mutants", len(ms))
	}
	nameRe := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9.]+)*$`)
	idRe := regexp.MustCompile(`^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$`)
	seen := map[Mutant]bool{}
	names := make([]string, 0, len(ms))
	for _, m := range ms {
		names = append(names, string(m.Name))
		if seen[m.Name] {
			t.Errorf("duplicate mutant %s", m.Name)
		}
		seen[m.Name] = true
		if !nameRe.MatchString(string(m.Name)) {
			t.Errorf("%s: not kebab-case", m.Name)
		}
		if len(m.Description) < 10 {
			t.Errorf("%s: description too short", m.Name)
		}
		if m.Benign != strings.HasPrefix(string(m.Name), "benign-") {
			t.Errorf("%s: benign mutants, and only they, are named benign-*", m.Name)
		}
		if (m.Benign || m.Hazard) && len(m.Rules) > 0 {
			t.Errorf("%s: a benign variant or a hazard breaks no rule", m.Name)
		}
		if m.Benign && m.Hazard {
			t.Errorf("%s: benign and a hazard", m.Name)
		}
		if !m.Benign && !m.Hazard && len(m.Rules) == 0 {
			t.Errorf("%s: names no rule", m.Name)
		}
		ids := map[string]bool{}
		for _, id := range m.Rules {
			if !idRe.MatchString(id) || ids[id] {
				t.Errorf("%s: bad or repeated rule ID %q", m.Name, id)
			}
			ids[id] = true
		}
		if _, err := New(Options{Token: "t", AuthToken: "a", Mutants: []Mutant{m.Name}}); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
	}
	if !sort.StringsAreSorted(names) {
		t.Error("Mutants() is not sorted by name")
	}
	// Mutants returns a copy.
	ms[0].Rules = append(ms[0].Rules, "X-Y")
	ms[0].Name = "changed"
	if again := Mutants(); again[0].Name == "changed" || reflect.DeepEqual(again[0].Rules, ms[0].Rules) {
		t.Error("Mutants() exposes the registry")
	}
	if _, err := New(Options{Token: "t", AuthToken: "a", Mutants: []Mutant{ListNoMeta, "nope"}}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown mutant: %v", err)
	}
	// The legacy combination names the rules of its parts.
	for _, m := range ms {
		if m.Name == Legacy321 {
			for _, id := range []string{"PAGE-GET-404", "PAGE-LIST-SHAPE", "GEN-FORM-SANITISED-ONCE", "SETTINGS-EDIT-PARTIAL"} {
				if !contains(anyStrings(m.Rules), id) {
					t.Errorf("legacy-3.21 lacks %s", id)
				}
			}
		}
	}
}

func anyStrings(s []string) []any {
	out := make([]any, len(s))
	for i := range s {
		out[i] = s[i]
	}
	return out
}

// Request shorthands for the probe table.
func g(path string, kv ...string) req {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return req{path: path, query: q}
}

func withAuth(q req) req { q.auth = true; return q }

func js(method, path string, body map[string]any) req {
	return req{method: method, path: path, json: body, auth: true}
}

func fm(method, path string, kv ...string) req {
	f := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Set(kv[i], kv[i+1])
	}
	return req{method: method, path: path, form: f, auth: true}
}

func fileUp(key, name string) req {
	return req{method: "POST", path: "/api/files/" + key, auth: true, file: &filePart{"file", name, []byte("data\n")}}
}

// imageUp is an image upload for the page with uuid ("" for none).
func imageUp(uuid, name string) req {
	q := req{method: "POST", path: "/api/images", auth: true, file: &filePart{"image", name, []byte("PNGDATA")}}
	if uuid != "" {
		q.fields = map[string]string{"uuid": uuid}
	}
	return q
}

// alphaUUID is the uuid of the seed page alpha-post.
const alphaUUID = "d8e295478ae4f3752e22d625f6a013a9"

// mutantProbes: for each mutant, requests whose answers differ from the
// unmutated server's, and what differs.
var mutantProbes = map[Mutant]struct {
	probe []req
	what  string
}{
	// protocol
	JSONBodyRejected:           {[]req{js("POST", "/api/pages", map[string]any{"title": "J"})}, "400 instead of 201"},
	FormPutRejected:            {[]req{fm("PUT", "/api/pages/alpha-post", "description", "f")}, "400 instead of 200"},
	DoubleEncodeForm:           {[]req{fm("POST", "/api/pages", "title", "A & B")}, "title A &amp;amp; B"},
	TextHTMLOnErrors:           {[]req{g("/api/pages/nope")}, "Content-Type of the 404"},
	EmptyBodyOn404:             {[]req{g("/api/pages/nope")}, "404 body empty"},
	NoCORSOnErrors:             {[]req{g("/api/pages/nope")}, "no CORS header on the 404"},
	NoCacheOnlyOnSuccess:       {[]req{g("/api/pages/nope")}, "no Cache-Control on the 404"},
	NoCacheOnlyWithAuth:        {[]req{g("/api/pages")}, "no Cache-Control without authentication"},
	StatusZeroOnErrors:         {[]req{g("/api/pages/nope")}, `status "0" on the 404`},
	MessageNullOnSuccess:       {[]req{g("/api/pages/alpha-post")}, "message null"},
	StatusAsNumber:             {[]req{g("/api/pages/alpha-post")}, "status 0 as a number"},
	HandlerErrorsWithoutStatus: {[]req{g("/api/pages/nope")}, "no status on the 404"},
	StatusFieldOnEarlyErrors:   {[]req{g("/api/nope")}, "status on the 401 early error"},
	StatusOnOtherEarlyErrors:   {[]req{g("/api/nope")}, "status on the 401 early error"},
	APIUnderV1:                 {[]req{g("/api/pages")}, "/api/pages is 404"},
	HandlerErrors200:           {[]req{g("/api/pages/nope")}, "200 instead of 404"},
	// auth
	MissingToken401:             {[]req{{path: "/api/pages", noToken: true}}, "401 instead of 400"},
	InvalidTokenAccepted:        {[]req{{path: "/api/pages", token: "wrong"}}, "200 instead of 401"},
	Status403InsteadOf401:       {[]req{{path: "/api/pages", token: "wrong"}}, "403 instead of 401"},
	UserReadsNeedAuth:           {[]req{g("/api/users")}, "401 instead of 200"},
	CreateWithoutAuth:           {[]req{{method: "POST", path: "/api/pages", json: map[string]any{"title": "N"}}}, "201 instead of 401"},
	DeleteWithoutAuth:           {[]req{{method: "DELETE", path: "/api/pages/nope"}}, "404 instead of 401"},
	AnyAuthAccepted:             {[]req{{path: "/api/settings", authValue: "wrong"}}, "200 instead of 401"},
	SettingsReadableWithoutAuth: {[]req{g("/api/settings")}, "200 instead of 401"},
	RefusedWriteApplies:         {[]req{{method: "PUT", path: "/api/pages/alpha-post", json: map[string]any{"description": "sneaky"}}, g("/api/pages/alpha-post")}, "description changed"},
	DeleteIgnoresQueryTokens:    {[]req{withAuth(req{method: "DELETE", path: "/api/pages/beta-post"})}, "400 instead of 200"},
	BodyTokensJSONOnly:          {[]req{fm("POST", "/api/pages", "title", "F")}, "400 instead of 201"},
	DeleteJSONBodyIgnored:       {[]req{{method: "DELETE", path: "/api/pages/beta-post", auth: true, tokensInBody: true}}, "400 instead of 200"},
	AuthParamRenamedOnWrites:    {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"description": "x"})}, "401 instead of 200"},
	FileUploadWithoutAuth:       {[]req{noAuth(fileUp("beta-post", "a.txt"))}, "200 instead of 401"},
	UnknownEndpoint404:          {[]req{g("/api/nope")}, "404 instead of 401"},
	// page object
	TagsAsString:            {[]req{g("/api/pages/alpha-post")}, "tags string"},
	TagsMapValuesAreKeys:    {[]req{g("/api/pages/alpha-post")}, "tags values"},
	DateDisplayFormat:       {[]req{g("/api/pages/alpha-post")}, "date January 18, 2025"},
	CategoryFalseWhenNone:   {[]req{g("/api/pages/epsilon-post")}, "category false"},
	CoverImageNull:          {[]req{g("/api/pages/epsilon-post")}, "coverImage null"},
	CoverImageRelative:      {[]req{g("/api/pages/alpha-post")}, "coverImage a path"},
	ChildrenShareParentUUID: {[]req{g("/api/pages/guides/getting-started")}, "the parent's uuid"},
	SlugIsFullKey:           {[]req{g("/api/pages/guides/getting-started")}, "slug guides/getting-started"},
	RelativePermalink:       {[]req{g("/api/pages/alpha-post")}, "permalink /alpha-post"},
	TitleNotEncoded:         {[]req{g("/api/pages/iota-post")}, "title Iota & Friends"},
	ContentNotRendered:      {[]req{g("/api/pages/alpha-post")}, "content is Markdown"},
	// page list
	ListNoMeta:               {[]req{g("/api/pages")}, "no meta"},
	NumberOfItemsAsString:    {[]req{g("/api/pages")}, `numberOfItems "15"`},
	DefaultIncludesStatic:    {[]req{g("/api/pages?numberOfItems=-1")}, "static and sticky pages listed"},
	StickyFilterIgnored:      {[]req{g("/api/pages?sticky=true")}, "no sticky page"},
	DefaultSizeMisreported:   {[]req{g("/api/pages")}, "10 pages served"},
	AllCapped:                {[]req{g("/api/pages?numberOfItems=-1")}, "15 pages of 18"},
	ZeroSizeEmpty:            {[]req{g("/api/pages?numberOfItems=0")}, "empty data"},
	PageNumberZeroEmpty:      {[]req{g("/api/pages?pageNumber=0")}, "empty data"},
	PastEnd404:               {[]req{g("/api/pages?pageNumber=5")}, "404"},
	HasMoreWrongOnLastPage:   {[]req{g("/api/pages?pageNumber=2")}, "hasMore true"},
	MetaPageNumberZeroBased:  {[]req{g("/api/pages")}, "meta.pageNumber 0"},
	PageSizeOffByOne:         {[]req{g("/api/pages")}, "14 pages"},
	PagesOverlap:             {[]req{g("/api/pages?pageNumber=2")}, "page 2 repeats the last of page 1"},
	UntaggedBeforePagination: {[]req{g("/api/pages?untagged=true")}, "more untagged pages"},
	MetaTotalCountsUntagged:  {[]req{g("/api/pages?untagged=true")}, "smaller total"},
	BadPaging500:             {[]req{g("/api/pages?numberOfItems=abc")}, "500"},
	HasMoreCountsEveryType:   {[]req{g("/api/pages?draft=true&published=false")}, "hasMore true on the only page of drafts"},
	PastEndTotalZero:         {[]req{g("/api/pages?pageNumber=5")}, "meta.total 0"},
	UntaggedHasMoreFromSlice: {[]req{g("/api/pages?untagged=true")}, "hasMore false on page 1 of 2"},
	// single page, create, edit, delete
	GetPageInArray:               {[]req{g("/api/pages/alpha-post")}, "data is an array"},
	HierarchicalReadsParent:      {[]req{g("/api/pages/guides/getting-started")}, "the parent page"},
	MissingPage200:               {[]req{g("/api/pages/nope")}, "200"},
	CreateReturns200:             {[]req{js("POST", "/api/pages", map[string]any{"title": "N"})}, "200 instead of 201"},
	CreateReturnsKeyOnly:         {[]req{js("POST", "/api/pages", map[string]any{"title": "N"})}, "data {key}"},
	CreateIgnoresDescription:     {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "description": "d"})}, "no description"},
	SlugNotFromTitle:             {[]req{js("POST", "/api/pages", map[string]any{"title": "Case Title"})}, "key page-<n>"},
	ParentIgnored:                {[]req{js("POST", "/api/pages", map[string]any{"title": "Kid", "parent": "guides"})}, "key kid"},
	EditIgnoresType:              {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "static"})}, "type stays published"},
	InvalidTypeAccepted:          {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "type": "bogus"})}, "201 instead of 400"},
	EditReturnsKeyOnly:           {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"description": "x"})}, "data {key}"},
	EditResetsOmittedFields:      {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Post"})}, "description emptied"},
	EditBlanksOmittedContent:     {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Post"})}, "content emptied"},
	EditBlanksOmittedDescription: {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Post"})}, "description emptied"},
	EditBlanksOmittedTags:        {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Post"})}, "tags removed"},
	EditBlanksOmittedCategory:    {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Post"})}, "category removed"},
	EditBlanksOmittedDate:        {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Post"})}, "date of the edit"},
	EditBlanksOmittedType:        {[]req{js("PUT", "/api/pages/about", map[string]any{"title": "About"})}, "type published"},
	EditBlanksOmittedCoverImage:  {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Post"})}, "coverImage false"},
	EditReportsOldKey:            {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed"})}, "data.key alpha-post"},
	RenameNewUUID:                {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed"}), g("/api/pages/renamed")}, "uuid changed"},
	EditMissing200:               {[]req{js("PUT", "/api/pages/nope", map[string]any{"title": "x"})}, "200"},
	EditInvalidTypeAccepted:      {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "bogus"})}, "200 instead of 400"},
	DeleteReturnsData:            {[]req{js("DELETE", "/api/pages/beta-post", nil)}, "data present"},
	DeleteSoft:                   {[]req{js("DELETE", "/api/pages/beta-post", nil), g("/api/pages/beta-post")}, "page still readable"},
	ChildWritesHitParent:         {[]req{js("PUT", "/api/pages/guides/getting-started", map[string]any{"description": "x"})}, "data.key guides"},
	DeleteMissing200:             {[]req{js("DELETE", "/api/pages/nope", nil)}, "200"},
	// refused and colliding page writes (pagewrites.go)
	CreateRefusedPageKept: {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "kept", "type": "bogus"}),
		g("/api/pages/kept")}, "page kept after the 400"},
	EditRefusedAppliesFields: {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "bogus", "description": "applied"}),
		g("/api/pages/alpha-post")}, "description applied after the 400"},
	EditMissingStoresPage: {[]req{js("PUT", "/api/pages/nope", map[string]any{"description": "x"}), g("/api/pages/nope")},
		"page nope after the 404"},
	CreateTakenKeyOverwrites: {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "alpha-post"}),
		g("/api/pages/alpha-post")}, "alpha-post replaced"},
	CreateTakenKeyContentToOther: {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "alpha-post", "content": "taken"}),
		g("/api/pages/alpha-post")}, "alpha-post's content replaced"},
	BenignTakenSlugRefused: {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "alpha-post"})},
		"400 instead of 201"},
	ListKeepsDeletedPage: {[]req{js("DELETE", "/api/pages/beta-post", nil), g("/api/pages", "numberOfItems", "-1")},
		"beta-post still listed"},
	ListTypesAsFirstListed: {[]req{g("/api/pages"), js("PUT", "/api/pages/alpha-post", map[string]any{"type": "static"}),
		g("/api/pages", "numberOfItems", "-1")}, "alpha-post still listed as published"},
	PageOldKeyCached: {[]req{g("/api/pages/alpha-post"), js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed"}),
		g("/api/pages/alpha-post")}, "the old key answers 200"},
	// what a write does to another page (modelmutants.go)
	EditChildTouchesParent: {[]req{js("PUT", "/api/pages/guides/getting-started", map[string]any{"description": "x"}),
		g("/api/pages/guides")}, "the parent's description changed"},
	// taxonomy
	TagListWithoutDescription:   {[]req{g("/api/tags")}, "no description, template"},
	TagSingleWithoutList:        {[]req{g("/api/tags/news")}, "no list"},
	TagPagesMismatch:            {[]req{g("/api/tags/news")}, "pages shorter than list"},
	TagListStale:                {[]req{g("/api/tags/php-tips")}, "an extra page"},
	TagListMissesPage:           {[]req{g("/api/tags/news")}, "a page fewer"},
	TagMissing200:               {[]req{g("/api/tags/nope")}, "200"},
	CategoryListWithoutTemplate: {[]req{g("/api/categories")}, "no template"},
	CategorySingleWithoutList:   {[]req{g("/api/categories/general")}, "no list"},
	CategoryPagesMismatch:       {[]req{g("/api/categories/general")}, "pages shorter than list"},
	CategoryListStale:           {[]req{g("/api/categories/music")}, "an extra page"},
	CategoryListMissesPage:      {[]req{g("/api/categories/music")}, "a page fewer"},
	CategoryMissing200:          {[]req{g("/api/categories/nope")}, "200"},
	TermIndexKeepsOldKey: {[]req{g("/api/tags/news"), js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed"}),
		g("/api/tags/news")}, "list names alpha-post, pages lack it"},
	CategoryIndexServesOldPage: {[]req{g("/api/categories/music"), js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed"}),
		g("/api/categories/music")}, "list and pages name alpha-post, as it was"},
	TagPagesStartupCache: {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "tags": "news"}), g("/api/tags/news")},
		"pages lack the new page"},
	CategoryPagesByFirstCategory: {[]req{g("/api/categories/general"), js("PUT", "/api/pages/alpha-post", map[string]any{"category": "general"}),
		g("/api/categories/general")}, "pages lack alpha-post"},
	// users
	UserEmptyFalse:           {[]req{g("/api/users/guest-writer")}, "false values"},
	UsersListAsArray:         {[]req{g("/api/users")}, "data array"},
	UsersKeyedByPosition:     {[]req{g("/api/users")}, "keys 1, 2, 3"},
	UserListFullProfile:      {[]req{g("/api/users")}, "19 fields in the list"},
	UserSinglePartial:        {[]req{g("/api/users/admin")}, "15 fields"},
	UserLeaksEmail:           {[]req{g("/api/users/admin")}, "email"},
	UserListValueNotString:   {[]req{g("/api/users")}, "pageCount"},
	UserSingleValueNotString: {[]req{g("/api/users/admin")}, "pageCount"},
	UserMissing200:           {[]req{g("/api/users/nope")}, "200"},
	// settings
	SettingsCustomFieldsEscaped: {[]req{js("PUT", "/api/settings", map[string]any{"customFields": `{"a":"b"}`}), withAuth(g("/api/settings"))}, "&quot;"},
	SettingsCustomFieldsObject:  {[]req{withAuth(g("/api/settings"))}, "customFields object"},
	SettingsEditReturnsData:     {[]req{js("PUT", "/api/settings", map[string]any{"title": "T"})}, "data present"},
	SettingsPutResetsHomepage: {[]req{js("PUT", "/api/settings", map[string]any{"homepage": "home", "uriBlog": "/b/"}),
		js("PUT", "/api/settings", map[string]any{"title": "T"}), withAuth(g("/api/settings"))}, "uriBlog emptied"},
	SettingsLocaleIgnored:       {[]req{js("PUT", "/api/settings", map[string]any{"locale": "en_GB"}), withAuth(g("/api/settings"))}, "locale kept"},
	SettingsLocaleEveryUpdate:   {[]req{js("PUT", "/api/settings", map[string]any{"locale": "en_GB"}), js("PUT", "/api/settings", map[string]any{"title": "T"}), withAuth(g("/api/settings"))}, "locale from language"},
	BenignSettingsAsSent:        {[]req{js("PUT", "/api/settings", map[string]any{"uriPage": "p"}), withAuth(g("/api/settings"))}, "uriPage without slashes"},
	SettingsPutIgnored:          {[]req{js("PUT", "/api/settings", map[string]any{"title": "T"}), withAuth(g("/api/settings"))}, "title unchanged"},
	SettingsPutBlanksUnnamed:    {[]req{js("PUT", "/api/settings", map[string]any{"title": "T"}), withAuth(g("/api/settings"))}, "footer emptied"},
	SettingsNestedObject:        {[]req{withAuth(g("/api/settings"))}, "social object"},
	SettingsDataEmpty:           {[]req{withAuth(g("/api/settings"))}, "data {}"},
	DoubleEncodeFormSettings:    {[]req{fm("PUT", "/api/settings", "slogan", "A & B"), withAuth(g("/api/settings"))}, "slogan A &amp;amp; B"},
	CustomFieldsInvalidAccepted: {[]req{js("PUT", "/api/settings", map[string]any{"customFields": "{bad"})}, "200 instead of 400"},
	SettingsInvalid200:          {[]req{js("PUT", "/api/settings", map[string]any{"customFields": "{bad"})}, "200 instead of 400"},
	// files
	FileSizeAsString:     {[]req{g("/api/files/alpha-post")}, `size "100"`},
	FileThumbnailFalse:   {[]req{g("/api/files/alpha-post")}, "thumbnail false"},
	FilesUnsorted:        {[]req{g("/api/files/alpha-post")}, "oldest first"},
	TraversalAllowed:     {[]req{g("/api/files/a..b")}, "200 instead of 400"},
	UploadNotListed:      {[]req{fileUp("beta-post", "a.txt"), g("/api/files/beta-post")}, "empty list"},
	UploadRefused200:     {[]req{fileUp("beta-post", "shell.php")}, "200 instead of 400"},
	FilesListNoImages:    {[]req{g("/api/files/alpha-post")}, "no alpha-cover.jpg, no tiny.png"},
	FilesListHidesCover:  {[]req{g("/api/files/alpha-post")}, "no alpha-cover.jpg"},
	ImageFolderNotLinked: {[]req{imageUp(alphaUUID, "new.png"), g("/api/files/alpha-post")}, "no new.png"},
	// combination
	Legacy321: {[]req{g("/api/pages/nope"), g("/api/pages")}, "200 not found, no meta"},
	// benign
	BenignExtraFields:         {[]req{g("/api/pages/alpha-post")}, "extraField"},
	BenignKeyOrder:            {[]req{g("/api/pages/alpha-post")}, "member order"},
	BenignCharset:             {[]req{g("/api/pages/alpha-post")}, "charset=utf-8"},
	BenignEscapedSlashes:      {[]req{g("/api/pages/alpha-post")}, `\/`},
	BenignExtraHeaders:        {[]req{g("/api/pages/alpha-post")}, "X-Powered-By"},
	BenignAnyUploadExtension:  {[]req{fileUp("beta-post", "shell.php")}, "200"},
	BenignTitleEditKeepsKey:   {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed"})}, "key alpha-post"},
	BenignAllReportsTotal:     {[]req{g("/api/pages?numberOfItems=-1")}, "pageSize 18"},
	BenignDefaultPageSize10:   {[]req{g("/api/pages")}, "10 pages"},
	BenignBadPaging400:        {[]req{g("/api/pages?numberOfItems=abc")}, "400"},
	BenignNoAutoSchedule:      {[]req{js("POST", "/api/pages", map[string]any{"title": "F", "date": "2030-01-01 00:00:00"})}, "type published"},
	BenignTermListsAllTypes:   {[]req{js("POST", "/api/pages", map[string]any{"title": "D", "type": "draft", "tags": "Draft Only"}), g("/api/tags/draft-only")}, "draft's tag exists, draft listed"},
	BenignTagsOfAnyPage:       {[]req{js("POST", "/api/pages", map[string]any{"title": "D", "type": "draft", "tags": "Draft Only"}), g("/api/tags/draft-only")}, "200 instead of 404"},
	BenignFilesMissingPage404: {[]req{g("/api/files/nope")}, "404"},
	BenignTraversalEarlyBody:  {[]req{g("/api/files/a..b")}, "no status"},
	BenignSlugKeepsCase:       {[]req{js("POST", "/api/pages", map[string]any{"title": "Case Title"})}, "key Case-Title"},
	BenignNumericEntities:     {[]req{g("/api/pages/iota-post")}, "title Iota &#38; Friends"},
	BenignInvalidTypeIgnored:  {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "type": "bogus"})}, "201 instead of 400"},
	Benign404BeforeAuth:       {[]req{{method: "DELETE", path: "/api/pages/nope"}}, "404 instead of 401"},
	BenignSlugOnEdit400:       {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"slug": "moved"})}, "400 instead of 200"},
	BenignSizeInKiB:           {[]req{g("/api/files/alpha-post")}, "size 20 for 20480 bytes"},
	BenignImageConverted:      {[]req{imageUp(alphaUUID, "new.png"), g("/api/files/alpha-post")}, "no image URL; img-<hash>.webp listed"},
	BenignOtherMessages:       {[]req{g("/api/pages/alpha-post")}, "another message"},
	BenignCORSEchoOrigin:      {[]req{g("/api/pages/alpha-post")}, "no Access-Control-Allow-Origin without Origin"},
	BenignContentRequired:     {[]req{js("POST", "/api/pages", map[string]any{"title": "N"})}, "400 instead of 201"},
	BenignReversedListOrder:   {[]req{g("/api/pages")}, "oldest first"},
	BenignFrenchMessages:      {[]req{g("/api/pages/alpha-post")}, "message in French"},
	Benign405UnlistedMethod:   {[]req{{method: "PATCH", path: "/api/pages"}}, "405 instead of 401"},
	BenignDisplayDateShifted:  {[]req{g("/api/pages/alpha-post")}, "date two hours later than dateRaw"},
	BenignVolatilePageField:   {[]req{g("/api/pages/alpha-post")}, "readAt"},
	BenignBadPaging422:        {[]req{g("/api/pages?numberOfItems=abc")}, "422"},
	BenignTypedSettings:       {[]req{withAuth(g("/api/settings"))}, "homepage false"},
	BenignVolatileSettings:    {[]req{withAuth(g("/api/settings"))}, "lastReadAt, readCount"},
	BenignNewerRelease:        {[]req{{method: "OPTIONS", path: "/api/pages", noToken: true}}, "204 instead of 400"},

	// hazards
	ForeignWriter: {[]req{js("PUT", "/api/settings", map[string]any{"slogan": "1"}), js("PUT", "/api/settings", map[string]any{"slogan": "2"}),
		js("PUT", "/api/settings", map[string]any{"slogan": "3"}), js("PUT", "/api/settings", map[string]any{"slogan": "4"}),
		js("PUT", "/api/settings", map[string]any{"slogan": "5"}), g("/api/pages/" + ForeignWriterPage)}, "404 after the 5th authorized write"},
}

func runProbe(t *testing.T, s *Server, probe []req) []result {
	t.Helper()
	out := make([]result, len(probe))
	for i, q := range probe {
		out[i] = call(t, s, q)
	}
	return out
}

// probePrints runs a probe on s: the fingerprint of each answer, and last
// that of the state the server stores afterwards.
func probePrints(t *testing.T, s *Server, probe []req) []string {
	t.Helper()
	var out []string
	for _, r := range runProbe(t, s, probe) {
		out = append(out, fingerprint(r))
	}
	return append(out, blankUUIDs(strings.Join(s.Storage().Lines(), "\n")))
}

// Every switch changes an answer to its probe, or what the server stores
// (a switch of hidden state, such as BenignCustomFieldsForever).
func TestEveryMutantChangesTheResponse(t *testing.T) {
	for _, m := range Mutants() {
		t.Run(string(m.Name), func(t *testing.T) {
			p, ok := mutantProbes[m.Name]
			if !ok {
				t.Fatal("no probe for this mutant")
			}
			want := probePrints(t, newServer(t), p.probe)
			if again := probePrints(t, newServer(t), p.probe); !reflect.DeepEqual(want, again) {
				t.Fatal("the probe is not deterministic on the unmutated server")
			}
			if got := probePrints(t, newServer(t, m.Name), p.probe); reflect.DeepEqual(want, got) {
				t.Errorf("neither an answer nor the stored state changed (expected: %s); the mutant answered:\n%s",
					p.what, got[len(got)-2])
			}
		})
	}
	for name := range mutantProbes {
		found := false
		for _, m := range Mutants() {
			found = found || m.Name == name
		}
		if !found {
			t.Errorf("probe for unknown mutant %s", name)
		}
	}
}

// Mutants touch only what they name: spot checks of the precise change.
func TestMutantEffects(t *testing.T) {
	cases := []struct {
		mutant Mutant
		q      req
		check  func(r result) bool
	}{
		{Status403InsteadOf401, g("/api/nope"), func(r result) bool { return r.code == 403 }},
		{TextHTMLOnErrors, g("/api/pages/alpha-post"), func(r result) bool { return r.header.Get("Content-Type") == "application/json" }},
		{NoCORSOnErrors, g("/api/pages/alpha-post"), func(r result) bool { return r.header.Get("Access-Control-Allow-Origin") == "*" }},
		{NoCacheOnlyOnSuccess, g("/api/nope"), func(r result) bool { return r.header.Get("Cache-Control") == "" }},
		{NoCacheOnlyWithAuth, withAuth(g("/api/nope")), func(r result) bool { return r.header.Get("Cache-Control") != "" }},
		{NoCacheOnlyWithAuth, withAuth(g("/api/pages")), func(r result) bool { return r.header.Get("Cache-Control") != "" }},
		{NoCacheOnlyWithAuth, g("/api/users"), func(r result) bool { return r.header.Get("Pragma") == "" }},
		{TagsAsString, g("/api/pages/alpha-post"), func(r result) bool { return r.data()["tags"] == "News,PHP Tips" }},
		{DateDisplayFormat, g("/api/pages/alpha-post"), func(r result) bool {
			return r.data()["date"] == "January 18, 2025" && r.data()["dateRaw"] == "2025-01-18 10:00:00"
		}},
		{DoubleEncodeForm, fm("POST", "/api/pages", "title", "A & B"), func(r result) bool { return r.data()["title"] == "A &amp;amp; B" }},
		{DoubleEncodeForm, js("POST", "/api/pages", map[string]any{"title": "A & B"}), func(r result) bool { return r.data()["title"] == "A &amp; B" }},
		{NumberOfItemsAsString, g("/api/pages"), func(r result) bool { return r.obj()["numberOfItems"] == "15" }},
		{PageSizeOffByOne, g("/api/pages"), func(r result) bool { return len(r.list()) == 14 && r.meta()["pageSize"] == float64(15) }},
		{UntaggedBeforePagination, g("/api/pages", "untagged", "true"), func(r result) bool { return r.meta()["total"] == float64(publishedCount) }},
		{MetaTotalCountsUntagged, g("/api/pages", "untagged", "true"), func(r result) bool { return r.meta()["total"] == float64(8) }},
		{HasMoreWrongOnLastPage, g("/api/pages", "pageNumber", "3"), func(r result) bool { return r.meta()["hasMore"] == false }},
		{HasMoreCountsEveryType, g("/api/pages", "draft", "true", "published", "false"), func(r result) bool { return r.meta()["hasMore"] == true }},
		{HasMoreCountsEveryType, g("/api/pages", "draft", "true", "static", "true", "sticky", "true", "scheduled", "true", "pageNumber", "2"),
			func(r result) bool { return r.meta()["hasMore"] == false && len(r.list()) > 0 }},
		{PastEndTotalZero, g("/api/pages", "pageNumber", "5"), func(r result) bool { return r.meta()["total"] == float64(0) && len(r.list()) == 0 }},
		{PastEndTotalZero, g("/api/pages", "pageNumber", "2"), func(r result) bool { return r.meta()["total"] == float64(publishedCount) }},
		{UntaggedHasMoreFromSlice, g("/api/pages", "untagged", "true"), func(r result) bool { return r.meta()["hasMore"] == false }},
		{UserLeaksEmail, g("/api/users/admin"), func(r result) bool { return r.data()["email"] == "ada@example.com" }},
		{RefusedWriteApplies, req{method: "POST", path: "/api/pages", json: map[string]any{"title": "Sneaky"}}, func(r result) bool { return r.code == 401 }},
		{Legacy321, g("/api/pages/nope"), func(r result) bool { return r.code == 200 && r.obj()["status"] == "1" }},
		{Legacy321, fm("POST", "/api/pages", "title", "Salt & Pepper"), func(r result) bool {
			return r.code == 200 && reflect.DeepEqual(r.data(), map[string]any{"key": "salt-amp-amp-pepper"})
		}},
		{Legacy321, fm("PUT", "/api/pages/alpha-post", "title", "x"), func(r result) bool { return r.code == 400 }},
		{Legacy321, g("/api/users"), func(r result) bool {
			return r.data()["guest-writer"].(map[string]any)["nickname"] == false && r.data()["admin"].(map[string]any)["vk"] != nil
		}},
	}
	for _, c := range cases {
		t.Run(string(c.mutant), func(t *testing.T) {
			r := call(t, newServer(t, c.mutant), c.q)
			if !c.check(r) {
				t.Errorf("%s %s: %d %v %s", c.q.method, c.q.path, r.code, r.header, r.body)
			}
		})
	}
}

// The encoding-only benign mutants keep every status code and every decoded
// value, and the media type stays application/json.
func TestBenignEncodingsDecodeTheSame(t *testing.T) {
	probe := []req{
		g("/api/pages"), g("/api/pages/café-ñandú-über"), g("/api/pages/nope"), g("/api/tags/news"),
		g("/api/categories"), g("/api/users"), g("/api/users/admin"), withAuth(g("/api/settings")),
		g("/api/files/alpha-post"), g("/api/nope"), {path: "/api/pages", noToken: true},
		js("POST", "/api/pages", map[string]any{"title": "Über / Slash"}),
		fileUp("beta-post", "a.txt"),
	}
	for _, name := range []Mutant{BenignExtraFields, BenignKeyOrder, BenignCharset, BenignEscapedSlashes, BenignExtraHeaders} {
		t.Run(string(name), func(t *testing.T) {
			want := runProbe(t, newServer(t), probe)
			got := runProbe(t, newServer(t, name), probe)
			for i := range probe {
				if got[i].code != want[i].code {
					t.Errorf("%s: %d, want %d", probe[i].path, got[i].code, want[i].code)
				}
				mt, _, err := mime.ParseMediaType(got[i].header.Get("Content-Type"))
				if err != nil || mt != "application/json" || got[i].header.Get("Access-Control-Allow-Origin") != "*" ||
					got[i].header.Get("Cache-Control") == "" {
					t.Errorf("%s: headers %v", probe[i].path, got[i].header)
				}
				a, b := decodeStripped(t, want[i].body), decodeStripped(t, got[i].body)
				if !reflect.DeepEqual(a, b) {
					t.Errorf("%s: decoded body differs:\n%s\n%s", probe[i].path, want[i].body, got[i].body)
				}
			}
		})
	}
}

// decodeStripped decodes JSON, drops extraField members and blanks uuids.
func decodeStripped(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %s", b)
	}
	var strip func(any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "extraField")
			for k, e := range x {
				x[k] = strip(e)
			}
		case []any:
			for i := range x {
				x[i] = strip(x[i])
			}
		case string:
			return hex32.ReplaceAllString(x, "<uuid>")
		}
		return v
	}
	return strip(v)
}

// noAuth is a request carrying the API token alone.
func noAuth(q req) req { q.auth = false; return q }

func withOrigin(q req, origin string) req { q.origin = origin; return q }

// sized is a file upload of n bytes.
func sized(key, name string, n int) req {
	q := fileUp(key, name)
	q.file.data = []byte(strings.Repeat("x", n))
	return q
}

// sizesByName maps each file record of a files list to its size.
func sizesByName(r result) map[string]any {
	m := map[string]any{}
	for _, it := range r.list() {
		rec, _ := it.(map[string]any)
		name, _ := rec["filename"].(string)
		m[name] = rec["size"]
	}
	return m
}

var pageSeqKey = regexp.MustCompile(`^page-[0-9]+$`)

// The switches added for spec readings a reviewer opened up: the precise
// change of each, and what each leaves alone. Each case sends its requests
// in order to one fresh server and judges the answers.
func TestSpecReadingSwitches(t *testing.T) {
	const numericTitle = `Salt &#38; Pepper &#60;b&#62; &#34;q&#34;`
	runSwitchCases(t, []switchCase{
		// slug-not-from-title: only a create without slug is affected.
		{SlugNotFromTitle, "a create without slug gets page-<n>",
			[]req{js("POST", "/api/pages", map[string]any{"title": "Case Title"})},
			func(rs []result) bool {
				k, _ := rs[0].data()["key"].(string)
				return rs[0].code == 201 && pageSeqKey.MatchString(k) && rs[0].data()["slug"] == k
			}},
		{SlugNotFromTitle, "two creates get two keys",
			[]req{js("POST", "/api/pages", map[string]any{"title": "Same"}), js("POST", "/api/pages", map[string]any{"title": "Same"})},
			func(rs []result) bool {
				a, b := rs[0].data()["key"], rs[1].data()["key"]
				return pageSeqKey.MatchString(a.(string)) && pageSeqKey.MatchString(b.(string)) && a != b
			}},
		{SlugNotFromTitle, "a slug sent is kept",
			[]req{js("POST", "/api/pages", map[string]any{"title": "Case Title", "slug": "mine"})},
			func(rs []result) bool { return rs[0].data()["key"] == "mine" }},
		{SlugNotFromTitle, "an edit still derives the key from the title",
			[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Re Named"})},
			func(rs []result) bool { return rs[0].data()["key"] == "re-named" }},

		// benign-slug-keeps-case
		{BenignSlugKeepsCase, "a create keeps the title's case",
			[]req{js("POST", "/api/pages", map[string]any{"title": "Case Title"})},
			func(rs []result) bool {
				return rs[0].data()["key"] == "Case-Title" && rs[0].data()["slug"] == "Case-Title"
			}},
		{BenignSlugKeepsCase, "a title edit keeps the title's case",
			[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Re Named"}), g("/api/pages/Re-Named")},
			func(rs []result) bool { return rs[0].data()["key"] == "Re-Named" && rs[1].code == 200 }},

		// benign-numeric-entities: the same text, encoded once with numeric
		// references; keys do not change.
		{BenignNumericEntities, "title, description and contentRaw use numeric references",
			[]req{js("POST", "/api/pages", map[string]any{"title": `Salt & Pepper <b> "q"`, "description": "A & B", "content": "Fish & <i>Chips</i>"})},
			func(rs []result) bool {
				d := rs[0].data()
				return d["title"] == numericTitle && d["description"] == "A &#38; B" &&
					d["contentRaw"] == "Fish &#38; &#60;i&#62;Chips&#60;/i&#62;" &&
					strings.Contains(d["content"].(string), "<i>Chips</i>") &&
					d["key"] == "salt-amp-pepper-lt-b-gt-quot-q-quot"
			}},
		{BenignNumericEntities, "an entity sent as text decodes once to the text",
			[]req{js("POST", "/api/pages", map[string]any{"title": "&amp; sent"})},
			func(rs []result) bool { return rs[0].data()["title"] == "&#38;amp; sent" }},
		{BenignNumericEntities, "fixture titles, in reads and lists",
			[]req{g("/api/pages/iota-post"), g("/api/pages", "numberOfItems", "-1")},
			func(rs []result) bool {
				found := false
				for _, it := range rs[1].list() {
					p := it.(map[string]any)
					found = found || (p["key"] == "iota-post" && p["title"] == "Iota &#38; Friends")
				}
				return rs[0].data()["title"] == "Iota &#38; Friends" && found
			}},

		// benign-invalid-type-ignored
		{BenignInvalidTypeIgnored, "a create with an invalid type makes a draft",
			[]req{js("POST", "/api/pages", map[string]any{"title": "Bad Type", "type": "bogus"}), g("/api/pages/bad-type")},
			func(rs []result) bool {
				return rs[0].code == 201 && rs[0].data()["type"] == "draft" && rs[1].data()["type"] == "draft"
			}},
		{BenignInvalidTypeIgnored, "an edit with an invalid type keeps the type and applies the rest",
			[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "bogus", "description": "new"}), g("/api/pages/alpha-post")},
			func(rs []result) bool {
				return rs[0].code == 200 && rs[1].data()["type"] == "published" && rs[1].data()["description"] == "new"
			}},
		{BenignInvalidTypeIgnored, "a valid type still applies",
			[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "static"})},
			func(rs []result) bool { return rs[0].data()["type"] == "static" }},
		{BenignInvalidTypeIgnored, "other invalid fields are still refused",
			[]req{js("POST", "/api/pages", map[string]any{"title": "N", "type": "bogus", "date": "tomorrow"})},
			func(rs []result) bool { return rs[0].code == 400 }},

		// benign-404-before-auth: only writes to a missing page key.
		{Benign404BeforeAuth, "PUT, DELETE and file upload of a missing page without authentication",
			[]req{noAuth(js("PUT", "/api/pages/nope", map[string]any{"description": "x"})),
				{method: "DELETE", path: "/api/pages/nope"},
				noAuth(fileUp("nope", "a.txt")),
				{method: "DELETE", path: "/api/pages/nope", authValue: "wrong"}},
			func(rs []result) bool {
				for _, r := range rs {
					if r.code != 404 || r.obj()["status"] != "1" {
						return false
					}
				}
				return true
			}},
		{Benign404BeforeAuth, "an existing page, a create, settings and a traversal key still need authentication",
			[]req{{method: "DELETE", path: "/api/pages/alpha-post"},
				noAuth(js("PUT", "/api/pages/alpha-post", map[string]any{"description": "x"})),
				noAuth(fileUp("alpha-post", "a.txt")),
				{method: "POST", path: "/api/pages", json: map[string]any{"title": "N"}},
				g("/api/settings"),
				{method: "DELETE", path: "/api/pages/a..b"}},
			func(rs []result) bool {
				for _, r := range rs {
					if r.code != 401 {
						return false
					}
				}
				return true
			}},
		{Benign404BeforeAuth, "the API token is still checked first",
			[]req{{method: "DELETE", path: "/api/pages/nope", noToken: true}, {method: "DELETE", path: "/api/pages/nope", token: "wrong"}},
			func(rs []result) bool { return rs[0].code == 400 && rs[1].code == 401 }},

		// benign-slug-on-edit-400
		{BenignSlugOnEdit400, "an edit sending slug is refused and changes nothing",
			[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"slug": "moved", "description": "d"}),
				g("/api/pages/alpha-post"), g("/api/pages/moved")},
			func(rs []result) bool {
				return rs[0].code == 400 && rs[0].obj()["status"] == "1" &&
					rs[1].data()["description"] == "alpha desc" && rs[2].code == 404
			}},
		{BenignSlugOnEdit400, "a form edit sending slug is refused too",
			[]req{fm("PUT", "/api/pages/alpha-post", "slug", "moved")},
			func(rs []result) bool { return rs[0].code == 400 }},
		{BenignSlugOnEdit400, "edits without slug and creates with slug work",
			[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Re Named"}),
				js("POST", "/api/pages", map[string]any{"title": "N", "slug": "mine"}),
				js("PUT", "/api/pages/nope", map[string]any{"slug": "x"})},
			func(rs []result) bool {
				return rs[0].code == 200 && rs[0].data()["key"] == "re-named" && rs[1].data()["key"] == "mine" && rs[2].code == 404
			}},

		// benign-size-in-kib
		{BenignSizeInKiB, "fixture sizes in KiB, rounded up",
			[]req{g("/api/files/alpha-post")},
			func(rs []result) bool {
				return reflect.DeepEqual(sizesByName(rs[0]), map[string]any{
					"alpha-cover.jpg": float64(20), "notes-txt.txt": float64(1), "tiny.png": float64(1)})
			}},
		{BenignSizeInKiB, "uploads of 1024, 1025 and 0 bytes",
			[]req{sized("beta-post", "a.txt", 1024), sized("beta-post", "b.txt", 1025), sized("beta-post", "c.txt", 0), g("/api/files/beta-post")},
			func(rs []result) bool {
				return reflect.DeepEqual(sizesByName(rs[3]), map[string]any{
					"a-txt.txt": float64(1), "b-txt.txt": float64(2), "c-txt.txt": float64(0)})
			}},

		// benign-other-messages (see also TestBenignOtherMessages)
		{BenignOtherMessages, "a missing API token still names the API",
			[]req{{path: "/api/pages", noToken: true}},
			func(rs []result) bool { return rs[0].code == 400 && rs[0].obj()["message"] == "API key required." }},

		// benign-cors-echo-origin
		{BenignCORSEchoOrigin, "the Origin sent is allowed, on successes and errors",
			[]req{withOrigin(g("/api/pages/alpha-post"), "https://a.example"), withOrigin(g("/api/pages/nope"), "https://b.example"),
				withOrigin(req{path: "/api/pages", noToken: true}, "https://c.example")},
			func(rs []result) bool {
				for i, o := range []string{"https://a.example", "https://b.example", "https://c.example"} {
					h := rs[i].header
					if h.Get("Access-Control-Allow-Origin") != o || !strings.Contains(strings.Join(h.Values("Vary"), ","), "Origin") {
						return false
					}
				}
				return rs[1].code == 404 && rs[2].code == 400
			}},
		{BenignCORSEchoOrigin, "no Origin, no CORS header; the rest unchanged",
			[]req{g("/api/pages/alpha-post")},
			func(rs []result) bool {
				h := rs[0].header
				return rs[0].code == 200 && len(h.Values("Access-Control-Allow-Origin")) == 0 &&
					h.Get("Content-Type") == "application/json" && h.Get("Cache-Control") != ""
			}},
	})
	// Without the switches the same requests give the spec's usual answers.
	base := newServer(t)
	if r := call(t, base, req{method: "DELETE", path: "/api/pages/nope"}); r.code != 401 {
		t.Errorf("unmutated DELETE of a missing page without authentication: %d", r.code)
	}
	if r := call(t, base, withOrigin(g("/api/pages/alpha-post"), "https://a.example")); r.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("unmutated CORS header with an Origin: %v", r.header)
	}
	if r := sendJSON(t, base, "POST", "/api/pages", map[string]any{"title": "N", "type": "bogus"}); r.code != 400 {
		t.Errorf("unmutated create with an invalid type: %d", r.code)
	}
}

// benign-other-messages and benign-french-messages reword every message
// and change nothing else: the same status codes, the same bodies apart
// from message.
func TestBenignMessages(t *testing.T) {
	probe := []req{
		g("/api/pages"), g("/api/pages/alpha-post"), g("/api/pages/nope"), g("/api/tags/news"), g("/api/users"),
		withAuth(g("/api/settings")), g("/api/files/alpha-post"), g("/api/files/a..b"), g("/api/nope"),
		{path: "/api/pages", noToken: true}, {path: "/api/pages", token: "wrong"}, g("/api/settings"),
		{method: "POST", path: "/api/pages", raw: "[1]", contentType: "application/json", auth: true},
		js("POST", "/api/pages", map[string]any{"title": "N", "type": "bogus"}),
		js("POST", "/api/pages", map[string]any{"title": "New"}),
		js("PUT", "/api/pages/beta-post", map[string]any{"description": "x"}),
		js("DELETE", "/api/pages/gamma-post", nil),
		fileUp("beta-post", "a.txt"), fileUp("beta-post", "shell.php"),
		js("PUT", "/api/settings", map[string]any{"title": "T"}),
		{path: "/elsewhere"},
	}
	want := runProbe(t, newServer(t), probe)
	for _, variant := range []Mutant{BenignOtherMessages, BenignFrenchMessages} {
		t.Run(string(variant), func(t *testing.T) { sameButMessages(t, probe, want, runProbe(t, newServer(t, variant), probe)) })
	}
}

// sameButMessages checks that got answers probe as want does, with other
// (non-empty) messages.
func sameButMessages(t *testing.T, probe []req, want, got []result) {
	t.Helper()
	for i := range probe {
		wb, gb := want[i].obj(), got[i].obj()
		if got[i].code != want[i].code || wb == nil || gb == nil {
			t.Errorf("%s %s: %d %s, want %d %s", probe[i].method, probe[i].path, got[i].code, got[i].body, want[i].code, want[i].body)
			continue
		}
		msg, ok := gb["message"].(string)
		if !ok || msg == "" || msg == wb["message"] {
			t.Errorf("%s %s: message %v, want another non-empty string than %v", probe[i].method, probe[i].path, gb["message"], wb["message"])
		}
		delete(wb, "message")
		delete(gb, "message")
		a, b := decodeStripped(t, mustJSON(t, wb)), decodeStripped(t, mustJSON(t, gb))
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s %s: the body differs beyond message:\n%s\n%s", probe[i].method, probe[i].path, want[i].body, got[i].body)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
