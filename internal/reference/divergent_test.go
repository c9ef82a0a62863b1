package reference

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The variants of the divergent profile, each alone: the precise change,
// and what each leaves alone.
func TestDivergentVariants(t *testing.T) {
	runSwitchCases(t, []switchCase{
		{BenignContentRequired, "a create without content, or with blanks only, is refused and creates nothing",
			[]req{js("POST", "/api/pages", map[string]any{"title": "No Content"}),
				js("POST", "/api/pages", map[string]any{"title": "No Content", "content": "  "}),
				g("/api/pages/no-content")},
			func(rs []result) bool {
				return rs[0].code == 400 && rs[0].obj()["status"] == "1" && rs[1].code == 400 && rs[2].code == 404
			}},
		{BenignContentRequired, "a create with content, and an edit without it, work",
			[]req{js("POST", "/api/pages", map[string]any{"title": "With Content", "content": "x"}),
				js("PUT", "/api/pages/alpha-post", map[string]any{"description": "d"})},
			func(rs []result) bool { return rs[0].code == 201 && rs[1].code == 200 }},

		{BenignFrenchMessages, "a missing API token, a missing page",
			[]req{{path: "/api/pages", noToken: true}, g("/api/pages/nope"), g("/api/pages/alpha-post")},
			func(rs []result) bool {
				return rs[0].code == 400 && rs[0].obj()["message"] == "Clé manquante." &&
					rs[1].obj()["message"] == "Page introuvable." && rs[2].obj()["message"] == "Page filtrée par clé : alpha-post"
			}},

		{Benign405UnlistedMethod, "a known path with an unlisted method: 405, Allow, handler-error body",
			[]req{{method: "PATCH", path: "/api/pages", auth: true}, {method: "PUT", path: "/api/tags", auth: true},
				g("/api/images"), {method: "POST", path: "/api/pages/alpha-post", auth: true, json: map[string]any{"title": "x"}},
				{method: "DELETE", path: "/api/pages", auth: true}, {method: "PUT", path: "/api/pages", auth: true}},
			func(rs []result) bool {
				allow := []string{"GET, POST", "GET", "POST", "GET, PUT, DELETE", "GET, POST", "GET, POST"}
				for i, r := range rs {
					if r.code != 405 || r.obj()["status"] != "1" || r.header.Get("Allow") != allow[i] {
						return false
					}
				}
				return true
			}},
		{Benign405UnlistedMethod, "unknown paths still answer the 401 early error, a missing token 400",
			[]req{g("/api/nope"), g("/api/files"), {method: "POST", path: "/api/images/x", auth: true}, g("/api/settings/x"),
				{method: "PATCH", path: "/api/pages", noToken: true}},
			func(rs []result) bool {
				for _, r := range rs[:4] {
					if _, has := r.obj()["status"]; r.code != 401 || has {
						return false
					}
				}
				return rs[4].code == 400
			}},

		{BenignImageConverted, "an image for a page: stored as img-<hash>.webp, listed with the page's files, an answer without URLs",
			[]req{imageUp(alphaUUID, "My Photo.png"), g("/api/files/alpha-post"), imageUp("", "tiny.png")},
			func(rs []result) bool {
				_, image := rs[0].obj()["image"]
				rec, _ := rs[1].list()[0].(map[string]any)
				name, _ := rec["filename"].(string)
				return rs[0].code == 200 && rs[0].obj()["status"] == "0" && !image && len(rs[2].obj()) == 2 &&
					strings.HasPrefix(name, "img-") && strings.HasSuffix(name, ".webp") && rec["mime"] == "image/webp"
			}},

		{BenignDisplayDateShifted, "date is dateRaw two hours later, same form",
			[]req{g("/api/pages/alpha-post")},
			func(rs []result) bool {
				d := rs[0].data()
				return d["date"] == "2025-01-18 12:00:00" && d["dateRaw"] == "2025-01-18 10:00:00" && d["dateUTC"] == "2025-01-18 10:00:00"
			}},

		{BenignVolatilePageField, "readAt changes on every read, in single reads and lists",
			[]req{g("/api/pages/alpha-post"), g("/api/pages/alpha-post"), g("/api/pages")},
			func(rs []result) bool {
				a, b := rs[0].data()["readAt"], rs[1].data()["readAt"]
				first, _ := rs[2].list()[0].(map[string]any)
				return a != nil && b != nil && a != b && first["readAt"] != nil && first["readAt"] != b
			}},

		{BenignBadPaging422, "a non-numeric paging value answers 422, valid ones the list",
			[]req{g("/api/pages?numberOfItems=abc"), g("/api/pages?pageNumber=x"), g("/api/pages?numberOfItems=2")},
			func(rs []result) bool {
				return rs[0].code == 422 && rs[0].obj()["status"] == "1" && rs[1].code == 422 && len(rs[2].list()) == 2
			}},

		{BenignTypedSettings, "homepage is false while unset; a string or false is taken on update",
			[]req{withAuth(g("/api/settings")),
				js("PUT", "/api/settings", map[string]any{"homepage": "alpha-post"}), withAuth(g("/api/settings")),
				js("PUT", "/api/settings", map[string]any{"homepage": false}), withAuth(g("/api/settings"))},
			func(rs []result) bool {
				return rs[0].data()["homepage"] == false && rs[1].code == 200 && rs[2].data()["homepage"] == "alpha-post" &&
					rs[3].code == 200 && rs[4].data()["homepage"] == false && rs[4].data()["title"] == "Conformance Test Site"
			}},

		{BenignVolatileSettings, "lastReadAt and readCount change on every read; an update ignores them",
			[]req{withAuth(g("/api/settings")), js("PUT", "/api/settings", map[string]any{"readCount": 99, "lastReadAt": "x"}),
				withAuth(g("/api/settings"))},
			func(rs []result) bool {
				a, b := rs[0].data(), rs[2].data()
				return rs[1].code == 200 && a["readCount"] == float64(1) && b["readCount"] == float64(2) &&
					a["lastReadAt"] != nil && a["lastReadAt"] != b["lastReadAt"]
			}},
	})
}

