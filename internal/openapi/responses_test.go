package openapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// The components, as converted, still judge real answers as the suite
// does: the reference server's answers validate against each operation's
// success schema, and a mutant's broken answer does not.
func TestSuccessSchemasJudgeRealAnswers(t *testing.T) {
	doc, err := Document("v0.0.0-test")
	if err != nil {
		t.Fatal(err)
	}
	token, auth := reference.NewToken(), reference.NewToken()
	serve := func(mutants ...reference.Mutant) string {
		return testkit.ReferenceWith(t, reference.Options{Token: token, AuthToken: auth, Mutants: mutants}, nil).URL
	}
	get := func(base, path string) []byte {
		q := url.Values{"token": {token}, "authentication": {auth}}
		resp, err := http.Get(base + path + "?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
		return b
	}
	base := serve()
	firstKey := func(path, field string) string {
		var body struct {
			Data []map[string]any `json:"data"`
		}
		if err := json.Unmarshal(get(base, path), &body); err != nil || len(body.Data) == 0 {
			t.Fatalf("GET %s: no items (%v)", path, err)
		}
		return body.Data[0][field].(string)
	}
	for _, path := range []string{"/api/pages", "/api/pages/" + firstKey("/api/pages", "key"),
		"/api/tags", "/api/tags/" + firstKey("/api/tags", "key"),
		"/api/categories", "/api/categories/" + firstKey("/api/categories", "key"),
		"/api/users", "/api/settings"} {
		if problems := validateSuccess(t, doc, templateOf(path), get(base, path)); len(problems) > 0 {
			t.Errorf("the reference server's GET %s breaks the document's schema: %v", path, problems)
		}
	}
	broken := get(serve(reference.TagsAsString), "/api/pages")
	if problems := validateSuccess(t, doc, "/api/pages", broken); len(problems) == 0 {
		t.Errorf("a page list whose tags are a string passes the document's schema")
	}
}

// templateOf maps a request path to its path template.
func templateOf(path string) string {
	parts := strings.Split(strings.TrimPrefix(path, "/api/"), "/")
	if len(parts) == 1 {
		return path
	}
	if parts[0] == "users" {
		return "/api/users/{username}"
	}
	return "/api/" + parts[0] + "/{key}"
}

// validateSuccess validates body against the 200 schema of GET path, with
// the document's components as the schemas' home.
func validateSuccess(t *testing.T, doc map[string]any, path string, body []byte) []string {
	t.Helper()
	op := doc["paths"].(map[string]any)[path].(map[string]any)["get"].(map[string]any)
	ok := op["responses"].(map[string]any)["200"].(map[string]any)
	schema := ok["content"].(map[string]any)["application/json"].(map[string]any)["schema"]
	root := map[string]any{"allOf": []any{schema}, "components": doc["components"]}
	s, err := gojsonschema.NewSchema(gojsonschema.NewGoLoader(root))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	res, err := s.Validate(gojsonschema.NewBytesLoader(body))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, e := range res.Errors() {
		out = append(out, e.String())
	}
	return out
}
