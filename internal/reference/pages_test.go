package reference

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const publishedCount = 18 // published pages in the fixtures

func TestPageListPagination(t *testing.T) {
	s := newServer(t)
	cases := []struct {
		name                     string
		params                   []string
		wantLen                  int
		numberOfItems            int
		total, pageNumber, pSize int
		hasMore                  bool
	}{
		{"defaults", nil, 15, 15, publishedCount, 1, 15, true},
		{"page 2", []string{"pageNumber", "2"}, 3, 15, publishedCount, 2, 15, false},
		{"past the end", []string{"pageNumber", "3"}, 0, 15, publishedCount, 3, 15, false},
		{"far past the end", []string{"pageNumber", "1000000"}, 0, 15, publishedCount, 1000000, 15, false},
		{"size 5 page 4", []string{"numberOfItems", "5", "pageNumber", "4"}, 3, 5, publishedCount, 4, 5, false},
		{"size 5 page 3", []string{"numberOfItems", "5", "pageNumber", "3"}, 5, 5, publishedCount, 3, 5, true},
		{"exact fit", []string{"numberOfItems", "9", "pageNumber", "2"}, 9, 9, publishedCount, 2, 9, false},
		{"all", []string{"numberOfItems", "-1"}, publishedCount, -1, publishedCount, 1, -1, false},
		{"all ignores pageNumber", []string{"numberOfItems", "-1", "pageNumber", "3"}, publishedCount, -1, publishedCount, 1, -1, false},
		{"zero size", []string{"numberOfItems", "0"}, 15, 15, publishedCount, 1, 15, true},
		{"negative size", []string{"numberOfItems", "-5"}, 15, 15, publishedCount, 1, 15, true},
		{"non-numeric size", []string{"numberOfItems", "abc"}, 15, 15, publishedCount, 1, 15, true},
		{"empty size", []string{"numberOfItems", ""}, 15, 15, publishedCount, 1, 15, true},
		{"decimal size", []string{"numberOfItems", "2.5"}, 2, 2, publishedCount, 1, 2, true},
		{"page 0", []string{"pageNumber", "0"}, 15, 15, publishedCount, 1, 15, true},
		{"page -1", []string{"pageNumber", "-1"}, 15, 15, publishedCount, 1, 15, true},
		{"non-numeric page", []string{"pageNumber", "x"}, 15, 15, publishedCount, 1, 15, true},
		{"big size", []string{"numberOfItems", "100"}, publishedCount, 100, publishedCount, 1, 100, false},
		{"static only", []string{"published", "false", "static", "true"}, 2, 15, 2, 1, 15, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := get(t, s, "/api/pages", c.params...)
			expectCode(t, r, 200)
			m := r.obj()
			if m["status"] != "0" || m["message"] != "List of pages" {
				t.Errorf("envelope %v %v", m["status"], m["message"])
			}
			if got := len(r.list()); got != c.wantLen {
				t.Errorf("len(data) = %d, want %d", got, c.wantLen)
			}
			if m["numberOfItems"] != float64(c.numberOfItems) {
				t.Errorf("numberOfItems = %v, want %d", m["numberOfItems"], c.numberOfItems)
			}
			want := map[string]any{"total": float64(c.total), "pageNumber": float64(c.pageNumber),
				"pageSize": float64(c.pSize), "hasMore": c.hasMore}
			if !reflect.DeepEqual(r.meta(), want) {
				t.Errorf("meta = %v, want %v", r.meta(), want)
			}
		})
	}
}

