package reference

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestTermLists(t *testing.T) {
	s := newServer(t)
	cases := []struct {
		endpoint string
		msg      string
		keys     []string
	}{
		{"tags", "List of tags.", []string{"music", "news", "php-tips", "tutorial"}}, // not internal: a draft's only
		{"categories", "List of categories.", []string{"archive", "general", "music", "tech-stuff"}},
	}
	for _, c := range cases {
		t.Run(c.endpoint, func(t *testing.T) {
			r := get(t, s, "/api/"+c.endpoint)
			expectCode(t, r, 200)
			if r.obj()["message"] != c.msg {
				t.Errorf("message %v", r.obj()["message"])
			}
			items := r.list()
			if got := keysOf(items); !reflect.DeepEqual(got, c.keys) {
				t.Errorf("keys %v, want %v", got, c.keys)
			}
			for _, it := range items {
				m := it.(map[string]any)
				for _, f := range []string{"key", "name", "description", "template"} {
					if _, ok := m[f].(string); !ok {
						t.Errorf("%v: %s is %T", m["key"], f, m[f])
					}
				}
				if _, ok := m["list"].([]any); !ok {
					t.Errorf("%v: list is %T", m["key"], m["list"])
				}
				if _, has := m["pages"]; has || len(m) != 5 {
					t.Errorf("%v: list item fields %v", m["key"], m)
				}
			}
		})
	}
}

func TestTermSingle(t *testing.T) {
	s := newServer(t)
	cases := []struct {
		path string
		list []string
	}{
		{"/api/tags/news", []string{"announcement", "alpha-post", "beta-post", "eta-post", "mu-post"}},
		{"/api/tags/tutorial", []string{"gamma-post", "eta-post", "kappa-post", "guides/getting-started"}},
		{"/api/categories/general", []string{"announcement", "beta-post", "delta-post", "café-ñandú-über", "mu-post", "contact"}},
		{"/api/categories/tech-stuff", []string{"gamma-post", "eta-post", "kappa-post", "guides/getting-started"}},
		{"/api/categories/archive", []string{}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := get(t, s, c.path)
			expectCode(t, r, 200)
			d := r.data()
			var list []string
			for _, k := range d["list"].([]any) {
				list = append(list, k.(string))
			}
			if list == nil {
				list = []string{}
			}
			if !reflect.DeepEqual(list, c.list) {
				t.Errorf("list %v, want %v", list, c.list)
			}
			pages := d["pages"].([]any)
			if got := keysOf(pages); !reflect.DeepEqual(got, keysOf(anyList(c.list))) {
				t.Errorf("pages %v, want %v", got, c.list)
			}
			for _, p := range pages {
				checkPage(t, p.(map[string]any))
			}
		})
	}
	// internal: carried by a draft only, so not in the host's tag index.
	for _, p := range []string{"/api/tags/nope", "/api/tags/internal", "/api/tags/News", "/api/tags/PHP%20Tips", "/api/categories/nope"} {
		r := get(t, s, p)
		expectCode(t, r, 404)
		if r.obj()["status"] != "1" {
			t.Errorf("%s: %s", p, r.body)
		}
	}
	// benign-term-lists-all-types lists drafts too, and indexes their tags.
	s = newServer(t, BenignTermListsAllTypes)
	expectCode(t, sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "D", "type": "draft", "tags": "Draft Only"}), 201)
	if l := get(t, s, "/api/tags/draft-only").data()["list"]; !reflect.DeepEqual(l, []any{"d"}) {
		t.Errorf("benign-term-lists-all-types: %v", l)
	}
	if l := get(t, s, "/api/tags/internal").data()["list"]; !reflect.DeepEqual(l, []any{"draft-notes"}) {
		t.Errorf("benign-term-lists-all-types, the seed's draft after a write: %v", l)
	}
}

func anyList(keys []string) []any {
	out := []any{}
	for _, k := range keys {
		out = append(out, map[string]any{"key": k})
	}
	return out
}

var (
	listFields   = []string{"username", "firstName", "lastName", "nickname", "description", "twitter", "facebook", "instagram", "github", "gitlab", "linkedin", "mastodon", "bluesky", "youtube", "profilePicture"}
	singleFields = append(append([]string(nil), listFields...), "codepen", "xing", "telegram", "vk")
)

