package openapi

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/conformance-suite/conformance/schemas"
)

// The components are the suite's own JSON Schemas (package schemas), the
// same files the specs validate responses against, so the document cannot
// describe a shape the suite does not check. Draft-07 and the JSON Schema
// dialect of OpenAPI 3.1 (2020-12) agree on every keyword these files use
// (TestSchemaKeywordsAreDialectNeutral keeps it that way); two things change:
//
//   - each file becomes one component named after it ("page-list.json" is
//     #/components/schemas/page-list), and each definition of defs.json
//     becomes a component of its own ("defs.json#/definitions/dateTime" is
//     #/components/schemas/dateTime);
//   - "$schema" is dropped: in a Schema Object it would switch the dialect.

// defsFile holds shared definitions rather than one schema.
const defsFile = "defs.json"

// componentSchemas converts the embedded schema files into
// components.schemas, with every $ref rewritten to a component.
func componentSchemas() (map[string]any, error) {
	out := map[string]any{}
	add := func(name string, schema any) error {
		if _, dup := out[name]; dup {
			return fmt.Errorf("openapi: two schemas would both be the component %q", name)
		}
		out[name] = schema
		return nil
	}
	for _, file := range schemas.Names() {
		raw, err := fs.ReadFile(schemas.FS(), file)
		if err != nil {
			return nil, err
		}
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, fmt.Errorf("openapi: schema %s: %w", file, err)
		}
		delete(doc, "$schema")
		if err := rewriteRefs(doc); err != nil {
			return nil, fmt.Errorf("openapi: schema %s: %w", file, err)
		}
		if file == defsFile {
			defs, _ := doc["definitions"].(map[string]any)
			for name, def := range defs {
				if err := add(name, def); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := add(componentName(file), doc); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// componentName is the component of a schema file: its name without ".json".
func componentName(file string) string { return strings.TrimSuffix(file, ".json") }

// schemaRef is a reference to the component of a schema file or definition.
func schemaRef(component string) map[string]any {
	return map[string]any{"$ref": "#/components/schemas/" + component}
}

// rewriteRefs turns the files' relative $refs ("page.json",
// "defs.json#/definitions/dateTime") into component references, in place.
func rewriteRefs(v any) error {
	switch n := v.(type) {
	case map[string]any:
		for k, child := range n {
			if k == "$ref" {
				ref, ok := child.(string)
				if !ok {
					return fmt.Errorf("$ref is not a string: %v", child)
				}
				target, err := refComponent(ref)
				if err != nil {
					return err
				}
				n[k] = "#/components/schemas/" + target
				continue
			}
			if err := rewriteRefs(child); err != nil {
				return err
			}
		}
	case []any:
		for _, child := range n {
			if err := rewriteRefs(child); err != nil {
				return err
			}
		}
	}
	return nil
}

// refComponent names the component a relative $ref of the schema files
// points at. Only the two forms the files use are understood; anything
// else is an error, so a new form cannot slip through as a broken link.
func refComponent(ref string) (string, error) {
	file, fragment, _ := strings.Cut(ref, "#")
	switch {
	case file == defsFile && strings.HasPrefix(fragment, "/definitions/") && !strings.Contains(fragment[len("/definitions/"):], "/"):
		return strings.TrimPrefix(fragment, "/definitions/"), nil
	case fragment == "" && strings.HasSuffix(file, ".json") && !strings.Contains(file, "/"):
		return componentName(file), nil
	}
	return "", fmt.Errorf("$ref %q: only FILE.json and defs.json#/definitions/NAME are understood", ref)
}
