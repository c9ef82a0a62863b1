package oracle

import (
	"html"
	"regexp"
	"strings"
)

// entity is a character reference: named, decimal or hexadecimal.
var entity = regexp.MustCompile(`^&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);`)

// EncodedOnce reports whether got is sent HTML-encoded exactly once, in
// any form (PAGE-TITLE-ENCODED's Reading): a single decoding gives sent,
// got holds no raw '<', and every '&' in it starts a character reference.
// Text without '&', '<' or '>' passes as sent, encoded or not.
func EncodedOnce(got, sent string) bool {
	if html.UnescapeString(got) != sent || strings.Contains(got, "<") {
		return false
	}
	for i := strings.IndexByte(got, '&'); i >= 0; i = next(got, i) {
		if !entity.MatchString(got[i:]) {
			return false
		}
	}
	return true
}

// next finds the '&' after position i of s, -1 when none.
func next(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '&')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// AsSentOrEncodedOnce reports whether got is sent as is, or encoded once
// (a value the spec does not say is stored encoded: description, tag
// names, settings).
func AsSentOrEncodedOnce(got, sent string) bool { return got == sent || EncodedOnce(got, sent) }

// EncodedTwice reports whether got is sent encoded twice: what a form
// sanitised twice gives (1.4, 9.3).
func EncodedTwice(got, sent string) bool {
	once := html.UnescapeString(got)
	return once != sent && html.UnescapeString(once) == sent
}
