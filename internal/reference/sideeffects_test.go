package reference

import "testing"

// The refused and colliding page writes of pagewrites.go: unmutated, a
// refused write changes nothing and a taken slug gets -0; each mutant does
// exactly the harm it names, and the benign refusal of a taken slug
// changes nothing.
func TestRefusedAndCollidingWrites(t *testing.T) {
	for _, c := range []struct {
		mutant Mutant // "" unmutated
		name   string
		probe  []req
		check  func(rs []result) bool
	}{
		{"", "a create refused for its type leaves no page",
			[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "kept", "type": "bogus"}), g("/api/pages/kept")},
			func(rs []result) bool { return rs[0].code == 400 && rs[1].code == 404 }},
		{"", "an edit refused for its type changes nothing",
			[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "bogus", "description": "applied"}), g("/api/pages/alpha-post")},
			func(rs []result) bool { return rs[0].code == 400 && rs[1].data()["description"] == "alpha desc" }},
		{"", "an edit of a missing key leaves no page there",
			[]req{js("PUT", "/api/pages/nope", map[string]any{"description": "x"}), g("/api/pages/nope")},
			func(rs []result) bool { return rs[0].code == 404 && rs[1].code == 404 }},
		{"", "a taken slug gets -0, the other page kept",
			[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "alpha-post", "content": "taken"}), g("/api/pages/alpha-post")},
			func(rs []result) bool {
				return rs[0].code == 201 && rs[0].data()["key"] == "alpha-post-0" && rs[1].data()["title"] == "Alpha Post" &&
					rs[1].data()["contentRaw"] != "taken"
			}},

		{CreateRefusedPageKept, "the page is saved with the default type, and the create still answers 400",
			[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "kept", "type": "bogus", "description": "d"}), g("/api/pages/kept")},
			func(rs []result) bool {
				return rs[0].code == 400 && rs[1].code == 200 && rs[1].data()["type"] == "published" && rs[1].data()["description"] == "d"
			}},
		{CreateRefusedPageKept, "a create refused for another field saves nothing",
			[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "kept", "date": "tomorrow"}), g("/api/pages/kept")},
			func(rs []result) bool { return rs[0].code == 400 && rs[1].code == 404 }},
		{EditRefusedAppliesFields, "the fields checked before the type stay, the type does not",
			[]req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "bogus", "description": "applied", "title": "New"}), g("/api/pages/alpha-post")},
			func(rs []result) bool {
				d := rs[1].data()
				return rs[0].code == 400 && d["description"] == "applied" && d["title"] == "New" && d["type"] == "published" && d["key"] == "alpha-post"
			}},
		{EditMissingStoresPage, "a draft with the fields sent, and still 404",
			[]req{js("PUT", "/api/pages/nope", map[string]any{"description": "x"}), g("/api/pages/nope")},
			func(rs []result) bool {
				return rs[0].code == 404 && rs[1].code == 200 && rs[1].data()["type"] == "draft" && rs[1].data()["description"] == "x"
			}},
		{EditMissingStoresPage, "a missing child key stores nothing",
			[]req{js("PUT", "/api/pages/guides/nope", map[string]any{"description": "x"}), g("/api/pages/guides/nope")},
			func(rs []result) bool { return rs[0].code == 404 && rs[1].code == 404 }},
		{CreateTakenKeyOverwrites, "the new page replaces the other under its key",
			[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "alpha-post"}), g("/api/pages/alpha-post"), g("/api/pages/alpha-post-0")},
			func(rs []result) bool {
				return rs[0].code == 201 && rs[0].data()["key"] == "alpha-post" && rs[1].data()["title"] == "N" && rs[2].code == 404
			}},
		{CreateTakenKeyContentToOther, "the new page gets -0, the other page its content",
			[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "alpha-post", "content": "taken"}), g("/api/pages/alpha-post")},
			func(rs []result) bool {
				d := rs[1].data()
				return rs[0].data()["key"] == "alpha-post-0" && d["contentRaw"] == "taken" && d["title"] == "Alpha Post"
			}},
		{CreateTakenKeyContentToOther, "a slug no page has changes no other page",
			[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "free", "content": "mine"}), g("/api/pages/alpha-post")},
			func(rs []result) bool { return rs[0].data()["key"] == "free" && rs[1].data()["contentRaw"] != "mine" }},
		{BenignTakenSlugRefused, "a taken slug sent is refused and changes nothing",
			[]req{js("POST", "/api/pages", map[string]any{"title": "N", "slug": "alpha-post"}), g("/api/pages/alpha-post"), g("/api/pages/alpha-post-0")},
			func(rs []result) bool {
				return rs[0].code == 400 && rs[0].obj()["status"] == "1" && rs[1].data()["title"] == "Alpha Post" && rs[2].code == 404
			}},
		{BenignTakenSlugRefused, "a slug derived from a taken title is still made unique",
			[]req{js("POST", "/api/pages", map[string]any{"title": "Alpha Post"})},
			func(rs []result) bool { return rs[0].code == 201 && rs[0].data()["key"] == "alpha-post-0" }},
	} {
		t.Run(string(c.mutant)+" "+c.name, func(t *testing.T) {
			var s *Server
			if c.mutant == "" {
				s = newServer(t)
			} else {
				s = newServer(t, c.mutant)
			}
			if rs := runProbe(t, s, c.probe); !c.check(rs) {
				for i, r := range rs {
					t.Logf("%s %s: %d %s", c.probe[i].method, c.probe[i].path, r.code, r.body)
				}
				t.Error("not as described")
			}
		})
	}
}
