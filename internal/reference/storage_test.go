package reference

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The storage snapshot is deterministic, sees every write, and is equal
// again once a write is undone.
func TestStorageSnapshot(t *testing.T) {
	a, b := newServer(t), newServer(t)
	if !reflect.DeepEqual(a.Storage(), b.Storage()) || len(a.Storage().Diff(b.Storage())) != 0 {
		t.Fatal("two fresh servers store different things")
	}
	st := a.Storage()
	if len(st.Pages) != 23 || len(st.Tags) == 0 || len(st.Categories) == 0 || len(st.Settings) == 0 || len(st.Files) == 0 {
		t.Fatalf("snapshot misses stored records: %d pages, %d tags, %d categories, %d settings, %d files",
			len(st.Pages), len(st.Tags), len(st.Categories), len(st.Settings), len(st.Files))
	}

	expectCode(t, sendJSON(t, a, "PUT", "/api/pages/alpha-post", map[string]any{"description": "changed"}), 200)
	diff := st.Diff(a.Storage())
	if len(diff) != 2 || !strings.HasPrefix(diff[0], "- page alpha-post ") || !strings.HasPrefix(diff[1], "+ page alpha-post ") ||
		!strings.Contains(diff[1], `"Description":"changed"`) {
		t.Errorf("diff after an edit:\n%s", strings.Join(diff, "\n"))
	}
	expectCode(t, sendJSON(t, a, "PUT", "/api/pages/alpha-post", map[string]any{"description": "alpha desc"}), 200)
	expectCode(t, sendJSON(t, a, "PUT", "/api/settings", map[string]any{"slogan": "changed"}), 200)
	if diff := st.Diff(a.Storage()); len(diff) != 2 || !strings.HasPrefix(diff[0], `- setting slogan="`) {
		t.Errorf("diff after a settings edit (the page edit undone):\n%s", strings.Join(diff, "\n"))
	}
	expectCode(t, sendJSON(t, a, "PUT", "/api/settings", map[string]any{"slogan": "Content for every test"}), 200)
	if diff := st.Diff(a.Storage()); len(diff) != 0 {
		t.Errorf("diff after both edits were undone:\n%s", strings.Join(diff, "\n"))
	}
}

// A page's uploads (files and images) go when the page is deleted, so a
// run that creates, uploads to and deletes a page leaves nothing stored.
func TestDeletedPageLeavesNoUploads(t *testing.T) {
	s := newServer(t)
	before := s.Storage()
	r := sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Uploads Here"})
	expectCode(t, r, 201)
	uuid, _ := r.data()["uuid"].(string)
	expectCode(t, call(t, s, fileUp("uploads-here", "a.txt")), 200)
	img := req{method: "POST", path: "/api/images", auth: true, fields: map[string]string{"uuid": uuid},
		file: &filePart{"image", "tiny.png", []byte("png")}}
	expectCode(t, call(t, s, img), 200)
	if during := s.Storage(); len(during.Images) != len(before.Images)+1 || len(during.Files) != len(before.Files)+2 {
		t.Fatalf("the uploads are not stored: %d images, %d files", len(during.Images), len(during.Files))
	}
	expectCode(t, sendJSON(t, s, "DELETE", "/api/pages/uploads-here", nil), 200)
	if diff := before.Diff(s.Storage()); len(diff) != 0 {
		t.Errorf("the deleted page left:\n%s", strings.Join(diff, "\n"))
	}
}

// Like the host, every custom field name ever defined stays with every
// page, hidden from the API; with BenignSettingsAsSent nothing is kept.
func TestCustomFieldsForever(t *testing.T) {
	define := func(s *Server, fields string) {
		t.Helper()
		expectCode(t, sendJSON(t, s, "PUT", "/api/settings", map[string]any{"customFields": fields}), 200)
	}
	plain := newServer(t, BenignSettingsAsSent)
	before := plain.Storage()
	var seeded string // the seed defines subtitle
	for _, kv := range before.Settings {
		if v, ok := strings.CutPrefix(kv, "customFields="); ok {
			_ = json.Unmarshal([]byte(v), &seeded)
		}
	}
	define(plain, `{"other":{"type":"bool"}}`)
	define(plain, seeded)
	if diff := before.Diff(plain.Storage()); len(diff) != 0 {
		t.Errorf("without the variant, a custom field set and removed left:\n%s", strings.Join(diff, "\n"))
	}

	s := newServer(t)
	readBefore := fingerprint(get(t, s, "/api/pages/alpha-post"))
	define(s, `{"subtitle":{"type":"string"}}`)
	expectCode(t, sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Made Meanwhile"}), 201)
	define(s, `{"other":{"type":"bool"}}`)
	define(s, "{}")
	if fingerprint(get(t, s, "/api/pages/alpha-post")) != readBefore {
		t.Error("the API shows the stored custom fields")
	}
	for _, p := range s.Storage().Pages {
		if !reflect.DeepEqual(p.CustomFields, []string{"other", "subtitle"}) {
			t.Errorf("page %s stores custom fields %v, want [other subtitle]", p.Key, p.CustomFields)
		}
	}
	expectCode(t, sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Made After"}), 201)
	for _, p := range s.Storage().Pages {
		if p.Key == "made-after" && len(p.CustomFields) != 0 {
			t.Errorf("a page created with no field defined stores %v", p.CustomFields)
		}
	}
	if diff := before.Diff(s.Storage()); len(diff) < 23 {
		t.Errorf("the diff shows %d changed records, want every page:\n%s", len(diff), strings.Join(diff, "\n"))
	}
}

// ChildWritesHitParent: PUT and DELETE of parent/child act on the parent,
// and the child stays behind, emptied.
func TestChildWritesHitParent(t *testing.T) {
	s := newServer(t, ChildWritesHitParent)
	r := sendJSON(t, s, "PUT", "/api/pages/guides/getting-started", map[string]any{"description": "via the child"})
	expectCode(t, r, 200)
	if r.data()["key"] != "guides" || get(t, s, "/api/pages/guides").data()["description"] != "via the child" {
		t.Errorf("the edit did not land on the parent: %s", r.body)
	}
	if d := get(t, s, "/api/pages/guides/getting-started").data()["description"]; d == "via the child" {
		t.Error("the edit changed the child")
	}
	expectCode(t, sendJSON(t, s, "DELETE", "/api/pages/guides/getting-started", nil), 200)
	expectCode(t, get(t, s, "/api/pages/guides"), 404)
	child := get(t, s, "/api/pages/guides/getting-started")
	expectCode(t, child, 200)
	if child.data()["contentRaw"] != "" {
		t.Errorf("the child left behind keeps its content: %v", child.data()["contentRaw"])
	}
	// Top-level keys are not affected.
	expectCode(t, sendJSON(t, s, "DELETE", "/api/pages/beta-post", nil), 200)
	expectCode(t, get(t, s, "/api/pages/beta-post"), 404)
}
