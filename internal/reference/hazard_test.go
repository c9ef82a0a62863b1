package reference

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// The foreign writer deletes its page just before the server handles the
// 5th write that carries a valid authentication token; reads, refused
// writes and writes with another token do not count. It deletes nothing
// else, and the 5th write is handled as usual. In memory and in files.
func TestForeignWriterDeletesPageAtFifthAuthorizedWrite(t *testing.T) {
	for _, mode := range []string{"memory", "files"} {
		t.Run(mode, func(t *testing.T) {
			opts := Options{Token: testToken, AuthToken: testAuth, Mutants: []Mutant{ForeignWriter},
				Now: func() time.Time { return fixedNow }}
			if mode == "files" {
				opts.StorageDir, opts.StorageWorkTime, opts.StorageChunkPause = t.TempDir(), -1, -1
			}
			s, err := New(opts)
			if err != nil {
				t.Fatal(err)
			}
			before := s.Storage()
			present := func() bool { return get(t, s, "/api/pages/"+ForeignWriterPage).code == 200 }
			// Not counted: reads (with the token too), writes without it,
			// with a wrong one, or with an editor's (not an admin's).
			call(t, s, withAuth(g("/api/settings")))
			call(t, s, req{method: "POST", path: "/api/pages", json: map[string]any{"title": "No Auth"}})
			call(t, s, req{method: "POST", path: "/api/pages", json: map[string]any{"title": "Bad Auth"}, authValue: "wrong"})
			call(t, s, req{method: "POST", path: "/api/pages", json: map[string]any{"title": "Editor"}, authValue: editorAuth})
			for i := 1; i <= 4; i++ {
				// Counted whatever their answer: a 404 too.
				expectCode(t, sendJSON(t, s, "DELETE", "/api/pages/no-such-page", nil), 404)
				if !present() {
					t.Fatalf("%s is gone after %d authorized writes, want after 5", ForeignWriterPage, i)
				}
			}
			r := sendJSON(t, s, "POST", "/api/pages", map[string]any{"title": "Fifth Write"})
			expectCode(t, r, 201)
			if present() {
				t.Fatalf("%s is still there after the 5th authorized write", ForeignWriterPage)
			}
			if keys := keysOf(get(t, s, "/api/pages", "numberOfItems", "-1").list()); slices.Contains(keys, ForeignWriterPage) ||
				!slices.Contains(keys, "fifth-write") {
				t.Errorf("the listing after the 5th write: %v", keys)
			}
			// Only the page went (and the 5th write's page came).
			var diff []string
			for _, d := range before.Diff(s.Storage()) {
				if !strings.HasPrefix(d, "+ page fifth-write ") {
					diff = append(diff, d)
				}
			}
			if len(diff) != 1 || !strings.HasPrefix(diff[0], "- page "+ForeignWriterPage+" ") {
				t.Errorf("stored changes beside the 5th write's page:\n%s", strings.Join(diff, "\n"))
			}
			// Once only.
			for range 6 {
				sendJSON(t, s, "PUT", "/api/settings", map[string]any{"slogan": "again"})
			}
			if n := len(s.Storage().Pages); n != len(before.Pages) {
				t.Errorf("%d pages stored after more writes, want %d", n, len(before.Pages))
			}
		})
	}
}

// The hazard is marked as one: neither benign nor a rule break.
func TestForeignWriterIsAHazard(t *testing.T) {
	for _, m := range Mutants() {
		if m.Name == ForeignWriter && (!m.Hazard || m.Benign || len(m.Rules) > 0) {
			t.Errorf("%s: Hazard %v, Benign %v, Rules %v", m.Name, m.Hazard, m.Benign, m.Rules)
		}
		if m.Hazard && m.Name != ForeignWriter {
			t.Errorf("unexpected hazard %s", m.Name)
		}
	}
}