func TestPageListWalkAndOrder(t *testing.T) {
	s := newServer(t)
	all := keysOf(get(t, s, "/api/pages", "numberOfItems", "-1").list())
	var walked []string
	for pn := 1; ; pn++ {
		r := get(t, s, "/api/pages", "numberOfItems", "4", "pageNumber", itoa(pn))
		walked = append(walked, keysOf(r.list())...)
		if r.meta()["hasMore"] != true {
			break
		}
	}
	if !reflect.DeepEqual(all, walked) {
		t.Fatalf("walk %v\nall  %v", walked, all)
	}
	// Newest first.
	items := get(t, s, "/api/pages", "numberOfItems", "-1", "static", "true", "sticky", "true", "draft", "true", "scheduled", "true").list()
	if len(items) != 23 {
		t.Fatalf("%d pages of every type, want 23", len(items))
	}
	for i := 1; i < len(items); i++ {
		a, b := items[i-1].(map[string]any)["dateRaw"].(string), items[i].(map[string]any)["dateRaw"].(string)
		if a < b {
			t.Errorf("page %d (%s) is older than page %d (%s)", i-1, a, i, b)
		}
	}
	if keysOf(items)[0] != "future-launch" {
		t.Errorf("first page %s, want the scheduled page", keysOf(items)[0])
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestPageListTypeFilters(t *testing.T) {
	s := newServer(t)
	cases := []struct {
		name   string
		params []string
		want   []string // expected keys, nil: only check types
		types  []string
	}{
		{"default", nil, nil, []string{"published"}},
		{"static", []string{"published", "false", "static", "true"}, []string{"about", "contact"}, nil},
		{"sticky", []string{"published", "false", "sticky", "true"}, []string{"announcement"}, nil},
		{"draft", []string{"published", "false", "draft", "true"}, []string{"draft-notes"}, nil},
		{"scheduled", []string{"published", "false", "scheduled", "true"}, []string{"future-launch"}, nil},
		{"nothing", []string{"published", "false"}, []string{}, nil},
		{"TRUE is false", []string{"published", "false", "static", "TRUE"}, []string{}, nil},
		{"1 is false", []string{"published", "1"}, []string{}, nil},
		{"mixed", []string{"sticky", "true", "draft", "true"}, nil, []string{"published", "sticky", "draft"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			items := get(t, s, "/api/pages", append([]string{"numberOfItems", "-1"}, c.params...)...).list()
			if c.want != nil {
				got := keysOf(items)
				if got == nil {
					got = []string{}
				}
				if !reflect.DeepEqual(sorted(got), sorted(c.want)) {
					t.Errorf("keys %v, want %v", got, c.want)
				}
			}
			if c.types != nil {
				allowed := map[string]bool{}
				for _, ty := range c.types {
					allowed[ty] = true
				}
				seen := map[string]bool{}
				for _, it := range items {
					ty := it.(map[string]any)["type"].(string)
					seen[ty] = true
					if !allowed[ty] {
						t.Errorf("type %s in list", ty)
					}
				}
				if len(seen) != len(allowed) {
					t.Errorf("types seen %v, want %v", seen, c.types)
				}
			}
		})
	}
	// JSON booleans in a GET body count too.
	r := call(t, s, req{path: "/api/pages", json: map[string]any{"published": false, "static": true, "numberOfItems": -1}})
	if got := sorted(keysOf(r.list())); !reflect.DeepEqual(got, []string{"about", "contact"}) {
		t.Errorf("JSON body filters: %v", got)
	}
}

func TestPageListUntagged(t *testing.T) {
	s := newServer(t)
	page1 := get(t, s, "/api/pages").list()
	r := get(t, s, "/api/pages", "untagged", "true")
	var want []string
	for _, it := range page1 {
		if len(it.(map[string]any)["tags"].(map[string]any)) == 0 {
			want = append(want, it.(map[string]any)["key"].(string))
		}
	}
	if got := keysOf(r.list()); !reflect.DeepEqual(got, want) {
		t.Errorf("untagged page 1 = %v, want %v (filtered after pagination)", got, want)
	}
	if r.meta()["total"] != float64(publishedCount) || r.meta()["hasMore"] != true {
		t.Errorf("meta %v: total must ignore untagged", r.meta())
	}
	if len(want) >= 15 {
		t.Fatal("fixture problem: page 1 must hold tagged pages")
	}
}

var pageFields = []string{"key", "uuid", "title", "description", "type", "slug", "content", "contentRaw",
	"date", "dateRaw", "dateUTC", "tags", "username", "category", "permalink", "coverImage", "coverImageFilename"}

var dateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)

// checkPage checks the 17 fields of spec 2.1 and their types.
func checkPage(t *testing.T, p map[string]any) {
	t.Helper()
	if len(p) != len(pageFields) {
		t.Errorf("page has %d fields, want %d: %v", len(p), len(pageFields), p)
	}
	for _, f := range pageFields {
		v, ok := p[f]
		if !ok {
			t.Errorf("page lacks %s", f)
			continue
		}
		switch f {
		case "tags":
			tags, ok := v.(map[string]any)
			if !ok {
				t.Errorf("tags is %T", v)
			}
			for _, name := range tags {
				if _, ok := name.(string); !ok {
					t.Errorf("tag name %v is not a string", name)
				}
			}
		case "coverImage", "coverImageFilename":
			if _, ok := v.(string); !ok && v != false {
				t.Errorf("%s = %v", f, v)
			}
		default:
			if _, ok := v.(string); !ok {
				t.Errorf("%s is %T", f, v)
			}
		}
	}
	for _, f := range []string{"date", "dateRaw", "dateUTC"} {
		if s, _ := p[f].(string); !dateRe.MatchString(s) {
			t.Errorf("%s = %q", f, s)
		}
	}
	if !pageTypes[p["type"].(string)] {
		t.Errorf("type %v", p["type"])
	}
	key := p["key"].(string)
	if p["slug"] != lastSegment(key) || p["permalink"] != base+"/"+key {
		t.Errorf("slug %v, permalink %v for key %s", p["slug"], p["permalink"], key)
	}
	if !hex32.MatchString(p["uuid"].(string)) || len(p["uuid"].(string)) != 32 {
		t.Errorf("uuid %v", p["uuid"])
	}
}

func TestPageObject(t *testing.T) {
	s := newServer(t)
	for _, it := range get(t, s, "/api/pages", "numberOfItems", "-1", "static", "true", "sticky", "true", "draft", "true", "scheduled", "true").list() {
		checkPage(t, it.(map[string]any))
	}
	cases := []struct {
		key  string
		want map[string]any
	}{
		{"alpha-post", map[string]any{
			"title": "Alpha Post", "content": "<p>Alpha <strong>content</strong></p>", "contentRaw": "Alpha **content**",
			"tags": map[string]any{"news": "News", "php-tips": "PHP Tips"}, "category": "music",
			"coverImage":         base + "/bl-content/uploads/pages/d8e295478ae4f3752e22d625f6a013a9/alpha-cover.jpg",
			"coverImageFilename": "alpha-cover.jpg", "date": "2025-01-18 10:00:00", "dateUTC": "2025-01-18 10:00:00",
			"uuid": "d8e295478ae4f3752e22d625f6a013a9", "username": "admin"}},
		{"omicron-post", map[string]any{"coverImage": "https://images.example.com/covers/omicron.png", "coverImageFilename": "omicron.png"}},
		{"epsilon-post", map[string]any{"category": "", "tags": map[string]any{}, "coverImage": false, "coverImageFilename": false}},
		{"iota-post", map[string]any{"title": "Iota &amp; Friends"}},
		{"guides/getting-started", map[string]any{"slug": "getting-started", "permalink": base + "/guides/getting-started"}},
		{"café-ñandú-über", map[string]any{"title": "Café Ñandú über"}},
		{"draft-notes", map[string]any{"type": "draft"}},
		{"future-launch", map[string]any{"type": "scheduled", "date": "2099-06-01 10:00:00"}},
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			r := get(t, s, "/api/pages/"+c.key)
			expectCode(t, r, 200)
			p := r.data()
			checkPage(t, p)
			if p["key"] != c.key || r.obj()["message"] != "Page filtered by key: "+c.key {
				t.Errorf("key %v, message %v", p["key"], r.obj()["message"])
			}
			for k, v := range c.want {
				if !reflect.DeepEqual(p[k], v) {
					t.Errorf("%s = %#v, want %#v", k, p[k], v)
				}
			}
		})
	}
}

