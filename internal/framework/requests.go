package framework

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/tidwall/gjson"
)

// RequestOption adjusts the request a helper (Read, ReadAuth, Write,
// CreatePage) builds.
type RequestOption func(*client.Request)

// Placed makes a helper's request a placement probe (a check of the spec's
// placement rules): its tokens go where p says even when the run sends
// them in headers (--credentials header), and the run lists it.
func Placed(p client.Placement) RequestOption {
	return func(r *client.Request) { r.Placement = p }
}

func do(ctx context.Context, t *Fixture, r client.Request, opts []RequestOption) *client.Exchange {
	for _, o := range opts {
		o(&r)
	}
	return t.Client.Do(ctx, r)
}

// Read sends GET path with the API token (in the query, as spec 5.3 says,
// unless the run sends it in a header).
func (t *Fixture) Read(ctx context.Context, path string, query url.Values, opts ...RequestOption) *client.Exchange {
	return do(ctx, t, client.Request{Method: http.MethodGet, Path: path, Query: query}, opts)
}

// ReadAuth sends GET path with both tokens (GET /api/settings).
func (t *Fixture) ReadAuth(ctx context.Context, path string, query url.Values, opts ...RequestOption) *client.Exchange {
	return do(ctx, t, client.Request{Method: http.MethodGet, Path: path, Query: query, Credentials: client.BothTokens}, opts)
}

// Write sends a write request with both tokens where the spec puts them
// (query for DELETE, JSON body for POST and PUT), or in headers when the
// run sends them there.
func (t *Fixture) Write(ctx context.Context, method, path string, body map[string]any, opts ...RequestOption) *client.Exchange {
	return do(ctx, t, client.Request{Method: method, Path: path, JSON: body, Credentials: client.BothTokens}, opts)
}

// CreatePage creates a page for the current spec or container and registers
// its deletion with DeferCleanup on the next line, so it is removed even
// when the spec fails, times out or the run is interrupted. The body is
// PageFields(fields): a complete, plausible draft whose slug carries the run
// marker (parent pages given by the caller must carry it too). opts adjust
// the create request (Placed). It returns the exchange and the new key (""
// when the create failed).
//
// A page under a parent (fields["parent"]) is created only where the run
// can remove it again (ChildPagesBlocked): otherwise nothing is sent and
// the exchange carries a *NotCreated error saying why.
func (t *Fixture) CreatePage(ctx context.Context, fields map[string]any, opts ...RequestOption) (*client.Exchange, string) {
	body := t.PageFields(ctx, fields)
	if parent, _ := body["parent"].(string); parent != "" {
		if why := t.ChildPagesBlocked(ctx); why != "" {
			return NotSent(http.MethodPost, pagelist.PagesPath, &NotCreated{Reason: why}), ""
		}
	}
	ex := t.Write(ctx, http.MethodPost, pagelist.PagesPath, body, opts...)
	key := t.Adopt(ctx, ex)
	return ex, key
}

// PageFields is the body of a page the run creates: fields, completed with
// a title, content and description of the run, type draft and a run-marked
// slug wherever fields do not say otherwise. Which fields a create requires
// is not shown (spec 4.3), so every page carries the ones a site could
// plausibly insist on. A field whose value is nil is left out: {"slug": nil}
// lets the server derive the slug (the title must then carry the marker).
func (t *Fixture) PageFields(ctx context.Context, fields map[string]any) map[string]any {
	body := map[string]any{
		"type":        "draft",
		"slug":        t.pageSlug(ctx),
		"title":       "Conformance run " + t.RunID,
		"content":     "This page was made by conformance test run " + t.RunID + ", which deletes it when it ends.",
		"description": "Conformance test page (run " + t.RunID + ")",
	}
	for k, v := range fields {
		if v == nil {
			delete(body, k)
		} else {
			body[k] = v
		}
	}
	return body
}

