package openapi

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The exported document is checked by two OpenAPI validators from the npm
// registry, pinned in testdata/validator (package.json and its lock file):
// Redocly CLI's lint (the OpenAPI 3.1 structure, $refs, path parameters,
// operation IDs, and its recommended rules less three explained in
// redocly.yaml) and swagger-parser (the document against the OpenAPI 3.1
// JSON Schema, every $ref resolved). .ci/run installs them with
//
//	npm ci --prefix internal/openapi/testdata/validator
//
// Without them the test skips on a developer's machine and fails in CI
// (CI=true), so a CI that lost the install step cannot pass quietly.

var validatorDir = filepath.Join("testdata", "validator")

type validator struct {
	name string
	args func(file string) []string
}

var validators = []validator{
	{"redocly lint", func(file string) []string {
		return []string{filepath.Join(validatorDir, "node_modules", "@redocly", "cli", "bin", "cli.js"),
			"lint", "--config", filepath.Join(validatorDir, "redocly.yaml"), "--format", "stylish", file}
	}},
	{"swagger-parser", func(file string) []string {
		return []string{filepath.Join(validatorDir, "swagger-parser.cjs"), file}
	}},
}

// nodeOrSkip returns the node binary, or skips (fails in CI) when node or
// the validators are not installed.
func nodeOrSkip(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	missing := ""
	switch {
	case err != nil:
		missing = "node is not installed"
	case !exists(filepath.Join(validatorDir, "node_modules", "@redocly", "cli")) ||
		!exists(filepath.Join(validatorDir, "node_modules", "@apidevtools", "swagger-parser")):
		missing = "the validators are not installed (npm ci --prefix internal/openapi/testdata/validator)"
	}
	if missing == "" {
		return node
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("OpenAPI validators absent in CI: %s", missing)
	}
	t.Skipf("OpenAPI validators absent: %s", missing)
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// validate runs one validator on doc; it returns its output and whether
// it accepted the document.
func validate(t *testing.T, node string, v validator, doc []byte) (string, bool) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(file, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), node, v.args(file)...)
	// No telemetry and no update check: the validators must not reach out.
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true", "NO_COLOR=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s: %s", v.name, time.Since(start).Round(time.Millisecond))
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		t.Fatalf("%s did not run: %v", v.name, err)
	}
	return string(out), err == nil
}

func TestValidatorsAcceptTheDocument(t *testing.T) {
	node := nodeOrSkip(t)
	doc, err := JSON("v0.0.0-test")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range validators {
		if out, ok := validate(t, node, v, doc); !ok {
			t.Errorf("%s rejects the exported document:\n%s", v.name, out)
		}
	}
}

// The validators are real: each rejects a document broken the ways an
// export could break.
func TestValidatorsRejectBrokenDocuments(t *testing.T) {
	node := nodeOrSkip(t)
	for _, tc := range []struct {
		name   string
		damage func(doc map[string]any)
	}{
		{"dangling $ref", func(doc map[string]any) {
			delete(doc["components"].(map[string]any)["schemas"].(map[string]any), "page")
		}},
		{"parameter in the body (OpenAPI 2, not 3)", func(doc map[string]any) {
			op := doc["paths"].(map[string]any)["/api/pages"].(map[string]any)["get"].(map[string]any)
			op["parameters"].([]any)[0].(map[string]any)["in"] = "body"
		}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "-"), func(t *testing.T) {
			doc, err := Document("v0.0.0-test")
			if err != nil {
				t.Fatal(err)
			}
			tc.damage(doc)
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range validators {
				if out, ok := validate(t, node, v, b); ok {
					t.Errorf("%s accepts a document with a %s:\n%s", v.name, tc.name, out)
				}
			}
		})
	}
}
