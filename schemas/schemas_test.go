package schemas_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/conformance-suite/conformance/schemas"
)

// ---- sample documents -------------------------------------------------------

const pageAlpha = `{
	"key": "alpha-post",
	"uuid": "d8e2c7a0f1b34b6e9a5d0c1e2f3a4b5c",
	"title": "Alpha Post",
	"description": "d",
	"type": "published",
	"slug": "alpha-post",
	"content": "<p>x</p>",
	"contentRaw": "x",
	"date": "2025-01-10 10:00:00",
	"dateRaw": "2025-01-10 10:00:00",
	"dateUTC": "2025-01-10 10:00:00",
	"tags": {"news": "News"},
	"username": "admin",
	"category": "",
	"permalink": "http://h/alpha-post",
	"coverImage": false,
	"coverImageFilename": false
}`

const pageChild = `{
	"key": "docs/install",
	"uuid": "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
	"title": "Install &amp; run",
	"description": "",
	"type": "static",
	"slug": "install",
	"content": "<h1>Install</h1>",
	"contentRaw": "# Install",
	"date": "2024-12-31 23:59:59",
	"dateRaw": "2024-12-31 23:59:59",
	"dateUTC": "2024-12-31 22:59:59",
	"tags": {},
	"username": "editor",
	"category": "guides",
	"permalink": "http://h/docs/install",
	"coverImage": "http://h/bl-content/uploads/pages/install/cover.png",
	"coverImageFilename": "cover.png",
	"noindex": false,
	"position": 3
}`

const tagNews = `{"key": "news", "name": "News", "description": "", "template": "", "list": ["alpha-post"]}`

const userAdminList = `{
	"username": "admin", "firstName": "Ada", "lastName": "Min", "nickname": "ada",
	"description": "", "twitter": "", "facebook": "", "instagram": "", "github": "adamin",
	"gitlab": "", "linkedin": "", "mastodon": "", "bluesky": "", "youtube": "",
	"profilePicture": "http://h/bl-content/profiles/admin.png"
}`

const userAdminFull = `{
	"username": "admin", "firstName": "Ada", "lastName": "Min", "nickname": "ada",
	"description": "", "twitter": "", "facebook": "", "instagram": "", "github": "adamin",
	"gitlab": "", "linkedin": "", "mastodon": "", "bluesky": "", "youtube": "",
	"profilePicture": "", "codepen": "", "xing": "", "telegram": "", "vk": ""
}`

// settingsNamed are the settings 2.6 names but customFields, with values of
// their example kinds: what every settings read carries.
const settingsNamed = `{"title": "Site", "slogan": "", "description": "", "language": "en", "locale": "en, en_US", "timezone": "UTC", ` +
	`"theme": "alternative", "homepage": "", "uriPage": "/", "uriBlog": "/blog/", "uriTag": "/tag/", "uriCategory": "/category/"}`

const fileRecord = `{"file": "/var/www/bl-content/uploads/pages/alpha-post/a.pdf", "filename": "a.pdf", "mime": "application/pdf", "size": 1024, "thumbnail": ""}`

func envelope(extra string) string {
	if extra == "" {
		return `{"status": "0", "message": "ok"}`
	}
	return `{"status": "0", "message": "ok", ` + extra + `}`
}

func pageList(data string) string {
	return envelope(`"numberOfItems": 15, "meta": {"total": 2, "pageNumber": 1, "pageSize": 15, "hasMore": false}, "data": ` + data)
}