// PageForm is PageFields for a form-encoded create: form, completed the same
// way (a value of "" counts as given).
func (t *Fixture) PageForm(ctx context.Context, form url.Values) url.Values {
	out := url.Values{}
	for k, v := range t.PageFields(ctx, nil) {
		out.Set(k, v.(string))
	}
	for k, v := range form {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// Adopt takes responsibility for the page a create exchange made (if any):
// records it in the ledger and registers its deletion at the end of the
// spec (of the spec that judges a prepare function, for ctx of one).
// Specs that create pages with unusual bodies (form-encoded, ...) call it
// themselves.
func (t *Fixture) Adopt(ctx context.Context, ex *client.Exchange) string {
	if ex.Err != nil || ex.Status < 200 || ex.Status >= 300 {
		return ""
	}
	key := ex.Get("data.key").String()
	if key == "" {
		return ""
	}
	t.AdoptKey(ctx, key)
	return key
}

// AdoptKey takes responsibility for a page the run made that no successful
// create exchange names: for example a create the server refused with an
// error status yet carried out, found afterwards by reading its key.
func (t *Fixture) AdoptKey(ctx context.Context, key string) {
	t.Ledger.AddPage(key)
	t.DeferCleanup(ctx, func(ctx context.Context) { t.removeCreated(ctx, key) })
}

// removeCreated is the cleanup of the page created at key: it deletes the
// page where it is now, since an edit may have renamed it since. A failure
// is left to the sweep, which retries and reports what remains.
func (t *Fixture) removeCreated(ctx context.Context, key string) {
	ctx, cancel := CleanupContext(ctx)
	defer cancel()
	_ = t.DeletePage(ctx, t.Ledger.CurrentKey(key))
}

// Renamed tells the ledger that a page the run created now lives at
// another key (after an edit changed it).
func (t *Fixture) Renamed(from, to string) { t.Ledger.RenamePage(from, to) }

// DeletePage removes a page the run created, following renames recorded
// in the ledger; "already gone" counts as success. It never fails a spec:
// on failure it returns the error and the page stays in the ledger, for the
// suite-wide sweep to try again and report as a teardown problem, apart
// from rule failures.
//
// Child pages the ledger holds under key are deleted first, whatever order
// the cleanups run in: a server may keep the children of a deleted parent
// under new keys (the reference server makes them top-level pages), which
// the ledger could not follow. A hierarchical key is read back after its
// delete, because the previous release deletes the parent on DELETE
// parent/child and leaves the child behind.
func (t *Fixture) DeletePage(ctx context.Context, key string) error {
	if t.ReadOnly {
		return nil
	}
	pages := t.Ledger.Pages()
	if !slices.Contains(pages, key) {
		return nil // deleted already (by the spec itself or another cleanup)
	}
	for i := len(pages) - 1; i >= 0; i-- { // sorted: deeper keys come later
		if strings.HasPrefix(pages[i], key+"/") {
			_ = t.DeletePage(ctx, pages[i]) // the sweep reports what remains
		}
	}
	ex := t.Write(ctx, http.MethodDelete, client.KeyPath("pages", key), nil)
	switch {
	case ex.Err == nil && (ex.Status == http.StatusOK || ex.Status == http.StatusNotFound):
		t.Ledger.RemovePage(key)
		t.pendUploads(key)
		if ex.Status == http.StatusOK && strings.Contains(key, "/") {
			if after := t.Read(ctx, client.KeyPath("pages", key), nil); after.Err == nil && after.Status == http.StatusOK &&
				after.Get("data.key").String() == key {
				t.Ledger.AddProblem(fmt.Sprintf("page %s is still readable after its DELETE answered 200 "+
					"(the server may have deleted its parent instead)", key))
			}
		}
	case ex.Err != nil:
		// The page stays in the ledger: the suite-wide sweep tries again,
		// and reports what it could not delete (once, not per attempt).
		return fmt.Errorf("could not delete page %s: %v", key, ex.Err)
	default:
		return fmt.Errorf("could not delete page %s: HTTP %d %s", key, ex.Status, ex.BodyExcerpt())
	}
	return nil
}

// pendUploads notes a page the run uploaded to, just deleted: its file
// list is read at the run's end, beside the listing of every page
// (readRunEnd) or by the sweep, so that the summary says what the run
// saw, not what it assumed, at no round trip of its own.
func (t *Fixture) pendUploads(key string) {
	if t.Ledger.HasUploadsOn(key) {
		t.runEnd.uploads.add(key)
	}
}

// uploadsReads are the reads of the file lists of pages.
func uploadsReads(pages []string) []client.Request {
	reqs := make([]client.Request, len(pages))
	for i, key := range pages {
		reqs[i] = client.Request{Method: http.MethodGet, Path: client.KeyPath("files", key), Fresh: true}
	}
	return reqs
}

// seeUploads records what the file list of each deleted page shows (exs,
// their reads in order): the files are no longer listed, or still are.
func (t *Fixture) seeUploads(pages []string, exs []*client.Exchange) {
	for i, key := range pages {
		ex, path := exs[i], client.KeyPath("files", key)
		files := ex.Get("data")
		switch {
		case ex.Err != nil || ex.Status != http.StatusOK || !files.IsArray():
			t.Ledger.UploadsSeen(key, false, fmt.Sprintf("after its page was deleted GET %s %s, so whether the server removed it is not known", path, match.Outcome(ex)))
		case len(files.Array()) == 0:
			t.Ledger.UploadsSeen(key, true, fmt.Sprintf("GET %s lists no file once the page is deleted (the API does not show whether the server removed the file itself)", path))
		default:
			t.Ledger.UploadsSeen(key, false, fmt.Sprintf("GET %s still lists %d file(s) after its page was deleted", path, len(files.Array())))
		}
	}
}

// seeUploadsLeft reads the file lists pendUploads left that no read at
// the run's end took along.
func (t *Fixture) seeUploadsLeft(ctx context.Context) {
	if pages := t.runEnd.uploads.take(); len(pages) > 0 {
		t.seeUploads(pages, t.Client.DoAll(ctx, uploadsReads(pages), len(pages)))
	}
}

// sweep deletes whatever the ledger still holds: pages whose cleanup did
// not run (interrupt) or whose key changed, and pages of the run the
// ledger never heard of (strays), which it returns. Children first, so a
// parent is never deleted under a child.
func (t *Fixture) sweep(ctx context.Context) []string {
	ctx, cancel := CleanupContext(ctx)
	defer cancel()
	if !t.CanWrite() {
		return nil
	}
	var found []string
	for _, k := range t.strays(ctx) {
		if !slices.Contains(t.Ledger.Pages(), k) {
			found = append(found, k)
		}
		t.Ledger.AddPage(k)
	}
	pages := t.Ledger.Pages()
	failed := map[string]error{}
	for i := len(pages) - 1; i >= 0; i-- {
		if err := t.DeletePage(ctx, pages[i]); err != nil {
			failed[pages[i]] = err
		}
	}
	// A DELETE answered 200 proves nothing by itself: list once more and
	// report every page of this run that is still there (when one was
	// sent: otherwise the listing just read holds no page of the run).
	var after []string
	if len(pages) > 0 {
		after = t.strays(ctx)
	}
	for _, k := range after {
		if !slices.Contains(t.Ledger.Pages(), k) {
			t.Ledger.AddPage(k)
			failed[k] = fmt.Errorf("page %s is still listed after its DELETE answered success", k)
		}
	}
	for _, k := range t.Ledger.Pages() {
		if err := failed[k]; err != nil {
			t.Ledger.AddProblem(err.Error())
		} else {
			t.Ledger.AddProblem(fmt.Sprintf("page %s was not deleted", k))
		}
	}
	t.seeUploadsLeft(ctx)
	return found
}

// strays lists pages carrying this run's marker that the ledger never
// heard of: a create whose answer was lost (the run was interrupted or
// timed out while the request was in flight) still made its page. It is
// the backstop that keeps a run from leaving pages behind, on a site of
// any size: the listing is read as a stream that keeps the run's keys
// only. The sweep's first takes the listing a spec of PhaseRunEnd read
// (RunPagesAtEnd) when no write went out since.
func (t *Fixture) strays(ctx context.Context) []string {
	l := t.takeRunEndListing()
	if l == nil {
		l = t.listRunPages(ctx)
	}
	if !l.listed {
		return nil
	}
	return l.keys
}

// runKeys is the fold of strays: the keys that carry the run's marker.
type runKeys struct {
	t    *Fixture
	keys []string
	size int64
}

func (f *runKeys) Item(raw []byte) {
	if key := gjson.GetBytes(raw, "key"); key.Type == gjson.String && f.t.HasRunMarker(key.Str) {
		f.keys = append(f.keys, strings.Clone(key.Str))
		f.size += int64(len(key.Str)) + 16
	}
}

func (f *runKeys) Value() (any, int64) { return f.keys, f.size }

// cleanupTimeout bounds one cleanup action that no interrupt may cut short.
const cleanupTimeout = 30 * time.Second

// CleanupContext returns a context for undoing what a spec did: it keeps
// ctx's values but not its cancellation, so the first Ctrl-C (which cancels
// the running node, possibly the cleanup itself) cannot stop a delete or a
// settings restore half-way; it has its own time limit instead. A second
// Ctrl-C still ends the process.
func CleanupContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
}
