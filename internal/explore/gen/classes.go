package gen

import (
	"fmt"
	"strconv"
	"strings"

	"pgregory.net/rapid"
)

// Boundary classes. Every field of the spec has a type (text, a comma
// list, an integer, a boolean, a date, a key), and every type a few
// classes of values at its edges, where servers break: text empty, blank,
// tens of KB long, with control characters or a NUL, with combining and
// direction marks, not UTF-8; lists with blank or repeated segments or
// hundreds of items; integers negative, zero, huge, fractional or not a
// number; booleans in every spelling. Each field drawn says its class
// (Field.Class), so an exploration can tell which fields it reached in
// which classes (Cells).
//
// Each class is drawn with rapid so that it shrinks to its edge: a long
// text to the shortest length that still fails, a negative integer
// towards -1, a control character to the first that still fails with the
// text around it gone. The plain class comes first: a case that fails for
// its plain values shrinks to them, and one that needs its class keeps it.

// FieldType is a field type of the spec (sections 2, 4.1, 4.3, 4.10).
type FieldType string

// The field types.
const (
	TypeText FieldType = "text"    // title, content, description, text settings
	TypeList FieldType = "list"    // tags: comma-separated names
	TypeInt  FieldType = "integer" // position
	// TypePaging is an integer list parameter (numberOfItems, pageNumber),
	// where -1 has a meaning of its own (4.1).
	TypePaging FieldType = "paging"
	TypeBool   FieldType = "boolean" // noindex, nofollow, noarchive, the list filters
	TypeDate   FieldType = "date"    // YYYY-MM-DD HH:MM:SS
	TypeJSON   FieldType = "json"    // customFields: JSON text
	TypeKey    FieldType = "key"     // a resource key in a path
)

// The boundary classes, by type. Plain is every type's ordinary values.
const (
	ClassPlain = "plain"

	// text
	ClassEmpty     = "empty"        // ""
	ClassBlank     = "blank"        // spaces and tabs only
	ClassLong      = "long"         // 1 KB to 40 KB
	ClassControl   = "control"      // an ASCII control character (not NUL)
	ClassNUL       = "nul"          // a NUL character
	ClassMarks     = "marks"        // combining, zero-width and direction marks
	ClassBadUTF8   = "invalid-utf8" // bytes that are not UTF-8 (form bodies only)
	ClassWrongKind = "wrong-kind"   // a JSON value of another kind (JSON only)

	// comma lists
	ClassBlankSegment = "blank-segment" // "a,,b", "a, ,b", ",a", "a,"
	ClassRepeated     = "repeated"      // the same name twice
	ClassMany         = "many"          // 50 to 400 names

	// integers
	ClassZero       = "zero"
	ClassMinusOne   = "minus-one"
	ClassNegative   = "negative"
	ClassHuge       = "huge"
	ClassFractional = "fractional"
	ClassNaN        = "not-a-number"

	// booleans
	ClassSpelling = "spelling" // 1, 0, TRUE, yes, on, "": not true or false

	// customFields (JSON text)
	ClassNotJSON = "not-json"
	ClassNewName = "new-name" // names a custom field: never sent

	// dates
	ClassPast      = "past"
	ClassFuture    = "future"
	ClassMalformed = "malformed"
)

// Classes are the boundary classes of each type, in the order reports
// list them. (Keys: gen.Read's classes, dot-segment where the target's
// front lets dot segments through.)
var Classes = map[FieldType][]string{
	TypeText:   {ClassPlain, ClassEmpty, ClassBlank, ClassLong, ClassControl, ClassNUL, ClassMarks, ClassBadUTF8, ClassWrongKind},
	TypeList:   {ClassPlain, ClassEmpty, ClassBlankSegment, ClassRepeated, ClassMany, ClassWrongKind},
	TypeInt:    {ClassPlain, ClassZero, ClassNegative, ClassHuge, ClassFractional, ClassNaN},
	TypePaging: {ClassPlain, ClassMinusOne, ClassZero, ClassNegative, ClassHuge, ClassFractional, ClassNaN},
	TypeBool:   {ClassPlain, ClassSpelling},
	TypeDate:   {ClassPast, ClassFuture, ClassMalformed},
	TypeJSON:   {ClassNotJSON, ClassNewName},
	TypeKey:    {"existing", "missing", "child", "traversal", "encoded", "long", ClassDotSegment},
}

