// Package text judges how a text value sent in a write reads back (spec 1,
// 1.4, 2.1, 9.3): encoded exactly once (PAGE-TITLE-ENCODED's Reading,
// which PAGE-CREATE-FIELDS and PAGE-EDIT-PARTIAL take for contentRaw), as
// sent or encoded once (description, tag names, settings), or encoded
// twice (what GEN-FORM-SANITISED-ONCE fails). The framework's matchers
// BeEncodedOnce and DecodeTo judge with these functions in the normal run;
// conformance explore's oracles call them directly.
package text

import (
	"html"
	"regexp"
	"strings"
)

// charRef is one HTML character reference: named, decimal or hex.
var charRef = regexp.MustCompile(`^&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);`)

// EncodedOnce reports whether got is sent HTML-encoded exactly once, in
// any form of character reference (PAGE-TITLE-ENCODED, 2.1, 1.4; the
// title and contentRaw of PAGE-CREATE-FIELDS and GEN-FORM-SANITISED-ONCE):
// a single decoding gives sent, got holds no raw '<', and every '&' in it
// starts a character reference. Text without '&', '<' or '>' passes as
// sent, encoded or not; '>' and quotes may stay as they are.
func EncodedOnce(got, sent string) bool {
	if html.UnescapeString(got) != sent || strings.Contains(got, "<") {
		return false
	}
	for i := strings.IndexByte(got, '&'); i >= 0; i = strings.IndexByte(got, '&') {
		ref := charRef.FindString(got[i:])
		if ref == "" {
			return false
		}
		got = got[i+len(ref):]
	}
	return true
}

// AsSentOrEncodedOnce reports whether got is sent as is, or encoded once:
// a value the spec does not say is stored encoded (description, tag
// names, settings: PAGE-CREATE-FIELDS, PAGE-TAGS-MAP, SETTINGS-EDIT-PARTIAL
// and GEN-FORM-SANITISED-ONCE's Readings).
func AsSentOrEncodedOnce(got, sent string) bool { return got == sent || EncodedOnce(got, sent) }

// EncodedTwice reports whether got is sent encoded twice: what a form
// sanitised twice gives (GEN-FORM-SANITISED-ONCE, 1, 9.3).
func EncodedTwice(got, sent string) bool {
	once := html.UnescapeString(got)
	return once != sent && html.UnescapeString(once) == sent
}

// DecodesTo reports whether got, HTML-decoded zero or more times (until
// it no longer changes), equals sent: the value arrived, however many
// times it was encoded (how many is GEN-FORM-SANITISED-ONCE's and
// PAGE-TITLE-ENCODED's; GEN-FORM-BODY and SETTINGS-EDIT-PARTIAL ask only
// this).
func DecodesTo(got, sent string) bool {
	for {
		if got == sent {
			return true
		}
		next := html.UnescapeString(got)
		if next == got {
			return false
		}
		got = next
	}
}

// EncodeOnce HTML-encodes s once the common way (&, <, > and " as named
// entities): the expected form a failure shows.
func EncodeOnce(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
