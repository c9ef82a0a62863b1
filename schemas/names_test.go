package schemas

import "testing"

// isSchemaName knows exactly the names Names lists, and is asked on every
// validation: it looks the one name up instead of listing every file.
func TestIsSchemaName(t *testing.T) {
	for _, n := range Names() {
		if !isSchemaName(n) {
			t.Errorf("isSchemaName(%q) = false for a name Names lists", n)
		}
	}
	for _, n := range []string{"", ".", "nope.json", "page", "../page.json", "./page.json", `x\page.json`, "page.json/"} {
		if isSchemaName(n) {
			t.Errorf("isSchemaName(%q) = true", n)
		}
	}
	if n := testing.AllocsPerRun(20, func() { isSchemaName("page.json") }); n > 1 {
		t.Errorf("isSchemaName allocates %.0f objects, want at most 1: does it list every schema?", n)
	}
}
