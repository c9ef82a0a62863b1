package pages

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// writeKit holds the helpers of the page write specs (writes.go and
// writes_protocol.go). They are methods, not package functions, so that they
// cannot clash with the helpers of the read specs in the same package.
type writeKit struct{ t *framework.Fixture }

// writePastDate is the date sent with every page whose type must not turn into
// scheduled. It lies far in the past so that the few published, static and
// sticky pages a run makes sort last in a live site's lists.
const writePastDate = "2001-02-03 04:05:06"

// writeDateLayout is the spec's date form (section 2.1).
const writeDateLayout = "2006-01-02 15:04:05"

// futureDate is a publish date a year ahead, for scheduled pages.
func (k writeKit) futureDate() string {
	return time.Now().UTC().AddDate(1, 0, 0).Format(writeDateLayout)
}

// title returns a page title that starts with the run marker's words, so
// that a key the server derives from it ("conformance-<run>-<words>") still
// carries the run marker and `conformance cleanup` can find it.
func (k writeKit) title(words string) string {
	return "Conformance " + k.t.RunID + " " + words
}

// encodeOnce HTML-encodes s once the common way (&, <, > and " as named
// entities). It is what failure messages show as the expected form; the
// checks accept any once-encoding (see encodedOnce).
func (k writeKit) encodeOnce(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// writeCharRef is one HTML character reference: named, decimal or hex.
var writeCharRef = regexp.MustCompile(`^&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);`)

// encodedOnce reports whether got is sent HTML-encoded exactly once (spec
// 2.1 title and contentRaw, 1.4). The spec names no encoder, so any form is
// accepted: named or numeric references (&amp; or &#38;), and > or quotes
// left as they are. What is required: decoding got once gives back what was
// sent (so &amp;amp; fails), no raw < remains, and every & starts a
// character reference (so text sent as is, not encoded, fails).
func (k writeKit) encodedOnce(got, sent string) bool {
	if html.UnescapeString(got) != sent || strings.Contains(got, "<") {
		return false
	}
	for i := strings.IndexByte(got, '&'); i >= 0; i = strings.IndexByte(got, '&') {
		ref := writeCharRef.FindString(got[i:])
		if ref == "" {
			return false
		}
		got = got[i+len(ref):]
	}
	return true
}

// expectEncodedOnce expects the string at path of ex's body to be sent
// HTML-encoded exactly once (encodedOnce).
func (k writeKit) expectEncodedOnce(ex *client.Exchange, path, sent, why string) {
	r := ex.Get(path)
	ExpectWithOffset(1, r.Type == gjson.String && k.encodedOnce(r.Str, sent)).To(BeTrue(), func() string {
		return fmt.Sprintf("%s: %s is %s, want %q HTML-encoded exactly once (e.g. %q; any entity form, never encoded twice)\n\n%s",
			why, path, k.describe(r), sent, k.encodeOnce(sent), ex.String())
	})
}

// expectEncodedOnceIfPresent is expectEncodedOnce for a field a response
// may lack (the create and edit responses are judged whole by their own
// rules).
func (k writeKit) expectEncodedOnceIfPresent(ex *client.Exchange, path, sent, why string) {
	if ex.Get(path).Exists() {
		k.expectEncodedOnce(ex, path, sent, why)
	}
}

// pagePath is the path of the page with key.
func (k writeKit) pagePath(key string) string { return client.KeyPath("pages", key) }

// mustCreate creates a page (JSON body) that a spec of another rule needs
// and returns its key. When the create fails the spec's rule cannot be
// checked: it is reported not checked (PAGE-CREATE-201 judges the create).
func (k writeKit) mustCreate(ctx context.Context, fields map[string]any) string {
	ex, key := k.t.CreatePage(ctx, fields)
	if key == "" {
		framework.NotChecked("could not create the page this rule needs (HTTP %d): %s", ex.Status, ex.BodyExcerpt())
	}
	return key
}

// createForm creates a page with a form-encoded body (draft, run-marked
// slug unless form says otherwise) and registers its cleanup.
func (k writeKit) createForm(ctx context.Context, form url.Values) (*client.Exchange, string) {
	if form.Get("type") == "" {
		form.Set("type", "draft")
	}
	if form.Get("slug") == "" {
		form.Set("slug", k.t.Marker(fmt.Sprintf("f%d", k.t.Client.Seq()+1)))
	}
	ex := k.t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: "/api/pages", Form: form, Credentials: client.BothTokens})
	return ex, k.t.Adopt(ex)
}

