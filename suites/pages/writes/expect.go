package writes

// What the write specs expect of an answer: written, a string as sent, HTML
// encoded once, tags, fields unchanged, a valid type.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode"

	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gcustom"
	"github.com/onsi/gomega/types"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
	"github.com/conformance-suite/conformance/internal/rules/readback"
)

// answer is one answer a spec judges, with what it is for messages.
type answer struct {
	ex  *client.Exchange
	why string
}

// createdAndRead names the two answers a create spec judges alike: the
// create response and the page read back.
func createdAndRead(created, read *client.Exchange) []answer {
	return []answer{{created, "the create response"}, {read, "the page read back"}}
}

// expectRead expects the read of a page back (GET /api/pages/{key}) to be
// a 200 success envelope, and returns it.
func expectRead(ex *client.Exchange, why string) *client.Exchange {
	return expectReadOffset(2, ex, why)
}

func expectReadOffset(offset int, ex *client.Exchange, why string) *client.Exchange {
	ExpectWithOffset(offset, ex).To(match.BeSuccess(http.StatusOK), "reading the page back (%s)", why)
	return ex
}

// needPage makes the running spec not checked when the page its rule needs
// was not created (the create answered ex, or was not sent): PAGE-CREATE-201
// alone judges a refused create.
func needPage(ex *client.Exchange, key string) {
	if key == "" {
		verdicts.NotChecked("could not create the page this rule needs: %s", framework.CreateOutcome(ex))
	}
}

// expectWritten expects a create or edit to have succeeded: HTTP 200 or
// 201 with status "0" (the exact code of a create is PAGE-CREATE-201's).
func expectWritten(ex *client.Exchange, what string) { expectWrittenOffset(2, ex, what) }

// expectWrittenOffset is expectWritten for a helper offset callers deep.
func expectWrittenOffset(offset int, ex *client.Exchange, what string) {
	code := http.StatusCreated
	if ex.Status == http.StatusOK {
		code = http.StatusOK
	}
	ExpectWithOffset(offset, ex).To(match.BeSuccess(code), what)
}

// expectString expects the string at path of ex's body to equal want.
func expectString(ex *client.Exchange, path, want, why string) {
	r := ex.Get(path)
	ExpectWithOffset(1, r.Type == gjson.String && r.Str == want).To(BeTrue(),
		match.Evidence(ex, "%s: %s is %s, want %q", why, path, pagelist.JSONText(r), want))
}

// expectEncodedOnce expects the string at path of ex's body to be sent
// HTML-encoded exactly once (match.BeEncodedOnce).
func expectEncodedOnce(ex *client.Exchange, path, sent, why string) {
	ExpectWithOffset(1, ex).To(match.HaveJSON(path, match.BeEncodedOnce(sent)), why)
}

// expectEncodedOnceIfPresent is expectEncodedOnce for a field a response
// may lack (the create and edit responses are judged whole by their own
// rules).
func expectEncodedOnceIfPresent(ex *client.Exchange, path, sent, why string) {
	if ex.Get(path).Exists() {
		expectEncodedOnce(ex, path, sent, why)
	}
}

// The messages of the matchers below, parsed once (match.MessageTemplate).
var (
	tagNamesTemplate    = match.MessageTemplate("Expected an object of tag key to tag name with the names {{.Data.Want}}: {{call .Data.Problem .Actual}}")
	typeTemplate        = match.MessageTemplate("Expected type {{.Data.Want}}: {{call .Data.Problem .Actual}}")
	absoluteURLTemplate = match.MessageTemplate("Expected an absolute http or https URL, got {{.FormattedActual}}")
)

// haveTagNames expects a decoded tags object that maps tag keys
// (non-empty, distinct) to exactly the names given, compared without
// surrounding spaces: whether spaces around the commas of the string sent
// belong to the names is not said (4.3 "comma-separated").
// PAGE-TAGS-MAP's judgement is readback.Tags.
func haveTagNames(names []string) types.GomegaMatcher {
	want := slices.Sorted(slices.Values(names))
	problem := func(v any) string { return readback.Tags(decoded(v), names).Problem }
	return match.OfKind("object", gcustom.MakeMatcher(func(v any) (bool, error) { return problem(v) == "", nil }).
		WithPrecompiledTemplate(tagNamesTemplate,
			map[string]any{"Want": fmt.Sprintf("%q", want), "Problem": problem}))
}

// haveType expects a decoded page type that is typ, sent with a date
// chosen for it (PAGE-TYPE-ROUNDTRIP: readback.Type).
func haveType(typ string) types.GomegaMatcher {
	allowed := readback.TypesAfter(typ, false, false)
	problem := func(v any) string { return readback.Type(decoded(v), allowed).Problem }
	return gcustom.MakeMatcher(func(v any) (bool, error) { return problem(v) == "", nil }).
		WithPrecompiledTemplate(typeTemplate,
			map[string]any{"Want": fmt.Sprintf("%q", typ), "Problem": problem})
}

// decoded is a value HaveJSON decoded, as JSON again, for the judgements
// of internal/rules.
func decoded(v any) gjson.Result {
	b, err := json.Marshal(v)
	if err != nil {
		return gjson.Result{}
	}
	return gjson.ParseBytes(b)
}

// bodyCell is the cell of the body field f (4.3, 4.4) a read back fills.
func bodyCell(f string, w coverage.Way) coverage.ID { return coverage.CellID("body", f, w) }

