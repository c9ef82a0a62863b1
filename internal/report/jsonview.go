package report

import (
	"html/template"
	"regexp"
	"strconv"
	"strings"
)

// The HTML report shows each exchange's JSON bodies indented, one field a
// line, with the fields the failure names marked. Bodies are often cut
// (the client keeps 4 KB of each), so the printer reads JSON token by
// token and never needs the whole document to be valid.

var (
	// jsonPath is a path into a response as failures write it:
	// data.pages[1].category, meta.total, data[0].
	jsonPath = regexp.MustCompile(`\b(?:data|meta|status|message|numberOfItems)(?:\.[A-Za-z_][\w-]*|\[\d+\])*`)
	// itemField is a list item's field as schema checks of lists write it:
	// "data[3] (key alpha-post): tags: expected object".
	itemField = regexp.MustCompile(`(data\[\d+\]) \(key [^)]*\): ([A-Za-z_][\w-]*)`)
	// dataField is a field of "data of GET ..." in a list of violations:
	// "  - category: expected string".
	dataField = regexp.MustCompile(`(?m)^\s*- ([A-Za-z_][\w-]*): expected `)
	// bodyNote is what the client appends to a body it cut.
	bodyNote = regexp.MustCompile(` …\[[^\]]*\]$`)
)

// offendingPaths lists the response fields a failure's expectation names.
func offendingPaths(expectation string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, m := range itemField.FindAllStringSubmatch(expectation, -1) {
		add(m[1] + "." + m[2])
	}
	for _, loc := range jsonPath.FindAllStringIndex(expectation, -1) {
		// "data of GET /api/..." names a response, not a field; "data[3]
		// (key k): tags" names the field, added above.
		if rest := expectation[loc[1]:]; !strings.HasPrefix(rest, " of ") && !strings.HasPrefix(rest, " (key ") {
			add(expectation[loc[0]:loc[1]])
		}
	}
	if strings.Contains(expectation, "data of ") {
		for _, m := range dataField.FindAllStringSubmatch(expectation, -1) {
			add("data." + m[1])
		}
	}
	return out
}

// exchangeHTML renders an exchange (or several, as a spec's request log)
// as escaped HTML, each JSON body indented with the paths marked.
func exchangeHTML(ex string, paths []string) template.HTML {
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
		note := bodyNote.FindString(body)
		body = strings.TrimSuffix(body, note)
		b.WriteString(template.HTMLEscapeString(pad + "body: "))
		if t := strings.TrimSpace(body); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
			b.WriteString(`<span class="json">`)
			b.WriteString(indentHTML(prettyJSON(t, marked), pad+"  "))
			b.WriteString(`</span>`)
		} else {
			b.WriteString(template.HTMLEscapeString(indentHTML(body, pad+"  ")))
		}
		b.WriteString(template.HTMLEscapeString(note))
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