// FieldTypes are the fields explore generates values for, with their
// type, in the order reports list them: body fields of 4.3 and 4.10, the
// page list's parameters (4.1), and the keys of single reads.
var FieldTypes = []struct {
	Name string
	Type FieldType
}{
	{"title", TypeText}, {"content", TypeText}, {"description", TypeText}, {"tags", TypeList},
	{"date", TypeDate}, {"position", TypeInt}, {"noindex", TypeBool}, {"nofollow", TypeBool}, {"noarchive", TypeBool},
	{"settings text", TypeText}, {"customFields", TypeJSON},
	{"numberOfItems", TypePaging}, {"pageNumber", TypePaging},
	{"published", TypeBool}, {"static", TypeBool}, {"sticky", TypeBool}, {"draft", TypeBool}, {"scheduled", TypeBool}, {"untagged", TypeBool},
	{"key", TypeKey},
}

// controls are ASCII control characters other than NUL, line feed and
// carriage return (a server may normalise line ends).
var controls = []string{"\x01", "\t", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1f", "\x7f"}

// marks are characters that change how text shows without being letters:
// a combining acute accent (after x, which has no precomposed form: NFC
// leaves it), zero-width joiner and space, left-to-right and right-to-left
// marks, a right-to-left override, a byte order mark.
var marks = []string{"x\u0301", "\u200d", "\u200b", "\u200e", "\u200f", "\u202e", "\ufeff"}

// blanks are texts of spaces and tabs only.
var blanks = []string{" ", "  ", "\t", " \t "}

// badUTF8 are byte sequences that are not UTF-8.
var badUTF8 = []string{"\xff", "\xc3\x28", "\xe2\x82", "\xed\xa0\x80"}

// longRun draws n characters (up to 40 KB) of one piece repeated, made
// only when it is sent (make): the length shrinks to the shortest that
// still fails, wherever a server's limit is, the piece to "a". (One
// length, drawn once: rapid then always shrinks it to the edge; it leans
// to the ends of its range, so a third of long texts run past 1 KB, and
// many to the 40 KB end.)
func longRun(t *rapid.T, name string) (make func() string) {
	piece, n := rapid.SampledFrom(pieces[:4]).Draw(t, name+"LongPiece"), rapid.IntRange(1, 40000).Draw(t, name+"LongLength")
	return func() string { return string([]rune(strings.Repeat(piece, n))[:n]) }
}

// TextField draws a text field in one of the text classes: plain about
// half the time, long twice as often as each other class. Empty, blank,
// NUL and not-UTF-8 values, and values of another kind, are Invalid (a
// server may refuse them, or store something of its own: a trimmed title,
// a replacement character); long, control and marks values are Limit (a
// server may refuse them, but one it takes reads back as sent). A form
// carries no value of another kind, and JSON no bytes that are not UTF-8:
// such a draw is plain there.
//
// Each class's value is the plain value with the class's edge added (a
// long run, a control character, a mark...): a failure that the plain
// value alone shows shrinks out of the class, and one that needs the
// class shrinks to its edge after the simplest text, "a".
func TextField(t *rapid.T, name string, form bool, plain *rapid.Generator[string]) Field {
	// Every class's value is drawn before the choice (see Text).
	v := plain.Draw(t, name)
	long := longRun(t, name)
	control := rapid.SampledFrom(controls).Draw(t, name+"Control")
	mark := rapid.SampledFrom(marks).Draw(t, name+"Mark")
	blank := rapid.SampledFrom(blanks).Draw(t, name+"Blank")
	bad := rapid.SampledFrom(badUTF8).Draw(t, name+"Bad")
	wrong := wrongKind(t)
	plainField := Field{Name: name, Value: v, Class: ClassPlain}
	p := &plainField
	switch rapid.IntRange(0, 15).Draw(t, name+"Class") {
	case 7, 8:
		return Field{Name: name, Value: v + long(), Class: ClassLong, Limit: true}
	case 9:
		return Field{Name: name, Value: v + control, Class: ClassControl, Limit: true}
	case 10:
		return Field{Name: name, Value: v + mark, Class: ClassMarks, Limit: true}
	case 11:
		return Field{Name: name, Value: "", Class: ClassEmpty, Invalid: true, plain: p}
	case 12:
		return Field{Name: name, Value: blank, Class: ClassBlank, Invalid: true, plain: p}
	case 13:
		return Field{Name: name, Value: v + "\x00", Class: ClassNUL, Invalid: true, plain: p}
	case 14:
		if form {
			return Field{Name: name, Value: v + bad, Class: ClassBadUTF8, Invalid: true, plain: p}
		}
	case 15:
		if !form {
			return Field{Name: name, Value: wrong, Class: ClassWrongKind, Invalid: true, plain: p}
		}
	}
	return plainField
}

// TagsField draws the tags field of 4.3 in one of the list classes:
// plain names, none, blank or repeated segments, many names, or (JSON
// only) a list instead of a string. Blank segments name no tag (readback
// drops them), and a name sent twice is one tag: all are valid. Many
// names are Limit: a server may cap how many a page takes. As for text,
// each class's value is the plain names with the class's edge added.
func TagsField(t *rapid.T, form bool) Field {
	names := Tags().Draw(t, "tags")
	plain := strings.Join(names, ",")
	first := Name().Draw(t, "tagName")
	if len(names) > 0 {
		first = names[0]
	}
	some := plain
	if some == "" {
		some = first
	}
	blank := rapid.SampledFrom([]string{"", " ", "  "}).Draw(t, "blankSegment")
	var blankSegment string
	switch rapid.IntRange(0, 2).Draw(t, "blankAt") {
	case 0:
		blankSegment = blank + "," + some
	case 1:
		blankSegment = some + "," + blank
	default:
		blankSegment = first + "," + blank + "," + some
	}
	many := manyNames(rapid.IntRange(50, 400).Draw(t, "manyTags"))
	if plain != "" {
		many = plain + "," + many
	}
	plainField := Field{Name: "tags", Value: plain, Class: ClassPlain}
	switch rapid.IntRange(0, 9).Draw(t, "tagsClass") {
	case 5:
		return Field{Name: "tags", Value: "", Class: ClassEmpty}
	case 6:
		return Field{Name: "tags", Value: blankSegment, Class: ClassBlankSegment}
	case 7:
		return Field{Name: "tags", Value: some + "," + first, Class: ClassRepeated}
	case 8:
		return Field{Name: "tags", Value: many, Class: ClassMany, Limit: true}
	case 9:
		if !form {
			return Field{Name: "tags", Value: []any{"a", "b"}, Class: ClassWrongKind, Invalid: true, plain: &plainField}
		}
	}
	return plainField
}

// manyNames is n distinct tag names t1 to tn, comma-separated.
func manyNames(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = "t" + strconv.Itoa(i+1)
	}
	return strings.Join(names, ",")
}