func checkProfile(t *testing.T, p map[string]any, fields []string) {
	t.Helper()
	if len(p) != len(fields) {
		t.Errorf("profile has %d fields, want %d: %v", len(p), len(fields), p)
	}
	for _, f := range fields {
		if _, ok := p[f].(string); !ok {
			t.Errorf("%s is %T", f, p[f])
		}
	}
	for k, v := range p {
		lk := strings.ToLower(k)
		if strings.Contains(lk, "email") || strings.Contains(lk, "role") || strings.Contains(lk, "password") || strings.Contains(lk, "token") {
			t.Errorf("sensitive field %s", k)
		}
		if s, _ := v.(string); strings.Contains(s, "@example.") || strings.HasPrefix(s, "$2y$") || s == testAuth || s == testToken || s == editorAuth {
			t.Errorf("sensitive value in %s: %s", k, s)
		}
	}
}

func TestUsers(t *testing.T) {
	s := newServer(t)
	r := get(t, s, "/api/users")
	expectCode(t, r, 200)
	d := r.data()
	if len(d) != 3 {
		t.Fatalf("users %v", d)
	}
	for name, p := range d {
		pm := p.(map[string]any)
		checkProfile(t, pm, listFields)
		if pm["username"] != name {
			t.Errorf("key %s holds %v", name, pm["username"])
		}
	}
	for _, name := range []string{"admin", "editor", "guest-writer"} {
		r := get(t, s, "/api/users/"+name)
		expectCode(t, r, 200)
		checkProfile(t, r.data(), singleFields)
		if r.data()["username"] != name {
			t.Errorf("username %v", r.data()["username"])
		}
	}
	if p := get(t, s, "/api/users/guest-writer").data(); p["nickname"] != "" || p["telegram"] != "https://t.me/gwen" {
		t.Errorf("guest-writer %v", p)
	}
	r = get(t, s, "/api/users/nope")
	expectCode(t, r, 404)
	if r.obj()["status"] != "1" {
		t.Errorf("body %s", r.body)
	}
}

func TestSettings(t *testing.T) {
	s := newServer(t)
	r := call(t, s, req{path: "/api/settings", auth: true})
	expectCode(t, r, 200)
	before := r.data()
	for _, f := range []string{"title", "slogan", "description", "language", "locale", "timezone", "theme", "homepage", "uriPage", "uriBlog", "uriTag", "uriCategory", "customFields"} {
		if _, ok := before[f].(string); !ok {
			t.Errorf("%s is %T", f, before[f])
		}
	}
	if before["itemsPerPage"] != float64(6) || before["extremeFriendly"] != true {
		t.Errorf("typed settings %v %v", before["itemsPerPage"], before["extremeFriendly"])
	}

	// Partial update through JSON; unknown fields are ignored.
	r = call(t, s, req{method: "PUT", path: "/api/settings", auth: true,
		json: map[string]any{"slogan": "New & <Slogan>", "itemsPerPage": 12, "extremeFriendly": "false", "customFields": `{"a":1}`, "noSuchField": "x"}})
	expectCode(t, r, 200)
	if m := r.obj(); m["status"] != "0" || m["message"] != "Settings edited." || m["data"] != nil {
		t.Errorf("body %s", r.body)
	}
	after := call(t, s, req{path: "/api/settings", auth: true}).data()
	want := map[string]any{}
	for k, v := range before {
		want[k] = v
	}
	want["slogan"] = "New &amp; &lt;Slogan&gt;"
	want["itemsPerPage"] = float64(12)
	want["extremeFriendly"] = false
	want["customFields"] = "{&quot;a&quot;:1}" // host: Site::set encodes every value once
	if !reflect.DeepEqual(after, want) {
		t.Errorf("after PUT:\n%v\nwant\n%v", after, want)
	}

	// Form-encoded PUT works too.
	r = call(t, s, req{method: "PUT", path: "/api/settings", auth: true, form: map[string][]string{"title": {"Form Title"}, "itemsPerPage": {"7"}}})
	expectCode(t, r, 200)
	after = call(t, s, req{path: "/api/settings", auth: true}).data()
	if after["title"] != "Form Title" || after["itemsPerPage"] != float64(7) || after["uriBlog"] != "" {
		t.Errorf("after form PUT %v", after)
	}

	// Invalid values: 400 and nothing changes.
	for _, body := range []map[string]any{
		{"customFields": "{not json", "title": "Changed"},
		{"customFields": map[string]any{"a": 1}},
		{"title": []any{"x"}},
	} {
		r = call(t, s, req{method: "PUT", path: "/api/settings", auth: true, json: body})
		expectCode(t, r, 400)
		if r.obj()["status"] != "1" {
			t.Errorf("body %s", r.body)
		}
	}
	if now := call(t, s, req{path: "/api/settings", auth: true}).data(); !reflect.DeepEqual(now, after) {
		t.Errorf("refused PUT changed settings")
	}
}

