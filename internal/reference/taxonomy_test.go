package reference

import (
	"reflect"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/fixtures"
)

// newSeededServer is newServer with the seed changed by seed first.
func newSeededServer(t *testing.T, seed func(*fixtures.Seed), mutants ...Mutant) *Server {
	t.Helper()
	opts := Options{Token: testToken, AuthToken: testAuth, Mutants: mutants, Now: func() time.Time { return fixedNow }, Seed: seed}
	if *inFiles {
		opts.StorageDir, opts.StorageWorkTime, opts.StorageChunkPause = t.TempDir(), -1, -1
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tagNames returns what GET /api/tags gives: key -> name, and key ->
// description.
func tagNames(t *testing.T, s *Server) (names, descriptions map[string]any) {
	t.Helper()
	names, descriptions = map[string]any{}, map[string]any{}
	for _, it := range get(t, s, "/api/tags").list() {
		m := it.(map[string]any)
		names[m["key"].(string)], descriptions[m["key"].(string)] = m["name"], m["description"]
	}
	return names, descriptions
}

// Like the host (Tags::reindex), a tag exists only while a published,
// static or sticky page carries it: a draft's or a scheduled page's tag
// of its own does not, and a tag goes when its last such page becomes a
// draft. benign-tags-of-any-page keeps a tag while any page carries it.
func TestTagsOfIndexedPagesOnly(t *testing.T) {
	for _, c := range []struct {
		mutants []Mutant
		exists  bool // a tag only a draft or scheduled page carries
	}{{nil, false}, {[]Mutant{BenignTagsOfAnyPage}, true}, {[]Mutant{BenignTermListsAllTypes}, true}} {
		s := newServer(t, c.mutants...)
		want := 404
		if c.exists {
			want = 200
		}
		expectCode(t, sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Dr", "type": "draft", "tags": "Only Draft"}), 201)
		expectCode(t, get(t, s, "/api/tags/only-draft"), want)
		expectCode(t, sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Sc", "date": "2099-01-01 00:00:00", "tags": "Only Later"}), 201)
		expectCode(t, get(t, s, "/api/tags/only-later"), want)
		// Published, the tag exists; a draft again, it goes (or stays).
		expectCode(t, sendJSON(t, s, "PUT", "/api/pages/dr", map[string]any{"type": "published"}), 200)
		if l := get(t, s, "/api/tags/only-draft").data()["list"]; !reflect.DeepEqual(l, []any{"dr"}) {
			t.Errorf("%v: published page's tag lists %v", c.mutants, l)
		}
		expectCode(t, sendJSON(t, s, "PUT", "/api/pages/dr", map[string]any{"type": "draft"}), 200)
		expectCode(t, get(t, s, "/api/tags/only-draft"), want)
		names, _ := tagNames(t, s)
		if _, listed := names["only-draft"]; listed != c.exists {
			t.Errorf("%v: GET /api/tags lists only-draft: %v", c.mutants, listed)
		}
	}
}

// Like the host, every page write rebuilds the tag index, which keeps no
// description or template: a seeded one is gone after the first page
// write, whichever page it touches. benign-tags-of-any-page keeps them.
func TestTagDescriptionsLostOnPageWrite(t *testing.T) {
	seed := func(sd *fixtures.Seed) {
		for i := range sd.Tags {
			if sd.Tags[i].Key == "news" {
				sd.Tags[i].Description, sd.Tags[i].Template = "Site news.", "news-tpl"
			}
		}
	}
	for _, c := range []struct {
		mutants []Mutant
		after   string
	}{{nil, ""}, {[]Mutant{BenignTagsOfAnyPage}, "Site news."}} {
		s := newSeededServer(t, seed, c.mutants...)
		if d := get(t, s, "/api/tags/news").data(); d["description"] != "Site news." || d["template"] != "news-tpl" {
			t.Fatalf("seeded description and template not shown: %v", d)
		}
		expectCode(t, sendJSON(t, s, "PUT", "/api/pages/delta-post", map[string]any{"description": "untagged page"}), 200)
		d := get(t, s, "/api/tags/news").data()
		if d["description"] != c.after {
			t.Errorf("%v: description after a page write %q, want %q", c.mutants, d["description"], c.after)
		}
		if _, descriptions := tagNames(t, s); descriptions["news"] != c.after {
			t.Errorf("%v: GET /api/tags description %q, want %q", c.mutants, descriptions["news"], c.after)
		}
	}
}

// Like the host, each page shows the name it stored for a tag, and the
// tag index has one name per key: the newest indexed page's.
// benign-tags-of-any-page has one name, the first given, everywhere.
func TestTagNamesPerPage(t *testing.T) {
	for _, c := range []struct {
		mutants          []Mutant
		old, new, shared string
	}{{nil, "Foo Bar", "foo bar", "foo bar"}, {[]Mutant{BenignTagsOfAnyPage}, "Foo Bar", "Foo Bar", "Foo Bar"}} {
		s := newServer(t, c.mutants...)
		expectCode(t, sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Old", "date": "2025-02-01 00:00:00", "tags": "Foo Bar"}), 201)
		expectCode(t, sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "New", "date": "2025-02-02 00:00:00", "tags": "foo bar"}), 201)
		for key, want := range map[string]string{"old": c.old, "new": c.new} {
			if tags := get(t, s, "/api/pages/"+key).data()["tags"]; !reflect.DeepEqual(tags, map[string]any{"foo-bar": want}) {
				t.Errorf("%v: %s shows tags %v, want foo-bar: %s", c.mutants, key, tags, want)
			}
		}
		if n := get(t, s, "/api/tags/foo-bar").data()["name"]; n != c.shared {
			t.Errorf("%v: tag name %v, want %s", c.mutants, n, c.shared)
		}
		if names, _ := tagNames(t, s); names["foo-bar"] != c.shared {
			t.Errorf("%v: GET /api/tags name %v, want %s", c.mutants, names["foo-bar"], c.shared)
		}
	}
}

// Like the host (Categories::reindex), categories exist on their own: a
// category without pages, or with drafts only, stays.
func TestCategoriesExistOnTheirOwn(t *testing.T) {
	s := newServer(t)
	expectCode(t, sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "In Archive", "type": "draft", "category": "archive"}), 201)
	d := get(t, s, "/api/categories/archive").data()
	if d == nil || !reflect.DeepEqual(d["list"], []any{}) || d["description"] != "A category without pages." {
		t.Errorf("archive after a draft joined it: %v", d)
	}
}

// Like the host (Page::permalink), a permalink is the base URL, the
// uriPage setting and the full key.
func TestPermalinkFollowsURIPage(t *testing.T) {
	s := newServer(t)
	permalink := func(key string) any { return get(t, s, "/api/pages/"+key).data()["permalink"] }
	for _, c := range []struct {
		uriPage, prefix string
	}{{"/article/", "/article/"}, {"a/b", "/a/b/"}, {"/", "/"}, {"", "/"}} {
		expectCode(t, sendJSON(t, s, "PUT", "/api/settings", map[string]any{"uriPage": c.uriPage}), 200)
		for _, key := range []string{"alpha-post", "guides/getting-started"} {
			if got, want := permalink(key), base+c.prefix+key; got != want {
				t.Errorf("uriPage %q: permalink %v, want %s", c.uriPage, got, want)
			}
		}
	}
	// The literal profile stores uriPage without slashes; the permalink
	// has them all the same.
	s = newServer(t, BenignSettingsAsSent)
	expectCode(t, sendJSON(t, s, "PUT", "/api/settings", map[string]any{"uriPage": "p"}), 200)
	if got := permalink("alpha-post"); got != base+"/p/alpha-post" {
		t.Errorf("uriPage p as sent: permalink %v", got)
	}
	s = newServer(t, RelativePermalink)
	expectCode(t, sendJSON(t, s, "PUT", "/api/settings", map[string]any{"uriPage": "/p/"}), 200)
	if got := permalink("alpha-post"); got != "/p/alpha-post" {
		t.Errorf("relative-permalink: %v", got)
	}
}
