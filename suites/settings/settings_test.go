package settings

import "testing"

func TestCustomFieldsProbe(t *testing.T) {
	for _, c := range []struct {
		current any
		want    string
	}{
		{nil, `{"f":{"label":"Conformance suite probe","type":"string"}}`},
		{"{}", `{"f":{"label":"Conformance suite probe","type":"string"}}`},
		{`{"sub":{"type":"bool"}}`, `{"f":{"label":"Conformance suite probe","type":"string"},"sub":{"type":"bool"}}`},
		{`{&quot;sub&quot;:{&quot;type&quot;:&quot;bool&quot;}}`, `{"f":{"label":"Conformance suite probe","type":"string"},"sub":{"type":"bool"}}`},
		{map[string]any{"sub": "x"}, `{"f":{"label":"Conformance suite probe","type":"string"},"sub":"x"}`},
		{"not json", `{"f":{"label":"Conformance suite probe","type":"string"}}`},
	} {
		if got := customFieldsProbe(c.current, "f"); got != c.want {
			t.Errorf("customFieldsProbe(%v) = %s, want %s", c.current, got, c.want)
		}
	}
}