func TestGetPageKeys(t *testing.T) {
	s := newServer(t)
	cases := []struct {
		path string
		code int
	}{
		{"/api/pages/guides", 200},
		{"/api/pages/guides/getting-started", 200},
		{"/api/pages/guides/getting-started/extra", 404},
		{"/api/pages/guides/", 404},
		{"/api/pages/Alpha-Post", 404},
		{"/api/pages/caf%C3%A9-%C3%B1and%C3%BA-%C3%BCber", 200},
		{"/api/pages/a..b", 400},
		{"/api/pages/x%00", 400},
	}
	for _, c := range cases {
		r := get(t, s, c.path)
		if r.code != c.code {
			t.Errorf("GET %s: %d, want %d (%s)", c.path, r.code, c.code, r.body)
		}
	}
}

func TestCreatePage(t *testing.T) {
	s := newServer(t)
	r := sendJSON(t, s, "POST", "/api/pages", map[string]any{
		"title": "New Page", "content": "# Head\n\nSome **bold** text", "description": "desc",
		"tags": "PHP Tips, Fresh Tag ,, fresh tag", "category": "general", "type": "sticky",
		"date": "2024-05-06 07:08:09", "position": 3, "template": "t", "noindex": true, "coverImage": "c.png",
	})
	expectCode(t, r, 201)
	if r.obj()["message"] != "Page created." {
		t.Errorf("message %v", r.obj()["message"])
	}
	p := r.data()
	checkPage(t, p)
	want := map[string]any{
		"key": "new-page", "slug": "new-page", "title": "New Page", "description": "desc", "type": "sticky",
		"content": "<h1>Head</h1>\n<p>Some <strong>bold</strong> text</p>", "contentRaw": "# Head\n\nSome **bold** text",
		"tags": map[string]any{"php-tips": "PHP Tips", "fresh-tag": "fresh tag"}, "category": "general",
		"date": "2024-05-06 07:08:09", "dateRaw": "2024-05-06 07:08:09", "username": "admin",
		"coverImageFilename": "c.png",
	}
	for k, v := range want {
		if !reflect.DeepEqual(p[k], v) {
			t.Errorf("%s = %#v, want %#v", k, p[k], v)
		}
	}
	// The page reads back the same, and the new tag exists.
	if got := get(t, s, "/api/pages/new-page").data(); !reflect.DeepEqual(got, p) {
		t.Errorf("read back %v\nwant %v", got, p)
	}
	tag := get(t, s, "/api/tags/fresh-tag")
	expectCode(t, tag, 200)
	if l := tag.data()["list"]; !reflect.DeepEqual(l, []any{"new-page"}) {
		t.Errorf("fresh-tag list %v", l)
	}
	if l := get(t, s, "/api/tags/php-tips").data()["list"].([]any); len(l) != 3 {
		t.Errorf("php-tips list %v", l)
	}
}