// BenignReversedListOrder reverses the order within each slice of the page
// list, and keeps the slices: the same pages on each page number.
func TestReversedListOrder(t *testing.T) {
	plain, reversed := newServer(t), newServer(t, BenignReversedListOrder)
	for _, query := range []string{"?numberOfItems=5", "?numberOfItems=5&pageNumber=2", "?numberOfItems=-1", "?untagged=true&numberOfItems=5"} {
		want := keysOf(get(t, plain, "/api/pages"+query).list())
		slices.Reverse(want)
		r := get(t, reversed, "/api/pages"+query)
		if got := keysOf(r.list()); len(got) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", query, got, want)
		}
		if !reflect.DeepEqual(r.meta(), get(t, plain, "/api/pages"+query).meta()) {
			t.Errorf("%s: meta %v changed", query, r.meta())
		}
	}
}

// The divergent profile switches on every one of its variants, and only
// them; every profile names benign variants only; an unknown profile is
// refused.
func TestProfiles(t *testing.T) {
	ps := Profiles()
	if len(ps) != 2 || ps[0].Name != Divergent || len(ps[0].Variants) != 10 || ps[1].Name != Literal {
		t.Fatalf("profiles %v", ps)
	}
	benign := map[Mutant]bool{}
	for _, m := range Mutants() {
		benign[m.Name] = m.Benign
	}
	for _, p := range ps {
		for _, v := range p.Variants {
			if !benign[v] {
				t.Errorf("profile %s names %s, not a benign variant", p.Name, v)
			}
		}
	}
	ps[0].Variants[0] = "changed"
	if Profiles()[0].Variants[0] == "changed" {
		t.Error("Profiles() exposes the table")
	}
	s, err := New(Options{Token: testToken, AuthToken: testAuth, Profile: Divergent})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range Profiles()[0].Variants {
		if !s.mutated(v) {
			t.Errorf("the profile does not switch on %s", v)
		}
	}
	if s.mutated(BenignOtherMessages) || s.mutated(TagsAsString) {
		t.Error("the profile switches on more than its variants")
	}
	if r := call(t, s, req{method: "PATCH", path: "/api/pages"}); r.code != 405 || r.obj()["message"] != "Méthode non autorisée." {
		t.Errorf("PATCH under the profile: %d %s", r.code, r.body)
	}
	if _, err := New(Options{Token: "t", AuthToken: "a", Profile: "nope"}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown profile: %v", err)
	}
}

// A 405 of Benign405UnlistedMethod changes nothing, whatever the request
// carries.
func TestUnlistedMethodChangesNothing(t *testing.T) {
	s := newServer(t, Benign405UnlistedMethod)
	before := s.Storage()
	for _, q := range []req{
		{method: "POST", path: "/api/pages/alpha-post", auth: true, json: map[string]any{"title": "x", "description": "y"}},
		{method: "DELETE", path: "/api/pages", auth: true}, {method: "PUT", path: "/api/pages", auth: true},
		{method: "PATCH", path: "/api/settings", auth: true, json: map[string]any{"slogan": "x"}},
		{method: "PUT", path: "/api/files/alpha-post", auth: true, json: map[string]any{"x": "y"}},
	} {
		expectCode(t, call(t, s, q), 405)
	}
	if diff := before.Diff(s.Storage()); len(diff) != 0 {
		t.Errorf("a 405 changed what the server stores:\n%s", strings.Join(diff, "\n"))
	}
}