// TestSettingsLikeHost: an update applies as the host's editSettings and
// Site::set do (shared/observations/host-settings-writes.md), and
// benign-settings-as-sent stores what it is sent.
func TestSettingsLikeHost(t *testing.T) {
	cases := []struct {
		name    string
		mutants []Mutant
		updates []map[string]any
		want    map[string]any
		refused bool // the last update answers 400
	}{
		{name: "a language the host has no file for becomes the locale, over the locale sent",
			updates: []map[string]any{{"language": "de", "locale": "de,de_DE"}}, want: map[string]any{"language": "de", "locale": "de"}},
		{name: "a language the host ships gives its file's locale",
			updates: []map[string]any{{"language": "de_DE", "locale": "x"}}, want: map[string]any{"locale": "de, de_DE"}},
		{name: "a locale sent after the language is kept",
			updates: []map[string]any{{"language": "de"}, {"locale": "de,de_DE"}}, want: map[string]any{"language": "de", "locale": "de,de_DE"}},
		{name: "a language sent unchanged keeps the locale sent",
			updates: []map[string]any{{"language": "en", "locale": "en_GB"}}, want: map[string]any{"locale": "en_GB"}},
		{name: "path prefixes get slashes",
			updates: []map[string]any{{"uriPage": "p", "uriTag": "/t", "uriCategory": "c//", "homepage": "home", "uriBlog": "b"}},
			want:    map[string]any{"uriPage": "/p/", "uriTag": "/t/", "uriCategory": "/c/", "uriBlog": "/b/"}},
		{name: "a homepage without a blog prefix gets /blog/",
			updates: []map[string]any{{"homepage": "home", "uriBlog": ""}}, want: map[string]any{"homepage": "home", "uriBlog": "/blog/"}},
		{name: "no homepage, no blog prefix",
			updates: []map[string]any{{"homepage": "home", "uriBlog": "/b/"}, {"homepage": ""}}, want: map[string]any{"homepage": "", "uriBlog": ""}},
		{name: "homepage and blog prefix are kept by an update without them",
			updates: []map[string]any{{"homepage": "a&b", "uriBlog": "/b/"}, {"title": "t"}}, want: map[string]any{"homepage": "a&amp;b", "uriBlog": "/b/"}},
		{name: "values are converted to the field's type",
			updates: []map[string]any{{"itemsPerPage": "12abc", "extremeFriendly": "maybe", "markdownParser": "false", "thumbnailWidth": "abc", "title": "true", "slogan": false}},
			want:    map[string]any{"itemsPerPage": float64(12), "extremeFriendly": true, "markdownParser": false, "thumbnailWidth": float64(0), "title": "1", "slogan": ""}},
		{name: "as sent: language and locale as sent", mutants: []Mutant{BenignSettingsAsSent},
			updates: []map[string]any{{"language": "de", "locale": "de,de_DE", "uriPage": "p"}}, want: map[string]any{"locale": "de,de_DE", "uriPage": "p"}},
		{name: "as sent: a value of the wrong type is refused", mutants: []Mutant{BenignSettingsAsSent},
			updates: []map[string]any{{"itemsPerPage": "abc"}}, refused: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, tc.mutants...)
			for i, u := range tc.updates {
				r := call(t, s, req{method: "PUT", path: "/api/settings", auth: true, json: u})
				if tc.refused && i == len(tc.updates)-1 {
					expectCode(t, r, 400)
					return
				}
				expectCode(t, r, 200)
			}
			got := call(t, s, req{path: "/api/settings", auth: true}).data()
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %#v, want %#v", k, got[k], v)
				}
			}
		})
	}
}

