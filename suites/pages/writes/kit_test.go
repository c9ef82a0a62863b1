package writes

import "testing"

// The helpers that decide what counts as "HTML-encoded once" and "derived
// from the title" accept every form the spec allows and refuse the ones it
// does not.

func TestEncodedOnce(t *testing.T) {
	const sent = `Salt & Pepper <b> "q"`
	for got, want := range map[string]bool{
		`Salt &amp; Pepper &lt;b&gt; &quot;q&quot;`:   true,  // htmlspecialchars
		`Salt &#38; Pepper &#60;b&#62; &#34;q&#34;`:   true,  // decimal references
		`Salt &#x26; Pepper &#x3C;b> "q"`:             true,  // hex, > and quotes left as they are
		`Salt & Pepper <b> "q"`:                       false, // not encoded
		`Salt &amp; Pepper <b> "q"`:                   false, // < left raw
		`Salt &amp;amp; Pepper &amp;lt;b&amp;gt; "q"`: false, // encoded twice
		`Salt &amp Pepper &lt;b&gt; "q"`:              false, // a reference without ';'
		`Salt and Pepper`:                             false, // other text
	} {
		if encodedOnce(got, sent) != want {
			t.Errorf("encodedOnce(%q, %q) = %v, want %v", got, sent, !want, want)
		}
	}
	if !encodedOnce("plain text", "plain text") {
		t.Error("text without special characters is its own encoding")
	}
}

func TestKeepsTitleWord(t *testing.T) {
	const title = "Conformance 20261121t2350-3fa9c1 Slug From Title"
	for slug, want := range map[string]bool{
		"conformance-20261121t2350-3fa9c1-slug-from-title":   true,
		"Conformance-20261121t2350-3fa9c1-Slug-From-Title":   true, // case kept
		"conformance_20261121t2350_3fa9c1_slug_title":        true, // other separator, stop word dropped
		"conformance-20261121t23":                            true, // truncated
		"conformance-20261121t2350-3fa9c1-slug-from-title-0": true, // suffix
		"d8e295478ae4f3752e22d625f6a013a9":                   false,
		"empty":                                              false,
		"page-12":                                            false,
	} {
		if keepsTitleWord(slug, title) != want {
			t.Errorf("keepsTitleWord(%q) = %v, want %v", slug, !want, want)
		}
	}
}
