package reference

import (
	"maps"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/coverage"
)

// writeProbe is the probe of the mutant of the write cell of kind on view
// (cellProbe's for the write section): a write of that kind to the
// fixture, then a read of the view.
func writeProbe(kind string, view coverage.Way) []req {
	// A published page in music with the tag news: it shows in every view.
	created := map[string]any{"title": "Probe", "type": "published", "slug": "probe-page", "tags": "news", "category": "music"}
	values := map[string]any{"title": "Probe Title", "description": "probe", "content": "probe content", "date": "2001-02-03 04:05:06",
		"coverImage": "probe.png", "tags": "news, probe", "category": "general", "type": "draft", "slug": "probe-page"}
	key, old, tag := "alpha-post", "alpha-post", "news"
	var write []req
	if field, ok := strings.CutPrefix(kind, "create-"); ok {
		body := maps.Clone(created)
		if _, set := body[field]; !set {
			body[field] = values[field]
		}
		write, key = []req{js("POST", "/api/pages", body)}, "probe-page"
	} else if field, ok := strings.CutPrefix(kind, "edit-"); ok {
		write = []req{js("PUT", "/api/pages/alpha-post", map[string]any{field: values[field]})}
		if field == "title" {
			key = "probe-title"
		}
	}
	switch kind {
	case coverage.WriteRename:
		write, key = []req{js("PUT", "/api/pages/alpha-post", map[string]any{"title": "Probe Renamed"})}, "probe-renamed"
	case coverage.WriteRemoveTag:
		write, tag = []req{js("PUT", "/api/pages/alpha-post", map[string]any{"tags": "news"})}, "php-tips"
	case coverage.WriteMoveCategory:
		write = []req{js("PUT", "/api/pages/alpha-post", map[string]any{"category": "general"})}
	case coverage.WriteDelete:
		write = []req{{method: "DELETE", path: "/api/pages/alpha-post", auth: true}}
	case coverage.WriteUpload:
		write, key = []req{fileUp("beta-post", "probe.txt")}, "beta-post"
	case coverage.WriteRefused400:
		write = []req{js("PUT", "/api/pages/alpha-post", map[string]any{"type": "nonsense", "description": "probe"})}
	case coverage.WriteRefused401:
		edit := js("PUT", "/api/pages/alpha-post", map[string]any{"description": "probe"})
		up := fileUp("beta-post", "probe.txt")
		edit.auth, up.auth = false, false
		write = []req{edit, up}
		if view == coverage.ViewFiles {
			key = "beta-post"
		}
	case coverage.WriteRefused404:
		write, key = []req{js("PUT", "/api/pages/no-such-page", map[string]any{"description": "probe"})}, "no-such-page"
	case coverage.WriteCollide:
		write = []req{js("POST", "/api/pages", map[string]any{"title": "Probe", "slug": "alpha-post", "type": "published"})}
	}
	read := map[coverage.Way]req{
		coverage.ViewList:     g("/api/pages", "numberOfItems", "-1", "draft", "true", "static", "true"),
		coverage.ViewSingle:   g("/api/pages/" + key),
		coverage.ViewOldKey:   g("/api/pages/" + old),
		coverage.ViewTagList:  g("/api/tags"),
		coverage.ViewTag:      g("/api/tags/" + tag),
		coverage.ViewCatList:  g("/api/categories"),
		coverage.ViewCategory: g("/api/categories/music"),
		coverage.ViewFiles:    g("/api/files/" + key),
	}[view]
	return append(write, read)
}

// A write cell's mutant changes that view only: after an edit of a
// page's description, the page list shows the old description while the
// page itself, and the tag's pages, show the new; the next write to the
// page ends it.
func TestWriteCellMutantChangesOneView(t *testing.T) {
	s := newServer(t, Mutant(coverage.WriteCell(coverage.EditKind("description"), coverage.ViewList).MutantName()))
	expectCode(t, sendJSON(t, s, "PUT", "/api/pages/alpha-post", map[string]any{"description": "new"}), 200)
	listed := func() any {
		for _, it := range get(t, s, "/api/pages", "numberOfItems", "-1").list() {
			if p := it.(map[string]any); p["key"] == "alpha-post" {
				return p["description"]
			}
		}
		return nil
	}
	if got := listed(); got == "new" || got == nil {
		t.Errorf("the list shows description %v after the edit, want the old one", got)
	}
	if got := get(t, s, "/api/pages/alpha-post").data()["description"]; got != "new" {
		t.Errorf("the single page shows %v, want the edit's", got)
	}
	for _, p := range get(t, s, "/api/tags/news").data()["pages"].([]any) {
		if p := p.(map[string]any); p["key"] == "alpha-post" && p["description"] != "new" {
			t.Errorf("the tag's pages show %v, want the edit's", p["description"])
		}
	}
	expectCode(t, sendJSON(t, s, "PUT", "/api/pages/alpha-post", map[string]any{"title": "Alpha Post"}), 200)
	if got := listed(); got != "new" {
		t.Errorf("after another write to the page the list shows %v, want the page as it is", got)
	}
}

// A rename's mutants tell the page's new key (the single page) from its
// old (the old key's view): each shows the page where it was, the other
// view as it is.
func TestRenameCellMutantsSplitSingleAndOldKey(t *testing.T) {
	for _, c := range []struct {
		view           coverage.Way
		newKey, oldKey int
	}{{coverage.ViewSingle, 404, 404}, {coverage.ViewOldKey, 200, 200}} {
		s := newServer(t, Mutant(coverage.WriteCell(coverage.WriteRename, c.view).MutantName()))
		expectCode(t, sendJSON(t, s, "PUT", "/api/pages/alpha-post", map[string]any{"title": "Renamed Here"}), 200)
		expectCode(t, get(t, s, "/api/pages/renamed-here"), c.newKey)
		expectCode(t, get(t, s, "/api/pages/alpha-post"), c.oldKey)
	}
}

// A refused write's mutant shows what it would have made, in its view
// only: the edit without its authentication token read back with its
// description, the file list without the file it sent.
func TestRefusedCellMutantShowsTheWriteCarriedOut(t *testing.T) {
	s := newServer(t, Mutant(coverage.WriteCell(coverage.WriteRefused401, coverage.ViewSingle).MutantName()))
	edit := js("PUT", "/api/pages/alpha-post", map[string]any{"description": "sneaky"})
	edit.auth = false
	expectCode(t, call(t, s, edit), 401)
	if got := get(t, s, "/api/pages/alpha-post").data()["description"]; got != "sneaky" {
		t.Errorf("the single page shows %v after the refused edit, want the refused edit's", got)
	}
	for _, it := range get(t, s, "/api/pages", "numberOfItems", "-1").list() {
		if p := it.(map[string]any); p["key"] == "alpha-post" && p["description"] == "sneaky" {
			t.Error("the page list shows the refused edit too")
		}
	}
}
