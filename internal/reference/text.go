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

// newUUID returns a page uuid: 32 lowercase hex characters.
func newUUID() string { return randomHex(16) }

var htmlEncoder = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// sanitise HTML-encodes &, <, > and " once, as the core does with every
// input value (PHP htmlspecialchars with ENT_COMPAT).
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

// slugify lowercases s (unless keepCase) and turns every run of characters
// that are neither letters nor digits into a single '-', trimming dashes at
// both ends. Non-ASCII letters are kept ("Café Ñandú über" gives
// "café-ñandú-über"), like the previous release.
func slugify(s string, keepCase bool) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			if !keepCase {
				r = unicode.ToLower(r)
			}
			b.WriteRune(r)
			continue
		}
		dash = true
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
