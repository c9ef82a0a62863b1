package framework

// What a run creates on the target, and how each kind is removed again
// (principle: leave no trace). A kind of thing that this target could not
// be shown to remove is not created at all; the rules that need it are then
// not checked, with the reason.
//
//   - Top-level pages (POST /api/pages, run-marked slug and title): DELETE
//     /api/pages/{key}, registered with DeferCleanup on the line after the
//     create (CreatePage, Adopt), so it runs when a spec fails, times out or
//     is interrupted; the end-of-run sweep lists every run-marked page of
//     every type and deletes (and reports) what is still there.
//   - Pages renamed by an edit: the ledger follows the rename (Renamed), and
//     the cleanup registered at create time deletes the page's current key.
//   - Child pages (parent/child): created only when ChildPagesBlocked finds
//     nothing against it: the target shows none of the previous release's
//     traits in reads (LegacyLike; that release's DELETE of parent/child
//     deletes the parent and leaves the child where nothing can remove it),
//     and a DELETE of parent/<a child that does not exist> was seen to leave
//     a run-made parent in place. They are deleted before their parent, and
//     a hierarchical key is read back after its delete.
//   - Tags: made by pages that carry tags (run-marked names); the site drops
//     a tag that no page uses, so they go with the pages.
//   - Files and images uploaded to a page the run created (POST /api/files/
//     {key}, POST /api/images with the page's uuid): the API has no delete,
//     so uploads go only to run pages, whose delete takes them along on the
//     reference server. That a real host does so is not proven (the previous
//     release keeps files by page key, images by uuid): each upload is listed
//     in the run summary, for the operator to remove.
//   - Settings (only with --allow-settings-write): settingsguard.New restores
//     every changed value and reads the settings back.
//
// The run never creates categories, users or settings fields of its own.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

// NotCreated is the error of a create the run did not send, because the
// target could not remove what it would make.
type NotCreated struct{ Reason string }

func (e *NotCreated) Error() string { return "not sent: " + e.Reason }

// NotSent is the exchange of a request the run decided not to send.
func NotSent(method, path string, err error) *client.Exchange {
	return &client.Exchange{Method: method, URL: path, Err: err}
}

// CreateOutcome says in a few words why a create gave no page: the reason
// it was not sent, or the server's answer.
func CreateOutcome(ex *client.Exchange) string {
	if nc := (*NotCreated)(nil); errors.As(ex.Err, &nc) {
		return nc.Reason
	}
	if ex.Status == 0 {
		return match.Outcome(ex)
	}
	return "the server answered " + match.Outcome(ex)
}

// removal holds what the run found out about removing what it creates:
// decided once per run (failed reads are not kept, so a later spec asks
// again).
type removal struct {
	mu sync.Mutex
	// legacy: the previous release's traits seen in reads (nil: not read
	// yet).
	legacy []string
	// childBlocked: why child pages are not created ("" when they may be);
	// childDecided says whether it was decided.
	childBlocked string
	childDecided bool
}

// LegacyLike reports the traits of the previous release (spec 9.3; 3.21.1)
// that the target shows in reads alone: a page that does not exist answered
// with 200, a page list without meta, numberOfItems a string, tags a
// string. None: the target does not look like it. err is set when the reads
// could not be judged (then nothing is kept, and the next call reads
// again). The reads are sent once per run, with the API token only.
func (t *Fixture) LegacyLike(ctx context.Context) (traits []string, err error) {
	t.removal.mu.Lock()
	defer t.removal.mu.Unlock()
	return t.legacyLocked(ctx)
}

func (t *Fixture) legacyLocked(ctx context.Context) ([]string, error) {
	if t.removal.legacy != nil {
		return t.removal.legacy, nil
	}
	// Side by side: neither read depends on the other.
	exs := t.All(ctx,
		client.Request{Method: http.MethodGet, Path: pagelist.PagePath(t.Marker("no-such-page-legacy-probe"))},
		client.Request{Method: http.MethodGet, Path: pagelist.PagesPath, Query: url.Values{"numberOfItems": {"2"}}})
	missing, list := exs[0], exs[1]
	for _, ex := range exs {
		if ex.Err != nil || ex.Status >= 500 || !ex.IsJSON() {
			return nil, fmt.Errorf("%s could not be judged: %s", ex.RequestLine(), match.Outcome(ex))
		}
	}
	traits := []string{}
	if missing.Status >= 200 && missing.Status < 300 {
		traits = append(traits, fmt.Sprintf("a page that does not exist answered HTTP %d", missing.Status))
	}
	if list.Status >= 200 && list.Status < 300 {
		if !list.Get("meta").IsObject() {
			traits = append(traits, "the page list has no meta")
		}
		if n := list.Get("numberOfItems"); n.Type == gjson.String {
			traits = append(traits, "the page list's numberOfItems is a string ("+n.Raw+")")
		}
		for _, p := range pagelist.PageItems(list).All() {
			if p.Get("tags").Type == gjson.String {
				traits = append(traits, "a page's tags are a string")
				break
			}
		}
	}
	t.removal.legacy = traits
	return traits, nil
}

