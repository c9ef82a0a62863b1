package report

import (
	"encoding/json"
	"html/template"
	"strconv"
	"strings"

	"github.com/conformance-suite/conformance/internal/verdict"
)

// The HTML report shows each exchange's JSON bodies indented, one field a
// line, with the fields the failure's facts name marked. Bodies are often
// cut (the client shows 4 KB of each and notes the rest), so the printer
// reads JSON token by token and never needs the whole document to be valid.

// splitBody separates a body as an exchange's text shows it from what the
// client added after the part it kept (its note on the rest). A complete
// JSON document is all body; otherwise the body is as much of the text as
// one of the spec's exchanges (data) holds, and what follows is the note.
// Without data, a body that is not whole JSON is left as text.
func splitBody(shown string, data []verdict.Exchange) (body, note string, ok bool) {
	if json.Valid([]byte(shown)) {
		return shown, "", true
	}
	n := 0
	for _, ex := range data {
		n = max(n, commonPrefix(shown, ex.Body))
	}
	if n == 0 {
		return "", shown, false
	}
	return shown[:n], shown[n:], true
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// exchangeHTML renders an exchange (or several, as a spec's request log)
// as escaped HTML, each JSON body indented with the paths marked; data are
// the spec's exchanges (splitBody).
func exchangeHTML(ex string, data []verdict.Exchange, paths []string) template.HTML {
	marked := map[string]bool{}
	for _, p := range paths {
		marked[p] = true
	}
	var b strings.Builder
	lines := strings.Split(ex, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimLeft(l, " ")
		body, isBody := strings.CutPrefix(trimmed, "body: ")
		if !isBody {
			b.WriteString(template.HTMLEscapeString(l))
			if i < len(lines)-1 {
				b.WriteByte('\n')
			}
			continue
		}
		// A body runs on over the lines indented like its first one.
		pad := l[:len(l)-len(trimmed)]
		for i+1 < len(lines) && pad != "" && strings.HasPrefix(lines[i+1], pad) {
			i++
			body += "\n" + strings.TrimPrefix(lines[i], pad)
		}
		body, note, ok := splitBody(body, data)
		b.WriteString(template.HTMLEscapeString(pad + "body: "))
		if t := strings.TrimSpace(body); ok && (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) {
			b.WriteString(`<span class="json">`)
			b.WriteString(indentHTML(prettyJSON(t, marked), pad+"  "))
			b.WriteString(`</span>`)
		} else {
			b.WriteString(template.HTMLEscapeString(indentHTML(body, pad+"  ")))
		}
		b.WriteString(template.HTMLEscapeString(indentHTML(note, pad+"  ")))
		b.WriteByte('\n')
	}
	return template.HTML(b.String()) //nolint:gosec // every piece of text above is escaped
}

func indentHTML(s, pad string) string { return strings.ReplaceAll(s, "\n", "\n"+pad) }

// jsonFrame is an object or array the printer is inside.
type jsonFrame struct {
	path   string
	object bool
	key    string // the last key read, in an object
	index  int    // the current element, in an array
	// wantKey: the next string in an object is a key.
	wantKey bool
}

// prettyJSON indents JSON text and wraps each value at a marked path (and
// its key) in <mark>. It returns HTML. Text that stops early, or is not
// quite JSON, is printed as far as it goes.
func prettyJSON(s string, marked map[string]bool) string {
	var b strings.Builder
	var stack []jsonFrame
	depth := func() string { return strings.Repeat("  ", len(stack)) }
	open := false // a <mark> is open until the current value ends
	closeMark := func() {
		if open {
			b.WriteString("</mark>")
			open = false
		}
	}
	// valuePath is the path of the value about to start.
	valuePath := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.object {
			return joinPath(f.path, f.key)
		}
		return f.path + "[" + strconv.Itoa(f.index) + "]"
	}
	startValue := func() {
		if len(stack) > 0 && !stack[len(stack)-1].object && marked[valuePath()] {
			b.WriteString("<mark>")
			open = true
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '{' || c == '[':
			startValue()
			b.WriteByte(c)
			closeMark()
			stack = append(stack, jsonFrame{path: valuePath(), object: c == '{', wantKey: c == '{'})
			i++
			if j := skipSpace(s, i); j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue
			}
			b.WriteString("\n" + depth())
		case c == '}' || c == ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if i > 0 && s[skipSpaceBack(s, i-1)] != '{' && s[skipSpaceBack(s, i-1)] != '[' {
				b.WriteString("\n" + depth())
			}
			b.WriteByte(c)
			i++
		case c == ',':
			closeMark()
			b.WriteString(",\n")
			if len(stack) > 0 {
				f := &stack[len(stack)-1]
				f.index++
				f.wantKey = f.object
			}
			b.WriteString(depth())
			i++
		case c == ':':
			b.WriteString(": ")
			if len(stack) > 0 {
				stack[len(stack)-1].wantKey = false
			}
			i++
		case c == '"':
			j := endOfString(s, i)
			tok := s[i:j]
			if len(stack) > 0 && stack[len(stack)-1].wantKey {
				f := &stack[len(stack)-1]
				f.key, _ = strconv.Unquote(tok)
				if marked[joinPath(f.path, f.key)] {
					b.WriteString("<mark>")
					open = true
				}
			} else {
				startValue()
			}
			b.WriteString(template.HTMLEscapeString(tok))
			if len(stack) == 0 || !stack[len(stack)-1].wantKey {
				closeMark()
			}
			i = j
		default: // a number, true, false, null, or something else
			j := i
			for j < len(s) && !strings.ContainsRune(",:{}[] \t\n\r\"", rune(s[j])) {
				j++
			}
			if j == i {
				j++
			}
			startValue()
			b.WriteString(template.HTMLEscapeString(s[i:j]))
			closeMark()
			i = j
		}
	}
	closeMark()
	return b.String()
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// endOfString returns the index after the string literal at s[i] (or the
// end of s, when it is cut).
func endOfString(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(s)
}

func skipSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\n\r", s[i]) >= 0 {
		i++
	}
	return i
}

func skipSpaceBack(s string, i int) int {
	for i > 0 && strings.IndexByte(" \t\n\r", s[i]) >= 0 {
		i--
	}
	return i
}
