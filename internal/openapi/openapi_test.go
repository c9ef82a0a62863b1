package openapi

import (
	"encoding/json"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/spec"
	"github.com/conformance-suite/conformance/schemas"
)

func document(t *testing.T) map[string]any {
	t.Helper()
	b, err := JSON("v0.0.0-test")
	if err != nil {
		t.Fatal(err)
	}
	// Round-trip through JSON so the test sees what a reader of the file sees.
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func obj(t *testing.T, v any, path ...string) map[string]any {
	t.Helper()
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: not an object", strings.Join(path, "."))
		}
		v = m[p]
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: not an object (%T)", strings.Join(path, "."), v)
	}
	return m
}

// The document has exactly the 16 endpoints of section 4, each once.
func TestEveryEndpointOfSection4(t *testing.T) {
	doc := document(t)
	var got []string
	for path, item := range obj(t, doc, "paths") {
		for method := range item.(map[string]any) {
			got = append(got, strings.ToUpper(method)+" "+path)
		}
	}
	var want []string
	for _, ep := range spec.Endpoints() {
		want = append(want, string(ep))
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("operations\n got %v\nwant %v", got, want)
	}
	if doc["openapi"] != "3.1.0" {
		t.Errorf("openapi = %v", doc["openapi"])
	}
}

