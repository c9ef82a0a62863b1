package writes

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	. "github.com/onsi/gomega"
	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
)

// kit holds the helpers of the page write specs that send requests: they
// need the run's fixture. The checks of what comes back are in expect.go.
type kit struct{ t *framework.Fixture }

// pastDate is the date sent with every page whose type must not turn into
// scheduled. It lies far in the past so that the few published, static and
// sticky pages a run makes sort last in a live site's lists.
const pastDate = "2001-02-03 04:05:06"

// dateLayout is the spec's date form (section 2.1).
const dateLayout = "2006-01-02 15:04:05"

// futureDate is a publish date a year ahead, for scheduled pages.
func futureDate() string {
	return time.Now().UTC().AddDate(1, 0, 0).Format(dateLayout)
}

// coverImageFile is the cover image the run's pages name: a run-marked
// filename (coverImage is a "cover image filename or URL", 4.3). No file of
// that name is uploaded: the page only names it.
func coverImageFile(t *framework.Fixture) string { return t.Marker("cover") + ".png" }

// title returns a page title that starts with the run marker's words, so
// that a key the server derives from it ("conformance-<run>-<words>") still
// carries the run marker and `conformance cleanup` can find it.
func (k kit) title(words string) string {
	return "Conformance " + k.t.RunID + " " + words
}

// mustCreate creates a page (JSON body) that a spec of another rule needs
// and returns its key. When the create fails the spec's rule cannot be
// checked: it is reported not checked (PAGE-CREATE-201 judges the create).
func (k kit) mustCreate(ctx context.Context, fields map[string]any) string {
	return k.t.MustCreatePage(ctx, fields)
}

// created expects a create whose page a spec judges to have succeeded:
// HTTP 200 or 201 with status "0" (the exact code is PAGE-CREATE-201's).
// Which fields a create requires is not shown (4.3): a create refused with
// 400 although its body is complete leaves the spec's rule not checked,
// with the server's answer, and PAGE-CREATE-201 alone judges the refusal.
// So does a create the run did not send (see framework.CreatePage).
func (k kit) created(ex *client.Exchange, what string) {
	if nc := (*framework.NotCreated)(nil); errors.As(ex.Err, &nc) {
		framework.NotChecked("%s was not sent: %s", what, nc.Reason)
	}
	if ex.Err == nil && ex.Status == http.StatusBadRequest {
		framework.NotChecked("%s was refused (%s); which fields a create requires is not shown (4.3), so "+
			"PAGE-CREATE-201 alone judges the refusal", what, framework.Outcome(ex))
	}
	expectWrittenOffset(2, ex, what)
}

// createForm creates a page with a form-encoded body (the fields of
// framework.PageForm unless form says otherwise) and registers its cleanup.
func (k kit) createForm(ctx context.Context, form url.Values) (*client.Exchange, string) {
	ex := k.t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: framework.PagesPath, Form: k.t.PageForm(form),
		Credentials: client.BothTokens})
	return ex, k.t.Adopt(ctx, ex)
}

// edit sends PUT /api/pages/{key} with a JSON body.
func (k kit) edit(ctx context.Context, key string, body map[string]any) *client.Exchange {
	return k.t.Write(ctx, http.MethodPut, framework.PagePath(key), body)
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
func (k kit) follow(ctx context.Context, old string, ex *client.Exchange, candidates ...string) string {
	if ex.Err != nil || ex.Status < 200 || ex.Status >= 300 {
		return old
	}
	reads := func(key string) bool {
		r := k.t.Read(ctx, framework.PagePath(key), nil)
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
func (k kit) read(ctx context.Context, key, why string) *client.Exchange {
	ex := k.t.Read(ctx, framework.PagePath(key), nil)
	ExpectWithOffset(1, ex).To(framework.BeSuccess(http.StatusOK), "reading page %s back (%s)", key, why)
	return ex
}

// category returns the key of a category the target has (the first one
// GET /api/categories lists), or "" when there is none or the list fails.
func (k kit) category(ctx context.Context) string {
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