// hugeInts are integers no 32-bit (or 64-bit, or float64) integer holds
// exactly, as sent.
var hugeInts = []string{"2147483648", "9007199254740993", "99999999999999999999"}

// notNumbers are integer parameters that are not numbers at all.
var notNumbers = []string{"abc", "", "1e3", "+3", " 3", "0x10", "1,5"}

// IntField draws the position of 4.3 in one of the integer classes: a
// small one first, zero, negative ones (shrinking towards -1),
// huge, fractional or not a number. Only small ones and zero are valid:
// the spec says "integer", and whether a position may be negative or
// beyond a server's integers is not said, so those are Invalid (refused
// or taken; a position is not in the page object, so nothing reads back).
func IntField(t *rapid.T, name string, form bool) Field {
	small := rapid.IntRange(1, 99).Draw(t, name)
	negative := rapid.IntRange(-1_000_000, -1).Draw(t, name+"Negative")
	huge := rapid.SampledFrom(hugeInts).Draw(t, name+"Huge")
	nan := rapid.SampledFrom(notNumbers).Draw(t, name+"NaN")
	number := func(n int) any { return jsonOrForm(form, float64(n)) }
	plain := Field{Name: name, Value: number(small), Class: ClassPlain}
	switch rapid.IntRange(0, 11).Draw(t, name+"Class") {
	case 6, 7:
		return Field{Name: name, Value: number(0), Class: ClassZero}
	case 8:
		return Field{Name: name, Value: number(negative), Class: ClassNegative, Invalid: true, plain: &plain}
	case 9:
		// Sent as text in JSON too: a JSON number this big is a float to
		// most decoders before the server sees it.
		return Field{Name: name, Value: huge, Class: ClassHuge, Invalid: true, plain: &plain}
	case 10:
		return Field{Name: name, Value: jsonOrForm(form, 1.5), Class: ClassFractional, Invalid: true, plain: &plain}
	case 11:
		return Field{Name: name, Value: nan, Class: ClassNaN, Invalid: true, plain: &plain}
	}
	return plain
}

// boolSpellings are booleans spelled otherwise than true and false.
var boolSpellings = []string{"1", "0", "TRUE", "False", "yes", "no", "on", "off", ""}

