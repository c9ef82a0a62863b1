package reference

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// kv is one member of a JSON object.
type kv struct {
	k string
	v any
}

// obj is a JSON object that is a record (an envelope, a page, a tag...).
// Members are written in order. The benign-extra-fields mutant adds a member
// to every obj.
type obj []kv

// dict is a JSON object that is a map (tag key to name, users by username,
// settings): the encoder never adds members to it.
type dict []kv

// set replaces the value of k, or appends it.
func (o obj) set(k string, v any) obj {
	for i := range o {
		if o[i].k == k {
			o[i].v = v
			return o
		}
	}
	return append(o, kv{k, v})
}

// with returns d with the value of k replaced, when d has k.
func (d dict) with(k string, v any) dict {
	for i := range d {
		if d[i].k == k {
			d[i].v = v
		}
	}
	return d
}

// without returns o without the members named.
func (o obj) without(names ...string) obj {
	out := make(obj, 0, len(o))
next:
	for _, m := range o {
		for _, n := range names {
			if m.k == n {
				continue next
			}
		}
		out = append(out, m)
	}
	return out
}

// encoder writes JSON with the byte-level options of the benign mutants.
type encoder struct {
	reverse    bool // write object members in reverse order
	extra      bool // add an extra member to every record object
	escSlashes bool // write '/' as \/ and non-ASCII as \uXXXX
	buf        []byte
}

func (e *encoder) encode(v any) []byte {
	e.buf = e.buf[:0]
	e.value(v)
	return e.buf
}

func (e *encoder) value(v any) {
	if !e.scalar(v) {
		e.composite(v)
	}
}

// scalar writes v when it is null, a string, a boolean or a number.
func (e *encoder) scalar(v any) bool {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case string:
		e.str(x)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			e.buf = append(e.buf, "null"...)
		} else {
			e.buf = strconv.AppendFloat(e.buf, x, 'f', -1, 64)
		}
	case json.Number:
		e.buf = append(e.buf, x.String()...)
	default:
		return false
	}
	return true
}

// composite writes an object or an array; anything else as a string.
func (e *encoder) composite(v any) {
	switch x := v.(type) {
	case obj:
		members := []kv(x)
		if e.extra {
			members = append(append([]kv(nil), members...), kv{"extraField", "benign"})
		}
		e.object(members)
	case dict:
		e.object(x)
	case []any:
		e.array(x)
	case []obj:
		items := make([]any, len(x))
		for i := range x {
			items[i] = x[i]
		}
		e.array(items)
	case []string:
		items := make([]any, len(x))
		for i := range x {
			items[i] = x[i]
		}
		e.array(items)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := make(dict, 0, len(keys))
		for _, k := range keys {
			d = append(d, kv{k, x[k]})
		}
		e.object(d)
	default:
		e.str(fmt.Sprint(x))
	}
}

func (e *encoder) array(items []any) {
	e.buf = append(e.buf, '[')
	for i, it := range items {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.value(it)
	}
	e.buf = append(e.buf, ']')
}

func (e *encoder) object(members []kv) {
	e.buf = append(e.buf, '{')
	n := len(members)
	for i := 0; i < n; i++ {
		m := members[i]
		if e.reverse {
			m = members[n-1-i]
		}
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.str(m.k)
		e.buf = append(e.buf, ':')
		e.value(m.v)
	}
	e.buf = append(e.buf, '}')
}

const hexDigits = "0123456789abcdef"

func (e *encoder) u4(r rune) {
	e.buf = append(e.buf, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

func (e *encoder) str(s string) {
	e.buf = append(e.buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				e.buf = append(e.buf, '\\', '"')
			case c == '\\':
				e.buf = append(e.buf, '\\', '\\')
			case c == '\n':
				e.buf = append(e.buf, '\\', 'n')
			case c == '\r':
				e.buf = append(e.buf, '\\', 'r')
			case c == '\t':
				e.buf = append(e.buf, '\\', 't')
			case c < 0x20 || c == 0x7f:
				e.u4(rune(c))
			case c == '/' && e.escSlashes:
				e.buf = append(e.buf, '\\', '/')
			default:
				e.buf = append(e.buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			e.buf = append(e.buf, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			e.u4(r)
		case e.escSlashes && r > 0xffff:
			r -= 0x10000
			e.u4(0xd800 + (r>>10)&0x3ff)
			e.u4(0xdc00 + r&0x3ff)
		case e.escSlashes:
			e.u4(r)
		default:
			e.buf = utf8.AppendRune(e.buf, r)
		}
	}
	e.buf = append(e.buf, '"')
}
