// Package cleanup finds pages that earlier conformance runs left on a
// target (by their run marker, and only those) and deletes them.
package cleanup

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/marker"
)

// Leftovers lists the keys of run-marked pages, children before parents.
func Leftovers(ctx context.Context, c *client.Client) ([]string, error) {
	ex := c.Do(ctx, client.Request{Method: http.MethodGet, Path: "/api/pages", Query: marker.AllPagesQuery()})
	if ex.Err != nil {
		return nil, ex.Err
	}
	if ex.Status != http.StatusOK || !ex.IsJSON() {
		return nil, fmt.Errorf("listing pages answered HTTP %d: %s", ex.Status, ex.BodyExcerpt())
	}
	var keys []string
	for _, p := range ex.Get("data").Array() {
		if k := p.Get("key").String(); marker.IsRunMarked(k) {
			keys = append(keys, k)
		}
	}
	// Deepest first, so a parent is never deleted under its child.
	sort.Slice(keys, func(i, j int) bool {
		di, dj := strings.Count(keys[i], "/"), strings.Count(keys[j], "/")
		if di != dj {
			return di > dj
		}
		return keys[i] < keys[j]
	})
	return keys, nil
}

// Result of a cleanup.
type Result struct {
	Deleted []string
	Failed  []string // "key: why"
}

// Run deletes every run-marked page; dryRun only lists them.
func Run(ctx context.Context, c *client.Client, dryRun bool) (Result, error) {
	keys, err := Leftovers(ctx, c)
	if err != nil {
		return Result{}, err
	}
	var res Result
	for _, k := range keys {
		if dryRun {
			res.Deleted = append(res.Deleted, k)
			continue
		}
		ex := c.Do(ctx, client.Request{Method: http.MethodDelete, Path: client.KeyPath("pages", k), Credentials: client.BothTokens})
		switch {
		case ex.Err != nil:
			res.Failed = append(res.Failed, fmt.Sprintf("%s: %v", k, ex.Err))
		case ex.Status == http.StatusOK || ex.Status == http.StatusNotFound:
			res.Deleted = append(res.Deleted, k)
		default:
			res.Failed = append(res.Failed, fmt.Sprintf("%s: HTTP %d %s", k, ex.Status, ex.BodyExcerpt()))
		}
	}
	return res, nil
}
