package writes

import "testing"

// The helper that decides what counts as "derived from the title" accepts
// every form the spec allows and refuses the ones it does not ("HTML-encoded
// once" is the framework's BeEncodedOnce, tested there).

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