func TestCreatePageKeys(t *testing.T) {
	s := newServer(t)
	runCreates(t, s, []createCase{
		{"from title", map[string]any{"title": "Alpha Post"}, "alpha-post-0"},
		{"second collision", map[string]any{"title": "Alpha Post"}, "alpha-post-1"},
		{"entities", map[string]any{"title": `Tom & Jerry <b>bold</b> "q"`}, "tom-amp-jerry-lt-b-gt-bold-lt-b-gt-quot-q-quot"},
		{"non-ASCII", map[string]any{"title": "Ünïcödé Straße"}, "ünïcödé-straße"},
		{"empty", map[string]any{}, "empty"},
		{"explicit slug", map[string]any{"title": "Whatever", "slug": "My Slug"}, "my-slug"},
		{"slug collision", map[string]any{"slug": "beta-post"}, "beta-post-0"},
		{"parent", map[string]any{"title": "Draft Child", "parent": "guides", "type": "draft"}, "guides/draft-child"},
		{"parent child collision", map[string]any{"title": "Getting Started", "parent": "guides"}, "guides/getting-started-0"},
		{"empty parent", map[string]any{"title": "Top", "parent": ""}, "top"},
		// The host's derivation (Pages::generateSlug, generateKey, Text::cleanUrl).
		{"slug of punctuation", map[string]any{"title": "x", "slug": "!!!"}, "empty-0"},
		{"slug of blanks", map[string]any{"title": "x", "slug": "  "}, "empty-1"},
		{"slug 0 is no slug", map[string]any{"title": "From Title", "slug": "0"}, "from-title"},
		{"slug kept whole", map[string]any{"slug": strings.Repeat("long-", 20) + "end"}, strings.Repeat("long-", 20) + "end"},
		{"title cut to 60", map[string]any{"title": strings.Repeat("Word ", 20)}, strings.TrimSuffix(strings.Repeat("word-", 12), "-")},
		{"no title: content", map[string]any{"content": "Some <b>bold</b>\nwords"}, "some-boldwords"},
		{"title 0: content", map[string]any{"title": "0", "content": "Zero"}, "zero"},
		{"non-ASCII punctuation kept", map[string]any{"title": "Rock’n’Roll"}, "rock’n’roll"},
	})
	if ty := get(t, s, "/api/pages/guides/draft-child").data()["type"]; ty != "draft" {
		t.Errorf("child type %v, want the type sent (draft)", ty)
	}
}