// edit sends PUT /api/pages/{key} with a JSON body.
func (k writeKit) edit(ctx context.Context, key string, body map[string]any) *client.Exchange {
	return k.t.Write(ctx, http.MethodPut, k.pagePath(key), body)
}

// editForm sends PUT /api/pages/{key} with a form-encoded body.
func (k writeKit) editForm(ctx context.Context, key string, form url.Values) *client.Exchange {
	return k.t.Client.Do(ctx, client.Request{Method: http.MethodPut, Path: k.pagePath(key), Form: form, Credentials: client.BothTokens})
}

// follow keeps the ledger on the page after an edit answered ex and returns
// the key the page now has.
//
// A new data.key that carries the run marker is trusted. One without it is
// followed only when the old key no longer reads and the new one does (a
// server may derive keys in its own way); otherwise it is reported as a
// teardown problem and left alone, since it could be someone else's page.
// When data.key is the old key and the edit could have moved the page (the
// caller passes candidates: the run-marked keys it could have moved to), the
// old key is read back and, if it is gone, the candidates are tried, so that
// a server that misreports the new key does not make the run leave the page
// behind unnoticed.
func (k writeKit) follow(ctx context.Context, old string, ex *client.Exchange, candidates ...string) string {
	if ex.Err != nil || ex.Status < 200 || ex.Status >= 300 {
		return old
	}
	reads := func(key string) bool {
		r := k.t.Read(ctx, k.pagePath(key), nil)
		return r.Err == nil && r.Status == http.StatusOK && r.Get("data.key").String() == key
	}
	nk := ex.Get("data.key").String()
	if nk != "" && nk != old {
		switch {
		case framework.IsRunMarked(nk):
			k.t.Renamed(old, nk)
		case !reads(old) && reads(nk):
			k.t.Renamed(old, nk)
			k.t.Observe("an edit moved run page %s to %s, a key without the run marker", old, nk)
		default:
			k.t.Ledger.AddProblem(fmt.Sprintf("an edit of page %s answered data.key %s, which carries no run marker "+
				"and could not be confirmed as the page's new key; not deleted automatically", old, nk))
		}
		return nk
	}
	if len(candidates) == 0 || reads(old) {
		return old
	}
	for _, c := range candidates {
		if c != old && framework.IsRunMarked(c) && reads(c) {
			k.t.Renamed(old, c)
			return c
		}
	}
	k.t.Ledger.AddProblem(fmt.Sprintf("page %s no longer reads after an edit that answered data.key %q, "+
		"and it was not found where the edit could have moved it; it may be left on the target", old, nk))
	return old
}

// read reads the page back with GET and expects a 200 success envelope.
func (k writeKit) read(ctx context.Context, key, why string) *client.Exchange {
	ex := k.t.Read(ctx, k.pagePath(key), nil)
	ExpectWithOffset(1, ex).To(framework.BeSuccess(http.StatusOK), "reading page %s back (%s)", key, why)
	return ex
}

// category returns the key of a category the target has (the first one
// GET /api/categories lists), or "" when there is none or the list fails.
func (k writeKit) category(ctx context.Context) string {
	ex := k.t.Read(ctx, "/api/categories", nil)
	if ex.Err != nil || ex.Status != http.StatusOK {
		return ""
	}
	for _, c := range ex.Get("data").Array() {
		if key := c.Get("key"); key.Type == gjson.String && key.Str != "" {
			return key.Str
		}
	}
	return ""
}

// describe renders a gjson value for a failure message.
func (k writeKit) describe(r gjson.Result) string {
	if !r.Exists() {
		return "missing"
	}
	return r.Raw
}

// expectString expects the string at path of ex's body to equal want.
func (k writeKit) expectString(ex *client.Exchange, path, want, why string) {
	r := ex.Get(path)
	ExpectWithOffset(1, r.Type == gjson.String && r.Str == want).To(BeTrue(), func() string {
		return fmt.Sprintf("%s: %s is %s, want %q\n\n%s", why, path, k.describe(r), want, ex.String())
	})
}

