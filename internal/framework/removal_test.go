package framework

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/ledger"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/marker"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestLegacyLike: the reads tell the previous release (and each of its
// read traits alone) from a server that follows the spec, and the answer is
// read once.
func TestLegacyLike(t *testing.T) {
	for _, c := range []struct {
		mutant reference.Mutant
		want   string // a trait expected; "" for none
	}{
		{"", ""},
		{reference.BenignExtraFields, ""},
		{reference.ChildWritesHitParent, ""}, // no read shows it: the write proof is for that
		{reference.Legacy321, "does not exist answered HTTP 200"},
		{reference.HandlerErrors200, "does not exist answered HTTP 200"},
		{reference.ListNoMeta, "no meta"},
		{reference.NumberOfItemsAsString, "numberOfItems is a string"},
		{reference.TagsAsString, "tags are a string"},
	} {
		var mutants []reference.Mutant
		if c.mutant != "" {
			mutants = append(mutants, c.mutant)
		}
		tg := referenceTarget(t, mutants...)
		traits, err := tg.LegacyLike(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", c.mutant, err)
		}
		joined := strings.Join(traits, "; ")
		switch {
		case c.want == "" && len(traits) > 0:
			t.Errorf("%q: traits %q, want none", c.mutant, joined)
		case c.want != "" && !strings.Contains(joined, c.want):
			t.Errorf("%q: traits %q, want one saying %q", c.mutant, joined, c.want)
		}
		seq := tg.Client.Seq()
		if _, err := tg.LegacyLike(context.Background()); err != nil || tg.Client.Seq() != seq {
			t.Errorf("%q: the second call sent %d request(s) (err %v), want the answer kept", c.mutant, tg.Client.Seq()-seq, err)
		}
	}
}

// TestLedgerCurrentKey: a cleanup registered under the key a page was
// created with finds the page where renames took it, and a rename back
// or a new page at an old key does not confuse it.
func TestLedgerCurrentKey(t *testing.T) {
	var l ledger.Ledger
	l.AddPage("a")
	l.RenamePage("a", "b")
	l.RenamePage("b", "c")
	if got := l.CurrentKey("a"); got != "c" {
		t.Errorf("after a->b->c, CurrentKey(a) = %q, want c", got)
	}
	l.RenamePage("c", "a")
	if got := l.CurrentKey("a"); got != "a" {
		t.Errorf("after a->b->c->a, CurrentKey(a) = %q, want a", got)
	}
	l.AddPage("x")
	l.RenamePage("x", "y")
	l.AddPage("x") // a new page where the first one was
	if got := l.CurrentKey("x"); got != "x" {
		t.Errorf("a new page at x: CurrentKey(x) = %q, want x", got)
	}
	if got := l.CurrentKey("unknown"); got != "unknown" {
		t.Errorf("CurrentKey(unknown) = %q", got)
	}
	l.RenamePage("not-in-ledger", "z")
	if got := l.CurrentKey("not-in-ledger"); got != "not-in-ledger" {
		t.Errorf("a rename of a page the ledger does not hold is followed: %q", got)
	}
}

// TestCleanupFollowsRename: the cleanup registered when a page was created
// deletes it under the key an edit gave it later, not only the final sweep.
func TestCleanupFollowsRename(t *testing.T) {
	ctx := context.Background()
	tg := referenceTarget(t)
	old := tg.Marker("before-rename")
	created := tg.Write(ctx, http.MethodPost, pagelist.PagesPath, tg.PageFields(ctx, map[string]any{"slug": old}))
	if created.Status != http.StatusCreated || created.Get("data.key").String() != old {
		t.Fatalf("create: %s", match.Outcome(created))
	}
	tg.Ledger.AddPage(old)
	edited := tg.Write(ctx, http.MethodPut, pagelist.PagePath(old), map[string]any{"title": "Conformance " + tg.RunID + " After Rename"})
	renamed := edited.Get("data.key").String()
	if edited.Status != http.StatusOK || renamed == old || renamed == "" {
		t.Fatalf("the title edit did not rename the page: %s", match.Outcome(edited))
	}
	tg.Renamed(old, renamed)

	tg.removeCreated(ctx, old)
	if ex := tg.Read(ctx, pagelist.PagePath(renamed), nil); ex.Status != http.StatusNotFound {
		t.Errorf("after the cleanup of the page created as %s, its new key %s reads %s, want 404", old, renamed, match.Outcome(ex))
	}
	if pages := tg.Ledger.Pages(); len(pages) != 0 {
		t.Errorf("the ledger still holds %v", pages)
	}
}

// TestChildPagesBlocked: child pages may be made on the reference server,
// not on the previous release (its reads show it) nor on a server whose
// DELETE of parent/child deletes the parent (the write proof shows it),
// whether the framework makes the proof with a page of its own or takes a
// caller's (ChildPagesBlockedAfter, which then creates nothing); either
// way the answer is decided once and the proof leaves no page behind.
func TestChildPagesBlocked(t *testing.T) {
	// As in a prepare function: cleanups are collected, not handed to Ginkgo.
	ctx := context.WithValue(context.Background(), cleanupsKey{}, &cleanups{})
	for _, c := range []struct {
		mutant reference.Mutant
		want   string // in the reason; "" when child pages may be made
	}{
		{"", ""},
		{reference.ChildWritesHitParent, "removed its parent"},
		{reference.Legacy321, "behaves like the previous release"},
	} {
		var mutants []reference.Mutant
		if c.mutant != "" {
			mutants = append(mutants, c.mutant)
		}
		check := func(how, got string) {
			t.Helper()
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
				t.Errorf("%q, %s: blocked %q, want %q", c.mutant, how, got, c.want)
			}
		}

		own := referenceTarget(t, mutants...)
		check("own proof", own.ChildPagesBlocked(ctx))
		if pages := own.Ledger.Pages(); len(pages) > 0 {
			t.Errorf("%q: the proof left %v in the ledger", c.mutant, pages)
		}
		seq := own.Client.Seq()
		check("asked again", own.ChildPagesBlocked(ctx))
		if own.Client.Seq() != seq {
			t.Errorf("%q: asking again sent %d request(s), want the answer kept", c.mutant, own.Client.Seq()-seq)
		}

		caller := referenceTarget(t, mutants...)
		parent := caller.Marker("caller-parent")
		if ex := caller.Write(ctx, http.MethodPost, pagelist.PagesPath, caller.PageFields(ctx, map[string]any{"slug": parent})); ex.Get("data.key").String() != parent {
			t.Fatalf("%q: create: %s", c.mutant, match.Outcome(ex))
		}
		del := caller.Write(ctx, http.MethodDelete, pagelist.PagePath(parent+"/"+caller.Marker("no-such-child")), nil)
		after := caller.Read(ctx, pagelist.PagePath(parent), nil)
		seq = caller.Client.Seq()
		check("caller's proof", caller.ChildPagesBlockedAfter(ctx, parent, del, after))
		for _, ex := range caller.Client.Since(seq) {
			if ex.Method != http.MethodGet {
				t.Errorf("%q: with the caller's proof, the framework sent %s", c.mutant, ex.RequestLine())
			}
		}
		_ = caller.Write(ctx, http.MethodDelete, pagelist.PagePath(parent), nil)
	}
}