func TestCreatePageValidation(t *testing.T) {
	s := newServer(t)
	runCreates(t, s, []createCase{
		{"type", map[string]any{"title": "x", "type": "bogus"}, ""},
		{"category", map[string]any{"title": "x", "category": "no-such-category"}, ""},
		{"date", map[string]any{"title": "x", "date": "2024-13-45 99:00:00"}, ""},
		{"date format", map[string]any{"title": "x", "date": "January 10, 2025"}, ""},
		{"parent", map[string]any{"title": "x", "parent": "no-such-parent"}, ""},
		{"grandchild", map[string]any{"title": "x", "parent": "guides/getting-started"}, ""},
		{"parent traversal", map[string]any{"title": "x", "parent": "../guides"}, ""},
		{"position", map[string]any{"title": "x", "position": "first"}, ""},
		{"title array", map[string]any{"title": []any{"x"}}, ""},
		{"tags array", map[string]any{"title": "x", "tags": []any{"a"}}, ""},
	})
	if n := len(get(t, s, "/api/pages", "numberOfItems", "-1", "draft", "true", "static", "true", "sticky", "true", "scheduled", "true").list()); n != 23 {
		t.Errorf("%d pages after refused creates, want 23", n)
	}
}

func TestScheduling(t *testing.T) {
	s := newServer(t)
	r := sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Later", "date": "2030-01-01 00:00:00"})
	if r.data()["type"] != "scheduled" {
		t.Errorf("published with a future date: type %v, want scheduled", r.data()["type"])
	}
	r = sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Past", "type": "scheduled", "date": "2020-01-01 00:00:00"})
	if r.data()["type"] != "scheduled" {
		t.Errorf("scheduled with a past date: type %v, want scheduled", r.data()["type"])
	}
	s = newServer(t, BenignNoAutoSchedule)
	r = sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Later", "date": "2030-01-01 00:00:00"})
	if r.data()["type"] != "published" {
		t.Errorf("benign-no-auto-schedule: type %v", r.data()["type"])
	}
}

