package framework

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework/match"
	"github.com/conformance-suite/conformance/internal/framework/pagelist"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestUploadsSeenAfterDelete: what the summary says of an upload is what
// the run saw once the page it went to was deleted: the page's file list
// read again lists no file (the reference), or still lists files (a server
// that keeps them), never an assumption. It is read at the run's end, beside
// the listing of every page the run reads then, or by the sweep.
func TestUploadsSeenAfterDelete(t *testing.T) {
	for _, c := range []struct {
		name          string
		keepListing   bool
		wantUnlisted  bool
		wantInSummary string
		bySweep       bool // else by the listing at the run's end
	}{
		{"files go with the page", false, true, "lists no file once the page is deleted", false},
		{"files still listed", true, false, "still lists 1 file(s) after its page was deleted", false},
		{"read by the sweep", false, true, "lists no file once the page is deleted", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ref := testkit.ReferenceWith(t, reference.Options{}, func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if c.keepListing && r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/files/") {
						w.Header().Set("Content-Type", "application/json")
						_, _ = w.Write([]byte(`{"status":"0","message":"ok","data":[{"file":"/x/a.txt","filename":"a.txt","mime":"text/plain","size":1,"thumbnail":""}]}`))
						return
					}
					h.ServeHTTP(w, r)
				})
			})
			c2, err := client.New(client.Config{BaseURL: ref.URL, Token: ref.Token, AuthToken: ref.AuthToken})
			if err != nil {
				t.Fatal(err)
			}
			tg := New(c2, Options{})
			ctx := context.Background()
			created := tg.Write(ctx, http.MethodPost, pagelist.PagesPath, map[string]any{"title": "uploads", "slug": tg.Marker("uploads"), "type": "draft"})
			key := created.Get("data.key").String()
			if key == "" {
				t.Fatalf("create: %s", match.Outcome(created))
			}
			tg.Ledger.AddPage(key)
			up := tg.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: client.KeyPath("files", key), Credentials: client.BothTokens,
				Files: []client.File{{Field: "file", Name: "a.txt", MIMEType: "text/plain", Content: []byte("a")}}})
			if up.Status != http.StatusOK {
				t.Fatalf("upload: %s", match.Outcome(up))
			}
			tg.Ledger.AddUploadOn(key, "file a.txt on page "+key)
			if err := tg.DeletePage(ctx, key); err != nil {
				t.Fatal(err)
			}
			seq := tg.Client.Seq()
			if c.bySweep {
				tg.sweep(ctx)
			} else {
				tg.RunPagesAtEnd(ctx)
				if n := len(tg.Client.Since(seq)); n != 2 {
					t.Errorf("the listing at the run's end went with %d other requests, want 1 (the page's file list)", n-1)
				}
			}
			if n := len(tg.Client.Since(seq)); n < 2 {
				t.Fatalf("%d requests after the delete, want the page's file list among them", n)
			}
			unlisted, left := tg.Ledger.UploadsUnlisted(), tg.Ledger.Uploads()
			lines := unlisted
			if !c.wantUnlisted {
				lines = left
			}
			if len(lines) != 1 || !strings.Contains(lines[0], c.wantInSummary) || len(unlisted)+len(left) != 1 {
				t.Errorf("unlisted %q, left %q; want one line saying %q", unlisted, left, c.wantInSummary)
			}
		})
	}
}
