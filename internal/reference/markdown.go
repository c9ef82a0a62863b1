package reference

import (
	"regexp"
	"strings"
)

// renderMarkdown is a deliberately tiny Markdown renderer: ATX headings
// (# to ######), unordered lists (- or *), paragraphs, and inline **bold**,
// *emphasis*, `code` and [links](url). Raw HTML is kept as written, both as
// blocks and inline.
func renderMarkdown(src string) string {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	var out []string
	for _, block := range splitBlocks(src) {
		out = append(out, renderBlock(block))
	}
	return strings.Join(out, "\n")
}

func splitBlocks(src string) [][]string {
	var blocks [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			blocks = append(blocks, cur)
			cur = nil
		}
	}
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			flush()
		case headingLevel(t) > 0:
			flush()
			blocks = append(blocks, []string{t})
		default:
			cur = append(cur, line)
		}
	}
	flush()
	return blocks
}

func headingLevel(line string) int {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n >= len(line) || line[n] != ' ' {
		return 0
	}
	return n
}

var blockTag = regexp.MustCompile(`^</?(div|p|ul|ol|li|table|thead|tbody|tr|td|th|pre|blockquote|h[1-6]|section|article|aside|header|footer|figure|hr|br|img|iframe|video|audio|form|nav|dl|script|style)\b`)

func renderBlock(lines []string) string {
	first := strings.TrimSpace(lines[0])
	if n := headingLevel(first); n > 0 && len(lines) == 1 {
		tag := "h" + string(rune('0'+n))
		return "<" + tag + ">" + renderInline(strings.TrimSpace(first[n:])) + "</" + tag + ">"
	}
	if blockTag.MatchString(strings.ToLower(first)) {
		return strings.Join(lines, "\n")
	}
	if isListItem(first) {
		allItems := true
		for _, l := range lines {
			if !isListItem(strings.TrimSpace(l)) {
				allItems = false
				break
			}
		}
		if allItems {
			var b strings.Builder
			b.WriteString("<ul>\n")
			for _, l := range lines {
				b.WriteString("<li>" + renderInline(strings.TrimSpace(l)[2:]) + "</li>\n")
			}
			b.WriteString("</ul>")
			return b.String()
		}
	}
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return "<p>" + renderInline(strings.Join(lines, "\n")) + "</p>"
}

func isListItem(l string) bool {
	return strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ")
}

var (
	codeSpan = regexp.MustCompile("`([^`]+)`")
	strongRe = regexp.MustCompile(`\*\*([^*\n]+)\*\*|__([^_\n]+)__`)
	emRe     = regexp.MustCompile(`\*([^*\n]+)\*`)
	linkRe   = regexp.MustCompile(`\[([^\]\n]*)\]\(([^)\s]+)\)`)
)

func renderInline(s string) string {
	s = codeSpan.ReplaceAllString(s, "<code>$1</code>")
	s = linkRe.ReplaceAllString(s, `<a href="$2">$1</a>`)
	s = strongRe.ReplaceAllString(s, "<strong>$1$2</strong>")
	s = emRe.ReplaceAllString(s, "<em>$1</em>")
	return s
}
