package text

import "testing"

// TestEncoding: PAGE-TITLE-ENCODED's Reading, a value HTML-encoded exactly
// once in any form of character reference, told from a raw value and from
// one encoded twice (GEN-FORM-SANITISED-ONCE), and a value that decodes to
// what was sent however often it was encoded.
func TestEncoding(t *testing.T) {
	for _, c := range []struct {
		got, sent                          string
		once, asSentOrOnce, twice, decodes bool
	}{
		{got: "plain", sent: "plain", once: true, asSentOrOnce: true, decodes: true},
		{got: "a &amp; b", sent: "a & b", once: true, asSentOrOnce: true, decodes: true},
		{got: "a &#38; b", sent: "a & b", once: true, asSentOrOnce: true, decodes: true},
		{got: "a &#x26; b &lt;i&gt;", sent: "a & b <i>", once: true, asSentOrOnce: true, decodes: true},
		{got: "&quot;q&quot; &#39;", sent: `"q" '`, once: true, asSentOrOnce: true, decodes: true},
		{got: `"q"`, sent: `"q"`, once: true, asSentOrOnce: true, decodes: true},         // quotes need no encoding
		{got: "&amp;amp;", sent: "&amp;", once: true, asSentOrOnce: true, decodes: true}, // an entity sent, encoded once
		{got: "a & b", sent: "a & b", asSentOrOnce: true, decodes: true},                 // not encoded: a raw '&'
		{got: "<b>", sent: "<b>", asSentOrOnce: true, decodes: true},                     // not encoded: a raw '<'
		{got: "a &amp;amp; b", sent: "a & b", twice: true, decodes: true},
		{got: "&amp;lt;b&amp;gt;", sent: "<b>", twice: true, decodes: true},
		{got: "a &amp;amp;amp; b", sent: "a & b", decodes: true}, // three times
		{got: "a &amp; b &amp; c", sent: "a & b & c!"},
		{got: "&lt;b>", sent: "<b>", once: true, asSentOrOnce: true, decodes: true}, // '>' may stay raw
		{got: "a &ampx b", sent: "a &ampx b", asSentOrOnce: true, decodes: true},    // '&' starting no reference
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
		if got := DecodesTo(c.got, c.sent); got != c.decodes {
			t.Errorf("DecodesTo(%q, %q) = %t, want %t", c.got, c.sent, got, c.decodes)
		}
	}
}

// TestEncodeOnce: the form a failure shows decodes back to what was sent
// and is itself encoded once.
func TestEncodeOnce(t *testing.T) {
	for _, s := range []string{`Salt & Pepper <b>`, `"q"`, "plain", "&amp;"} {
		if e := EncodeOnce(s); !EncodedOnce(e, s) {
			t.Errorf("EncodeOnce(%q) = %q, which is not %q encoded once", s, e, s)
		}
	}
	if got := EncodeOnce("a & <b>"); got != "a &amp; &lt;b&gt;" {
		t.Errorf("EncodeOnce = %q", got)
	}
}
