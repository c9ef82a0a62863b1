package reference

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
	"unicode"
)

// NewToken returns a new API token: 64 lowercase hexadecimal characters
// (256 random bits from crypto/rand), as spec section 5 rule 8 describes.
func NewToken() string {
	return randomHex(32)
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		// crypto/rand never fails on supported platforms.
		panic("reference: crypto/rand: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// newUUID returns a page uuid: 32 lowercase hex characters (the host's is
// an md5 in hex, the same shape).
// host: Pages::generateUUID in bl-kernel/pages.class.php
func newUUID() string { return randomHex(16) }

var htmlEncoder = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// sanitise HTML-encodes &, <, > and " once, as the core does with every
// input value (PHP htmlspecialchars with ENT_COMPAT).
// host: Sanitize::html in bl-kernel/helpers/sanitize.class.php
func sanitise(s string) string { return htmlEncoder.Replace(s) }

var htmlDecoder = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`)

var numericRefer = strings.NewReplacer("&amp;", "&#38;", "&lt;", "&#60;", "&gt;", "&#62;", "&quot;", "&#34;")

// numericRefs rewrites the named references sanitise makes as the numeric
// ones (&amp; becomes &#38;): another way to encode once, which the spec
// allows (the benign-numeric-entities mutant). Only whole references are
// rewritten, so "&amp;amp;" (a sent "&amp;") becomes "&#38;amp;" and still
// decodes to what was sent.
func numericRefs(s string) string { return numericRefer.Replace(s) }

// unsanitise reverses sanitise.
func unsanitise(s string) string { return htmlDecoder.Replace(s) }

// isSpecial reports whether b is one of the bytes the host's
// removeSpecialCharacters replaces: every ASCII punctuation mark and the
// space. Tabs, other control characters and every non-ASCII character
// (letters, but also punctuation such as '’' or '—') are kept.
func isSpecial(b byte) bool {
	return b == ' ' || b >= '!' && b <= '/' || b >= ':' && b <= '@' || b >= '[' && b <= '`' || b >= '{' && b <= '~'
}

// removeSpecialCharacters replaces each run of special bytes (isSpecial)
// with sep; nothing is trimmed.
// host: Text::removeSpecialCharacters in bl-kernel/helpers/text.class.php
func removeSpecialCharacters(s, sep string) string {
	var b strings.Builder
	run := false
	for i := 0; i < len(s); i++ {
		if isSpecial(s[i]) {
			if !run {
				b.WriteString(sep)
			}
			run = true
			continue
		}
		run = false
		b.WriteByte(s[i])
	}
	return b.String()
}

var lineBreaks = strings.NewReplacer("\r", "", "\n", "")

// cleanURL is the host's slug of s with its default setting
// (extremeFriendly true): lowercase (unless keepCase), every run of ASCII
// punctuation and spaces becomes one '-', line breaks are removed and the
// dashes at both ends trimmed. Non-ASCII characters are kept as they are
// ("Café Ñandú über" gives "café-ñandú-über", "Rock’n’Roll" gives
// "rock’n’roll"); "!!!" gives "".
// host: Text::cleanUrl in bl-kernel/helpers/text.class.php
func cleanURL(s string, keepCase bool) string {
	if !keepCase {
		s = strings.ToLower(s)
	}
	s = strings.Trim(s, "-")
	s = removeSpecialCharacters(s, "-")
	s = lineBreaks.Replace(s)
	return strings.Trim(s, "-")
}

// phpEmpty is PHP's empty() of a string: "" and "0" are empty.
func phpEmpty(s string) bool { return s == "" || s == "0" }

// isEmptyText is the host's Text::isEmpty: empty once trimmed.
// host: Text::isEmpty in bl-kernel/helpers/text.class.php
func isEmptyText(s string) bool { return phpEmpty(strings.Trim(s, phpSpace)) }

// phpSpace is what PHP's trim() removes by default.
const phpSpace = " \t\n\r\x00\x0b"

// slugSource is the text a page's key is derived from when no slug is
// sent: the title, or the content when the title is empty, without HTML
// tags and line breaks, cut to 60 characters (then trimmed).
// host: Pages::generateSlug in bl-kernel/pages.class.php
func slugSource(title, content string) string {
	text := title
	if phpEmpty(title) {
		text = content
		if phpEmpty(content) {
			text = ""
		}
	}
	text = lineBreaks.Replace(stripTags(text))
	if r := []rune(text); len(r) > 60 {
		text = strings.Trim(string(r[:60]), phpSpace)
	}
	return text
}

// stripTags removes HTML tags (from a '<' not followed by a space to the
// next '>', or to the end) and NUL bytes, like PHP's strip_tags.
// host: Text::removeHTMLTags in bl-kernel/helpers/text.class.php
func stripTags(s string) string {
	var b strings.Builder
	inTag := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0:
		case inTag:
			inTag = c != '>'
		case c == '<' && (i+1 == len(s) || !unicode.IsSpace(rune(s[i+1]))):
			inTag = true
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// lastSegment returns the part of a page key after its last '/'.
func lastSegment(key string) string {
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// parentOf returns the parent part of a hierarchical key, or "".
func parentOf(key string) string {
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		return key[:i]
	}
	return ""
}

// hasTraversal reports whether s holds path-traversal characters.
func hasTraversal(s string) bool {
	return strings.Contains(s, "..") || strings.ContainsRune(s, 0) ||
		strings.Contains(strings.ToLower(s), "%00")
}