// Title and contentRaw are HTML-encoded exactly once, from JSON and from
// form bodies alike.
func TestSanitiseOnce(t *testing.T) {
	const title = `Salt & Pepper <i>x</i> "q"`
	const encoded = `Salt &amp; Pepper &lt;i&gt;x&lt;/i&gt; &quot;q&quot;`
	const content = `Tom & <b>Jerry</b> **bold** &amp;`
	for _, kind := range []string{"json", "form"} {
		t.Run(kind, func(t *testing.T) {
			s := newServer(t)
			var r result
			if kind == "json" {
				r = sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": title, "content": content, "description": "a & b"})
			} else {
				r = sendForm(t, s, "POST", "/api/pages", "title", title, "content", content, "description", "a & b")
			}
			expectCode(t, r, 201)
			p := get(t, s, "/api/pages/"+r.data()["key"].(string)).data()
			if p["title"] != encoded {
				t.Errorf("title %q, want %q", p["title"], encoded)
			}
			if p["key"] != "salt-amp-pepper-lt-i-gt-x-lt-i-gt-quot-q-quot" {
				t.Errorf("key %q", p["key"])
			}
			if p["contentRaw"] != `Tom &amp; &lt;b&gt;Jerry&lt;/b&gt; **bold** &amp;amp;` {
				t.Errorf("contentRaw %q", p["contentRaw"])
			}
			if p["content"] != `<p>Tom & <b>Jerry</b> <strong>bold</strong> &amp;</p>` {
				t.Errorf("content %q", p["content"])
			}
			if p["description"] != "a &amp; b" {
				t.Errorf("description %q", p["description"])
			}
			// An edit through a form encodes once too.
			r = sendForm(t, s, "PUT", "/api/pages/"+p["key"].(string), "title", "A & B")
			expectCode(t, r, 200)
			if r.data()["title"] != "A &amp; B" {
				t.Errorf("edited title %q", r.data()["title"])
			}
		})
	}
}

func TestEditPage(t *testing.T) {
	s := newServer(t)
	before := get(t, s, "/api/pages/beta-post").data()

	// Partial edit: only description changes.
	r := sendJSON(t, s, "PUT", "/api/pages/beta-post", map[string]any{"description": "changed"})
	expectCode(t, r, 200)
	if r.obj()["message"] != "Page edited." {
		t.Errorf("message %v", r.obj()["message"])
	}
	after := r.data()
	checkPage(t, after)
	for _, f := range pageFields {
		if f == "description" {
			continue
		}
		if !reflect.DeepEqual(before[f], after[f]) {
			t.Errorf("%s changed: %v -> %v", f, before[f], after[f])
		}
	}
	if after["description"] != "changed" {
		t.Errorf("description %v", after["description"])
	}

	// Changing fields.
	r = sendJSON(t, s, "PUT", "/api/pages/beta-post", map[string]any{
		"type": "static", "tags": "", "category": "", "date": "2023-03-03 03:03:03", "content": "*x*"})
	expectCode(t, r, 200)
	p := r.data()
	if p["type"] != "static" || len(p["tags"].(map[string]any)) != 0 || p["category"] != "" ||
		p["date"] != "2023-03-03 03:03:03" || p["content"] != "<p><em>x</em></p>" || p["key"] != "beta-post" {
		t.Errorf("edited page %v", p)
	}

	// Same title: the key stays.
	expectEditedKey(t, s, "/api/pages/beta-post", map[string]any{"title": "Beta Post"}, "beta-post")

	// Invalid values: 400, nothing changes.
	for _, body := range []map[string]any{{"type": "bogus"}, {"category": "nope"}, {"date": "x"}, {"parent": "nope"}, {"title": "Z", "type": "bogus"}} {
		r = sendJSON(t, s, "PUT", "/api/pages/beta-post", body)
		expectCode(t, r, 400)
		if r.obj()["status"] != "1" {
			t.Errorf("body %s", r.body)
		}
	}
	if got := get(t, s, "/api/pages/beta-post").data(); got["type"] != "static" || got["title"] != "Beta Post" {
		t.Errorf("refused edit changed the page: %v", got)
	}
	expectCode(t, sendJSON(t, s, "PUT", "/api/pages/nope", map[string]any{"title": "x"}), 404)
	expectCode(t, sendJSON(t, s, "PUT", "/api/pages/guides/nope", map[string]any{"title": "x"}), 404)
}

