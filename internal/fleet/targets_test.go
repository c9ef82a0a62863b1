package fleet

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTargets writes a targets file (and the files it names) into a
// fresh folder and returns its path.
func writeTargets(t *testing.T, body string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "sites.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadTargets(t *testing.T) {
	t.Setenv("FLEET_TEST_TOKEN", "secret-token-value")
	path := writeTargets(t, `
defaults:
  args: [--rps, "5"]
sites:
  - name: shop-eu
    base-url: https://shop.example.eu
    token-env: FLEET_TEST_TOKEN
  - name: blog
    base-url: https://blog.example.org/
    token-file: blog.token
    auth-token-file: blog.auth
    mode: writes+settings
    args: [--credentials, header]
`, map[string]string{"blog.token": "blog-token-value\n", "blog.auth": "blog-auth-value"})
	tg, problems := ReadTargets(path)
	if len(problems) > 0 {
		t.Fatalf("problems: %q", problems)
	}
	if len(tg.Sites) != 2 || !strings.HasPrefix(tg.Digest, "sha256:") {
		t.Fatalf("read %+v", tg)
	}
	shop, blog := tg.Sites[0], tg.Sites[1]
	if shop.Mode != ModeReadOnly || shop.Token.Env != "FLEET_TEST_TOKEN" || !shop.Auth.empty() || strings.Join(shop.Args, " ") != "--rps 5" {
		t.Errorf("shop-eu: %+v", shop)
	}
	if blog.Index != 1 || blog.Mode != ModeWritesSettings || blog.Token.File != filepath.Join(filepath.Dir(path), "blog.token") ||
		strings.Join(blog.Args, " ") != "--rps 5 --credentials header" {
		t.Errorf("blog: %+v", blog)
	}
	tok, auth, err := blog.Tokens()
	if err != nil || tok != "blog-token-value" || auth != "blog-auth-value" {
		t.Errorf("blog's tokens: %q %q %v", tok, auth, err)
	}
}

func TestReadTargetsProblems(t *testing.T) {
	t.Setenv("FLEET_TEST_EMPTY", "")
	cases := []struct {
		name, body string
		want       []string
	}{
		{"a token in the file", "sites:\n  - {name: a, base-url: 'https://a.example', token: abc123}\n", []string{"never the token itself"}},
		{"no token source", "sites:\n  - {name: a, base-url: 'https://a.example'}\n", []string{`site "a": no token-env or token-file`}},
		{"both sources", "sites:\n  - {name: a, base-url: 'https://a.example', token-env: X, token-file: f}\n", []string{"not both"}},
		{"variable unset", "sites:\n  - {name: a, base-url: 'https://a.example', token-env: FLEET_TEST_UNSET_VARIABLE}\n", []string{"FLEET_TEST_UNSET_VARIABLE is not set"}},
		{"variable empty", "sites:\n  - {name: a, base-url: 'https://a.example', token-env: FLEET_TEST_EMPTY}\n", []string{"FLEET_TEST_EMPTY is not set"}},
		{"missing file", "sites:\n  - {name: a, base-url: 'https://a.example', token-file: nope.token}\n", []string{"token file it names cannot be read: no such file"}},
		{"writes without auth", "sites:\n  - {name: a, base-url: 'https://a.example', token-file: t, mode: writes}\n", []string{"mode writes needs an authentication token"}},
		{"bad mode", "sites:\n  - {name: a, base-url: 'https://a.example', token-file: t, mode: yolo}\n", []string{`mode "yolo"`}},
		{"bad name", "sites:\n  - {name: ../etc, base-url: 'https://a.example', token-file: t}\n", []string{`name "../etc"`}},
		{"same name", "sites:\n  - {name: a, base-url: 'https://a.example', token-file: t}\n  - {name: A, base-url: 'https://b.example', token-file: t}\n", []string{"two sites of one name"}},
		{"no base url", "sites:\n  - {name: a, token-file: t}\n", []string{"no base-url"}},
		{"unknown key", "sites:\n  - {name: a, base-url: 'https://a.example', token-file: t, rps: 3}\n", []string{"field rps not found"}},
		{"a token as a variable's name", "sites:\n  - {name: a, base-url: 'https://a.example', token-env: abc123-def}\n", []string{"token-env is not the name of an environment variable"}},
		{"a token as a file's name", "sites:\n  - {name: a, base-url: 'https://a.example', token-file: abc123}\n", []string{"cannot be read"}},
		{"no sites", "defaults: {mode: read-only}\n", []string{"lists no site"}},
		{"empty file", "", []string{"is empty"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, problems := ReadTargets(writeTargets(t, c.body, map[string]string{"t": "a-token-value"}))
			all := strings.Join(problems, "\n")
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("problems %q do not say %q", problems, w)
				}
			}
			if strings.Contains(all, "abc123") || strings.Contains(all, "a-token-value") {
				t.Errorf("a problem quotes a token: %q", problems)
			}
		})
	}
}

func TestTokenWithSpacesIsRefused(t *testing.T) {
	path := writeTargets(t, "sites:\n  - {name: a, base-url: 'https://a.example', token-file: t}\n", map[string]string{"t": " padded-token \n"})
	_, problems := ReadTargets(path)
	if len(problems) != 1 || !strings.Contains(problems[0], "spaces, tabs or line breaks") || strings.Contains(problems[0], "padded-token") {
		t.Errorf("problems: %q", problems)
	}
}
