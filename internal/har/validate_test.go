package har_test

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// The logs are checked by har-validator from the npm registry (har-schema's
// HAR 1.2 JSON Schemas run by ajv), pinned in testdata/validator
// (package.json and its lock file). .ci/run installs it with
//
//	npm ci --prefix internal/har/testdata/validator
//
// Without it the tests that need it skip on a developer's machine and fail
// in CI (CI=true), so a CI that lost the install step cannot pass quietly.

var validatorDir = filepath.Join("testdata", "validator")

// nodeOrSkip returns the node binary, or skips (fails in CI) when node or
// the validator is not installed.
func nodeOrSkip(t *testing.T) string {
	t.Helper()
	node, missing := findValidator(t)
	if missing != "" {
		t.Skipf("HAR validator absent: %s", missing)
	}
	return node
}

// findValidator returns the node binary, or what is missing to run the
// validator; in CI a missing validator fails t.
func findValidator(t *testing.T) (node, missing string) {
	t.Helper()
	node, err := exec.LookPath("node")
	switch {
	case err != nil:
		missing = "node is not installed"
	case !exists(filepath.Join(validatorDir, "node_modules", "har-validator")):
		missing = "har-validator is not installed (npm ci --prefix internal/har/testdata/validator)"
	}
	if missing != "" && os.Getenv("CI") == "true" {
		t.Fatalf("HAR validator absent in CI: %s", missing)
	}
	return node, missing
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// validate runs har-validator once on the HAR files at paths; it returns
// the errors of each invalid file, by path (a valid file is not in it).
func validate(t *testing.T, node string, paths ...string) map[string]string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), node, append([]string{filepath.Join(validatorDir, "validate.cjs")}, paths...)...)
	out, err := cmd.Output()
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		t.Fatalf("har-validator did not run: %v", err)
	}
	var results map[string]json.RawMessage
	if jerr := json.Unmarshal(out, &results); jerr != nil || len(results) != len(paths) {
		t.Fatalf("har-validator's output is not one result per file (%v; %v):\n%s", err, jerr, out)
	}
	invalid := map[string]string{}
	for path, errs := range results {
		if string(errs) != "null" {
			invalid[path] = string(errs)
		}
	}
	return invalid
}

// mustValidate fails t unless har-validator accepts the HAR file at path.
// Without the validator (not in CI) it says so and lets the test go on
// with its own checks.
func mustValidate(t *testing.T, path string) {
	t.Helper()
	node, missing := findValidator(t)
	if missing != "" {
		t.Logf("not validated against the HAR 1.2 schema: %s", missing)
		return
	}
	for _, errs := range validate(t, node, path) {
		t.Errorf("har-validator rejects %s:\n%s", filepath.Base(path), errs)
	}
}

// The validator is real: it rejects logs broken the ways a writer could
// break them.
func TestValidatorRejectsBrokenLogs(t *testing.T) {
	node := nodeOrSkip(t)
	entry := func() map[string]any {
		return map[string]any{
			"startedDateTime": "2026-01-02T03:04:05.678Z", "time": 1.5,
			"request": map[string]any{"method": "GET", "url": "http://127.0.0.1:1/api/pages", "httpVersion": "",
				"cookies": []any{}, "headers": []any{}, "queryString": []any{}, "headersSize": -1, "bodySize": 0},
			"response": map[string]any{"status": 200, "statusText": "OK", "httpVersion": "", "cookies": []any{},
				"headers": []any{}, "content": map[string]any{"size": 2, "mimeType": "application/json", "text": "{}"},
				"redirectURL": "", "headersSize": -1, "bodySize": 2},
			"cache": map[string]any{}, "timings": map[string]any{"send": 0, "wait": 1.5, "receive": 0},
		}
	}
	doc := func(entries ...map[string]any) map[string]any {
		return map[string]any{"log": map[string]any{"version": "1.2", "creator": map[string]any{"name": "t", "version": "1"},
			"pages": []any{}, "entries": entries}}
	}
	write := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "x.har")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write(doc(entry()))
	broken := map[string]string{} // path: what is wrong with it
	for name, damage := range map[string]func(e map[string]any){
		"no request URL":        func(e map[string]any) { delete(e["request"].(map[string]any), "url") },
		"a relative URL":        func(e map[string]any) { e["request"].(map[string]any)["url"] = "/api/pages" },
		"a date without a zone": func(e map[string]any) { e["startedDateTime"] = "yesterday" },
		"no timings":            func(e map[string]any) { delete(e, "timings") },
		"status as text":        func(e map[string]any) { e["response"].(map[string]any)["status"] = "200" },
		"no content size":       func(e map[string]any) { delete(e["response"].(map[string]any)["content"].(map[string]any), "size") },
	} {
		e := entry()
		damage(e)
		broken[write(doc(e))] = name
	}
	invalid := validate(t, node, append([]string{good}, slices.Collect(maps.Keys(broken))...)...)
	if errs, ok := invalid[good]; ok {
		t.Fatalf("the validator rejects the well-formed log the cases start from:\n%s", errs)
	}
	for path, name := range broken {
		if _, ok := invalid[path]; !ok {
			t.Errorf("the validator accepts a log with %s", name)
		}
	}
}