func TestFilesList(t *testing.T) {
	s := newServer(t)
	r := get(t, s, "/api/files/alpha-post")
	expectCode(t, r, 200)
	if r.obj()["message"] != "Files for the page key: alpha-post" {
		t.Errorf("message %v", r.obj()["message"])
	}
	items := r.list()
	var names []string
	for _, it := range items {
		m := it.(map[string]any)
		names = append(names, m["filename"].(string))
		if len(m) != 5 {
			t.Errorf("record %v", m)
		}
		for _, f := range []string{"file", "filename", "mime", "thumbnail"} {
			if _, ok := m[f].(string); !ok {
				t.Errorf("%s is %T", f, m[f])
			}
		}
		if sz, ok := m["size"].(float64); !ok || sz != float64(int64(sz)) {
			t.Errorf("size %v", m["size"])
		}
	}
	if !reflect.DeepEqual(names, []string{"tiny.png", "notes-txt.txt", "alpha-cover.jpg"}) {
		t.Errorf("files %v, want newest first", names)
	}
	if th := items[1].(map[string]any)["thumbnail"]; th != "" {
		t.Errorf("thumbnail of a text file %v", th)
	}
	for _, p := range []string{"/api/files/beta-post", "/api/files/no-such-page"} {
		r := get(t, s, p)
		expectCode(t, r, 200)
		if l := r.list(); l == nil || len(l) != 0 {
			t.Errorf("%s: %s", p, r.body)
		}
	}
	for _, p := range []string{"/api/files/..", "/api/files/a..b", "/api/files/%2e%2e", "/api/files/x%00y", "/api/files/alpha-post/../x", "/api/files/%2E%2E%2Fetc"} {
		r := get(t, s, p)
		expectCode(t, r, 400)
		if r.obj()["status"] != "1" || r.obj()["message"] != "Invalid page key." {
			t.Errorf("%s: %s", p, r.body)
		}
	}
	if r := get(t, newServer(t, BenignFilesMissingPage404), "/api/files/no-such-page"); r.code != 404 {
		t.Errorf("benign-files-missing-page-404: %d", r.code)
	}
}

func TestFileUpload(t *testing.T) {
	s := newServer(t)
	up := func(key, name, data string) result {
		return call(t, s, req{method: "POST", path: "/api/files/" + key, auth: true, file: &filePart{"file", name, []byte(data)}})
	}
	r := up("beta-post", "test.txt", "hello world\n")
	expectCode(t, r, 200)
	want := map[string]any{"status": "0", "message": "File uploaded.", "filename": "test-txt.txt",
		"absolutePath": serverRoot + "/bl-content/uploads/pages/0b7a41e5d3c94a2f8e6d1c0b9a8f7e61/test-txt.txt",
		"absoluteURL":  base + "/bl-content/uploads/pages/0b7a41e5d3c94a2f8e6d1c0b9a8f7e61/test-txt.txt"}
	if !reflect.DeepEqual(r.obj(), want) {
		t.Errorf("upload body %s", r.body)
	}
	// Uploads in the same second still list newest first; a name the page
	// has is overwritten, as on the host (no _0 for files); punctuation
	// runs become '-', nothing trimmed, other characters kept.
	expectCode(t, up("beta-post", "second.pdf", "%PDF"), 200)
	expectCode(t, up("beta-post", "(Été) v2.TXT", "hi"), 200)
	items := get(t, s, "/api/files/beta-post").list()
	var names []string
	for _, it := range items {
		names = append(names, it.(map[string]any)["filename"].(string))
	}
	if !reflect.DeepEqual(names, []string{"-Été-v2-TXT.txt", "second-pdf.pdf", "test-txt.txt"}) {
		t.Errorf("files %v", names)
	}
	if m := items[2].(map[string]any); m["size"] != float64(12) || m["mime"] != "text/plain" {
		t.Errorf("record %v", m)
	}
	expectCode(t, up("beta-post", "test.txt", "again"), 200)
	items = get(t, s, "/api/files/beta-post").list()
	if m := items[0].(map[string]any); len(items) != 3 || m["filename"] != "test-txt.txt" || m["size"] != float64(5) {
		t.Errorf("overwritten upload: %v", items)
	}
	// Child pages by full key.
	expectCode(t, up("guides/getting-started", "c.md", "# c"), 200)
	if n := len(get(t, s, "/api/files/guides/getting-started").list()); n != 1 {
		t.Errorf("child files %d", n)
	}
	if n := len(get(t, s, "/api/files/guides").list()); n != 0 {
		t.Errorf("parent files %d", n)
	}

	cases := []struct {
		name, key, file string
		field           string
		code            int
	}{
		{"php", "beta-post", "shell.php", "file", 400},
		{"dotfile", "beta-post", ".hidden.txt", "file", 400},
		{"no extension", "beta-post", "README", "file", 400},
		{"missing page", "no-such-page", "a.txt", "file", 404},
		{"traversal", "a..b", "a.txt", "file", 400},
		{"wrong part", "beta-post", "a.txt", "image", 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := call(t, s, req{method: "POST", path: "/api/files/" + c.key, auth: true, file: &filePart{c.field, c.file, []byte("x")}})
			expectCode(t, r, c.code)
			if r.obj()["status"] != "1" {
				t.Errorf("body %s", r.body)
			}
		})
	}
	if n := len(get(t, s, "/api/files/beta-post").list()); n != 3 {
		t.Errorf("refused uploads were listed: %d files", n)
	}
}

