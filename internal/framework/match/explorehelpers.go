package match

// Helpers the explorer (internal/explore) shares with the normal run, so
// that the two judge alike.

// EncodedOnce reports whether got is sent HTML-encoded exactly once, in
// any form of character reference (PAGE-TITLE-ENCODED's Reading, as
// BeEncodedOnce judges it): a single decoding gives sent, got holds no
// raw '<', and every '&' in it starts a character reference.
func EncodedOnce(got, sent string) bool { return encodedOnce(got, sent) }
