package framework

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"

	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
)

// TestSweepTakesTheRunEndListing: the sweep's first listing is the one a
// spec of the run's end read (RunPagesAtEnd) while no write went out
// since, and costs no request; a later one reads again; and once a write
// went out after it, the sweep reads what the site holds now, not the
// listing taken before the write.
func TestSweepTakesTheRunEndListing(t *testing.T) {
	tg := referenceTarget(t)
	ctx := context.Background()
	slug := createStray(t, tg)
	ex, keys, listed := tg.RunPagesAtEnd(ctx)
	if !listed || !slices.Equal(keys, []string{slug}) {
		t.Fatalf("RunPagesAtEnd = %v, listed %v (%s); want [%s]", keys, listed, match.Outcome(ex), slug)
	}
	seq := tg.Client.Seq()
	if again, _, _ := tg.RunPagesAtEnd(ctx); again != ex || tg.Client.Seq() != seq {
		t.Errorf("a second RunPagesAtEnd with no write between read the listing again")
	}
	if got := tg.strays(ctx); !slices.Equal(got, []string{slug}) || tg.Client.Seq() != seq {
		t.Errorf("the sweep's first listing: strays = %v after %d request(s); want [%s] from the run's end listing, none sent",
			got, tg.Client.Seq()-seq, slug)
	}
	if got := tg.strays(ctx); !slices.Equal(got, []string{slug}) || tg.Client.Seq() != seq+1 {
		t.Errorf("the sweep's second listing: strays = %v after %d request(s); want [%s], read again", got, tg.Client.Seq()-seq, slug)
	}

	if _, keys, _ := tg.RunPagesAtEnd(ctx); !slices.Equal(keys, []string{slug}) {
		t.Fatalf("RunPagesAtEnd = %v, want [%s]", keys, slug)
	}
	if ex := tg.Write(ctx, http.MethodDelete, pagelist.PagePath(slug), nil); ex.Status != http.StatusOK {
		t.Fatalf("delete: %s", match.Outcome(ex))
	}
	if got := tg.strays(ctx); len(got) > 0 {
		t.Errorf("after a delete that followed the run's end listing, strays = %v: the sweep took the listing from before the write", got)
	}
	if _, keys, _ := tg.RunPagesAtEnd(ctx); len(keys) > 0 {
		t.Errorf("RunPagesAtEnd after a delete = %v: it gave the listing from before the write", keys)
	}
}

// TestRunPagesReadBeside: a read sent with ReadWithRunPages (the settings
// restore's last) brings the listing of every page along, in one batch:
// RunPagesAtEnd then sends nothing while no write went out since, and
// reads again after one.
func TestRunPagesReadBeside(t *testing.T) {
	tg := referenceTarget(t)
	ctx := context.Background()
	slug := createStray(t, tg)
	seq := tg.Client.Seq()
	tags := tg.ReadWithRunPages(ctx, client.Request{Method: http.MethodGet, Path: "/api/tags"})
	if tags.Status != http.StatusOK || !strings.Contains(tags.URL, "/api/tags") {
		t.Fatalf("the read sent beside: %s %s", tags.URL, match.Outcome(tags))
	}
	if n := tg.Client.Seq() - seq; n != 2 {
		t.Fatalf("%d requests sent, want 2: the read and the listing", n)
	}
	if _, keys, _ := tg.RunPagesAtEnd(ctx); !slices.Equal(keys, []string{slug}) || tg.Client.Seq() != seq+2 {
		t.Errorf("RunPagesAtEnd = %v after %d request(s); want [%s] from the listing read beside, none sent", keys, tg.Client.Seq()-seq-2, slug)
	}
	tg.ReadWithRunPages(ctx, client.Request{Method: http.MethodGet, Path: "/api/tags"})
	if ex := tg.Write(ctx, http.MethodDelete, pagelist.PagePath(slug), nil); ex.Status != http.StatusOK {
		t.Fatalf("delete: %s", match.Outcome(ex))
	}
	if _, keys, _ := tg.RunPagesAtEnd(ctx); len(keys) > 0 {
		t.Errorf("RunPagesAtEnd after a delete = %v: it gave the listing read beside before the write", keys)
	}
}
