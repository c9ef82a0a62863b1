package settings

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// TestCustomFieldsProbe: the value the round trip sends names exactly the
// fields the site has (a new name would stay with every page for good),
// and differs from what the site has whenever a definition is an object.
func TestCustomFieldsProbe(t *testing.T) {
	for _, c := range []struct {
		site string
		want string
	}{
		{`{"sub":{"type":"bool"}}`, `{"sub":{"label":"L","type":"bool"}}`},
		{`{"b":{"type":"string","label":"B"},"a":{"type":"string","label":"A & <a>"}}`,
			`{"a":{"label":"L","type":"string"},"b":{"label":"B","type":"string"}}`},
		{`{"odd":"x","sub":{"type":"bool"}}`, `{"odd":"x","sub":{"label":"L","type":"bool"}}`},
		{`{"odd":"x"}`, `{"odd":"x"}`},
		{`{"n":{"position":2}}`, `{"n":{"label":"L","position":2}}`},
	} {
		defs, ok := customFieldDefs(c.site)
		if !ok {
			t.Fatalf("customFieldDefs(%s) found no object", c.site)
		}
		got := customFieldsProbe(defs, "L")
		if got != c.want {
			t.Errorf("customFieldsProbe(%s) = %s, want %s", c.site, got, c.want)
		}
		var sent map[string]any
		if err := json.Unmarshal([]byte(got), &sent); err != nil {
			t.Fatalf("the probe is not JSON: %v", err)
		}
		if names, site := slices.Sorted(maps.Keys(sent)), slices.Sorted(maps.Keys(defs)); !slices.Equal(names, site) {
			t.Errorf("the probe names fields %v; the site has %v", names, site)
		}
	}
}

// TestCustomFieldDefs reads customFields in every form a server may give
// it; anything but a JSON object is no definition to send back.
func TestCustomFieldDefs(t *testing.T) {
	for _, c := range []struct {
		current any
		names   []string
		ok      bool
	}{
		{"{}", []string{}, true},
		{`{"sub":{"type":"bool"}}`, []string{"sub"}, true},
		{`{&quot;sub&quot;:{&quot;type&quot;:&quot;bool&quot;}}`, []string{"sub"}, true},
		{map[string]any{"sub": map[string]any{}}, []string{"sub"}, true},
		{nil, nil, false},
		{"not json", nil, false},
		{"[1]", nil, false},
		{"null", nil, false},
		{true, nil, false},
	} {
		defs, ok := customFieldDefs(c.current)
		if ok != c.ok || (ok && !slices.Equal(slices.Sorted(maps.Keys(defs)), c.names)) {
			t.Errorf("customFieldDefs(%v) = %v, %v; want names %v, %v", c.current, defs, ok, c.names, c.ok)
		}
	}
}

// TestSameSetting: a value read back after the update of every other field
// shows what was sent when it says the same: a locale list with or without
// spaces, a path prefix with or without its slashes, customFields with the
// label sent; every other value exactly.
func TestSameSetting(t *testing.T) {
	for _, c := range []struct {
		field     string
		sent, got any
		want      bool
	}{
		{"title", "Conformance x", "Conformance x", true},
		{"title", "Conformance x", "Conformance y", false},
		{"locale", "de,de_DE", "de,de_DE", true},
		{"locale", "de,de_DE", "de, de_DE", true},
		{"locale", "de,de_DE", "de_DE,de", false},
		{"locale", "de,de_DE", "de", false},
		{"uriPage", "/x-page/", "/x-page/", true},
		{"uriPage", "/x-page/", "x-page", true},
		{"uriPage", "/x-page/", "/x-page", true},
		{"uriPage", "/x-page/", "/page/", false},
		{"uriBlog", "/x-blog/", false, false},
		{"customFields", "ignored", `{"sub":{"label":"L"}}`, true},
		{"customFields", "ignored", `{"sub":{"label":"M"}}`, false},
	} {
		if got := sameSetting(c.field, c.sent, c.got, "sub", "L"); got != c.want {
			t.Errorf("sameSetting(%s, %v, %v) = %v, want %v", c.field, c.sent, c.got, got, c.want)
		}
	}
}