func TestEditRenameKeepsUUID(t *testing.T) {
	s := newServer(t)
	r := sendJSON(t, s, "PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Renamed"})
	expectCode(t, r, 200)
	p := r.data()
	if p["key"] != "alpha-renamed" || p["slug"] != "alpha-renamed" || p["uuid"] != "d8e295478ae4f3752e22d625f6a013a9" {
		t.Fatalf("renamed page %v", p)
	}
	expectCode(t, get(t, s, "/api/pages/alpha-post"), 404)
	expectCode(t, get(t, s, "/api/pages/alpha-renamed"), 200)
	// Files follow the page.
	if n := len(get(t, s, "/api/files/alpha-renamed").list()); n != 3 {
		t.Errorf("%d files after rename, want 3", n)
	}
	// Tag lists name the new key.
	if l := get(t, s, "/api/tags/news").data()["list"].([]any); !contains(l, "alpha-renamed") || contains(l, "alpha-post") {
		t.Errorf("news list %v", l)
	}
	// Renaming onto an existing slug gets a suffix.
	expectEditedKey(t, s, "/api/pages/alpha-renamed", map[string]any{"title": "Beta Post"}, "beta-post-0")
	// An explicit slug on edit.
	expectEditedKey(t, s, "/api/pages/beta-post-0", map[string]any{"slug": "chosen"}, "chosen")
	// benign-title-edit-keeps-key: a title-only edit keeps the key.
	s = newServer(t, BenignTitleEditKeepsKey)
	if k := sendJSON(t, s, "PUT", "/api/pages/alpha-post", map[string]any{"title": "Other"}).data()["key"]; k != "alpha-post" {
		t.Errorf("benign-title-edit-keeps-key: key %v", k)
	}
}

func contains(l []any, s string) bool {
	for _, v := range l {
		if v == s {
			return true
		}
	}
	return false
}

func TestHierarchicalWrites(t *testing.T) {
	s := newServer(t)
	// Edit a child by its full key: the child changes, not the parent.
	r := sendJSON(t, s, "PUT", "/api/pages/guides/getting-started", map[string]any{"description": "child edited"})
	expectCode(t, r, 200)
	if r.data()["key"] != "guides/getting-started" {
		t.Fatalf("edited %v", r.data()["key"])
	}
	if d := get(t, s, "/api/pages/guides").data()["description"]; d != "parent page" {
		t.Errorf("parent description %v", d)
	}
	// Renaming a child keeps its parent.
	expectEditedKey(t, s, "/api/pages/guides/getting-started", map[string]any{"title": "First Steps"}, "guides/first-steps")
	// Renaming the parent moves its children.
	expectEditedKey(t, s, "/api/pages/guides", map[string]any{"title": "Manuals"}, "manuals")
	for _, k := range []string{"manuals/first-steps", "manuals/advanced-topics"} {
		expectCode(t, get(t, s, "/api/pages/"+k), 200)
	}
	expectCode(t, get(t, s, "/api/pages/guides/advanced-topics"), 404)
	// Moving a page under a parent, and back to the top.
	expectEditedKey(t, s, "/api/pages/delta-post", map[string]any{"parent": "manuals"}, "manuals/delta-post")
	expectEditedKey(t, s, "/api/pages/manuals/delta-post", map[string]any{"parent": ""}, "delta-post")
	// A page with children cannot become a child; a page cannot be its own parent.
	expectCode(t, sendJSON(t, s, "PUT", "/api/pages/manuals", map[string]any{"parent": "alpha-post"}), 400)
	expectCode(t, sendJSON(t, s, "PUT", "/api/pages/alpha-post", map[string]any{"parent": "alpha-post"}), 400)
	// Deleting a child by its full key deletes the child only.
	expectCode(t, sendJSON(t, s, "DELETE", "/api/pages/manuals/first-steps", nil), 200)
	expectCode(t, get(t, s, "/api/pages/manuals"), 200)
	expectCode(t, get(t, s, "/api/pages/manuals/first-steps"), 404)
	// Deleting a parent promotes its children to the top level.
	expectCode(t, sendJSON(t, s, "DELETE", "/api/pages/manuals", nil), 200)
	expectCode(t, get(t, s, "/api/pages/advanced-topics"), 200)
}

