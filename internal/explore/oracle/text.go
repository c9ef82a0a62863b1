package oracle

import (
	"html"

	"github.com/conformance-suite/conformance/internal/framework/match"
)

// EncodedOnce reports whether got is sent HTML-encoded exactly once, in
// any form (PAGE-TITLE-ENCODED's Reading): as the normal run judges it
// (match.EncodedOnce). Text without '&', '<' or '>' passes as sent,
// encoded or not.
func EncodedOnce(got, sent string) bool { return match.EncodedOnce(got, sent) }

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