// BoolField draws noindex, nofollow or noarchive (4.3): true or false
// (JSON booleans; their text in a form), or another spelling (a string in
// JSON, or 1 and 0 as numbers), Invalid: whether a server reads "1" as
// true is not said.
func BoolField(t *rapid.T, name string, form bool) Field {
	b := rapid.Bool().Draw(t, name)
	spelling := rapid.SampledFrom(boolSpellings).Draw(t, name+"Spelling")
	var odd any = spelling
	// Drawn in both encodings (a form case differs from its JSON twin in
	// the encoding alone, and shrinks to it).
	if asNumber := rapid.IntRange(0, 3).Draw(t, name+"AsNumber") == 3; asNumber && !form {
		odd = float64(len(spelling) % 2) // 1 or 0, as a JSON number
	}
	plain := Field{Name: name, Value: jsonOrForm(form, b), Class: ClassPlain}
	if rapid.IntRange(0, 4).Draw(t, name+"Class") == 4 {
		return Field{Name: name, Value: odd, Class: ClassSpelling, Invalid: true, plain: &plain}
	}
	return plain
}

// BoolParam draws a boolean list filter (4.1) that is sent: true or false,
// or now and then another spelling, which an oracle reads both ways
// (ClassSpelling).
func BoolParam(t *rapid.T, name string) Param {
	v := rapid.SampledFrom([]string{"true", "false"}).Draw(t, name)
	spelling := rapid.SampledFrom(boolSpellings).Draw(t, name+"Spelling")
	if rapid.IntRange(0, 5).Draw(t, name+"Class") == 5 {
		return Param{Name: name, Value: spelling, Class: ClassSpelling}
	}
	return Param{Name: name, Value: v, Class: ClassPlain}
}

// SpelledBool reports whether a list filter's value is true or false as
// the spec writes booleans, and which.
func SpelledBool(v string) (value, canonical bool) {
	switch v {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// DateField draws the date of 4.3: a past one (the simplest), a future
// one (a scheduled page), or a malformed one, Invalid.
func DateField(t *rapid.T) Field {
	d, kind, past := Date(t)
	plain := Field{Name: "date", Value: past, Class: ClassPast}
	switch kind {
	case FutureDate:
		return Field{Name: "date", Value: d, Class: ClassFuture}
	case BadDate:
		return Field{Name: "date", Value: d, Class: ClassMalformed, Invalid: true, plain: &plain}
	}
	return plain
}

// TypeField draws the type of 4.3: one of the five (draft first), or now
// and then one outside them, Invalid.
func TypeField(t *rapid.T) Field {
	good, bad := rapid.SampledFrom(Types).Draw(t, "type"), rapid.SampledFrom(badTypes).Draw(t, "badType")
	plain := Field{Name: "type", Value: good}
	if rapid.IntRange(0, 7).Draw(t, "typeKind") == 7 {
		return Field{Name: "type", Value: bad, Invalid: true, plain: &plain}
	}
	return plain
}

// settle draws whether a write case may send values the spec does not
// promise to take (two cases in three); one that may not sends each such
// field's plain value instead, or leaves the field out. Without it, the
// more fields a case sends, the likelier one is refused, and fewer
// writes would reach the oracles of what a server stores. Shrinking
// tries the case without them first.
func settle(t *rapid.T, fs []Field) []Field {
	strict := rapid.IntRange(0, 2).Draw(t, "invalidAllowed") == 0
	out := make([]Field, 0, len(fs))
	for _, f := range fs {
		switch {
		case strict && f.Invalid && f.plain != nil:
			f = *f.plain
		case strict && f.Invalid:
			continue
		}
		f.plain = nil
		out = append(out, f)
	}
	return out
}

// Cell is one field in one class: what an exploration reached.
type Cell struct{ Field, Class string }

func (c Cell) String() string { return fmt.Sprintf("%s:%s", c.Field, c.Class) }

// Cells are the field and class pairs a case sends (the settings' text
// fields counted as "settings text"): what coverage reports count.
func (c Case) Cells() []Cell {
	var out []Cell
	for _, f := range c.Fields {
		if f.Class == "" {
			continue
		}
		name := f.Name
		if (c.Kind == KindSettings || c.Target == "settings") && name != "customFields" {
			name = "settings text"
		}
		out = append(out, Cell{name, f.Class})
	}
	for _, p := range c.Query {
		if p.Class != "" {
			out = append(out, Cell{p.Name, p.Class})
		}
	}
	if c.KeyClass != "" && c.Kind == KindRead {
		out = append(out, Cell{"key", c.KeyClass})
	}
	return out
}