// keptCell is the cell of the body field behind page object field f that
// an edit not sending it exercises ("" for the fields no body field sets).
func keptCell(f string) coverage.ID {
	switch f {
	case "title", "description", "type", "tags", "category", "slug":
		return bodyCell(f, coverage.Kept)
	case "content", "contentRaw":
		return bodyCell("content", coverage.Kept)
	case "date", "dateRaw", "dateUTC":
		return bodyCell("date", coverage.Kept)
	case "coverImage", "coverImageFilename":
		return bodyCell("coverImage", coverage.Kept)
	}
	return ""
}

// expectKept expects the fields named to read the same before and after
// an edit that did not send them, and marks their kept cells.
func expectKept(t *framework.Fixture, before, after *client.Exchange, why string, fields ...string) {
	check := t.NewCheck()
	check.Kept(before, after, keptCell, func(f string) string { return "data." + f }, fields...)
	check.Expect(why)
}

// haveCoverFile expects a decoded coverImageFilename that is the file
// name sent as coverImage (4.3: "cover image filename or URL"; 2.1:
// coverImageFilename is the cover image's filename).
func haveCoverFile(file string) types.GomegaMatcher { return Equal(file) }

// expectCoverFile judges coverImageFilename in ex, a write that sent the
// cover image filename file, or the page read back after it. The run names
// a file it never uploads (coverImageFile), and 4.3 does not say that a
// server keeps a filename that names no file: coverImageFilename false or
// absent is then recorded as an observation of rule, not failed, unless
// keeps (the page's other write, of another such filename, read it back as
// sent: this server keeps them). A string other than file fails.
func expectCoverFile(t *framework.Fixture, cell coverage.ID, ex *client.Exchange, file string, keeps bool, rule, why string) {
	if got := ex.Get("data.coverImageFilename"); !keeps && ex.IsJSON() && (!got.Exists() || got.Type == gjson.False) {
		t.Observe("%s: coverImage %q, a filename that names no uploaded file, reads back with coverImageFilename %s (%s); "+
			"the spec does not say a server keeps such a filename", rule, file, match.Show(got), why)
		return
	}
	t.ExpectReadBack(cell, ex, "data.coverImageFilename", haveCoverFile(file), why)
}

// keepsCoverFile reports whether ex, a page read back after a write that
// sent the cover image filename sent (naming no uploaded file), shows that
// filename as coverImageFilename.
func keepsCoverFile(ex *client.Exchange, sent any) bool {
	file, ok := sent.(string)
	return ok && ex != nil && ex.IsJSON() && ex.Get("data.coverImageFilename").Type == gjson.String &&
		ex.Get("data.coverImageFilename").String() == file
}

// stableFields are the page object fields compared before and after an edit
// that must not change them (description is compared apart).
func stableFields() []string {
	return []string{"key", "uuid", "title", "content", "contentRaw", "type", "slug", "date", "dateRaw",
		"dateUTC", "tags", "username", "category", "permalink", "coverImage", "coverImageFilename"}
}

// expectUnchanged expects the page objects of two reads of one page to
// agree on every field named (fields the first read lacks are skipped: the
// page object's shape is judged elsewhere): readback.Kept.
func expectUnchanged(before, after *client.Exchange, fields []string, why string) {
	var diffs []string
	for _, c := range readback.Kept(before.Get("data"), after.Get("data"), fields) {
		diffs = append(diffs, c.String())
	}
	ExpectWithOffset(1, diffs).To(BeEmpty(),
		match.Evidence(after, "%s:\n  %s\n\nbefore:\n%s\nafter:", why, strings.Join(diffs, "\n  "), before.String()))
}

// beAbsoluteURL expects a decoded JSON string that is an absolute http or
// https URL with a host (spec 2.1: coverImage is the "absolute URL").
func beAbsoluteURL() types.GomegaMatcher {
	return gcustom.MakeMatcher(func(s string) (bool, error) {
		u, err := url.Parse(s)
		return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "", nil
	}).WithPrecompiledTemplate(absoluteURLTemplate)
}

// emptyFields names the fields of the page object in ex that hold no value:
// missing, null, false, "" or an empty object or array.
func emptyFields(ex *client.Exchange, fields ...string) []string {
	var out []string
	for _, f := range fields {
		r := ex.Get("data." + f)
		if !r.Exists() || r.Type == gjson.Null || r.Type == gjson.False || (r.Type == gjson.String && r.Str == "") ||
			(r.IsObject() && len(r.Map()) == 0) || (r.IsArray() && len(r.Array()) == 0) {
			out = append(out, f)
		}
	}
	return out
}

// expectValidType expects data.type of ex to be one of the five types
// (spec 2.1, 3: readback.ValidType). ifPresent skips a response that
// carries no type (the create and edit responses are judged whole by their
// own rules).
func expectValidType(ex *client.Exchange, why string, ifPresent bool) {
	r := ex.Get("data.type")
	if ifPresent && !r.Exists() {
		return
	}
	ExpectWithOffset(1, readback.ValidType(r).Holds()).To(BeTrue(),
		match.Evidence(ex, "%s: data.type is %s, want one of %q (a page's type is one of these five)",
			why, pagelist.JSONText(r), readback.Types))
}

// keepsTitleWord reports whether slug keeps a word of title, whatever the
// case and separators: the weakest sense of "derived from the title" (4.3)
// that a slug made from something else (an ID, a counter, a date, a fixed
// word) fails. Words of fewer than four characters and numbers do not
// count, since they could match by chance.
func keepsTitleWord(slug, title string) bool {
	lower := strings.ToLower(slug)
	split := func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }
	for _, w := range strings.FieldsFunc(strings.ToLower(title), split) {
		if len([]rune(w)) < 4 || strings.IndexFunc(w, unicode.IsLetter) < 0 {
			continue
		}
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
