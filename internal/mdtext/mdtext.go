// Package mdtext writes text into Markdown so that it stays text: every
// report and comparison the suite writes in Markdown quotes what a target
// sent through it, and what a target sent must never become markup (a
// link, HTML, a broken table, a code block closed early).
package mdtext

import "strings"

// Text escapes text for Markdown prose and table cells: whatever the
// target sent must not become markup (a link, HTML, a broken table).
func Text(s string) string {
	var b strings.Builder
	for _, r := range strings.Join(strings.Fields(s), " ") {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '|', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Code is an inline code span that survives backticks and pipes inside.
func Code(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	// A pipe ends a table cell even inside a code span.
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// Block is a fenced code block whose fence is longer than any backtick
// run in the content, so a body cannot close it early.
func Block(lang, s string) string {
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	return fence + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + fence + "\n"
}

func longestRun(s string, c rune) int {
	best, n := 0, 0
	for _, r := range s {
		if r == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
