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
	p := &jsonPrinter{s: s, marked: marked}
	for i := 0; i < len(s); {
		i = p.token(i)
	}
	p.closeMark()
	return p.b.String()
}

// jsonPrinter is prettyJSON's state: where it is in the document and
// whether a <mark> is open.
type jsonPrinter struct {
	b      strings.Builder
	s      string
	marked map[string]bool
	stack  []jsonFrame
	// open: a <mark> is open until the current value ends.
	open bool
}

// token prints the token at s[i] and returns the index after it. Each
// token is printed on its own, knowing only the frames it is inside, so a
// cut document prints as far as it goes.
func (p *jsonPrinter) token(i int) int {
	switch c := p.s[i]; {
	case isJSONSpace(c):
		return i + 1 // the printer lays the text out anew
	case c == '{' || c == '[':
		return p.openContainer(i)
	case c == '}' || c == ']':
		return p.closeContainer(i)
	case c == ',':
		return p.comma(i)
	case c == ':':
		return p.colon(i)
	case c == '"':
		return p.quoted(i)
	default: // a number, true, false, null, or something else
		return p.bare(i)
	}
}

func isJSONSpace(c byte) bool { return strings.IndexByte(" \t\n\r", c) >= 0 }

// depth is the indentation of a line inside the current frames.
func (p *jsonPrinter) depth() string { return strings.Repeat("  ", len(p.stack)) }

// top is the innermost frame, nil at the top level.
func (p *jsonPrinter) top() *jsonFrame {
	if len(p.stack) == 0 {
		return nil
	}
	return &p.stack[len(p.stack)-1]
}

func (p *jsonPrinter) openMark() {
	p.b.WriteString("<mark>")
	p.open = true
}

func (p *jsonPrinter) closeMark() {
	if p.open {
		p.b.WriteString("</mark>")
		p.open = false
	}
}

// valuePath is the path of the value about to start.
func (p *jsonPrinter) valuePath() string {
	f := p.top()
	switch {
	case f == nil:
		return ""
	case f.object:
		return joinPath(f.path, f.key)
	default:
		return f.path + "[" + strconv.Itoa(f.index) + "]"
	}
}

// startValue opens a mark for an array element at a marked path. A
// member's mark was opened at its key, so that the key is marked too.
func (p *jsonPrinter) startValue() {
	if f := p.top(); f != nil && !f.object && p.marked[p.valuePath()] {
		p.openMark()
	}
}

// openContainer prints { or [ and enters its frame. The mark of a marked
// object or array (and of its key) ends at its opening bracket: what is
// inside is marked only where its own path is.
func (p *jsonPrinter) openContainer(i int) int {
	c := p.s[i]
	p.startValue()
	p.b.WriteByte(c)
	p.closeMark()
	p.stack = append(p.stack, jsonFrame{path: p.valuePath(), object: c == '{', wantKey: c == '{'})
	i++
	// An empty object or array stays on one line.
	if j := skipSpace(p.s, i); j < len(p.s) && (p.s[j] == '}' || p.s[j] == ']') {
		return i
	}
	p.b.WriteString("\n" + p.depth())
	return i
}

// closeContainer leaves the frame and prints } or ] on a line of its own,
// unless the object or array was empty.
func (p *jsonPrinter) closeContainer(i int) int {
	if len(p.stack) > 0 {
		p.stack = p.stack[:len(p.stack)-1]
	}
	if i > 0 {
		if prev := p.s[skipSpaceBack(p.s, i-1)]; prev != '{' && prev != '[' {
			p.b.WriteString("\n" + p.depth())
		}
	}
	p.b.WriteByte(p.s[i])
	return i + 1
}

// comma ends a value and starts the next member or element on a new line.
func (p *jsonPrinter) comma(i int) int {
	p.closeMark()
	p.b.WriteString(",\n")
	if f := p.top(); f != nil {
		f.index++
		f.wantKey = f.object
	}
	p.b.WriteString(p.depth())
	return i + 1
}

// colon ends a member's key: what follows is its value.
func (p *jsonPrinter) colon(i int) int {
	p.b.WriteString(": ")
	if f := p.top(); f != nil {
		f.wantKey = false
	}
	return i + 1
}

// quoted prints a string: a member's key (whose mark, when marked, stays
// open over its value) or a value.
func (p *jsonPrinter) quoted(i int) int {
	j := endOfString(p.s, i)
	tok := p.s[i:j]
	f := p.top()
	isKey := f != nil && f.wantKey
	if isKey {
		f.key, _ = strconv.Unquote(tok)
		if p.marked[joinPath(f.path, f.key)] {
			p.openMark()
		}
	} else {
		p.startValue()
	}
	p.b.WriteString(template.HTMLEscapeString(tok))
	if !isKey {
		p.closeMark()
	}
	return j
}

// bare prints a number, true, false or null (or whatever else is there up
// to the next delimiter, at least one byte).
func (p *jsonPrinter) bare(i int) int {
	j := i
	for j < len(p.s) && !strings.ContainsRune(",:{}[] \t\n\r\"", rune(p.s[j])) {
		j++
	}
	if j == i {
		j++
	}
	p.startValue()
	p.b.WriteString(template.HTMLEscapeString(p.s[i:j]))
	p.closeMark()
	return j
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
