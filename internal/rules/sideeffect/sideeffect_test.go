package sideeffect

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestRefused: 4xx is a refusal; a success and a server-side failure are
// not judged.
func TestRefused(t *testing.T) {
	for status, want := range map[int]bool{200: false, 201: false, 400: true, 401: true, 404: true, 409: true, 422: true,
		500: false, 503: false, 0: false} {
		if Refused(status) != want {
			t.Errorf("Refused(%d) = %t", status, !want)
		}
	}
}

// TestNoPage: after a refused create, or a write to a key no page has,
// the key reads 404; a page there breaks the rule; other answers say
// nothing.
func TestNoPage(t *testing.T) {
	for _, c := range []struct {
		status     int
		data       string
		ok, judged bool
	}{
		{http.StatusNotFound, `null`, true, true},
		{http.StatusNotFound, ``, true, true},
		{http.StatusOK, `{"key":"k","title":"made anyway"}`, false, true},
		{http.StatusOK, `{"key":"other"}`, true, false},
		{http.StatusOK, `{"key":1}`, true, false},
		{http.StatusBadRequest, `null`, true, false},
		{http.StatusInternalServerError, `null`, true, false},
	} {
		j := NoPage(c.status, gjson.Parse(c.data), "k")
		if j.Holds() != c.ok || j.Skip == c.judged {
			t.Errorf("NoPage(%d, %s) = %+v; want holds %t, judged %t", c.status, c.data, j, c.ok, c.judged)
		}
	}
}

// TestKept: the page still reads at its key with the fields compared as
// before (parsed); other fields may change; gone breaks the rule.
func TestKept(t *testing.T) {
	before := gjson.Parse(`{"key":"k","title":"T","description":"D","type":"static","tags":{"a":"A"},"readAt":"1"}`)
	fields := []string{"description", "type", "tags"}
	for _, c := range []struct {
		name       string
		status     int
		after      string
		ok, judged bool
		mentions   string
	}{
		{"unchanged, a volatile field aside", 200, `{"key":"k","title":"T","description":"D","type":"static","tags":{"a":"A"},"readAt":"2"}`, true, true, ""},
		{"a field not compared changed", 200, `{"key":"k","title":"X","description":"D","type":"static","tags":{"a":"A"}}`, true, true, ""},
		{"escapes and order aside", 200, `{"tags":{"a":"\u0041"},"type":"static","description":"D","key":"k"}`, true, true, ""},
		{"description applied", 200, `{"key":"k","description":"changed","type":"static","tags":{"a":"A"}}`, false, true, "description"},
		{"type stored", 200, `{"key":"k","description":"D","type":"bogus","tags":{"a":"A"}}`, false, true, "type"},
		{"another page at the key", 200, `{"key":"k-0","description":"D","type":"static","tags":{"a":"A"}}`, false, true, "key"},
		{"overwritten", 200, `{"key":"k","description":"new","type":"static","tags":{}}`, false, true, "tags"},
		{"gone", 404, `null`, false, true, "gone"},
		{"read failed", 500, `null`, true, false, ""},
	} {
		j := Kept(before, c.status, gjson.Parse(c.after), "k", fields)
		if j.Holds() != c.ok || j.Skip == c.judged || !strings.Contains(j.Problem, c.mentions) {
			t.Errorf("%s: Kept = %+v; want holds %t, judged %t, mentioning %q", c.name, j, c.ok, c.judged, c.mentions)
		}
	}
	if j := Kept(gjson.Parse(`{"key":"other"}`), 404, gjson.Parse(`null`), "k", fields); !j.Skip {
		t.Errorf("a page not read at its key before is judged: %+v", j)
	}
}

// TestOwnKey: an accepted create with a taken slug answers a key of its
// own; a refusal is allowed.
func TestOwnKey(t *testing.T) {
	for _, c := range []struct {
		status     int
		data       string
		ok, judged bool
	}{
		{201, `{"key":"k-0"}`, true, true},
		{200, `{"key":"k-0"}`, true, true},
		{201, `{"key":"k"}`, false, true},
		{201, `{"title":"no key"}`, true, false},
		{400, `null`, true, true},
		{409, `null`, true, true},
	} {
		j := OwnKey(c.status, gjson.Parse(c.data), "k")
		if j.Holds() != c.ok || j.Skip == c.judged {
			t.Errorf("OwnKey(%d, %s) = %+v; want holds %t, judged %t", c.status, c.data, j, c.ok, c.judged)
		}
	}
}

// TestTotalKept: the number of pages of every type is the same before and
// after a refused create; one more breaks the rule; a list without an
// integer meta.total, or an answer other than 200, says nothing.
func TestTotalKept(t *testing.T) {
	for _, c := range []struct {
		name                      string
		beforeStatus, afterStatus int
		before, after             string
		ok, judged                bool
	}{
		{"the same total", 200, 200, `{"meta":{"total":12}}`, `{"meta":{"total":12}}`, true, true},
		{"one page more", 200, 200, `{"meta":{"total":12}}`, `{"meta":{"total":13}}`, false, true},
		{"one page fewer", 200, 200, `{"meta":{"total":12}}`, `{"meta":{"total":11}}`, false, true},
		{"no meta (a previous release)", 200, 200, `{"data":[]}`, `{"data":[]}`, true, false},
		{"a total that is text", 200, 200, `{"meta":{"total":"12"}}`, `{"meta":{"total":"13"}}`, true, false},
		{"a fractional total", 200, 200, `{"meta":{"total":12.5}}`, `{"meta":{"total":13}}`, true, false},
		{"the second read failed", 200, 500, `{"meta":{"total":12}}`, `{}`, true, false},
	} {
		j := TotalKept(c.beforeStatus, gjson.Parse(c.before), c.afterStatus, gjson.Parse(c.after))
		if j.Holds() != c.ok || j.Skip == c.judged {
			t.Errorf("%s: %+v; want holds %t, judged %t", c.name, j, c.ok, c.judged)
		}
		if !c.ok && !strings.Contains(j.Problem, "before the refused write") {
			t.Errorf("%s: the problem %q does not say what changed", c.name, j.Problem)
		}
	}
}