// expectStringIfPresent is expectString for a field a response may lack
// (the create and edit responses are judged whole by their own rules).
func (k writeKit) expectStringIfPresent(ex *client.Exchange, path, want, why string) {
	if ex.Get(path).Exists() {
		k.expectString(ex, path, want, why)
	}
}

// expectTagNames expects the tags object at path to map tag keys (non-empty,
// distinct) to exactly the names given, compared without surrounding spaces.
func (k writeKit) expectTagNames(ex *client.Exchange, path string, names []string, why string) {
	r := ex.Get(path)
	var got []string
	problem := ""
	if !r.IsObject() {
		problem = "it is not an object of tag key to tag name"
	} else {
		r.ForEach(func(key, value gjson.Result) bool {
			switch {
			case key.Str == "":
				problem = "a tag key is empty"
			case value.Type != gjson.String:
				problem = fmt.Sprintf("the value of tag %q is %s, want the tag name (a string)", key.Str, value.Raw)
			}
			// Trimmed: whether spaces around the commas of the string
			// sent belong to the names is not said (4.3 "comma-separated").
			got = append(got, strings.TrimSpace(value.String()))
			return true
		})
	}
	want := append([]string(nil), names...)
	sort.Strings(want)
	sort.Strings(got)
	if problem == "" && !reflect.DeepEqual(got, want) {
		problem = fmt.Sprintf("its names are %q, want %q", got, want)
	}
	ExpectWithOffset(1, problem).To(BeEmpty(), func() string {
		return fmt.Sprintf("%s: %s is %s: %s\n\n%s", why, path, k.describe(r), problem, ex.String())
	})
}

// expectUnchanged expects the page objects of two reads of one page to
// agree on every field named (fields the first read lacks are skipped: the
// page object's shape is judged elsewhere).
func (k writeKit) expectUnchanged(before, after *client.Exchange, fields []string, why string) {
	var diffs []string
	for _, f := range fields {
		b, a := before.Get("data."+f), after.Get("data."+f)
		if !b.Exists() {
			continue
		}
		if !k.jsonEqual(b.Raw, a.Raw) {
			diffs = append(diffs, fmt.Sprintf("%s was %s, is now %s", f, b.Raw, k.describe(a)))
		}
	}
	ExpectWithOffset(1, diffs).To(BeEmpty(), func() string {
		return fmt.Sprintf("%s:\n  %s\n\nbefore:\n%s\nafter:\n%s", why, strings.Join(diffs, "\n  "), before.String(), after.String())
	})
}

func (k writeKit) jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
	}
	return reflect.DeepEqual(x, y)
}

// expectWritten expects a create or edit to have succeeded: HTTP 200 or
// 201 with status "0" (the exact code of a create is PAGE-CREATE-201's).
func (k writeKit) expectWritten(ex *client.Exchange, what string) {
	code := http.StatusCreated
	if ex.Status == http.StatusOK {
		code = http.StatusOK
	}
	ExpectWithOffset(1, ex).To(framework.BeSuccess(code), what)
}

// writeTypes are the five page types of spec section 3.
func (k writeKit) writeTypes() []string {
	return []string{"published", "draft", "static", "sticky", "scheduled"}
}

// expectValidType expects data.type of ex to be one of the five types
// (spec 2.1, 3). ifPresent skips a response that carries no type (the
// create and edit responses are judged whole by their own rules).
func (k writeKit) expectValidType(ex *client.Exchange, why string, ifPresent bool) {
	r := ex.Get("data.type")
	if ifPresent && !r.Exists() {
		return
	}
	ExpectWithOffset(1, r.Type == gjson.String && slices.Contains(k.writeTypes(), r.Str)).To(BeTrue(), func() string {
		return fmt.Sprintf("%s: data.type is %s, want one of %q (a page's type is one of these five)\n\n%s",
			why, k.describe(r), k.writeTypes(), ex.String())
	})
}

// keepsTitleWord reports whether slug keeps a word of title, whatever the
// case and separators: the weakest sense of "derived from the title" (4.3)
// that a slug made from something else (an ID, a counter, a date, a fixed
// word) fails. Words of fewer than four characters and numbers do not
// count, since they could match by chance.
func (k writeKit) keepsTitleWord(slug, title string) bool {
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