// ChildPagesBlocked says why the run must not create child pages on this
// target ("" when it may): a child page is made only where the run can
// remove it again. It is decided once per run, before the first child page:
// from reads (LegacyLike), then, on a target that does not look like the
// previous release, by a proof that leaves nothing behind: a run-made
// top-level page must survive DELETE of <it>/<a child that does not exist>.
func (t *Fixture) ChildPagesBlocked(ctx context.Context) string {
	return t.childPagesBlocked(ctx, t.childDeleteHitsParent)
}

// ChildPagesBlockedAfter is ChildPagesBlocked for a caller that has just
// made the proof itself: sent DELETE of <parent>/<a child that does not
// exist> (del), parent being a top-level page the run created, and then read
// parent back (after). When the run has not decided yet, those two answers
// are the proof, and no page of its own is created for it.
func (t *Fixture) ChildPagesBlockedAfter(ctx context.Context, parent string, del, after *client.Exchange) string {
	return t.childPagesBlocked(ctx, func(context.Context) string { return childProofOutcome(parent, del, after) })
}

// childPagesBlocked decides ChildPagesBlocked once, with prove giving the
// outcome of the write proof when the reads do not decide.
func (t *Fixture) childPagesBlocked(ctx context.Context, prove func(context.Context) string) string {
	if !t.CanWrite() {
		return "" // nothing is created anyway
	}
	t.removal.mu.Lock()
	defer t.removal.mu.Unlock()
	if t.removal.childDecided {
		return t.removal.childBlocked
	}
	traits, err := t.legacyLocked(ctx)
	switch {
	case err != nil:
		return "whether the target behaves like the previous release, whose DELETE of parent/child deletes the parent, " +
			"could not be told (" + err.Error() + "): a child page might not be removable"
	case len(traits) > 0:
		t.removal.childBlocked = "the target behaves like the previous release, whose DELETE of parent/child deletes " +
			"the parent: a child page could not be removed (it shows: " + strings.Join(traits, "; ") + ")"
	default:
		t.removal.childBlocked = prove(ctx)
	}
	t.removal.childDecided = true
	return t.removal.childBlocked
}

// childDeleteHitsParent creates a top-level page, sends DELETE of a child
// key under it that no page has, and reads the page back: a target whose
// DELETE of parent/child acts on the parent deletes it. It returns why child
// pages are blocked, or "" when the page survived. The page is deleted
// again (its cleanup is registered too).
func (t *Fixture) childDeleteHitsParent(ctx context.Context) string {
	ex := t.Write(ctx, http.MethodPost, pagelist.PagesPath, t.PageFields(ctx, map[string]any{
		"slug": t.Marker("removal-proof"), "title": "Conformance run " + t.RunID + " removal proof"}))
	parent := t.Adopt(ctx, ex)
	if parent == "" {
		return "the run could not show that this target removes a child page: the top-level page its proof needs " +
			"was not created (" + match.Outcome(ex) + ")"
	}
	defer func() { _ = t.DeletePage(ctx, parent) }()
	del := t.Write(ctx, http.MethodDelete, pagelist.PagePath(parent+"/"+t.Marker("no-such-child")), nil)
	return childProofOutcome(parent, del, t.Read(ctx, pagelist.PagePath(parent), nil))
}

// childProofOutcome judges the proof of ChildPagesBlocked: DELETE of a
// child key under parent that no page has answered del, and reading parent
// afterwards answered after. It returns why child pages are blocked, or ""
// when the parent survived.
func childProofOutcome(parent string, del, after *client.Exchange) string {
	sent := del.Method
	if u, err := url.Parse(del.URL); err == nil {
		sent += " " + u.Path // the run's own URL, its tokens left out
	}
	switch {
	case after.Err != nil || after.Status >= 500:
		return "the run could not show that this target removes a child page: reading " + parent + " after " +
			sent + " failed (" + match.Outcome(after) + ")"
	case after.Status != http.StatusOK || after.Get("data.key").String() != parent:
		return fmt.Sprintf("%s, a child page that does not exist, removed its parent %s (the DELETE answered %s; "+
			"the parent then %s): this target's DELETE of parent/child acts on the parent, so a child page could not be removed",
			sent, parent, match.Outcome(del), match.Outcome(after))
	}
	return ""
}
