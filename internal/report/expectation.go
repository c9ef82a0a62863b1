package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Failure messages end, when a suite used a plain Gomega matcher, in
// Gomega's rendering of the values: "Expected\n    <[]string | len:27,
// cap:32>: [...]\nto be empty". Readers of a report need what was got in
// words, not Go's types, so the reports show the cleaned text below. The
// JSON report keeps each message exactly as Ginkgo gave it.

var (
	// gomegaCut is Gomega's note on a value longer than format.MaxLength.
	gomegaCut = regexp.MustCompile(`\n*Gomega truncated this representation[^\n]*\n(?:[^\n]*\n)*?\s*Learn more here: [^\n]*\n*`)
	// gomegaType starts a value: <[]string | len:27, cap:32>: or <int>:
	gomegaType = regexp.MustCompile(`^<([^<>\n]*?)(?: \| len:(\d+)(?:, cap:\d+)?)?>: ?`)
	// gomegaInline is the type Gomega writes before a value inside a map
	// or struct: <string>"0".
	gomegaInline = regexp.MustCompile(`<(?:string|int|int64|float64|bool|interface \{\})>(["\-\d]|true|false)`)
	// gomegaTypeAnywhere is a type left at the start of any indented line
	// (Gomega's "the missing elements were" and the like).
	gomegaTypeAnywhere = regexp.MustCompile(`(?m)^(\s+)<[^<>\n]*?(?: \| len:\d+(?:, cap:\d+)?)?>: `)
)

// gjsonTypes names the values of gjson.Type, which Gomega prints as numbers.
var gjsonTypes = []string{"null or missing", "false", "a number", "a string", "true", "an object or array"}

// cleanExpectation rewrites the Gomega parts of a failure's expectation
// in plain words; the rest of the text is left as it is.
func cleanExpectation(s string) string {
	if !strings.Contains(s, "Expected\n") {
		return s
	}
	s = gomegaCut.ReplaceAllString(s, "\n    …\n")
	lines := strings.Split(s, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "Expected" || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "    ") {
			out = append(out, lines[i])
			continue
		}
		actual, j := indented(lines, i+1)
		phrase, expected := "", []string(nil)
		if j < len(lines) && (strings.HasPrefix(lines[j], "to ") || strings.HasPrefix(lines[j], "not to ")) {
			phrase = lines[j]
			expected, j = indented(lines, j+1)
		}
		out = append(out, gomegaWords(value(actual), phrase, value(expected), strings.Join(out, "\n"))...)
		i = j - 1
	}
	return collapseBlank(gomegaTypeAnywhere.ReplaceAllString(strings.Join(out, "\n"), "$1"))
}

// indented returns the lines from i on that are indented by four spaces
// (without the indent), and the index of the first line that is not.
func indented(lines []string, i int) ([]string, int) {
	var block []string
	for ; i < len(lines) && strings.HasPrefix(lines[i], "    "); i++ {
		block = append(block, lines[i][4:])
	}
	return block, i
}

// gomegaValue is one value as Gomega rendered it.
type gomegaValue struct {
	Type  string   // Go type, e.g. []string
	Len   int      // of a slice or map, -1 when not given
	Lines []string // the value without its type
}

func value(lines []string) gomegaValue {
	v := gomegaValue{Len: -1}
	if len(lines) == 0 {
		return v
	}
	first := lines[0]
	if m := gomegaType.FindStringSubmatch(first); m != nil {
		v.Type = m[1]
		if m[2] != "" {
			v.Len, _ = strconv.Atoi(m[2])
		}
		first = first[len(m[0]):]
	}
	v.Lines = append([]string{first}, lines[1:]...)
	for i, l := range v.Lines {
		v.Lines[i] = gomegaInline.ReplaceAllString(l, "$1")
	}
	return v
}

