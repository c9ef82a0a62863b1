package oracle

import "testing"

// TestEncoding: PAGE-TITLE-ENCODED's Reading, a value HTML-encoded exactly
// once in any form of character reference, told from a raw value and
// from one encoded twice.
func TestEncoding(t *testing.T) {
	for _, c := range []struct {
		got, sent                 string
		once, asSentOrOnce, twice bool
	}{
		{got: "plain", sent: "plain", once: true, asSentOrOnce: true},
		{got: "a &amp; b", sent: "a & b", once: true, asSentOrOnce: true},
		{got: "a &#38; b", sent: "a & b", once: true, asSentOrOnce: true},
		{got: "a &#x26; b &lt;i&gt;", sent: "a & b <i>", once: true, asSentOrOnce: true},
		{got: "&quot;q&quot; &#39;", sent: `"q" '`, once: true, asSentOrOnce: true},
		{got: `"q"`, sent: `"q"`, once: true, asSentOrOnce: true},         // quotes need no encoding
		{got: "&amp;amp;", sent: "&amp;", once: true, asSentOrOnce: true}, // an entity sent, encoded once
		{got: "a & b", sent: "a & b", asSentOrOnce: true},
		{got: "<b>", sent: "<b>", asSentOrOnce: true},
		{got: "a &amp;amp; b", sent: "a & b", twice: true},
		{got: "&amp;lt;b&amp;gt;", sent: "<b>", twice: true},
		{got: "a &amp; b &amp; c", sent: "a & b & c!", asSentOrOnce: false},
		{got: "&lt;b>", sent: "<b>", once: true, asSentOrOnce: true}, // '>' may stay raw: one decoding gives what was sent
		{got: "a", sent: "b"},
		{got: "", sent: "a"},
	} {
		if got := EncodedOnce(c.got, c.sent); got != c.once {
			t.Errorf("EncodedOnce(%q, %q) = %t, want %t", c.got, c.sent, got, c.once)
		}
		if got := AsSentOrEncodedOnce(c.got, c.sent); got != c.asSentOrOnce {
			t.Errorf("AsSentOrEncodedOnce(%q, %q) = %t, want %t", c.got, c.sent, got, c.asSentOrOnce)
		}
		if got := EncodedTwice(c.got, c.sent); got != c.twice {
			t.Errorf("EncodedTwice(%q, %q) = %t, want %t", c.got, c.sent, got, c.twice)
		}
	}
}
