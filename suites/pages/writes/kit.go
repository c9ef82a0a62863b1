package writes

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
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

// created expects a create whose page a spec judges to have succeeded:
// HTTP 200 or 201 with status "0" (the exact code is PAGE-CREATE-201's).
// Which fields a create requires is not shown (4.3): a create refused with
// 400 although its body is complete leaves the spec's rule not checked,
// with the server's answer, and PAGE-CREATE-201 alone judges the refusal.
// So does a create the run did not send (see framework.CreatePage).
func (k kit) created(ex *client.Exchange, what string) {
	if nc := (*framework.NotCreated)(nil); errors.As(ex.Err, &nc) {
		verdicts.NotChecked("%s was not sent: %s", what, nc.Reason)
	}
	if ex.Err == nil && ex.Status == http.StatusBadRequest {
		verdicts.NotChecked("%s was refused (%s); which fields a create requires is not shown (4.3), so "+
			"PAGE-CREATE-201 alone judges the refusal", what, match.Outcome(ex))
	}
	expectWrittenOffset(2, ex, what)
}

// createForm creates a page with a form-encoded body (the fields of
// framework.PageForm unless form says otherwise) and registers its cleanup.
func (k kit) createForm(ctx context.Context, form url.Values) (*client.Exchange, string) {
	ex := k.t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: pagelist.PagesPath, Form: k.t.PageForm(ctx, form),
		Credentials: client.BothTokens})
	return ex, k.t.Adopt(ctx, ex)
}

// edit sends PUT /api/pages/{key} with a JSON body.
func (k kit) edit(ctx context.Context, key string, body map[string]any) *client.Exchange {
	return k.t.Write(ctx, http.MethodPut, pagelist.PagePath(key), body)
}

// read reads the page at key (GET /api/pages/{key}).
func (k kit) read(ctx context.Context, key string) *client.Exchange {
	return k.t.Read(ctx, pagelist.PagePath(key), nil)
}

// remove deletes a page the run created, where its edits took it, when a
// chain is done with it: in the chain itself, beside the other chains'
// work, rather than in a cleanup after the group, one at a time. What it cannot delete stays in the ledger for the cleanup
// registered at create time and the final sweep.
func (k kit) remove(ctx context.Context, key string) {
	if key != "" {
		_ = k.t.DeletePage(ctx, k.t.Ledger.CurrentKey(key))
	}
}
