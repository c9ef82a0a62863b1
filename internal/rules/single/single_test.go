package single

import (
	"net/http"
	"testing"

	"github.com/tidwall/gjson"

	rt "github.com/conformance-suite/conformance/internal/rules/rulestest"
)

// TestRules: the rules of a read by key, per resource.
func TestRules(t *testing.T) {
	for _, c := range []struct{ resource, key, found, missing string }{
		{"pages", "about", "PAGE-GET-OK", "PAGE-GET-404"},
		{"pages", "a/b", "PAGE-GET-HIERARCHICAL", "PAGE-GET-404"},
		{"tags", "salt", "TAG-GET-SHAPE", "TAG-GET-404"},
		{"categories", "news", "CAT-GET-SHAPE", "CAT-GET-404"},
		{"users", "admin", "USER-GET-SHAPE", "USER-GET-404"},
		{"files", "about", "FILES-LIST-SHAPE", "FILES-LIST-SHAPE"},
	} {
		if f, m, ok := Rules(c.resource, c.key); !ok || f != c.found || m != c.missing {
			t.Errorf("Rules(%s, %s) = %s, %s, %t", c.resource, c.key, f, m, ok)
		}
	}
	if _, _, ok := Rules("settings", ""); ok {
		t.Error("settings is read by key")
	}
}

// TestNamed: a 200 names the resource asked for (PAGE-GET-OK,
// TAG-GET-SHAPE, USER-GET-SHAPE, ...); a files list is an array.
func TestNamed(t *testing.T) {
	for _, c := range []struct {
		resource, data, key string
		ok                  bool
	}{
		{"pages", `{"key":"about"}`, "about", true},
		{"pages", `{"key":"home"}`, "about", false},
		{"pages", `{"key":5}`, "5", false},
		{"pages", `[]`, "about", false},
		{"tags", `{"key":"salt","name":"Salt"}`, "salt", true},
		{"categories", `{"key":"news"}`, "sport", false},
		{"users", `{"username":"admin"}`, "admin", true},
		{"users", `{"key":"admin"}`, "admin", false},
		{"files", `[]`, "about", true},
		{"files", `{}`, "about", false},
	} {
		if j := Named(c.resource, gjson.Parse(c.data), c.key); j.Holds() != c.ok {
			t.Errorf("Named(%s, %s, %s) holds %t, want %t (%q)", c.resource, c.data, c.key, j.Holds(), c.ok, j.Problem)
		}
	}
}

// TestMissing: a key no resource has is 404 with a handler-error body
// (PAGE-GET-404 and the like), and a files key with ".." 400 with either
// error body (FILES-TRAVERSAL-400).
func TestMissing(t *testing.T) {
	for _, c := range []struct {
		name               string
		r                  rt.Reply
		missing, traversal bool
	}{
		{"404, a handler error", rt.HandlerError(http.StatusNotFound), true, false},
		{"404, an early error", rt.EarlyError(http.StatusNotFound), false, false},
		{"200", rt.OK(`{}`), false, false},
		{"400, a handler error", rt.HandlerError(http.StatusBadRequest), false, true},
		{"400, an early error", rt.EarlyError(http.StatusBadRequest), false, true},
		{"400, status 0", rt.Reply{Status: http.StatusBadRequest, Body: `{"status":"0","message":"no"}`}, false, false},
		{"400, not JSON", rt.Reply{Status: http.StatusBadRequest, Body: `<html>bad</html>`}, false, false},
	} {
		ex := rt.Get(t, c.r)
		if got := Missing(ex).Holds(); got != c.missing {
			t.Errorf("%s: Missing holds %t, want %t", c.name, got, c.missing)
		}
		if got := Traversal(ex).Holds(); got != c.traversal {
			t.Errorf("%s: Traversal holds %t, want %t", c.name, got, c.traversal)
		}
	}
}