func TestImageUpload(t *testing.T) {
	s := newServer(t)
	img := func(name string, fields map[string]string) result {
		return call(t, s, req{method: "POST", path: "/api/images", auth: true, fields: fields, file: &filePart{"image", name, []byte("PNGDATA")}})
	}
	r := img("tiny.png", nil)
	expectCode(t, r, 200)
	want := map[string]any{"status": "0", "message": "Image uploaded.",
		"image": base + "/bl-content/uploads/tiny.png", "thumbnail": base + "/bl-content/uploads/thumbnails/tiny.png"}
	if !reflect.DeepEqual(r.obj(), want) {
		t.Errorf("body %s", r.body)
	}
	if got := img("tiny.png", nil).obj()["image"]; got != base+"/bl-content/uploads/tiny_0.png" {
		t.Errorf("second image %v", got)
	}
	uuid := "5a2f96dac81e9f7d3d1c6b5a4f3e2db6" // eta-post
	r = img("My Photo.JPG", map[string]string{"uuid": uuid})
	expectCode(t, r, 200)
	if got := r.obj()["image"]; got != base+"/bl-content/uploads/pages/"+uuid+"/My-Photo.jpg" {
		t.Errorf("page image %v", got)
	}
	items := get(t, s, "/api/files/eta-post").list()
	if len(items) != 1 {
		t.Fatalf("eta-post files %v", items)
	}
	if m := items[0].(map[string]any); m["filename"] != "My-Photo.jpg" || m["mime"] != "image/jpeg" || m["size"] != float64(7) ||
		!strings.HasSuffix(m["thumbnail"].(string), "/thumbnails/My-Photo.jpg") {
		t.Errorf("record %v", m)
	}
	for _, c := range []struct {
		name   string
		q      req
		status int
	}{
		{"txt", req{file: &filePart{"image", "a.txt", []byte("x")}}, 400},
		{"php", req{file: &filePart{"image", "a.php", []byte("x")}}, 400},
		{"no image part", req{file: &filePart{"file", "a.png", []byte("x")}}, 400},
		{"bad uuid", req{file: &filePart{"image", "a.png", []byte("x")}, fields: map[string]string{"uuid": "../x"}}, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := c.q
			q.method, q.path, q.auth = "POST", "/api/images", true
			r := call(t, s, q)
			expectCode(t, r, c.status)
			if r.obj()["status"] != "1" {
				t.Errorf("body %s", r.body)
			}
		})
	}
}

func TestDateUTC(t *testing.T) {
	s := newServer(t)
	expectCode(t, call(t, s, req{method: "PUT", path: "/api/settings", auth: true, json: map[string]any{"timezone": "Etc/GMT-2"}}), 200)
	if _, err := time.LoadLocation("Etc/GMT-2"); err != nil {
		t.Skip("no timezone database")
	}
	p := get(t, s, "/api/pages/alpha-post").data()
	if p["dateRaw"] != "2025-01-18 10:00:00" || p["dateUTC"] != "2025-01-18 08:00:00" {
		t.Errorf("dateRaw %v dateUTC %v", p["dateRaw"], p["dateUTC"])
	}
}
