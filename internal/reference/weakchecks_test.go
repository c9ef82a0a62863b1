package reference

import (
	"reflect"
	"strings"
	"testing"
)

// The mutants for checks that were too weak (issue 12): the precise change
// of each, and what each leaves alone.
func TestWeakCheckMutants(t *testing.T) {
	keep := map[string]any{"title": "Alpha Post"} // an edit that changes nothing itself
	runSwitchCases(t, []switchCase{
		{EditBlanksOmittedContent, "content emptied, the rest kept; content sent is applied",
			[]req{js("PUT", "/api/pages/alpha-post", keep), js("PUT", "/api/pages/beta-post", map[string]any{"content": "new"})},
			func(rs []result) bool {
				a := rs[0].data()
				return a["contentRaw"] == "" && a["description"] == "alpha desc" && a["category"] == "music" &&
					rs[1].data()["contentRaw"] == "new"
			}},
		{EditBlanksOmittedDescription, "description emptied, content kept",
			[]req{js("PUT", "/api/pages/alpha-post", keep)},
			func(rs []result) bool {
				return rs[0].data()["description"] == "" && rs[0].data()["contentRaw"] == "Alpha **content**"
			}},
		{EditBlanksOmittedTags, "tags removed, category kept",
			[]req{js("PUT", "/api/pages/alpha-post", keep)},
			func(rs []result) bool {
				return reflect.DeepEqual(rs[0].data()["tags"], map[string]any{}) && rs[0].data()["category"] == "music"
			}},
		{EditBlanksOmittedCategory, "category removed, tags kept",
			[]req{js("PUT", "/api/pages/alpha-post", keep)},
			func(rs []result) bool {
				return rs[0].data()["category"] == "" && len(rs[0].data()["tags"].(map[string]any)) == 2
			}},
		{EditBlanksOmittedDate, "date set to the time of the edit",
			[]req{js("PUT", "/api/pages/alpha-post", keep)},
			func(rs []result) bool { return rs[0].data()["dateRaw"] == fixedNow.Format(dateLayout) }},
		{EditBlanksOmittedType, "a static page becomes published; a type sent is applied",
			[]req{js("PUT", "/api/pages/about", map[string]any{"title": "About"}),
				js("PUT", "/api/pages/contact", map[string]any{"type": "sticky"})},
			func(rs []result) bool { return rs[0].data()["type"] == "published" && rs[1].data()["type"] == "sticky" }},
		{EditBlanksOmittedCoverImage, "the cover image removed",
			[]req{js("PUT", "/api/pages/alpha-post", keep)},
			func(rs []result) bool {
				return rs[0].data()["coverImage"] == false && rs[0].data()["description"] == "alpha desc"
			}},

		{StatusOnOtherEarlyErrors, "status on every early error but GET /api/pages",
			[]req{{path: "/api/pages", noToken: true}, {path: "/api/pages", token: "wrong"}, {path: "/api/tags", noToken: true},
				g("/api/nope"), {method: "POST", path: "/api/pages", noToken: true}},
			func(rs []result) bool {
				_, a := rs[0].obj()["status"]
				_, b := rs[1].obj()["status"]
				return !a && !b && rs[2].obj()["status"] == "1" && rs[3].obj()["status"] == "1" && rs[4].obj()["status"] == "1"
			}},

		{FileUploadWithoutAuth, "an existing page takes uploads without or with a wrong token; a missing page still 401",
			[]req{noAuth(fileUp("beta-post", "a.txt")), withAuthValue(fileUp("beta-post", "b.txt"), "wrong"),
				noAuth(fileUp("nope", "a.txt")), {method: "POST", path: "/api/images", file: &filePart{"image", "a.png", []byte("x")}}},
			func(rs []result) bool {
				return rs[0].code == 200 && rs[1].code == 200 && rs[2].code == 401 && rs[3].code == 401
			}},

		{ChildrenShareParentUUID, "a child reports its parent's uuid; a top-level page its own",
			[]req{g("/api/pages/guides/getting-started"), g("/api/pages/guides"), g("/api/pages/alpha-post")},
			func(rs []result) bool {
				return rs[0].data()["uuid"] == rs[1].data()["uuid"] && rs[2].data()["uuid"] == "d8e295478ae4f3752e22d625f6a013a9"
			}},
		{CoverImageRelative, "a filename cover is a path; a URL cover is kept",
			[]req{g("/api/pages/alpha-post"), g("/api/pages/omicron-post")},
			func(rs []result) bool {
				return rs[0].data()["coverImage"] == "/bl-content/uploads/pages/d8e295478ae4f3752e22d625f6a013a9/alpha-cover.jpg" &&
					rs[0].data()["coverImageFilename"] == "alpha-cover.jpg" &&
					rs[1].data()["coverImage"] == "https://images.example.com/covers/omicron.png"
			}},

		{TagListMissesPage, "news leaves out mu-post (its oldest published page), in list and pages",
			[]req{g("/api/tags/news"), g("/api/tags")},
			func(rs []result) bool {
				d := rs[0].data()
				want := []any{"announcement", "alpha-post", "beta-post", "eta-post"}
				return reflect.DeepEqual(d["list"], want) && reflect.DeepEqual(anyStrings(keysOf(d["pages"].([]any))), want)
			}},
		{CategoryListMissesPage, "music leaves out omicron-post",
			[]req{g("/api/categories/music")},
			func(rs []result) bool {
				return reflect.DeepEqual(rs[0].data()["list"], []any{"alpha-post", "theta-post"})
			}},

		{UserListValueNotString, "list profiles carry pageCount, a number; the single profile does not",
			[]req{g("/api/users"), g("/api/users/admin")},
			func(rs []result) bool {
				admin, _ := rs[0].data()["admin"].(map[string]any)
				_, single := rs[1].data()["pageCount"]
				return admin["pageCount"] == float64(13) && !single
			}},
		{UserSingleValueNotString, "the single profile carries pageCount; list profiles do not",
			[]req{g("/api/users"), g("/api/users/editor")},
			func(rs []result) bool {
				editor, _ := rs[0].data()["editor"].(map[string]any)
				_, listed := editor["pageCount"]
				return rs[1].data()["pageCount"] == float64(8) && !listed
			}},

		{SettingsPutBlanksUnnamed, "footer emptied unless sent",
			[]req{js("PUT", "/api/settings", map[string]any{"title": "T"}), withAuth(g("/api/settings")),
				js("PUT", "/api/settings", map[string]any{"footer": "F"}), withAuth(g("/api/settings"))},
			func(rs []result) bool {
				return rs[1].data()["footer"] == "" && rs[1].data()["title"] == "T" && rs[3].data()["footer"] == "F"
			}},
		{SettingsNestedObject, "social is an object of the social links",
			[]req{withAuth(g("/api/settings"))},
			func(rs []result) bool {
				social, _ := rs[0].data()["social"].(map[string]any)
				return social["github"] == "https://github.com/conformance-suite" && rs[0].data()["title"] == "Conformance Test Site"
			}},
		{SettingsDataEmpty, "data is {}; an update still applies",
			[]req{js("PUT", "/api/settings", map[string]any{"slogan": "S"}), withAuth(g("/api/settings"))},
			func(rs []result) bool {
				d, ok := rs[1].obj()["data"].(map[string]any)
				return rs[0].code == 200 && ok && len(d) == 0
			}},
		{DoubleEncodeFormSettings, "a form PUT is encoded twice, a JSON PUT once",
			[]req{fm("PUT", "/api/settings", "slogan", "A & B"), withAuth(g("/api/settings")),
				js("PUT", "/api/settings", map[string]any{"slogan": "C & D"}), withAuth(g("/api/settings"))},
			func(rs []result) bool {
				return rs[1].data()["slogan"] == "A &amp;amp; B" && rs[3].data()["slogan"] == "C &amp; D"
			}},
	})
}

// A refused upload of FileUploadWithoutAuth's missing page stores nothing,
// and an accepted one is listed.
func TestFileUploadWithoutAuthStores(t *testing.T) {
	s := newServer(t, FileUploadWithoutAuth)
	expectCode(t, call(t, s, noAuth(fileUp("beta-post", "a.txt"))), 200)
	if l := get(t, s, "/api/files/beta-post").list(); len(l) != 1 || !strings.Contains(string(get(t, s, "/api/files/beta-post").body), "a-txt.txt") {
		t.Errorf("the upload without authentication is not listed: %v", l)
	}
}

func withAuthValue(q req, value string) req { q.auth, q.authValue = false, value; return q }