// edit returns sample with top-level member name set to the JSON value raw
// (or removed when raw is "").
func edit(t *testing.T, sample, name, raw string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(sample), &m); err != nil {
		t.Fatalf("bad sample: %v", err)
	}
	if raw == "" {
		delete(m, name)
	} else {
		m[name] = json.RawMessage(raw)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ---- tests ------------------------------------------------------------------

var wantNames = []string{
	"category-list-response.json", "category-response.json", "category-single.json", "category.json",
	"defs.json", "delete-response.json", "envelope-success.json", "error-early.json", "error-handler.json",
	"file-list-response.json", "file-record.json",
	"page-list.json", "page-response.json", "page.json",
	"settings-edit-response.json", "settings-response.json", "settings.json",
	"tag-list-response.json", "tag-response.json", "tag-single.json", "tag.json",
	"user-list-item.json", "user-list-response.json", "user-response.json", "user.json",
}

func TestNames(t *testing.T) {
	got := schemas.Names()
	if !reflect.DeepEqual(got, wantNames) {
		t.Fatalf("Names() = %v\nwant %v", got, wantNames)
	}
	if !slices.IsSorted(got) {
		t.Fatalf("Names() not sorted: %v", got)
	}
}

// TestSchemaFiles checks every file is a draft-07 schema without $id, valid
// against the draft-07 meta-schema, whose $refs are relative, and that it compiles.
func TestSchemaFiles(t *testing.T) {
	meta, err := gojsonschema.NewSchema(gojsonschema.NewReferenceLoader("http://json-schema.org/draft-07/schema#"))
	if err != nil {
		t.Fatalf("load draft-07 meta-schema: %v", err)
	}
	for _, name := range schemas.Names() {
		t.Run(name, func(t *testing.T) {
			data, err := fs.ReadFile(schemas.FS(), name)
			if err != nil {
				t.Fatal(err)
			}
			var top map[string]any
			if err := json.Unmarshal(data, &top); err != nil {
				t.Fatalf("not a JSON object: %v", err)
			}
			if top["$schema"] != "http://json-schema.org/draft-07/schema#" {
				t.Errorf("$schema = %v", top["$schema"])
			}
			if _, ok := top["$id"]; ok {
				t.Errorf("has $id")
			}
			for _, ref := range refs(top) {
				if strings.Contains(ref, "://") || strings.HasPrefix(ref, "/") {
					t.Errorf("$ref %q is not relative", ref)
				}
			}
			res, err := meta.Validate(gojsonschema.NewBytesLoader(data))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range res.Errors() {
				t.Errorf("meta-schema: %s", e)
			}
			// Compiles (and resolves every $ref): an empty object gives violations or none, never an error.
			if _, err := schemas.Validate(name, []byte(`{}`)); err != nil {
				t.Errorf("compile: %v", err)
			}
		})
	}
}

func refs(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			if s, ok := sub.(string); ok && k == "$ref" {
				out = append(out, s)
			} else {
				out = append(out, refs(sub)...)
			}
		}
	case []any:
		for _, sub := range x {
			out = append(out, refs(sub)...)
		}
	}
	return out
}

func TestValidDocuments(t *testing.T) {
	tests := []struct {
		schema string
		doc    string
	}{
		{"page.json", pageAlpha},
		{"page.json", pageChild},
		{"page", pageAlpha}, // ".json" may be omitted
		{"page-response.json", envelope(`"data": ` + pageAlpha)},
		{"page-list.json", pageList(`[` + pageAlpha + `, ` + pageChild + `]`)},
		{"page-list.json", pageList(`[]`)},
		{"page-list.json", envelope(`"numberOfItems": -1, "meta": {"total": 0, "pageNumber": 1, "pageSize": -1, "hasMore": false}, "data": []`)},
		{"delete-response.json", envelope("")},
		{"envelope-success.json", envelope(`"data": [1, "x"]`)},
		{"error-handler.json", `{"status": "1", "message": "Page not found."}`},
		{"error-early.json", `{"message": "Missing API token."}`},
		{"tag.json", tagNews},
		{"tag-list-response.json", envelope(`"data": [` + tagNews + `, {"key": "empty", "name": "Empty", "description": "d", "template": "t", "list": []}]`)},
		{"tag-single.json", edit(t, tagNews, "pages", `[`+pageAlpha+`]`)},
		{"tag-response.json", envelope(`"data": ` + edit(t, tagNews, "pages", `[`+pageAlpha+`]`))},
		{"category.json", `{"key": "guides", "name": "Guides", "description": "", "template": "", "list": ["docs/install"]}`},
		{"category-list-response.json", envelope(`"data": []`)},
		{"category-single.json", `{"key": "guides", "name": "Guides", "description": "", "template": "", "list": [], "pages": []}`},
		{"category-response.json", envelope(`"data": {"key": "guides", "name": "Guides", "description": "", "template": "", "list": ["docs/install"], "pages": [` + pageChild + `]}`)},
		{"user-list-item.json", userAdminList},
		{"user.json", userAdminFull},
		{"user-list-response.json", envelope(`"data": {"admin": ` + userAdminList + `, "john.doe": ` + edit(t, userAdminList, "username", `"john.doe"`) + `}`)},
		{"user-list-response.json", envelope(`"data": {}`)},
		{"user-response.json", envelope(`"data": ` + userAdminFull)},
		{"file-record.json", fileRecord},
		{"file-list-response.json", envelope(`"data": [` + fileRecord + `]`)},
		{"file-list-response.json", envelope(`"data": []`)},
		{"settings.json", `{}`},
		{"settings.json", `{"title": "Site", "language": "en", "locale": "en, en_US", "timezone": "UTC", "customFields": "{}", "itemsPerPage": 6, "markdownParser": true}`},
		{"settings-response.json", envelope(`"data": ` + edit(t, edit(t, settingsNamed, "customFields", `"{}"`), "itemsPerPage", "6"))},
		// customFields may be absent (a host version without it), and a
		// named field may have another scalar type than its example kind.
		{"settings-response.json", envelope(`"data": ` + edit(t, settingsNamed, "homepage", "false"))},
		{"settings-edit-response.json", envelope("")},
	}
	for _, tc := range tests {
		t.Run(tc.schema, func(t *testing.T) {
			got, err := schemas.Validate(tc.schema, []byte(tc.doc))
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if len(got) != 0 {
				t.Fatalf("unexpected violations:\n  %s\ndocument: %s", strings.Join(got, "\n  "), tc.doc)
			}
		})
	}
}

