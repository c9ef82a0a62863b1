package fleet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsTargetsFile: the targets file docs/fleet.md shows reads as it
// says (the environment variable and the token files it names made up).
func TestDocsTargetsFile(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "fleet.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, found := strings.Cut(string(doc), "```yaml\n# sites.yaml\n")
	block, _, closed := strings.Cut(block, "```")
	if !found || !closed {
		t.Fatal("docs/fleet.md has no yaml block starting with # sites.yaml")
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "secrets"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"blog.token", "blog.auth"} {
		if err := os.WriteFile(filepath.Join(dir, "secrets", f), []byte("a-made-up-token-"+f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("SHOP_EU_TOKEN", "a-made-up-token")
	path := filepath.Join(dir, "sites.yaml")
	if err := os.WriteFile(path, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	tg, problems := ReadTargets(path)
	if len(problems) > 0 {
		t.Fatalf("the documented targets file does not read: %q", problems)
	}
	if len(tg.Sites) != 2 || tg.Sites[0].Mode != ModeReadOnly || tg.Sites[1].Mode != ModeWritesSettings ||
		strings.Join(tg.Sites[1].Args, " ") != "--rps 5 --credentials header" {
		t.Errorf("the documented targets file reads as %+v", tg.Sites)
	}
}