func names(t *testing.T, list any, field string) []string {
	t.Helper()
	var out []string
	for _, p := range list.([]any) {
		out = append(out, p.(map[string]any)[field].(string))
	}
	sort.Strings(out)
	return out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// GET /api/pages has the query parameters of 4.1 (the token is the
// apiToken scheme); each single-resource path has its path parameter.
func TestParameters(t *testing.T) {
	doc := document(t)
	list := obj(t, doc, "paths", "/api/pages", "get")
	want := []string{"draft", "numberOfItems", "pageNumber", "published", "scheduled", "static", "sticky", "untagged"}
	if got := names(t, list["parameters"], "name"); !reflect.DeepEqual(got, want) {
		t.Errorf("GET /api/pages parameters %v, want %v", got, want)
	}
	for _, ep := range spec.Endpoints() {
		op := obj(t, doc, "paths", ep.Path(), strings.ToLower(ep.Method()))
		start := strings.Index(ep.Path(), "{")
		if start < 0 {
			continue
		}
		param := strings.Trim(ep.Path()[start:], "{}")
		found := false
		for _, p := range op["parameters"].([]any) {
			pm := p.(map[string]any)
			if pm["name"] == param && pm["in"] == "path" && pm["required"] == true {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no required path parameter %q", ep, param)
		}
	}
}

// Create takes the body fields of 4.3, edit the same but slug (4.4); both
// as JSON and as a form (general rule 3), the tokens required.
func TestPageBodies(t *testing.T) {
	doc := document(t)
	fields43 := []string{"authentication", "category", "content", "coverImage", "date", "description", "noarchive",
		"nofollow", "noindex", "parent", "position", "slug", "tags", "template", "title", "token", "type"}
	for _, tc := range []struct {
		path, method string
		want         []string
	}{
		{"/api/pages", "post", fields43},
		{"/api/pages/{key}", "put", without(fields43, "slug")},
	} {
		content := obj(t, doc, "paths", tc.path, tc.method, "requestBody", "content")
		if got := keys(content); !reflect.DeepEqual(got, []string{"application/json", "application/x-www-form-urlencoded"}) {
			t.Errorf("%s %s media types %v", tc.method, tc.path, got)
		}
		for media := range content {
			schema := obj(t, content, media, "schema")
			if got := keys(obj(t, schema, "properties")); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s %s %s fields\n got %v\nwant %v", tc.method, tc.path, media, got, tc.want)
			}
			if got := schema["required"]; !reflect.DeepEqual(got, []any{"token", "authentication"}) {
				t.Errorf("%s %s required %v: the spec requires the tokens only", tc.method, tc.path, got)
			}
		}
	}
}

func without(list []string, drop string) []string {
	var out []string
	for _, s := range list {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

// GET and DELETE carry the tokens in the query string: the security
// schemes; the ones that need the authentication token ask for both.
func TestSecurity(t *testing.T) {
	doc := document(t)
	schemes := obj(t, doc, "components", "securitySchemes")
	if obj(t, schemes, "apiToken")["name"] != "token" || obj(t, schemes, "authToken")["name"] != "authentication" {
		t.Fatalf("security schemes %v", schemes)
	}
	for _, ep := range spec.Endpoints() {
		op := obj(t, doc, "paths", ep.Path(), strings.ToLower(ep.Method()))
		sec, has := op["security"]
		if ep.Method() == "POST" || ep.Method() == "PUT" {
			if has {
				t.Errorf("%s: security %v, but POST and PUT carry the tokens in the body", ep, sec)
			}
			continue
		}
		want := []string{"apiToken"}
		if ep.NeedsAuth() {
			want = append(want, "authToken")
		}
		if got := keys(sec.([]any)[0].(map[string]any)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: security %v, want %v", ep, got, want)
		}
	}
}

// Every schema file is a component, every definition of defs.json too,
// and every $ref of the document points at something that exists.
func TestComponentsAreTheSuitesSchemas(t *testing.T) {
	doc := document(t)
	comps := obj(t, doc, "components", "schemas")
	for _, file := range schemas.Names() {
		if file == defsFile {
			continue
		}
		c := obj(t, comps, componentName(file))
		if _, has := c["$schema"]; has {
			t.Errorf("%s keeps $schema, which would switch its dialect", file)
		}
		raw, _ := fs.ReadFile(schemas.FS(), file)
		var orig map[string]any
		if err := json.Unmarshal(raw, &orig); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c["required"], orig["required"]) || c["title"] != orig["title"] {
			t.Errorf("component %s differs from %s", componentName(file), file)
		}
	}
	for _, def := range []string{"dateTime", "stringOrFalse", "noSensitiveUserFields"} {
		obj(t, comps, def)
	}
	var refs []string
	collectRefs(doc, &refs)
	if len(refs) < 30 {
		t.Fatalf("only %d $refs found", len(refs))
	}
	for _, ref := range refs {
		parts := strings.Split(strings.TrimPrefix(ref, "#/"), "/")
		if !strings.HasPrefix(ref, "#/components/") || len(parts) != 3 {
			t.Errorf("$ref %q is not a component reference", ref)
			continue
		}
		if _, ok := obj(t, doc, parts[0], parts[1])[parts[2]]; !ok {
			t.Errorf("$ref %q points at nothing", ref)
		}
	}
}

func collectRefs(v any, out *[]string) {
	switch n := v.(type) {
	case map[string]any:
		for k, c := range n {
			if s, ok := c.(string); ok && k == "$ref" {
				*out = append(*out, s)
			}
			collectRefs(c, out)
		}
	case []any:
		for _, c := range n {
			collectRefs(c, out)
		}
	}
}

// Draft-07 and OpenAPI 3.1's 2020-12 dialect read these keywords the same
// way. A schema file that starts using another one (items as an array,
// dependencies, $ref beside other keywords, ...) must be looked at before
// the export can claim to carry it over unchanged.
func TestSchemaKeywordsAreDialectNeutral(t *testing.T) {
	neutral := map[string]bool{"$ref": true, "$schema": true, "additionalProperties": true, "allOf": true, "anyOf": true,
		"const": true, "description": true, "enum": true, "items": true, "minimum": true, "not": true, "pattern": true,
		"properties": true, "required": true, "title": true, "type": true, "definitions": true}
	for _, file := range schemas.Names() {
		raw, _ := fs.ReadFile(schemas.FS(), file)
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		for _, p := range dialectProblems(doc, neutral, "") {
			t.Errorf("%s: %s", file, p)
		}
	}
	// The check itself: a tuple items and a $ref with a sibling are caught.
	bad := map[string]any{"items": []any{map[string]any{}}, "properties": map[string]any{
		"a": map[string]any{"$ref": "x.json", "type": "string"}}}
	if got := dialectProblems(bad, neutral, ""); len(got) != 2 {
		t.Errorf("dialectProblems missed a difference: %v", got)
	}
}

func dialectProblems(v any, neutral map[string]bool, at string) []string {
	var out []string
	switch n := v.(type) {
	case map[string]any:
		if _, ref := n["$ref"]; ref && len(n) > 1 {
			out = append(out, at+": $ref beside other keywords (ignored in draft-07, applied in 2020-12)")
		}
		for k, c := range n {
			switch {
			case !neutral[k]:
				out = append(out, at+": keyword "+k+" is not known to mean the same in both dialects")
			case k == "items":
				if _, tuple := c.([]any); tuple {
					out = append(out, at+": items as an array (a tuple in draft-07, not in 2020-12)")
				}
			}
			if k == "properties" || k == "definitions" {
				for name, sub := range c.(map[string]any) {
					out = append(out, dialectProblems(sub, neutral, at+"/"+k+"/"+name)...)
				}
				continue
			}
			out = append(out, dialectProblems(c, neutral, at+"/"+k)...)
		}
	case []any:
		for _, c := range n {
			out = append(out, dialectProblems(c, neutral, at)...)
		}
	}
	return out
}

// Only the two $ref forms of the schema files are understood.
func TestRefComponent(t *testing.T) {
	for ref, want := range map[string]string{"page.json": "page", "defs.json#/definitions/dateTime": "dateTime"} {
		if got, err := refComponent(ref); err != nil || got != want {
			t.Errorf("refComponent(%q) = %q, %v; want %q", ref, got, err, want)
		}
	}
	for _, ref := range []string{"page.json#/properties/key", "https://example.org/x.json", "../page.json", "defs.json#/definitions/a/b"} {
		if _, err := refComponent(ref); err == nil {
			t.Errorf("refComponent(%q) accepted a form the export does not rewrite", ref)
		}
	}
}
