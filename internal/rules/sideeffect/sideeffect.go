// Package sideeffect judges what a page write did to the site beyond what
// it may (spec 3, 4.3 to 4.5, 7): a write the server refused (a 4xx answer)
// left no trace of what it sent or addressed (PAGE-REFUSED-WRITE-NO-EFFECT;
// AUTH-REFUSED-WRITE-NO-EFFECT when refused for its authentication token),
// and a create whose slug another page's key already has left that page as
// it was, under its key (PAGE-CREATE-KEEPS-OTHERS). Each judges a read of
// one page by key (GET /api/pages/{key}: its status and data) made after
// the write, against the same page read before it where there is one, and
// compares only what the write could have changed: a server may change
// other fields by itself (a read time, a counter). The pages writes suite
// judges its refused and colliding writes with these functions;
// conformance explore may judge its generated ones alike.
package sideeffect

import (
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/rules"
	"github.com/conformance-suite/conformance/internal/rules/readback"
)

// Refused reports whether a write's status is a refusal
// (PAGE-REFUSED-WRITE-NO-EFFECT judges it): 4xx, the codes section 7
// gives to a request refused for what it sends or addresses (400
// validation, 404 no page with the key). A success was carried out, and
// a 5xx is a server-side failure (4.5 gives 500 to a delete that failed
// after the page was located), which may have happened part-way: neither
// is judged.
func Refused(status int) bool { return status >= 400 && status < 500 }

// NoPage judges the read of key after a refused write that would have made
// a page there (a create, an edit of a key no page has) or that addressed
// a key no page has (a delete): no page reads there
// (PAGE-REFUSED-WRITE-NO-EFFECT). A 404 conforms, a 200 whose data.key is
// key does not; any other answer cannot judge (a 200 naming another page
// is PAGE-GET-OK's concern).
func NoPage(status int, data gjson.Result, key string) rules.Judgement {
	switch {
	case status == http.StatusNotFound:
		return rules.Conforms()
	case status == http.StatusOK && data.Get("key").Type == gjson.String && data.Get("key").Str == key:
		return rules.Violation("page %s exists (GET answers 200 with it)", key)
	}
	return rules.CannotJudge()
}

// TotalKept judges two answers of the page list of every type (4.1:
// published, draft, static, sticky and scheduled all true), read just
// before a create and just after the server refused it: meta.total is the
// same (PAGE-REFUSED-WRITE-NO-EFFECT, AUTH-REFUSED-WRITE-NO-EFFECT), so the
// create made no page anywhere, under whatever key the server might have
// given it (its slug read back is NoPage's). An answer other than 200, or
// without an integer meta.total (a previous release's list has no meta),
// cannot judge.
func TotalKept(beforeStatus int, before gjson.Result, afterStatus int, after gjson.Result) rules.Judgement {
	b, a := before.Get("meta.total"), after.Get("meta.total")
	if beforeStatus != http.StatusOK || afterStatus != http.StatusOK || !whole(b) || !whole(a) {
		return rules.CannotJudge()
	}
	if a.Int() != b.Int() {
		return rules.Violation("meta.total of the pages of every type was %d before the refused write and %d after it", b.Int(), a.Int())
	}
	return rules.Conforms()
}

// whole reports whether r is an integer number.
func whole(r gjson.Result) bool { return r.Type == gjson.Number && r.Num == float64(r.Int()) }

// Kept judges the read of the page at key after a write that must have
// left it as it was, against before, the data of the same page read at key
// before the write: the page still reads there (PAGE-REFUSED-WRITE-NO-EFFECT
// after a refused edit or delete of it; PAGE-CREATE-KEEPS-OTHERS after a
// create that sent its key as slug), with data.key key and each of fields
// as before (readback.Kept: compared parsed; a field before lacks is not
// judged). A 404 breaks it: the page is gone. Any other answer than 200 or
// 404, and a before that does not show the page at key, cannot judge.
func Kept(before gjson.Result, status int, after gjson.Result, key string, fields []string) rules.Judgement {
	if k := before.Get("key"); k.Type != gjson.String || k.Str != key {
		return rules.CannotJudge()
	}
	switch status {
	case http.StatusOK:
	case http.StatusNotFound:
		return rules.Violation("page %s is gone (GET answers 404)", key)
	default:
		return rules.CannotJudge()
	}
	var changed []string
	for _, c := range readback.Kept(before, after, append([]string{"key"}, fields...)) {
		changed = append(changed, c.String())
	}
	if len(changed) > 0 {
		return rules.Violation("%s", strings.Join(changed, "; "))
	}
	return rules.Conforms()
}

// OwnKey judges the answer to a create whose slug is taken, the key of
// another page (PAGE-CREATE-KEEPS-OTHERS): accepted (2xx), the page it made
// has a key of its own, so data.key, when the answer carries it, is not
// taken (a key names one page, 2.1 and 4.2). A refusal conforms (the spec
// does not say a server must make the key unique); an answer without
// data.key cannot judge.
func OwnKey(status int, data gjson.Result, taken string) rules.Judgement {
	if status < 200 || status > 299 {
		return rules.Conforms()
	}
	k := data.Get("key")
	if k.Type != gjson.String {
		return rules.CannotJudge()
	}
	if k.Str == taken {
		return rules.Violation("the create answered data.key %q, the key of the page that had the slug", taken)
	}
	return rules.Conforms()
}
