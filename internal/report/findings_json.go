package report

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// This file reads the JSON of the answers a failed rule judged: the kind
// of value at a field path, and the path's keys, for findings.go.

// showsField reports whether an answer among exs holds a value of the
// cause's kind at one of its paths, and which answer; never for a cause
// that is not about a field of the wrong kind.
func showsField(exs []verdict.Exchange, c *cause) (verdict.Exchange, bool) {
	for _, ex := range exs {
		if ex.Cut || !gjson.Valid(ex.Body) {
			continue
		}
		body := gjson.Parse(ex.Body)
		for path := range c.paths {
			if kindSomewhere(body, strings.Split(path, "."), c.kind) {
				return ex, true
			}
		}
	}
	return verdict.Exchange{}, false
}

// kindSomewhere reports whether the value at segs (array indexes left out:
// every element is looked at) has the kind.
func kindSomewhere(v gjson.Result, segs []string, kind string) bool {
	if v.IsArray() {
		for _, el := range v.Array() {
			if kindSomewhere(el, segs, kind) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return verdict.KindOf(v) == kind
	}
	if !v.IsObject() {
		return false
	}
	next := v.Get(escapeKey(segs[0]))
	return next.Exists() && kindSomewhere(next, segs[1:], kind)
}

// kindAt is the kind of value at segs: "missing" when there is none.
func kindAt(v gjson.Result, segs []string) string {
	for _, s := range segs {
		switch {
		case v.IsArray():
			i, err := strconv.Atoi(s)
			arr := v.Array()
			if err != nil || i < 0 || i >= len(arr) {
				return "missing"
			}
			v = arr[i]
		case v.IsObject():
			v = v.Get(escapeKey(s))
		default:
			return "missing"
		}
	}
	return verdict.KindOf(v)
}

// fieldSegments splits a field path as the framework and the schemas
// write it (data.tags, data[0].tags, data.0.tags, data["a.b"], $ for the
// root) into its keys and indexes.
func fieldSegments(path string) []string {
	var segs []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			segs = append(segs, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(path); i++ {
		switch ch := path[i]; {
		case ch == '\\' && i+1 < len(path):
			i++
			cur.WriteByte(path[i])
		case ch == '.':
			flush()
		case ch == '[':
			flush()
			end := strings.IndexByte(path[i:], ']')
			if end < 0 {
				cur.WriteString(path[i:])
				i = len(path)
				continue
			}
			inner := path[i+1 : i+end]
			if u, err := strconv.Unquote(inner); err == nil {
				inner = u
			}
			segs = append(segs, inner)
			i += end
		default:
			cur.WriteByte(ch)
		}
	}
	flush()
	if len(segs) == 1 && segs[0] == "$" {
		return nil
	}
	return segs
}

func withoutIndexes(segs []string) []string {
	var out []string
	for _, s := range segs {
		if _, err := strconv.Atoi(s); err != nil {
			out = append(out, s)
		}
	}
	return out
}

// fieldName is the name of the field a path ends in ("tags" for data[3].tags).
func fieldName(segs []string) string {
	keys := withoutIndexes(segs)
	if len(keys) == 0 {
		return "$"
	}
	return keys[len(keys)-1]
}

// escapeKey makes a key a gjson path of one segment.
func escapeKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if strings.ContainsRune(`.*?|#@\!=<>%`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
