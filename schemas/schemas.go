// Package schemas holds the JSON Schemas (draft-07) of the Content Management
// HTTP API responses and validates documents against them.
//
// The schema files are embedded in the binary. They reference each other with
// relative $refs (for example "defs.json#/definitions/dateTime"), so they can
// also be exported to a directory and used with any draft-07 validator.
package schemas

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/xeipuuv/gojsonschema"
)

//go:embed *.json
var files embed.FS

// FS returns the embedded schema files. Every file is at the root of the FS.
func FS() fs.FS { return files }

// Names returns the sorted file names of all schemas (for example "page.json").
func Names() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil { // cannot happen with an embed.FS
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// Export writes every schema file into dir, creating dir if needed and
// overwriting files of the same name.
func Export(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("export schemas: %w", err)
	}
	for _, name := range Names() {
		data, err := files.ReadFile(name)
		if err != nil {
			return fmt.Errorf("export schemas: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("export schemas: %w", err)
		}
	}
	return nil
}

// Validate checks document against the named schema. The name is a file name
// as returned by Names; the ".json" suffix may be omitted.
//
// It returns the violations, sorted, one human-readable line each, of the form
// "data[3].tags: expected object, got string"; "$" stands for the document
// root. An empty result means the document conforms. The error is non-nil
// only when the schema name is unknown or the document is not a single JSON
// value. Validate is safe for concurrent use.
func Validate(name string, document []byte) ([]string, error) {
	vs, err := Violations(name, document)
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Path + ": " + v.Problem
	}
	if len(out) == 0 {
		out = nil
	}
	return out, err
}

// Violation is one way a document breaks a schema.
type Violation struct {
	// Path is the JSON path of the offending value, as Validate writes it
	// (data[3].tags; "$" for the root).
	Path string
	// Problem is what is wrong there ("expected object, got string").
	Problem string
}

// Violations is Validate with the path of each violation as data, for
// whoever points at the offending values (the report marks them).
func Violations(name string, document []byte) ([]Violation, error) {
	name = canonicalName(name)
	if len(document) > itemwiseAt {
		if item := listItems(name); item != "" {
			if msgs, ok, err := itemwise(name, item, document); ok {
				return sortedViolations(msgs), err
			}
		}
	}
	msgs, err := remembered(name, document)
	if err != nil || msgs == nil {
		return nil, err
	}
	return sortedViolations(msgs), nil
}

// messages validates document whole against the named schema: nil when
// it conforms.
func messages(name string, document []byte) ([]message, error) {
	schema, err := compiled(name)
	if err != nil {
		return nil, err
	}
	// Decoded only when the document does not conform: a conforming one,
	// the common case, is parsed by the validator alone.
	if !json.Valid(document) {
		_, err := decode(document)
		return nil, fmt.Errorf("validate against %s: document is not JSON: %w", name, err)
	}
	result, err := schema.Validate(gojsonschema.NewBytesLoader(document))
	if err != nil {
		return nil, fmt.Errorf("validate against %s: %w", name, err)
	}
	if result.Valid() {
		return nil, nil
	}
	doc, err := decode(document)
	if err != nil {
		return nil, fmt.Errorf("validate against %s: document is not JSON: %w", name, err)
	}
	cat, err := loadCatalog()
	if err != nil {
		return nil, err
	}
	return describeMessages(cat, name, doc, result.Errors()), nil
}

// itemwiseAt is the size past which a list answer is validated an item at
// a time: the validator holds a document as Go values, about ten times its
// size, and the tag list of a site of 10,000 pages, which names every page
// a tag carries, is hundreds of kilobytes.
const itemwiseAt = 64 << 10

// listItems is the schema of the items of a list schema's data array
// ("page.json" for "page-list.json"), "" for any other schema.
func listItems(name string) string {
	raw, err := files.ReadFile(name)
	if err != nil {
		return ""
	}
	data := gjson.GetBytes(raw, "properties.data")
	ref := data.Get("items.$ref").String()
	if data.Get("type").String() != "array" || !isSchemaName(ref) {
		return ""
	}
	return ref
}

// itemwise validates a list document as Violations would, an item at a
// time: the document with data empty against the list schema, then each
// item of data against the item schema, with each item's messages placed
// at data[i]. ok is false when the document is not a JSON object with a
// data array (the whole document is validated then).
func itemwise(name, item string, document []byte) (msgs []message, ok bool, err error) {
	if !json.Valid(document) {
		return nil, false, nil
	}
	if t := bytes.TrimLeft(document, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, false, nil
	}
	// One data member only: a decoder takes the last of two, gjson the
	// first; with two, the document is validated whole, as a decoder
	// reads it.
	members := 0
	gjson.ParseBytes(document).ForEach(func(key, _ gjson.Result) bool {
		if key.String() == "data" {
			members++
		}
		return members < 2
	})
	data := gjson.GetBytes(document, "data")
	if members != 1 || !data.IsArray() || data.Index <= 0 {
		return nil, false, nil
	}
	envelope := make([]byte, 0, len(document)-len(data.Raw)+2)
	envelope = append(append(append(envelope, document[:data.Index]...), "[]"...), document[data.Index+len(data.Raw):]...)
	if msgs, err = remembered(name, envelope); err != nil {
		return nil, true, err
	}
	i := 0
	data.ForEach(func(_, v gjson.Result) bool {
		var ims []message
		if ims, err = remembered(item, []byte(v.Raw)); err != nil {
			return false
		}
		for _, m := range ims {
			msgs = append(msgs, m.within("data", i))
		}
		i++
		return true
	})
	if err != nil {
		return nil, true, err
	}
	return msgs, true, nil
}

func canonicalName(name string) string {
	if !strings.HasSuffix(name, ".json") {
		return name + ".json"
	}
	return name
}

// cacheEntry holds one compiled schema; once guards its compilation.
type cacheEntry struct {
	once   sync.Once
	schema *gojsonschema.Schema
	err    error
}

var cache sync.Map // file name -> *cacheEntry

func compiled(name string) (*gojsonschema.Schema, error) {
	if !isSchemaName(name) {
		return nil, fmt.Errorf("unknown schema %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	v, _ := cache.LoadOrStore(name, &cacheEntry{})
	entry := v.(*cacheEntry)
	entry.once.Do(func() {
		loader := gojsonschema.NewSchemaLoader()
		loader.Draft = gojsonschema.Draft7
		loader.AutoDetect = false
		// loader.Validate stays false: checking against the meta-schema compiles
		// it on the same pool, which switches $ref loading from the embedded FS
		// to the OS file system. The tests check the meta-schema instead.
		entry.schema, entry.err = loader.Compile(
			gojsonschema.NewReferenceLoaderFileSystem("file:///"+name, http.FS(files)))
		if entry.err != nil {
			entry.err = fmt.Errorf("compile schema %s: %w", name, entry.err)
		}
	})
	return entry.schema, entry.err
}

// isSchemaName reports whether name is one of Names, without listing them:
// every validation asks, and listing the embedded files took seven times
// as long as looking the one name up.
func isSchemaName(name string) bool {
	if strings.ContainsAny(name, `/\`) || !strings.HasSuffix(name, ".json") {
		return false
	}
	info, err := fs.Stat(files, name)
	return err == nil && !info.IsDir()
}

// decode parses document the way gojsonschema does (numbers kept as
// json.Number) and rejects empty input and trailing data.
func decode(document []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(document))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty document")
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}
