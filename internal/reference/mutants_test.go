package reference

import (
	"encoding/json"
	"mime"
	"net/url"
	"os"
	"path/filepath"
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
	seen := map[string]bool{}
	names := make([]string, 0, len(ms))
	for _, m := range ms {
		names = append(names, m.Name)
		if seen[m.Name] {
			t.Errorf("duplicate mutant %s", m.Name)
		}
		seen[m.Name] = true
		if !nameRe.MatchString(m.Name) {
			t.Errorf("%s: not kebab-case", m.Name)
		}
		if len(m.Description) < 10 {
			t.Errorf("%s: description too short", m.Name)
		}
		if m.Benign != strings.HasPrefix(m.Name, "benign-") {
			t.Errorf("%s: benign mutants, and only they, are named benign-*", m.Name)
		}
		if m.Benign && len(m.Rules) > 0 {
			t.Errorf("%s: a benign mutant breaks no rule", m.Name)
		}
		if !m.Benign && len(m.Rules) == 0 {
			t.Errorf("%s: names no rule", m.Name)
		}
		ids := map[string]bool{}
		for _, id := range m.Rules {
			if !idRe.MatchString(id) || ids[id] {
				t.Errorf("%s: bad or repeated rule ID %q", m.Name, id)
			}
			ids[id] = true
		}
		if _, err := New(Options{Token: "t", AuthToken: "a", Mutants: []string{m.Name}}); err != nil {
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
	if _, err := New(Options{Token: "t", AuthToken: "a", Mutants: []string{"list-no-meta", "nope"}}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown mutant: %v", err)
	}
	// The legacy combination names the rules of its parts.
	for _, m := range ms {
		if m.Name == "legacy-3.21" {
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

// Every mutant is checked somewhere in the handlers.
func TestMutantHooksExist(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "mutants.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	code := src.String()
	for _, m := range Mutants() {
		lit := `"` + m.Name + `"`
		switch {
		case m.Name == "legacy-3.21":
			continue // expanded by resolveMutants
		case strings.Contains(code, `mutated(`+lit+`)`):
		case strings.HasPrefix(m.Name, "tag-") && strings.Contains(code, `, "`+strings.TrimPrefix(m.Name, "tag-")+`")`):
		case strings.HasPrefix(m.Name, "category-") && strings.Contains(code, `, "`+strings.TrimPrefix(m.Name, "category-")+`")`):
		default:
			t.Errorf("mutant %s is never checked", m.Name)
		}
	}
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

// mutantProbes: for each mutant, requests whose answers differ from the
// unmutated server's, and what differs.
var mutantProbes = map[string]struct {
	probe []req
	what  string
}{
	// protocol
	"text-html-on-errors":           {[]req{g("/api/pages/nope")}, "Content-Type of the 404"},
	"empty-body-on-404":             {[]req{g("/api/pages/nope")}, "404 body empty"},
	"no-cors-on-errors":             {[]req{g("/api/pages/nope")}, "no CORS header on the 404"},
	"nocache-only-on-success":       {[]req{g("/api/pages/nope")}, "no Cache-Control on the 404"},
	"nocache-only-with-auth":        {[]req{g("/api/pages")}, "no Cache-Control without authentication"},
	"status-zero-on-errors":         {[]req{g("/api/pages/nope")}, `status "0" on the 404`},
	"message-null-on-success":       {[]req{g("/api/pages/alpha-post")}, "message null"},
	"status-as-number":              {[]req{g("/api/pages/alpha-post")}, "status 0 as a number"},
	"handler-errors-without-status": {[]req{g("/api/pages/nope")}, "no status on the 404"},
	"status-field-on-early-errors":  {[]req{g("/api/nope")}, "status on the 401 early error"},
	"api-under-v1":                  {[]req{g("/api/pages")}, "/api/pages is 404"},
	"json-body-rejected":            {[]req{js("POST", "/api/pages", map[string]any{"title": "J"})}, "400 instead of 201"},
	"form-put-rejected":             {[]req{fm("PUT", "/api/pages/alpha-post", "description", "f")}, "400 instead of 200"},
	"double-encode-form":            {[]req{fm("POST", "/api/pages", "title", "A & B")}, "title A &amp;amp; B"},
	"handler-errors-200":            {[]req{g("/api/pages/nope")}, "200 instead of 404"},
	// auth
	"missing-token-401":              {[]req{{path: "/api/pages", noToken: true}}, "401 instead of 400"},
	"invalid-token-accepted":         {[]req{{path: "/api/pages", token: "wrong"}}, "200 instead of 401"},
	"403-instead-of-401":             {[]req{{path: "/api/pages", token: "wrong"}}, "403 instead of 401"},
	"user-reads-need-auth":           {[]req{g("/api/users")}, "401 instead of 200"},
	"create-without-auth":            {[]req{{method: "POST", path: "/api/pages", json: map[string]any{"title": "N"}}}, "201 instead of 401"},
	"delete-without-auth":            {[]req{{method: "DELETE", path: "/api/pages/nope"}}, "404 instead of 401"},
	"any-auth-accepted":              {[]req{{path: "/api/settings", authValue: "wrong"}}, "200 instead of 401"},
	"settings-readable-without-auth": {[]req{g("/api/settings")}, "200 instead of 401"},
	"refused-write-applies":          {[]req{{method: "PUT", path: "/api/pages/alpha-post", json: map[string]any{"description": "sneaky"}}, g("/api/pages/alpha-post")}, "description changed"},
	"delete-ignores-query-tokens":    {[]req{withAuth(req{method: "DELETE", path: "/api/pages/beta-post"})}, "400 instead of 200"},
	"body-tokens-json-only":          {[]req{fm("POST", "/api/pages", "title", "F")}, "400 instead of 201"},
	"delete-json-body-ignored":       {[]req{{method: "DELETE", path: "/api/pages/beta-post", auth: true, tokensInBody: true}}, "400 instead of 200"},
	"auth-param-renamed-on-writes":   {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"description": "x"})}, "401 instead of 200"},
	"unknown-endpoint-404":           {[]req{g("/api/nope")}, "404 instead of 401"},
	"wrong-method-405":               {[]req{{method: "PATCH", path: "/api/pages"}}, "405 instead of 401"},
	// page object
	"tags-as-string":           {[]req{g("/api/pages/alpha-post")}, "tags string"},
	"tags-map-values-are-keys": {[]req{g("/api/pages/alpha-post")}, "tags values"},
	"date-display-format":      {[]req{g("/api/pages/alpha-post")}, "date January 18, 2025"},
	"category-false-when-none": {[]req{g("/api/pages/epsilon-post")}, "category false"},
	"cover-image-null":         {[]req{g("/api/pages/epsilon-post")}, "coverImage null"},
	"slug-is-full-key":         {[]req{g("/api/pages/guides/getting-started")}, "slug guides/getting-started"},
	"relative-permalink":       {[]req{g("/api/pages/alpha-post")}, "permalink /alpha-post"},
	"title-not-encoded":        {[]req{g("/api/pages/iota-post")}, "title Iota & Friends"},
	"content-not-rendered":     {[]req{g("/api/pages/alpha-post")}, "content is Markdown"},
	// page list
	"list-no-meta":               {[]req{g("/api/pages")}, "no meta"},
	"numberofitems-as-string":    {[]req{g("/api/pages")}, `numberOfItems "15"`},
	"default-includes-static":    {[]req{g("/api/pages", "numberOfItems", "-1")}, "static and sticky pages listed"},
	"sticky-filter-ignored":      {[]req{g("/api/pages", "sticky", "true")}, "no sticky page"},
	"default-size-misreported":   {[]req{g("/api/pages")}, "10 pages served"},
	"all-capped":                 {[]req{g("/api/pages", "numberOfItems", "-1")}, "15 pages of 18"},
	"zero-size-empty":            {[]req{g("/api/pages", "numberOfItems", "0")}, "empty data"},
	"pagenumber-zero-empty":      {[]req{g("/api/pages", "pageNumber", "0")}, "empty data"},
	"past-end-404":               {[]req{g("/api/pages", "pageNumber", "5")}, "404"},
	"hasmore-wrong-on-last-page": {[]req{g("/api/pages", "pageNumber", "2")}, "hasMore true"},
	"meta-pagenumber-zero-based": {[]req{g("/api/pages")}, "meta.pageNumber 0"},
	"page-size-off-by-one":       {[]req{g("/api/pages")}, "14 pages"},
	"pages-overlap":              {[]req{g("/api/pages", "pageNumber", "2")}, "page 2 repeats the last of page 1"},
	"untagged-before-pagination": {[]req{g("/api/pages", "untagged", "true")}, "more untagged pages"},
	"meta-total-counts-untagged": {[]req{g("/api/pages", "untagged", "true")}, "smaller total"},
	"bad-paging-500":             {[]req{g("/api/pages", "numberOfItems", "abc")}, "500"},
	"get-page-in-array":          {[]req{g("/api/pages/alpha-post")}, "data is an array"},
	"hierarchical-reads-parent":  {[]req{g("/api/pages/guides/getting-started")}, "the parent page"},
	"missing-page-200":           {[]req{g("/api/pages/nope")}, "200"},
	"create-returns-200":         {[]req{js("POST", "/api/pages", map[string]any{"title": "N"})}, "200 instead of 201"},
	"create-returns-key-only":    {[]req{js("POST", "/api/pages", map[string]any{"title": "N"})}, "data {key}"},
	"create-ignores-description": {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "description": "d"})}, "no description"},
	"slug-keeps-case":            {[]req{js("POST", "/api/pages", map[string]any{"title": "Case Title"})}, "key Case-Title"},
	"parent-ignored":             {[]req{js("POST", "/api/pages", map[string]any{"title": "Kid", "parent": "guides"})}, "key kid"},
	"edit-ignores-type":          {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "static"})}, "type stays published"},
	"invalid-type-accepted":      {[]req{js("POST", "/api/pages", map[string]any{"title": "N", "type": "bogus"})}, "201 instead of 400"},
	"edit-returns-key-only":      {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"description": "x"})}, "data {key}"},
	"edit-resets-omitted-fields": {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Post"})}, "description emptied"},
	"edit-reports-old-key":       {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed"})}, "data.key alpha-post"},
	"rename-new-uuid":            {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed"}), g("/api/pages/renamed")}, "uuid changed"},
	"edit-missing-200":           {[]req{js("PUT", "/api/pages/nope", map[string]any{"title": "x"})}, "200"},
	"edit-invalid-type-accepted": {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "bogus"})}, "200 instead of 400"},
	"delete-returns-data":        {[]req{js("DELETE", "/api/pages/beta-post", nil)}, "data present"},
	"delete-soft":                {[]req{js("DELETE", "/api/pages/beta-post", nil), g("/api/pages/beta-post")}, "page still readable"},
	"delete-missing-200":         {[]req{js("DELETE", "/api/pages/nope", nil)}, "200"},
	// taxonomy
	"tag-list-without-description":   {[]req{g("/api/tags")}, "no description, template"},
	"tag-single-without-list":        {[]req{g("/api/tags/news")}, "no list"},
	"tag-pages-mismatch":             {[]req{g("/api/tags/news")}, "pages shorter than list"},
	"tag-list-stale":                 {[]req{g("/api/tags/php-tips")}, "an extra page"},
	"tag-missing-200":                {[]req{g("/api/tags/nope")}, "200"},
	"category-list-without-template": {[]req{g("/api/categories")}, "no template"},
	"category-single-without-list":   {[]req{g("/api/categories/general")}, "no list"},
	"category-pages-mismatch":        {[]req{g("/api/categories/general")}, "pages shorter than list"},
	"category-list-stale":            {[]req{g("/api/categories/music")}, "an extra page"},
	"category-missing-200":           {[]req{g("/api/categories/nope")}, "200"},
	// users
	"user-empty-false":        {[]req{g("/api/users/guest-writer")}, "false values"},
	"users-list-as-array":     {[]req{g("/api/users")}, "data array"},
	"users-keyed-by-position": {[]req{g("/api/users")}, "keys 1, 2, 3"},
	"user-list-full-profile":  {[]req{g("/api/users")}, "19 fields in the list"},
	"user-single-partial":     {[]req{g("/api/users/admin")}, "15 fields"},
	"user-leaks-email":        {[]req{g("/api/users/admin")}, "email"},
	"user-missing-200":        {[]req{g("/api/users/nope")}, "200"},
	// settings
	"settings-customfields-escaped": {[]req{js("PUT", "/api/settings", map[string]any{"customFields": `{"a":"b"}`}), withAuth(g("/api/settings"))}, "&quot;"},
	"settings-customfields-object":  {[]req{withAuth(g("/api/settings"))}, "customFields object"},
	"settings-edit-returns-data":    {[]req{js("PUT", "/api/settings", map[string]any{"title": "T"})}, "data present"},
	"settings-put-resets-homepage":  {[]req{js("PUT", "/api/settings", map[string]any{"title": "T"}), withAuth(g("/api/settings"))}, "uriBlog emptied"},
	"settings-put-ignored":          {[]req{js("PUT", "/api/settings", map[string]any{"title": "T"}), withAuth(g("/api/settings"))}, "title unchanged"},
	"customfields-invalid-accepted": {[]req{js("PUT", "/api/settings", map[string]any{"customFields": "{bad"})}, "200 instead of 400"},
	"settings-invalid-200":          {[]req{js("PUT", "/api/settings", map[string]any{"customFields": "{bad"})}, "200 instead of 400"},
	// files
	"file-size-as-string":  {[]req{g("/api/files/alpha-post")}, `size "100"`},
	"file-thumbnail-false": {[]req{g("/api/files/alpha-post")}, "thumbnail false"},
	"files-unsorted":       {[]req{g("/api/files/alpha-post")}, "oldest first"},
	"traversal-allowed":    {[]req{g("/api/files/a..b")}, "200 instead of 400"},
	"upload-not-listed":    {[]req{fileUp("beta-post", "a.txt"), g("/api/files/beta-post")}, "empty list"},
	"upload-refused-200":   {[]req{fileUp("beta-post", "shell.php")}, "200 instead of 400"},
	// combination
	"legacy-3.21": {[]req{g("/api/pages/nope"), g("/api/pages")}, "200 not found, no meta"},
	// benign
	"benign-extra-fields":           {[]req{g("/api/pages/alpha-post")}, "extraField"},
	"benign-key-order":              {[]req{g("/api/pages/alpha-post")}, "member order"},
	"benign-charset":                {[]req{g("/api/pages/alpha-post")}, "charset=utf-8"},
	"benign-escaped-slashes":        {[]req{g("/api/pages/alpha-post")}, `\/`},
	"benign-extra-headers":          {[]req{g("/api/pages/alpha-post")}, "X-Powered-By"},
	"benign-any-upload-extension":   {[]req{fileUp("beta-post", "shell.php")}, "200"},
	"benign-title-edit-keeps-key":   {[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed"})}, "key alpha-post"},
	"benign-all-reports-total":      {[]req{g("/api/pages", "numberOfItems", "-1")}, "pageSize 18"},
	"benign-default-page-size-10":   {[]req{g("/api/pages")}, "10 pages"},
	"benign-bad-paging-400":         {[]req{g("/api/pages", "numberOfItems", "abc")}, "400"},
	"benign-no-auto-schedule":       {[]req{js("POST", "/api/pages", map[string]any{"title": "F", "date": "2030-01-01 00:00:00"})}, "type published"},
	"benign-term-lists-all-types":   {[]req{g("/api/tags/internal")}, "draft listed"},
	"benign-files-missing-page-404": {[]req{g("/api/files/nope")}, "404"},
	"benign-traversal-early-body":   {[]req{g("/api/files/a..b")}, "no status"},
}

func runProbe(t *testing.T, s *Server, probe []req) []result {
	t.Helper()
	out := make([]result, len(probe))
	for i, q := range probe {
		out[i] = call(t, s, q)
	}
	return out
}

func TestEveryMutantChangesTheResponse(t *testing.T) {
	for _, m := range Mutants() {
		t.Run(m.Name, func(t *testing.T) {
			p, ok := mutantProbes[m.Name]
			if !ok {
				t.Fatal("no probe for this mutant")
			}
			baseRes := runProbe(t, newServer(t), p.probe)
			again := runProbe(t, newServer(t), p.probe)
			for i := range baseRes {
				if fingerprint(baseRes[i]) != fingerprint(again[i]) {
					t.Fatalf("probe %d is not deterministic on the unmutated server", i)
				}
			}
			mutRes := runProbe(t, newServer(t, m.Name), p.probe)
			for i := range baseRes {
				if fingerprint(baseRes[i]) != fingerprint(mutRes[i]) {
					return
				}
			}
			t.Errorf("the response did not change (expected: %s); mutant answered %d %s", p.what, mutRes[len(mutRes)-1].code, mutRes[len(mutRes)-1].body)
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
		mutant string
		q      req
		check  func(r result) bool
	}{
		{"403-instead-of-401", g("/api/nope"), func(r result) bool { return r.code == 403 }},
		{"text-html-on-errors", g("/api/pages/alpha-post"), func(r result) bool { return r.header.Get("Content-Type") == "application/json" }},
		{"no-cors-on-errors", g("/api/pages/alpha-post"), func(r result) bool { return r.header.Get("Access-Control-Allow-Origin") == "*" }},
		{"nocache-only-on-success", g("/api/nope"), func(r result) bool { return r.header.Get("Cache-Control") == "" }},
		{"nocache-only-with-auth", withAuth(g("/api/nope")), func(r result) bool { return r.header.Get("Cache-Control") != "" }},
		{"nocache-only-with-auth", withAuth(g("/api/pages")), func(r result) bool { return r.header.Get("Cache-Control") != "" }},
		{"nocache-only-with-auth", g("/api/users"), func(r result) bool { return r.header.Get("Pragma") == "" }},
		{"tags-as-string", g("/api/pages/alpha-post"), func(r result) bool { return r.data()["tags"] == "News,PHP Tips" }},
		{"date-display-format", g("/api/pages/alpha-post"), func(r result) bool {
			return r.data()["date"] == "January 18, 2025" && r.data()["dateRaw"] == "2025-01-18 10:00:00"
		}},
		{"double-encode-form", fm("POST", "/api/pages", "title", "A & B"), func(r result) bool { return r.data()["title"] == "A &amp;amp; B" }},
		{"double-encode-form", js("POST", "/api/pages", map[string]any{"title": "A & B"}), func(r result) bool { return r.data()["title"] == "A &amp; B" }},
		{"numberofitems-as-string", g("/api/pages"), func(r result) bool { return r.obj()["numberOfItems"] == "15" }},
		{"page-size-off-by-one", g("/api/pages"), func(r result) bool { return len(r.list()) == 14 && r.meta()["pageSize"] == float64(15) }},
		{"untagged-before-pagination", g("/api/pages", "untagged", "true"), func(r result) bool { return r.meta()["total"] == float64(publishedCount) }},
		{"meta-total-counts-untagged", g("/api/pages", "untagged", "true"), func(r result) bool { return r.meta()["total"] == float64(8) }},
		{"hasmore-wrong-on-last-page", g("/api/pages", "pageNumber", "3"), func(r result) bool { return r.meta()["hasMore"] == false }},
		{"user-leaks-email", g("/api/users/admin"), func(r result) bool { return r.data()["email"] == "ada@example.com" }},
		{"refused-write-applies", req{method: "POST", path: "/api/pages", json: map[string]any{"title": "Sneaky"}}, func(r result) bool { return r.code == 401 }},
		{"legacy-3.21", g("/api/pages/nope"), func(r result) bool { return r.code == 200 && r.obj()["status"] == "1" }},
		{"legacy-3.21", fm("POST", "/api/pages", "title", "Salt & Pepper"), func(r result) bool {
			return r.code == 200 && reflect.DeepEqual(r.data(), map[string]any{"key": "salt-amp-amp-pepper"})
		}},
		{"legacy-3.21", fm("PUT", "/api/pages/alpha-post", "title", "x"), func(r result) bool { return r.code == 400 }},
		{"legacy-3.21", g("/api/users"), func(r result) bool {
			return r.data()["guest-writer"].(map[string]any)["nickname"] == false && r.data()["admin"].(map[string]any)["vk"] != nil
		}},
	}
	for _, c := range cases {
		t.Run(c.mutant, func(t *testing.T) {
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
	for _, name := range []string{"benign-extra-fields", "benign-key-order", "benign-charset", "benign-escaped-slashes", "benign-extra-headers"} {
		t.Run(name, func(t *testing.T) {
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
