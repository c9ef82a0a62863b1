package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/runner"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestOpenAPICommand(t *testing.T) {
	code, stdout, stderr := run(t, "openapi")
	if code != runner.ExitPass {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || doc.OpenAPI != "3.1.0" || len(doc.Paths) == 0 {
		t.Fatalf("stdout is not an OpenAPI 3.1 document (%v): %.200s", err, stdout)
	}
	file := filepath.Join(t.TempDir(), "openapi.json")
	if code, stdout, _ := run(t, "openapi", "-o", file); code != runner.ExitPass || stdout != "" {
		t.Fatalf("-o: exit %d, stdout %q", code, stdout)
	}
	if b, err := os.ReadFile(file); err != nil || !bytes.HasPrefix(b, []byte("{")) {
		t.Fatalf("-o wrote %q (%v)", b, err)
	}
	if code, _, stderr := run(t, "openapi", "-o", filepath.Join(t.TempDir(), "no-such-dir", "x.json")); code != runner.ExitUsage ||
		!strings.Contains(stderr, "no-such-dir") {
		t.Fatalf("unwritable -o: exit %d, stderr %q", code, stderr)
	}
}

func TestCompareCommand(t *testing.T) {
	pair := []string{filepath.Join(diffData, "regression", "before.json"), filepath.Join(diffData, "regression", "after.json")}
	golden, err := os.ReadFile(filepath.Join("..", "compare", "testdata", "regression.md.golden"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, append([]string{"compare"}, pair...)...)
	if code != runner.ExitPass || stdout != string(golden) {
		t.Fatalf("exit %d (stderr %q); stdout differs from compare's golden file:\n%.400s", code, stderr, stdout)
	}
	page := filepath.Join(t.TempDir(), "matrix.html")
	if code, _, stderr := run(t, append([]string{"compare", "--format", "html", "-o", page}, pair...)...); code != runner.ExitPass {
		t.Fatalf("--format html: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(page); !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
		t.Fatalf("-o %s is not an HTML page: %.100s", page, b)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"missing report", []string{"compare", pair[0], "no-such.json"}, "no-such.json"},
		{"not a report", []string{"compare", pair[0], "gate_test.go"}, "not a conformance JSON report"},
		{"bad format", append([]string{"compare", "--format", "pdf"}, pair...), "want markdown or html"},
		{"no report", []string{"compare"}, "requires at least 1 arg"},
	} {
		if code, _, stderr := run(t, tc.args...); code != runner.ExitUsage || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 saying %q", tc.name, code, stderr, tc.stderr)
		}
	}
}

// `rules --format json` names each field like the JSON report's rules do.
func TestRulesJSONUsesTheReportsKeys(t *testing.T) {
	code, stdout, stderr := run(t, "rules", "--format", "json")
	if code != runner.ExitPass {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(stdout), &rows); err != nil {
		t.Fatal(err)
	}
	camel := regexp.MustCompile(`^[a-z][a-zA-Z]*$`)
	used := map[string]bool{}
	for _, r := range rows {
		for k := range r {
			used[k] = true
			if !camel.MatchString(k) {
				t.Errorf("key %q is not camelCase", k)
			}
		}
	}
	// Every field the two share (by Go name) has the report's key.
	reportKeys := map[string]string{}
	rt := reflect.TypeFor[report.RuleResult]()
	for i := range rt.NumField() {
		reportKeys[rt.Field(i).Name] = strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]
	}
	rj := reflect.TypeFor[ruleJSON]()
	shared := 0
	for i := range rj.NumField() {
		f := rj.Field(i)
		want, ok := reportKeys[f.Name]
		if !ok {
			continue
		}
		shared++
		if got := strings.Split(f.Tag.Get("json"), ",")[0]; got != want {
			t.Errorf("%s is %q in rules --format json, %q in the JSON report", f.Name, got, want)
		}
		if !used[want] {
			t.Errorf("no rule has the key %q", want)
		}
	}
	if shared < 7 {
		t.Errorf("only %d fields shared with report.RuleResult", shared)
	}
}

// Every command a person runs on its own says what it does, shows an
// example and lists its exit codes.
func TestHelpHasExamplesAndExitCodes(t *testing.T) {
	for _, cmd := range []string{"cleanup", "openapi", "compare", "diff"} {
		code, stdout, _ := run(t, cmd, "--help")
		if code != runner.ExitPass {
			t.Errorf("%s --help: exit %d", cmd, code)
		}
		for _, want := range []string{"Exit codes:", "Examples:", "Usage:"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s --help lacks %q", cmd, want)
			}
		}
	}
}
