package gen

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"
)

// The values of the spec's types. Each generator lists its simplest
// choice first: rapid shrinks a choice towards the first one, a number
// towards zero, a list towards fewer elements.

// pieces make up generated text: plain words first, then what encodings
// and parsers trip over (the ampersand of spec 1.4, markup, quotes,
// entities, non-ASCII, characters with a meaning in URLs and forms).
var pieces = []string{"a", "b", "Zed", "7", " ", "&", "<b>", `"`, "'", "é", "日本", "&amp;", "%", "+", "#", "?", "=", ";", "😀", "ß", "\\", "/"}

// wordPieces make up tag names and other short names: each has a letter
// or a digit, so no name is made of punctuation only (whose key a server
// derives from nothing), and none holds the comma that separates tags.
var wordPieces = []string{"a", "b", "Zed", "7", "a&b", "x<y", `q"`, "é", "日本", "a b", "x+y", "x;y", "naïve"}

// Text is free text: a few pieces, or (rarely) a long run of one, never
// blank and without surrounding spaces (a server may trim those).
//
// Every generator here draws all its alternatives before the choice among
// them: lowering the choice then changes nothing else, which keeps
// rapid's shrinking effective (an input the choice no longer uses
// shrinks away without a request: see session.explore's cache).
func Text() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		short := strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 1, 6).Draw(t, "pieces"), "")
		// A run is up to 400 characters of one piece repeated: its length
		// and its piece shrink apart (to "a" times the length that fails,
		// or to the one piece that does). The long class goes to 40 KB.
		piece, n := rapid.SampledFrom(pieces).Draw(t, "piece"), rapid.IntRange(1, 400).Draw(t, "length")
		long := string([]rune(strings.Repeat(piece, n))[:n])
		if rapid.IntRange(0, 3).Draw(t, "long") == 3 {
			return nonBlank(long)
		}
		return nonBlank(short)
	})
}

// nonBlank trims s, and gives "a" for a blank s.
func nonBlank(s string) string {
	if s = strings.TrimSpace(s); s == "" {
		return "a"
	}
	return s
}

// Name is a short name (a tag name): one to three word pieces.
func Name() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		return nonBlank(strings.Join(rapid.SliceOfN(rapid.SampledFrom(wordPieces), 1, 3).Draw(t, "parts"), ""))
	})
}

// Tags is the tags field of 4.3: tag names joined by commas.
func Tags() *rapid.Generator[[]string] {
	return rapid.SliceOfN(Name(), 0, 6)
}

// DateKind says which dates Date makes.
type DateKind int

// The date kinds.
const (
	PastDate   DateKind = iota // valid, in the past
	FutureDate                 // valid, far in the future (a scheduled page)
	BadDate                    // not YYYY-MM-DD HH:MM:SS
)

// badDates are dates of a form the spec does not allow (4.3: YYYY-MM-DD
// HH:MM:SS).
var badDates = []string{"yesterday", "2020-01-01", "2020-13-40 10:00:00", "01/02/2020 10:00:00", "2020-01-01T10:00:00Z", "0"}

// Date returns a date of the kind drawn, the kind, and the past date
// drawn (the simplest).
func Date(t *rapid.T) (string, DateKind, string) {
	past := fmt.Sprintf("%d-%02d-%02d %02d:%02d:%02d", rapid.IntRange(2001, 2020).Draw(t, "year"),
		rapid.IntRange(1, 12).Draw(t, "month"), rapid.IntRange(1, 28).Draw(t, "day"),
		rapid.IntRange(0, 23).Draw(t, "hour"), rapid.IntRange(0, 59).Draw(t, "minute"), rapid.IntRange(0, 59).Draw(t, "second"))
	future := fmt.Sprintf("%d-%02d-%02d 10:00:00", rapid.IntRange(2090, 2099).Draw(t, "futureYear"),
		rapid.IntRange(1, 12).Draw(t, "futureMonth"), rapid.IntRange(1, 28).Draw(t, "futureDay"))
	bad := rapid.SampledFrom(badDates).Draw(t, "badDate")
	// Mostly past dates, the simplest; a malformed one now and then, so
	// that most bodies stay valid and reach the oracles of a stored page.
	switch rapid.IntRange(0, 9).Draw(t, "dateKind") {
	case 6, 7:
		return future, FutureDate, past
	case 8, 9:
		return bad, BadDate, past
	}
	return past, PastDate, past
}

// Types are the five page types of section 3.
var Types = []string{"draft", "published", "static", "sticky", "scheduled"}

// badTypes are types outside the five.
var badTypes = []string{"bogus", "Draft ", "page", ""}

// wrongKind is a JSON value of a kind no text field takes: a number, a
// bool, a list or an object (4.3 lists every page field as a string,
// integer or boolean).
func wrongKind(t *rapid.T) any {
	return rapid.SampledFrom([]any{float64(5), true, []any{"a"}, map[string]any{"a": "b"}, nil}).Draw(t, "wrongKind")
}

// maybe draws whether an optional field is sent (not sent shrinks first).
// Draw the field's value before: dropping the field then changes nothing
// else of the case.
func maybe(t *rapid.T, name string) bool { return rapid.Bool().Draw(t, "send "+name) }
