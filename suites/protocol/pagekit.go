package protocol

import (
	"context"
	"net/http"
	"net/url"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/framework/verdicts"
)

// The requests of the page-write specs (bodies.go), made in prepare
// functions: nothing here asserts, each step keeps what it got in a
// pageRun for the specs to judge.

// pageKit sends the page writes of the group.
type pageKit struct{ t *framework.Fixture }

// title returns a page title that starts with the run marker's words, so
// that a key the server derives from it ("conformance-<run>-<words>") still
// carries the run marker and `conformance cleanup` can find it.
func (k pageKit) title(words string) string { return "Conformance " + k.t.RunID + " " + words }

// encoding is a kind of request body for a page's fields (spec 1, rule 3).
type encoding struct {
	name, sent string
	form       bool
}

var (
	jsonBody = encoding{name: "JSON", sent: "a JSON body (Content-Type: application/json)"}
	formBody = encoding{name: "form", sent: "a form-encoded body", form: true}
)

// pageRun is what one run page went through: a create with the body under
// test, the page read back, an edit, the page read back again, its delete.
type pageRun struct {
	created *client.Exchange
	// twin is the same create in the other encoding, sent when created
	// was refused with 400; twinKey the page it made.
	twin    *client.Exchange
	twinKey string
	madeKey string // the page created made ("" for none)
	// createRead is the created page read back (nil without madeKey).
	createRead *client.Exchange
	// key is the page edited: the one a create made, else one made for the
	// edit; "" when none could be made (noPage says why).
	key    string
	noPage string
	edited *client.Exchange
	// editRead is the page read back after a successful edit.
	editRead *client.Exchange
	deleted  *client.Exchange
}

// needPage makes the running spec not checked when run had no page to
// edit.
func (run pageRun) needPage() {
	if run.noPage != "" {
		verdicts.NotChecked("could not create the page this rule needs: %s", run.noPage)
	}
}

// create creates a page with fields sent in enc (completed as
// framework.PageFields does) and takes responsibility for it.
func (k pageKit) create(ctx context.Context, enc encoding, fields map[string]string) (*client.Exchange, string) {
	if !enc.form {
		return k.t.CreatePage(ctx, asJSON(fields))
	}
	ex := k.t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: pagelist.PagesPath,
		Form: k.t.PageForm(ctx, asForm(fields)), Credentials: client.BothTokens})
	return ex, k.t.Adopt(ctx, ex)
}

// edit sends PUT /api/pages/{key} with fields in enc.
func (k pageKit) edit(ctx context.Context, enc encoding, key string, fields map[string]string) *client.Exchange {
	r := client.Request{Method: http.MethodPut, Path: pagelist.PagePath(key), Credentials: client.BothTokens}
	if enc.form {
		r.Form = asForm(fields)
	} else {
		r.JSON = asJSON(fields)
	}
	return k.t.Client.Do(ctx, r)
}

// createAndRead creates the page of run with fields in enc and reads it
// back. A create refused with 400 is sent again in other (when given): the
// same fields accepted there show the encoding was refused, not a field.
func (k pageKit) createAndRead(ctx context.Context, run *pageRun, enc encoding, other *encoding, fields map[string]string) {
	run.created, run.madeKey = k.create(ctx, enc, fields)
	switch {
	case run.madeKey != "":
		run.createRead = k.t.Read(ctx, pagelist.PagePath(run.madeKey), nil)
	case other != nil && run.created.Err == nil && run.created.Status == http.StatusBadRequest:
		run.twin, run.twinKey = k.create(ctx, *other, fields)
	}
	run.key = run.madeKey
	if run.key == "" {
		run.key = run.twinKey
	}
}

// ensurePage gives run a page to edit when its create made none: one
// created with JSON and fields (the edit's rule is not about creating).
func (k pageKit) ensurePage(ctx context.Context, run *pageRun, fields map[string]any) {
	if run.key != "" {
		return
	}
	ex, key := k.t.CreatePage(ctx, fields)
	if key == "" {
		run.noPage = framework.CreateOutcome(ex)
	}
	run.key = key
}

// readEdited follows the page of run to where a successful edit left it
// (candidates: run-marked keys the edit could have moved it to) and reads
// it back.
func (k pageKit) readEdited(ctx context.Context, run *pageRun, candidates ...string) {
	ex := run.edited
	if ex.Err != nil || ex.Status < 200 || ex.Status >= 300 {
		return
	}
	run.key = k.t.FollowEdit(ctx, run.key, ex, candidates...)
	run.editRead = k.t.Read(ctx, pagelist.PagePath(run.key), nil)
}

// remove deletes the page of run now, beside the other pages' requests
// (its cleanup then has nothing left to do), and keeps the delete's
// answer.
func (k pageKit) remove(ctx context.Context, run *pageRun) {
	if run.key == "" {
		return
	}
	key := k.t.Ledger.CurrentKey(run.key)
	run.deleted = k.t.Write(ctx, http.MethodDelete, pagelist.PagePath(key), nil)
	if run.deleted.Err == nil && (run.deleted.Status == http.StatusOK || run.deleted.Status == http.StatusNotFound) {
		k.t.Ledger.RemovePage(key)
	}
}

func asJSON(fields map[string]string) map[string]any {
	out := make(map[string]any, len(fields))
	for f, v := range fields {
		out[f] = v
	}
	return out
}

func asForm(fields map[string]string) url.Values {
	out := url.Values{}
	for f, v := range fields {
		out.Set(f, v)
	}
	return out
}

// withField is fields with one more.
func withField(fields map[string]string, name, value string) map[string]string {
	out := map[string]string{name: value}
	for f, v := range fields {
		out[f] = v
	}
	return out
}
