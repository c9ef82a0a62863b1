package schemas

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// This file reads the raw schema files ("catalog") to find the subschemas
// that apply at a document path: what describeMessages consults where
// gojsonschema's errors carry no detail about the schema (the alternatives of
// anyOf/oneOf, the properties a "not" forbids).

// catalog is the raw JSON of every schema file, used to find the subschemas
// that apply at a document path.
type catalog struct {
	docs map[string]any
}

var (
	catalogOnce sync.Once
	catalogVal  *catalog
	catalogErr  error
)

func loadCatalog() (*catalog, error) {
	catalogOnce.Do(func() {
		c := &catalog{docs: map[string]any{}}
		for _, name := range Names() {
			data, err := fs.ReadFile(files, name)
			if err != nil {
				catalogErr = err
				return
			}
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				catalogErr = fmt.Errorf("schema %s: %w", name, err)
				return
			}
			c.docs[name] = v
		}
		catalogVal = c
	})
	return catalogVal, catalogErr
}

// node is a subschema and the file it lives in (for resolving relative $refs).
type node struct {
	file string
	v    any
}

const maxDepth = 32

// deref follows $ref chains (in draft-07 a $ref replaces its siblings).
func (c *catalog) deref(n node) (node, bool) {
	for i := 0; i < maxDepth; i++ {
		m, ok := n.v.(map[string]any)
		if !ok {
			return n, true
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return n, true
		}
		file, ptr, _ := strings.Cut(ref, "#")
		target := n.file
		if file != "" {
			target = path.Join(path.Dir(n.file), file)
		}
		doc, ok := c.docs[target]
		if !ok {
			return n, false
		}
		v, ok := pointer(doc, ptr)
		if !ok {
			return n, false
		}
		n = node{target, v}
	}
	return n, false
}