func TestDeletePage(t *testing.T) {
	s := newServer(t)
	r := sendJSON(t, s, "DELETE", "/api/pages/zeta-post", nil)
	expectCode(t, r, 200)
	m := r.obj()
	if m["status"] != "0" || m["message"] != "Page deleted." {
		t.Errorf("body %s", r.body)
	}
	if _, has := m["data"]; has {
		t.Errorf("delete returned data: %s", r.body)
	}
	expectCode(t, get(t, s, "/api/pages/zeta-post"), 404)
	expectCode(t, sendJSON(t, s, "DELETE", "/api/pages/zeta-post", nil), 404)
	if l := get(t, s, "/api/tags/php-tips").data()["list"]; !reflect.DeepEqual(l, []any{"alpha-post"}) {
		t.Errorf("php-tips list %v", l)
	}
	// Deleting the last page of a tag removes the tag.
	expectCode(t, sendJSON(t, s, "DELETE", "/api/pages/alpha-post", nil), 200)
	expectCode(t, get(t, s, "/api/tags/php-tips"), 404)
	if n := len(get(t, s, "/api/files/alpha-post").list()); n != 0 {
		t.Errorf("%d files of a deleted page", n)
	}
	// Categories stay, with a shorter list.
	if l := get(t, s, "/api/categories/music").data()["list"]; !reflect.DeepEqual(l, []any{"theta-post", "omicron-post"}) {
		t.Errorf("music list %v", l)
	}
}

// expectEditedKey sends an edit and checks the key it answers.
func expectEditedKey(t *testing.T, s *Server, path string, body map[string]any, want string) {
	t.Helper()
	r := sendJSON(t, s, "PUT", path, body)
	if k := r.data()["key"]; k != want {
		t.Fatalf("PUT %s %v: key %v, want %s; %d %s", path, body, k, want, r.code, r.body)
	}
}

// createCase is a create and its outcome: the key of the page created, or
// "" when the create must be refused with 400 and a handler-error body.
type createCase struct {
	name string
	body map[string]any
	key  string
}

// runCreates sends the creates in order to s and checks each outcome.
func runCreates(t *testing.T, s *Server, cases []createCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := sendJSON(t, s, "POST", "/api/pages", c.body)
			if c.key == "" {
				expectCode(t, r, 400)
				if r.obj()["status"] != "1" {
					t.Errorf("body %s", r.body)
				}
				return
			}
			expectCode(t, r, 201)
			if got := r.data()["key"]; got != c.key {
				t.Fatalf("key %v, want %s", got, c.key)
			}
			expectCode(t, get(t, s, "/api/pages/"+c.key), 200)
		})
	}
}

// Tag names are stored as sent (the core does not encode them) and their
// keys derived from them as sent, from JSON and form bodies alike.
func TestTagNamesAndKeys(t *testing.T) {
	for _, kind := range []string{"json", "form"} {
		t.Run(kind, func(t *testing.T) {
			s := newServer(t)
			const tags = " a&b , <t>,&lt;x&gt;, ,!!!"
			var r result
			if kind == "json" {
				r = sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Tagged", "tags": tags})
			} else {
				r = sendForm(t, s, "POST", "/api/pages", "title", "Tagged", "tags", tags)
			}
			expectCode(t, r, 201)
			want := map[string]any{"a-b": "a&b", "t": "<t>", "lt-x-gt": "&lt;x&gt;"}
			if got := r.data()["tags"]; !reflect.DeepEqual(got, want) {
				t.Errorf("tags %v, want %v", got, want)
			}
			if n := get(t, s, "/api/tags/a-b").data()["name"]; n != "a&b" {
				t.Errorf("tag a-b name %v", n)
			}
		})
	}
}