// referenceTarget serves a fresh reference server with the given mutants
// and returns a writing target on it.
func referenceTarget(t *testing.T, mutants ...reference.Mutant) *Fixture {
	t.Helper()
	ref := testkit.Reference(t, mutants...)
	c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken})
	if err != nil {
		t.Fatal(err)
	}
	return New(c, Options{SettingsWrites: true})
}

// TestStraysFoundOnABigListing: the backstop finds a page of the run that
// the ledger never heard of even when the every-type listing is larger
// than the run reads at once (--max-body): it reads the listing as a
// stream that keeps the run's keys only.
func TestStraysFoundOnABigListing(t *testing.T) {
	ref := testkit.Reference(t)
	c, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken, MaxBody: 2 << 10})
	if err != nil {
		t.Fatal(err)
	}
	tg := New(c, Options{})
	ctx := context.Background()
	slug := createStray(t, tg)
	defer tg.Write(ctx, http.MethodDelete, pagelist.PagePath(slug), nil)
	if whole := tg.Read(ctx, pagelist.PagesPath, marker.AllPagesQuery()); !whole.Truncated {
		t.Fatal("the every-type listing fits the read limit: the test proves nothing")
	}
	if got := tg.strays(ctx); !slices.Equal(got, []string{slug}) {
		t.Errorf("strays = %v, want [%s]", got, slug)
	}
}

// createStray creates a page of the run (its marker) that no spec made,
// as a sweep finds one, and returns its key.
func createStray(t *testing.T, tg *Fixture) string {
	t.Helper()
	slug := tg.Marker("stray")
	ex := tg.Write(context.Background(), http.MethodPost, pagelist.PagesPath, map[string]any{"title": "Stray", "slug": slug})
	if ex.Status != http.StatusCreated {
		t.Fatalf("create: %s", match.Outcome(ex))
	}
	return slug
}
