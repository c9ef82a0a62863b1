package explore

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/explore/gen"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestNoWriteItCannotUndo: an exploration of a server like the previous
// release (legacy-3.21: a create under a parent no page has is taken, and
// the DELETE of parent/child acts on the parent, so such a page stays for
// good) and of the reference server on its fragile file storage leaves
// the storage as it found it. On the previous release the cases that send
// parent are not sent, and the output says so. (Without that check the
// same explorations leave a dozen pages under no-such-parent.)
func TestNoWriteItCannotUndo(t *testing.T) {
	for _, c := range []struct {
		name    string
		opts    reference.Options
		skipped bool
	}{
		{"legacy-3.21", reference.Options{Mutants: []reference.Mutant{reference.Legacy321}}, true},
		{"fragile storage", reference.Options{StorageDir: t.TempDir()}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			anySaid := false
			for seed := uint64(1); seed <= uint64(seedsPerTarget()); seed++ {
				srv := testkit.ReferenceWith(t, c.opts, nil)
				res, out := exploreLeavingNoTrace(t, srv, Config{Seed: seed, Requests: 800})
				said := strings.Contains(out, "Not sent, because this target could not undo them") && strings.Contains(out, "field parent")
				anySaid = anySaid || said
				if !c.skipped && said {
					t.Errorf("seed %d: cases with a parent not sent, though this target removes child pages:\n%s", seed, out)
				}
				if !c.skipped {
					for _, r := range res.Records {
						t.Errorf("seed %d: %s: expected %s, got %s", seed, r.Finding.Signature(), r.Finding.Expected, r.Finding.Got)
					}
				}
			}
			if c.skipped && !anySaid {
				t.Errorf("no exploration said which cases it did not send (none drew a parent?)")
			}
		})
	}
}

// TestCustomFieldNamesNeverSent: no settings update names a custom field
// (once added, one stays on every page, and the API removes none); the
// cases that would are counted as not sent.
func TestCustomFieldNamesNeverSent(t *testing.T) {
	t.Parallel()
	named := regexp.MustCompile(`customFields[^&]*%22|"customFields":"\{\\"`)
	var seen []string
	watch := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPut && r.URL.Path == "/api/settings" {
				body := readBody(r)
				if named.Match(body) {
					seen = append(seen, string(body))
				}
			}
			h.ServeHTTP(w, r)
		})
	}
	srv := testkit.ReferenceWith(t, reference.Options{}, watch)
	_, out := exploreLeavingNoTrace(t, srv, Config{Seed: 2, Requests: 600, Kinds: []gen.Kind{gen.KindSettings}})
	if len(seen) > 0 {
		t.Errorf("%d settings updates named a custom field, the first: %s", len(seen), seen[0])
	}
	if !strings.Contains(out, customFieldsSkip) {
		t.Errorf("the output does not say that the updates naming a custom field were not sent:\n%s", out)
	}
}

// TestLeftoversInEveryOutput: a page the exploration could not delete is
// named in a sentence, with the `conformance cleanup` command, on the
// console, in the verdict of every report (JUnit's included) and in the
// JSON report's cleanup; no Go value is printed raw.
func TestLeftoversInEveryOutput(t *testing.T) {
	t.Parallel()
	undeletable := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodDelete && strings.HasSuffix(r.URL.Path, "-x3") {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Access-Control-Allow-Origin", "*")
				w.Header().Set("Cache-Control", "no-store")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(`{"status":"1","message":"Error trying to delete the page."}`))
				return
			}
			h.ServeHTTP(w, r)
		})
	}
	srv := testkit.ReferenceWith(t, reference.Options{}, undeletable)
	dir := t.TempDir()
	cfg := Config{Seed: 1, Requests: 200, Kinds: []gen.Kind{gen.KindCreate},
		Reports: Reports{JSON: filepath.Join(dir, "r.json"), JUnit: filepath.Join(dir, "r.xml"), Markdown: filepath.Join(dir, "r.md")}}
	_, out := exploreRef(t, srv, cfg)
	texts := map[string]string{"console": out}
	for _, f := range []string{cfg.JSON, cfg.JUnit, cfg.Markdown} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = string(b)
	}
	for name, text := range texts {
		if !strings.Contains(text, "conformance cleanup --base-url "+srv.URL) || !strings.Contains(text, "-x3") {
			t.Errorf("%s does not name the page left and the cleanup command:\n%s", name, text)
		}
		if strings.Contains(text, "pages [") || strings.Contains(text, "problems: [") {
			t.Errorf("%s prints Go values:\n%s", name, text)
		}
	}
}

// readBody reads r's body and puts it back for the handler.
func readBody(r *http.Request) []byte {
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b
}