// pointer resolves a JSON pointer ("/definitions/dateTime") inside doc.
func pointer(doc any, ptr string) (any, bool) {
	if ptr == "" || ptr == "/" {
		return doc, true
	}
	cur := doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// here returns n and every subschema applying at the same document location
// through allOf, anyOf, oneOf, then and else, with $refs resolved.
func (c *catalog) here(n node, depth int, out []node) []node {
	if depth > maxDepth {
		return out
	}
	n, ok := c.deref(n)
	if !ok {
		return out
	}
	out = append(out, n)
	m, ok := n.v.(map[string]any)
	if !ok {
		return out
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if subs, ok := m[kw].([]any); ok {
			for _, s := range subs {
				out = c.here(node{n.file, s}, depth+1, out)
			}
		}
	}
	for _, kw := range []string{"then", "else"} {
		if s, ok := m[kw]; ok {
			out = c.here(node{n.file, s}, depth+1, out)
		}
	}
	return out
}

// child returns the subschemas of n (already dereferenced) for one step.
func child(n node, seg pathSeg) []node {
	m, ok := n.v.(map[string]any)
	if !ok {
		return nil
	}
	if seg.index >= 0 {
		switch items := m["items"].(type) {
		case nil:
		case []any:
			if seg.index < len(items) {
				return []node{{n.file, items[seg.index]}}
			}
			if ai, ok := m["additionalItems"]; ok {
				return []node{{n.file, ai}}
			}
		default:
			return []node{{n.file, items}}
		}
		return nil
	}
	var out []node
	if props, ok := m["properties"].(map[string]any); ok {
		if p, ok := props[seg.key]; ok {
			out = append(out, node{n.file, p})
		}
	}
	if pp, ok := m["patternProperties"].(map[string]any); ok {
		for pat, s := range pp {
			if re, err := regexp.Compile(pat); err == nil && re.MatchString(seg.key) {
				out = append(out, node{n.file, s})
			}
		}
	}
	if len(out) == 0 {
		if ap, ok := m["additionalProperties"]; ok {
			out = append(out, node{n.file, ap})
		}
	}
	return out
}

// at returns the subschemas of schema file name that apply at segs.
func (c *catalog) at(name string, segs []pathSeg) []node {
	root, ok := c.docs[name]
	if !ok {
		return nil
	}
	cur := c.here(node{name, root}, 0, nil)
	for _, s := range segs {
		var next []node
		for _, n := range cur {
			for _, ch := range child(n, s) {
				next = c.here(ch, 0, next)
			}
		}
		cur = next
	}
	return cur
}

// alternatives describes the anyOf/oneOf alternatives at segs, for example
// "string or false"; "" when they cannot be told apart unambiguously.
func (c *catalog) alternatives(name string, segs []pathSeg, kw string) string {
	found := ""
	for _, n := range c.at(name, segs) {
		m, ok := n.v.(map[string]any)
		if !ok {
			continue
		}
		subs, ok := m[kw].([]any)
		if !ok {
			continue
		}
		parts := make([]string, 0, len(subs))
		for _, s := range subs {
			parts = append(parts, c.describe(node{n.file, s}))
		}
		desc := strings.Join(parts, " or ")
		if found != "" && found != desc {
			return "" // several different alternatives at this path
		}
		found = desc
	}
	return found
}

// describe names what a subschema accepts, briefly.
func (c *catalog) describe(n node) string {
	n, ok := c.deref(n)
	if !ok {
		return "a referenced schema"
	}
	switch v := n.v.(type) {
	case bool:
		if v {
			return "anything"
		}
		return "nothing"
	case map[string]any:
		if cv, ok := v["const"]; ok {
			return jsonText(cv)
		}
		if ev, ok := v["enum"].([]any); ok {
			parts := make([]string, len(ev))
			for i, e := range ev {
				parts[i] = jsonText(e)
			}
			return "one of " + strings.Join(parts, ", ")
		}
		switch t := v["type"].(type) {
		case string:
			return t
		case []any:
			parts := make([]string, len(t))
			for i, e := range t {
				parts[i] = fmt.Sprint(e)
			}
			return strings.Join(parts, " or ")
		}
		if _, ok := v["properties"]; ok {
			return "object"
		}
	}
	return "a matching value"
}

// forbiddenPresent lists, sorted, the keys of value named by the "required"
// lists inside the "not" subschemas at segs: the properties that made a
// not-required check fail.
func (c *catalog) forbiddenPresent(name string, segs []pathSeg, value any) []string {
	obj, ok := value.(map[string]any)
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	var keys []string
	var collect func(n node, depth int)
	collect = func(n node, depth int) {
		if depth > maxDepth {
			return
		}
		n, ok := c.deref(n)
		if !ok {
			return
		}
		m, ok := n.v.(map[string]any)
		if !ok {
			return
		}
		if req, ok := m["required"].([]any); ok {
			for _, r := range req {
				k, ok := r.(string)
				if _, present := obj[k]; ok && present && !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
		}
		for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
			if subs, ok := m[kw].([]any); ok {
				for _, s := range subs {
					collect(node{n.file, s}, depth+1)
				}
			}
		}
	}
	for _, n := range c.at(name, segs) {
		if m, ok := n.v.(map[string]any); ok {
			if not, ok := m["not"]; ok {
				collect(node{n.file, not}, 0)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

// forbiddenTypes lists the JSON types that a "not" at the document path
// forbids ({"not": {"type": [...]}}), sorted.
func (c *catalog) forbiddenTypes(name string, segs []pathSeg) []string {
	var types []string
	for _, n := range c.at(name, segs) {
		m, ok := n.v.(map[string]any)
		if !ok {
			continue
		}
		not, ok := m["not"].(map[string]any)
		if !ok {
			continue
		}
		switch t := not["type"].(type) {
		case string:
			types = append(types, t)
		case []any:
			for _, x := range t {
				if s, ok := x.(string); ok {
					types = append(types, s)
				}
			}
		}
	}
	sort.Strings(types)
	return slices.Compact(types)
}
