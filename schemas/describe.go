package schemas

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/xeipuuv/gojsonschema"
)

// This file turns gojsonschema's ResultErrors into one-line messages:
//
//   - the error's context ("(root).data.3.tags") becomes a path ("data[3].tags"),
//     using the document itself to tell array indexes from object keys;
//   - Type() and Details() become "expected X, got Y" where possible;
//   - errors that only summarise merged sub-errors (allOf, if/then/else) are
//     dropped;
//   - anyOf/oneOf and not errors carry no detail about the schema, so the raw
//     schema files are consulted ("catalog") to say which alternatives were
//     allowed or which forbidden properties are present.

// pathSeg is one step of a document path: an object key or an array index.
type pathSeg struct {
	key   string
	index int // >= 0 for an array index; -1 for an object key
}

func keySeg(k string) pathSeg { return pathSeg{key: k, index: -1} }

// ctxDelim separates the segments of a JsonContext; it cannot be confused
// with a dot inside an object key.
const ctxDelim = "\x00"

// locate converts an error context into path segments and returns the
// document value found there (nil when absent).
func locate(doc any, ctx *gojsonschema.JsonContext) ([]pathSeg, any) {
	if ctx == nil {
		return nil, doc
	}
	raw := strings.Split(ctx.String(ctxDelim), ctxDelim)
	raw = raw[1:] // the first segment is always "(root)"
	segs := make([]pathSeg, 0, len(raw))
	cur := doc
	for _, s := range raw {
		switch c := cur.(type) {
		case []any:
			if i, err := strconv.Atoi(s); err == nil && i >= 0 && i < len(c) {
				segs = append(segs, pathSeg{key: s, index: i})
				cur = c[i]
				continue
			}
		case map[string]any:
			segs = append(segs, keySeg(s))
			cur = c[s]
			continue
		}
		segs = append(segs, keySeg(s))
		cur = nil
	}
	return segs, cur
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// renderPath formats segments as data[3].tags; keys that are not plain
// identifiers are written as ["a.b"]; the root is "$".
func renderPath(segs []pathSeg) string {
	var b strings.Builder
	for _, s := range segs {
		switch {
		case s.index >= 0:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case identifier.MatchString(s.key):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		default:
			b.WriteString("[" + strconv.Quote(s.key) + "]")
		}
	}
	if b.Len() == 0 {
		return "$"
	}
	return b.String()
}

func appendSeg(segs []pathSeg, key string) []pathSeg {
	out := make([]pathSeg, len(segs), len(segs)+1)
	copy(out, segs)
	return append(out, keySeg(key))
}

// message is one violation; key orders messages by path, numerically for
// array indexes.
type message struct {
	key     string
	text    string
	path    string
	problem string
}

// within is m as a message about the item at index of the member
// (data[index]) of a document, m being about that item alone.
func (m message) within(member string, index int) message {
	prefix := renderPath([]pathSeg{keySeg(member), {index: index}})
	path := prefix
	switch {
	case m.path == "$":
	case strings.HasPrefix(m.path, "["):
		path += m.path
	default:
		path += "." + m.path
	}
	return message{key: fmt.Sprintf("\x01%s\x01%012d", member, index) + m.key, text: path + ": " + m.problem, path: path, problem: m.problem}
}

func newMessage(segs []pathSeg, text string) message {
	var k strings.Builder
	for _, s := range segs {
		if s.index >= 0 {
			fmt.Fprintf(&k, "\x01%012d", s.index)
		} else {
			k.WriteString("\x01" + s.key)
		}
	}
	path := renderPath(segs)
	return message{key: k.String() + "\x00" + text, text: path + ": " + text, path: path, problem: text}
}

// describeMessages describes each error, unsorted (sortedViolations
// makes them the violations).
func describeMessages(cat *catalog, name string, doc any, errs []gojsonschema.ResultError) []message {
	all := make([]locatedError, 0, len(errs))
	for _, e := range errs {
		segs, value := locate(doc, e.Context())
		all = append(all, locatedError{e, segs, value, renderPath(segs)})
	}
	msgs, summarised := summariseAlternatives(cat, name, all)
	for _, l := range all {
		msgs = append(msgs, describeError(cat, name, l, summarised)...)
	}
	return msgs
}

// locatedError is a validation error with its place in the document.
type locatedError struct {
	err   gojsonschema.ResultError
	segs  []pathSeg
	value any // the document's value there (nil when absent)
	path  string
}

// summariseAlternatives describes each anyOf/oneOf failure whose
// alternatives the catalog can name as "expected A or B". It returns the
// paths it summarised too: there, the merged errors of the closest
// alternative are noise.
func summariseAlternatives(cat *catalog, name string, all []locatedError) (msgs []message, summarised map[string]bool) {
	summarised = map[string]bool{}
	for _, l := range all {
		kw, ok := alternativesKeyword[l.err.Type()]
		if !ok {
			continue
		}
		alts := cat.alternatives(name, l.segs, kw)
		if alts == "" {
			continue // described by describeError
		}
		summarised[l.path] = true
		if kw == "oneOf" {
			msgs = append(msgs, newMessage(l.segs, fmt.Sprintf("expected exactly one of %s, got %s", alts, shortValue(l.value))))
		} else {
			msgs = append(msgs, newMessage(l.segs, fmt.Sprintf("expected %s, got %s", alts, shortValue(l.value))))
		}
	}
	return msgs, summarised
}

// alternativesKeyword is the schema keyword of an error that none of some
// alternatives matched.
var alternativesKeyword = map[string]string{"number_any_of": "anyOf", "number_one_of": "oneOf"}

// bounds are the comparisons of the number errors: the operator, and the
// detail that holds the bound.
var bounds = map[string]struct{ op, detail string }{
	"number_gte": {">=", "min"},
	"number_gt":  {">", "min"},
	"number_lte": {"<=", "max"},
	"number_lt":  {"<", "max"},
}

// describeError describes one error: none, when it only summarises
// sub-errors reported on their own or sits where an anyOf/oneOf was
// summarised; more than one for a not whose forbidden properties are
// present.
func describeError(cat *catalog, name string, l locatedError, summarised map[string]bool) []message {
	e, d := l.err, l.err.Details()
	if b, ok := bounds[e.Type()]; ok {
		return []message{newMessage(l.segs, fmt.Sprintf("expected %s %v, got %s", b.op, d[b.detail], jsonText(l.value)))}
	}
	switch e.Type() {
	case "number_all_of", "condition_then", "condition_else":
		// Summaries of sub-errors that are reported on their own.
		return nil
	case "number_any_of", "number_one_of":
		if summarised[l.path] {
			return nil
		}
		return []message{newMessage(l.segs, e.Description())}
	case "invalid_type", "const", "enum", "pattern":
		if summarised[l.path] {
			return nil
		}
		return []message{newMessage(l.segs, expectation(e.Type(), d, l.value))}
	case "required":
		return []message{newMessage(appendSeg(l.segs, fmt.Sprint(d["property"])), "required property is missing")}
	case "additional_property_not_allowed":
		return []message{newMessage(appendSeg(l.segs, fmt.Sprint(d["property"])), "property not allowed")}
	case "false":
		return []message{newMessage(l.segs, "not allowed")}
	case "number_not":
		return describeNot(cat, name, l)
	default:
		return []message{newMessage(l.segs, e.Description())}
	}
}

// describeNot describes a failed "not": the forbidden properties present,
// one message each, else the forbidden types, else gojsonschema's words.
func describeNot(cat *catalog, name string, l locatedError) []message {
	keys := cat.forbiddenPresent(name, l.segs, l.value)
	types := cat.forbiddenTypes(name, l.segs)
	var msgs []message
	switch {
	case len(keys) == 0 && len(types) > 0:
		msgs = append(msgs, newMessage(l.segs, fmt.Sprintf("expected no %s, got %s", strings.Join(types, " or "), shortValue(l.value))))
	case len(keys) == 0:
		msgs = append(msgs, newMessage(l.segs, l.err.Description()))
	}
	for _, k := range keys {
		msgs = append(msgs, newMessage(appendSeg(l.segs, k), "property not allowed"))
	}
	return msgs
}

// sortedViolations sorts messages by place, then text, and drops repeats.
func sortedViolations(msgs []message) []Violation {
	sort.Slice(msgs, func(i, j int) bool { return msgs[i].key < msgs[j].key })
	out := make([]Violation, 0, len(msgs))
	for i, m := range msgs {
		if i == 0 || m.text != msgs[i-1].text {
			out = append(out, Violation{Path: m.path, Problem: m.problem})
		}
	}
	return out
}

// expectation renders type, const, enum and pattern errors.
func expectation(typ string, d gojsonschema.ErrorDetails, value any) string {
	switch typ {
	case "invalid_type":
		expected := fmt.Sprint(d["expected"])
		if strings.HasPrefix(expected, "[") && strings.HasSuffix(expected, "]") {
			expected = strings.Join(strings.Split(strings.Trim(expected, "[]"), ","), " or ")
		}
		return fmt.Sprintf("expected %s, got %v", expected, d["given"])
	case "const":
		return fmt.Sprintf("expected %v, got %s", d["allowed"], jsonText(value))
	case "enum":
		return fmt.Sprintf("expected one of %v, got %s", d["allowed"], jsonText(value))
	default: // pattern
		return fmt.Sprintf("expected string matching %v, got %s", d["pattern"], jsonText(value))
	}
}

// jsonText renders a value as compact JSON, shortened when long.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const max = 60
	if s := []rune(string(b)); len(s) > max {
		return string(s[:max]) + "…"
	}
	return string(b)
}

// shortValue names a value by its JSON type, or by itself for booleans and
// null (where the type alone would hide what went wrong).
func shortValue(v any) string {
	switch x := v.(type) {
	case nil, bool:
		return jsonText(v)
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		if f, err := x.Float64(); err == nil && f == float64(int64(f)) {
			return "integer"
		}
		return "number"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