// strings returns the items of a []string value, unquoted.
func (v gomegaValue) strings() ([]string, bool) {
	if v.Type != "[]string" {
		return nil, false
	}
	var items []string
	for _, l := range v.Lines {
		l = strings.TrimSuffix(strings.TrimSpace(l), ",")
		if l == "[" || l == "]" || l == "[]" || l == "" {
			continue
		}
		s, err := strconv.Unquote(l)
		if err != nil {
			return nil, false
		}
		items = append(items, s)
	}
	return items, true
}

// text renders a value for people: lists of structs (gjson results, which
// the exchange shows better) by their length only.
func (v gomegaValue) text() string {
	if items, ok := v.strings(); ok {
		quoted := make([]string, len(items))
		for i, s := range items {
			quoted[i] = strconv.Quote(s)
		}
		if one := "[" + strings.Join(quoted, ", ") + "]"; len(one) <= 120 {
			return one
		}
		return "[\n    " + strings.Join(quoted, ",\n    ") + ",\n]"
	}
	text := strings.Join(v.Lines, "\n")
	switch {
	case strings.HasPrefix(v.Type, "[]") && v.Len >= 0 && strings.Contains(v.Type, "."):
		return fmt.Sprintf("%d items (see the response)", v.Len)
	case v.Type == "gjson.Type":
		if n, err := strconv.Atoi(text); err == nil && n >= 0 && n < len(gjsonTypes) {
			return gjsonTypes[n]
		}
	case v.Type == "string" && text == "":
		return `"" (empty)`
	}
	return text
}

// gomegaWords says what a Gomega "Expected ... to ..." block means. A
// true/false check adds nothing to the words before it (description),
// which the suite wrote to say what was wrong, and is dropped; so is a
// value the words already quote.
func gomegaWords(actual gomegaValue, phrase string, expected gomegaValue, description string) []string {
	got := actual.text()
	described := strings.TrimSpace(description) != ""
	switch {
	case actual.Type == "bool" && (phrase == "to be true" || phrase == "to be false" || phrase == "") && described:
		return nil
	case actual.Type == "string" && len(got) > 3 && strings.Contains(description, got):
		return nil
	case phrase == "to be empty":
		if items, ok := actual.strings(); ok {
			out := []string{fmt.Sprintf("%d found:", len(items))}
			for _, s := range items {
				out = append(out, "  - "+s)
			}
			return out
		}
	}
	out := []string{"Got:", indentLines(got, "    ")}
	if phrase != "" {
		out = append(out, "Expected it "+phrase+
			map[bool]string{true: ":", false: ""}[len(expected.Lines) > 0])
		if len(expected.Lines) > 0 {
			out = append(out, indentLines(expected.text(), "    "))
		}
	}
	return out
}

func indentLines(s, pad string) string { return pad + strings.ReplaceAll(s, "\n", "\n"+pad) }

// failureSummary is a failure in one short line, for JUnit's
// failure@message: the suite's words up to what was got.
func failureSummary(expectation string) string {
	var lines []string
	for _, l := range strings.Split(expectation, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	// withValue joins a label ending in ":" with the line after it.
	withValue := func(i int) (string, int) {
		if strings.HasSuffix(lines[i], ":") && i+1 < len(lines) {
			v := strings.TrimPrefix(lines[i+1], "- ")
			if v == "[" && i+2 < len(lines) { // a list, one item a line
				v += lines[i+2] + " …]"
			}
			return lines[i] + " " + v, i + 2
		}
		return lines[i], i + 1
	}
	var keep []string
	for i := 0; i < len(lines) && len(keep) < 3; i++ {
		if !strings.HasPrefix(lines[i], "Got:") && !strings.HasSuffix(lines[i], " found:") {
			keep = append(keep, lines[i])
			continue
		}
		got, next := withValue(i)
		keep = append(keep, got)
		if next < len(lines) && strings.HasPrefix(lines[next], "Expected it ") {
			want, _ := withValue(next)
			keep = append(keep, want)
		}
		break
	}
	return clipRunes(strings.Join(keep, "; "), 200)
}

// clipRunes cuts s to at most n characters, marking the cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
