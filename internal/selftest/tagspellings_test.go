package selftest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestTagSpelledTwoWays: on a site where two published pages spell one
// tag's name differently ("News" and "NEWS", one key), the host shows each
// page's own spelling and names the tag after the newest: TAG-NAME-IN-PAGES
// passes it; a server whose tag views give the key as the name still fails.
func TestTagSpelledTwoWays(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mutants  []reference.Mutant
		wantExit int
	}{
		{"as the host", nil, 0},
		{"tag views naming the key", []reference.Mutant{reference.TagViewsNameIsKey}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ref := testkit.ReferenceWith(t, reference.Options{Mutants: tc.mutants}, nil)
			c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken})
			if err != nil {
				t.Fatal(err)
			}
			ex := c.Do(context.Background(), client.Request{Method: http.MethodPost, Path: "/api/pages", Credentials: client.BothTokens,
				JSON: map[string]any{"title": "Shouting", "content": "x", "type": "published", "tags": "NEWS", "date": "2025-02-01 10:00:00"}})
			if ex.Status != http.StatusCreated {
				t.Fatalf("create: %s", ex.String())
			}
			if got := c.Do(context.Background(), client.Request{Method: http.MethodGet, Path: "/api/pages/alpha-post", Credentials: client.APIToken}).
				Get("data.tags.news").String(); got != "News" {
				t.Fatalf("alpha-post's tag news is %q, want News (the seeded page keeps its spelling)", got)
			}
			res := selftest.Run(t.Context(), selftest.Cmd{Dir: t.TempDir(), Args: []string{"--base-url", ref.URL, "--read-only", "--no-color"},
				Env: []string{"CONFORMANCE_TOKEN=" + ref.Token}})
			if res.Exit != tc.wantExit || (tc.wantExit == 1 && !strings.Contains(res.Stdout, "TAG-NAME-IN-PAGES")) {
				t.Errorf("exit %d, want %d:\n%s", res.Exit, tc.wantExit, selftest.Tail(res.Stdout, 25))
			}
		})
	}
}