func TestViolations(t *testing.T) {
	badPage := func(name, raw string) string { return edit(t, pageAlpha, name, raw) }
	tests := []struct {
		name   string
		schema string
		doc    string
		want   []string // exact, complete list of violations
	}{
		{"tags as string", "page-response.json", envelope(`"data": ` + badPage("tags", `"news"`)),
			[]string{"data.tags: expected object, got string"}},
		{"tags as string in list", "page-list.json", pageList(`[` + badPage("tags", `"news"`) + `]`),
			[]string{"data[0].tags: expected object, got string"}},
		{"array index after 9", "page-list.json", pageList(`[` + strings.Repeat(pageAlpha+",", 10) + badPage("tags", `"news"`) + `]`),
			[]string{"data[10].tags: expected object, got string"}},
		{"tag value not a string", "page.json", badPage("tags", `{"news": 1}`),
			[]string{"tags.news: expected string, got integer"}},
		{"missing meta", "page-list.json", edit(t, pageList(`[]`), "meta", ""),
			[]string{"meta: required property is missing"}},
		{"meta field missing and negative total", "page-list.json", edit(t, pageList(`[]`), "meta", `{"total": -1, "pageNumber": 0, "pageSize": 15}`),
			[]string{"meta.total: expected >= 0, got -1", "meta.pageNumber: expected >= 1, got 0", "meta.hasMore: required property is missing"}},
		{"numberOfItems as string", "page-list.json", edit(t, pageList(`[]`), "numberOfItems", `"2"`),
			[]string{"numberOfItems: expected integer, got string"}},
		{"hasMore as string", "page-list.json", edit(t, pageList(`[]`), "meta", `{"total": 0, "pageNumber": 1, "pageSize": 15, "hasMore": "false"}`),
			[]string{"meta.hasMore: expected boolean, got string"}},
		{"category false", "page.json", badPage("category", `false`),
			[]string{"category: expected string, got boolean"}},
		{"date in display words", "page.json", badPage("date", `"January 10, 2025"`),
			[]string{`date: expected string matching ^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$, got "January 10, 2025"`}},
		{"dateUTC ISO 8601", "page.json", badPage("dateUTC", `"2025-01-10T10:00:00Z"`),
			[]string{`dateUTC: expected string matching ^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$, got "2025-01-10T10:00:00Z"`}},
		{"unknown type", "page.json", badPage("type", `"private"`),
			[]string{`type: expected one of "published", "draft", "static", "sticky", "scheduled", got "private"`}},
		{"coverImage true", "page.json", badPage("coverImage", `true`),
			[]string{"coverImage: expected string or false, got true"}},
		{"coverImageFilename null", "page-list.json", pageList(`[` + badPage("coverImageFilename", `null`) + `]`),
			[]string{"data[0].coverImageFilename: expected string or false, got null"}},
		{"missing uuid", "page.json", badPage("uuid", ""),
			[]string{"uuid: required property is missing"}},
		{"data not an array", "page-list.json", pageList(pageAlpha),
			[]string{"data: expected array, got object"}},
		{"status as number", "page-response.json", edit(t, envelope(`"data": `+pageAlpha), "status", `0`),
			[]string{"status: expected string, got integer"}},
		{"success with failure status", "page-response.json", edit(t, envelope(`"data": `+pageAlpha), "status", `"1"`),
			[]string{`status: expected "0", got "1"`}},
		{"document is an array", "page-list.json", `[]`,
			[]string{"$: expected object, got array"}},
		{"user with email", "user.json", edit(t, userAdminFull, "email", `"admin@example.com"`),
			[]string{"email: property not allowed"}},
		{"user with several sensitive fields", "user-response.json", envelope(`"data": ` + edit(t, edit(t, userAdminFull, "role", `"admin"`), "tokenAuth", `"abc"`)),
			[]string{"data.role: property not allowed", "data.tokenAuth: property not allowed"}},
		{"listed user with password", "user-list-response.json", envelope(`"data": {"admin": ` + edit(t, userAdminList, "password", `"x"`) + `}`),
			[]string{"data.admin.password: property not allowed"}},
		{"listed user key with a dot", "user-list-response.json", envelope(`"data": {"john.doe": ` + edit(t, userAdminList, "email", `"j@d"`) + `}`),
			[]string{`data["john.doe"].email: property not allowed`}},
		{"user value false", "user-list-response.json", envelope(`"data": {"admin": false}`),
			[]string{"data.admin: expected object, got boolean"}},
		{"user field not a string", "user.json", edit(t, userAdminFull, "vk", `null`),
			[]string{"vk: expected string, got null"}},
		{"listed user extra value a number", "user-list-response.json", envelope(`"data": {"admin": ` + edit(t, userAdminList, "pageCount", `13`) + `}`),
			[]string{"data.admin.pageCount: expected string, got integer"}},
		{"user extra value a number", "user.json", edit(t, userAdminFull, "pageCount", `13`),
			[]string{"pageCount: expected string, got integer"}},
		{"user list as array", "user-list-response.json", envelope(`"data": [` + userAdminList + `]`),
			[]string{"data: expected object, got array"}},
		{"early error carrying status", "error-early.json", `{"status": "1", "message": "Invalid API token."}`,
			[]string{"status: property not allowed"}},
		{"early error without message", "error-early.json", `{}`,
			[]string{"message: required property is missing"}},
		{"handler error without status", "error-handler.json", `{"message": "Page not found."}`,
			[]string{"status: required property is missing"}},
		{"handler error with success status", "error-handler.json", `{"status": "0", "message": "x"}`,
			[]string{`status: expected "1", got "0"`}},
		{"delete response with data", "delete-response.json", envelope(`"data": {"key": "alpha-post"}`),
			[]string{"data: property not allowed"}},
		{"settings edit with data", "settings-edit-response.json", envelope(`"data": {}`),
			[]string{"data: property not allowed"}},
		{"tag list entry not a string", "tag-list-response.json", envelope(`"data": [` + edit(t, tagNews, "list", `["a", 2]`) + `]`),
			[]string{"data[0].list[1]: expected string, got integer"}},
		{"single tag without pages", "tag-response.json", envelope(`"data": ` + tagNews),
			[]string{"data.pages: required property is missing"}},
		{"single category page broken", "category-response.json", envelope(`"data": {"key": "g", "name": "G", "description": "", "template": "", "list": [], "pages": [` + badPage("tags", `[]`) + `]}`),
			[]string{"data.pages[0].tags: expected object, got array"}},
		{"file size as string", "file-list-response.json", envelope(`"data": [` + edit(t, fileRecord, "size", `"1024"`) + `]`),
			[]string{"data[0].size: expected integer, got string"}},
		{"file size fractional", "file-record.json", edit(t, fileRecord, "size", `1.5`),
			[]string{"size: expected integer, got number"}},
		{"settings customFields not a string", "settings-response.json", envelope(`"data": ` + edit(t, settingsNamed, "customFields", "{}")),
			[]string{"data.customFields: expected string, got object"}},
		{"settings named field an object", "settings-response.json", envelope(`"data": ` + edit(t, settingsNamed, "title", `{"en": "S"}`)),
			[]string{"data.title: expected no array or object, got object"}},
		{"settings with a nested object", "settings-response.json", envelope(`"data": ` + edit(t, edit(t, settingsNamed, "social", `{"github": "x"}`), "langs", `["en"]`)),
			[]string{"data.langs: expected no array or object, got array", "data.social: expected no array or object, got object"}},
		{"settings empty", "settings-response.json", envelope(`"data": {}`),
			[]string{"data.description: required property is missing", "data.homepage: required property is missing",
				"data.language: required property is missing", "data.locale: required property is missing",
				"data.slogan: required property is missing", "data.theme: required property is missing",
				"data.timezone: required property is missing", "data.title: required property is missing",
				"data.uriBlog: required property is missing", "data.uriCategory: required property is missing",
				"data.uriPage: required property is missing", "data.uriTag: required property is missing"}},
		{"settings not an object", "settings-response.json", envelope(`"data": "x"`),
			[]string{"data: expected object, got string"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := schemas.Validate(tc.schema, []byte(tc.doc))
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			want := slices.Clone(tc.want)
			g := slices.Clone(got)
			slices.Sort(want)
			slices.Sort(g)
			if !reflect.DeepEqual(g, want) {
				t.Fatalf("violations:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

func TestViolationOrder(t *testing.T) {
	doc := pageList(`[` + strings.Repeat(pageAlpha+",", 2) + edit(t, pageAlpha, "tags", `"x"`) + strings.Repeat(","+pageAlpha, 7) + `,` + edit(t, pageAlpha, "tags", `"y"`) + `]`)
	doc = edit(t, doc, "numberOfItems", `"15"`)
	got, err := schemas.Validate("page-list.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"data[2].tags: expected object, got string",
		"data[10].tags: expected object, got string",
		"numberOfItems: expected integer, got string",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestValidateErrors(t *testing.T) {
	tests := []struct {
		name, schema, doc, wantErr string
	}{
		{"unknown schema", "nope.json", `{}`, "unknown schema"},
		{"path in name", "../schemas/page.json", `{}`, "unknown schema"},
		{"not JSON", "page.json", `{"key": `, "not JSON"},
		{"empty", "page.json", ``, "not JSON"},
		{"trailing data", "page.json", `{} {}`, "not JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := schemas.Validate(tc.schema, []byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want containing %q (violations %v)", err, tc.wantErr, got)
			}
		})
	}
}

func TestValidateConcurrent(t *testing.T) {
	docs := map[string]string{
		"page-list.json":          pageList(`[` + pageAlpha + `]`),
		"user-list-response.json": envelope(`"data": {"admin": ` + edit(t, userAdminList, "email", `"x"`) + `}`),
		"error-early.json":        `{"status": "1", "message": "m"}`,
		"page.json":               edit(t, pageAlpha, "coverImage", `1`),
	}
	want := map[string]int{"page-list.json": 0, "user-list-response.json": 1, "error-early.json": 1, "page.json": 1}
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		for name, doc := range docs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got, err := schemas.Validate(name, []byte(doc))
				if err != nil || len(got) != want[name] {
					t.Errorf("%s: got %v, %v", name, got, err)
				}
			}()
		}
	}
	wg.Wait()
}

func TestExport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out", "schemas")
	if err := schemas.Export(dir); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !reflect.DeepEqual(got, schemas.Names()) {
		t.Fatalf("exported %v\nwant %v", got, schemas.Names())
	}
	for _, name := range got {
		want, _ := fs.ReadFile(schemas.FS(), name)
		have, _ := os.ReadFile(filepath.Join(dir, name))
		if !bytes.Equal(want, have) {
			t.Errorf("%s differs from the embedded file", name)
		}
	}
	// Exporting again overwrites without error.
	if err := schemas.Export(dir); err != nil {
		t.Fatalf("second export: %v", err)
	}

	// The exported files work on their own: relative $refs resolve on disk.
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gojsonschema.NewSchema(gojsonschema.NewReferenceLoader("file://" + filepath.ToSlash(abs) + "/page-list.json"))
	if err != nil {
		t.Fatalf("compile exported page-list.json: %v", err)
	}
	res, err := s.Validate(gojsonschema.NewStringLoader(pageList(`[` + edit(t, pageAlpha, "tags", `"x"`) + `]`)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid() {
		t.Fatal("exported schema accepted tags as a string")
	}
}

func TestExportFailsOnFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := schemas.Export(file); err == nil {
		t.Fatal("Export into a regular file: want error")
	}
}
