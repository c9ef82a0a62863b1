package cleanup

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/frameworktest"
	"github.com/conformance-suite/conformance/internal/marker"
)

// TestRemovesOnlyRunMarkedPages seeds a reference server with pages of two
// earlier runs (one with a child) and a person's page whose slug merely
// starts with "conformance-", then checks that cleanup deletes exactly the
// run-marked ones, children first, and that a dry run deletes nothing.
func TestRemovesOnlyRunMarkedPages(t *testing.T) {
	c, err := client.New(frameworktest.Reference(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	create := func(body map[string]any) string {
		t.Helper()
		ex := c.Do(ctx, client.Request{Method: http.MethodPost, Path: "/api/pages", JSON: body, Credentials: client.BothTokens})
		if ex.Status != http.StatusCreated {
			t.Fatalf("create: %s", ex)
		}
		return ex.Get("data.key").String()
	}
	runA := marker.NewRunID(time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC))
	runB := marker.NewRunID(time.Date(2026, 5, 6, 7, 8, 0, 0, time.UTC))
	parent := create(map[string]any{"title": "p", "slug": marker.Prefix + runA + "-parent", "type": "draft"})
	child := create(map[string]any{"title": "c", "slug": marker.Prefix + runA + "-child", "parent": parent, "type": "draft"})
	other := create(map[string]any{"title": "o", "slug": marker.Prefix + runB + "-p1", "type": "published", "date": "2020-01-01 00:00:00"})
	mine := create(map[string]any{"title": "Conformance testing", "slug": "conformance-testing", "type": "draft"})

	dry, err := Run(ctx, c, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{child, other, parent} // deepest first, then by key
	if len(dry.Deleted) != 3 || dry.Deleted[0] != want[0] {
		t.Fatalf("dry run lists %v, want %v", dry.Deleted, want)
	}
	if ex := c.Do(ctx, client.Request{Method: http.MethodGet, Path: client.KeyPath("pages", parent)}); ex.Status != http.StatusOK {
		t.Fatalf("a dry run deleted %s: %s", parent, ex)
	}

	res, err := Run(ctx, c, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Deleted) != 3 || len(res.Failed) != 0 {
		t.Fatalf("deleted %v, failed %v", res.Deleted, res.Failed)
	}
	for _, k := range want {
		if ex := c.Do(ctx, client.Request{Method: http.MethodGet, Path: client.KeyPath("pages", k)}); ex.Status != http.StatusNotFound {
			t.Errorf("%s still there: HTTP %d", k, ex.Status)
		}
	}
	if ex := c.Do(ctx, client.Request{Method: http.MethodGet, Path: client.KeyPath("pages", mine)}); ex.Status != http.StatusOK {
		t.Errorf("cleanup touched a page it did not make (%s): HTTP %d", mine, ex.Status)
	}
	left, err := Leftovers(ctx, c)
	if err != nil || len(left) != 0 {
		t.Fatalf("leftovers after cleanup: %v %v", left, err)
	}
}
