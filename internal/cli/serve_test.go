package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/testkit"
)

// serve-reference --generated-pages N serves the sample content and N
// generated pages, until its context ends; a count out of range is a
// usage error.
func TestServeReferenceGeneratedPages(t *testing.T) {
	var out, errs testkit.SyncBuffer
	cmd := newServeReferenceCmd(&out, &errs)
	cmd.SetArgs([]string{"--addr", "127.0.0.1:0", "--generated-pages", "300", "--token", strings.Repeat("a", 64), "--auth-token", strings.Repeat("b", 64)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve-reference ended with %v", err)
		}
	}()
	listening := regexp.MustCompile(`CONFORMANCE_BASE_URL=(\S+)`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); base == ""; time.Sleep(20 * time.Millisecond) {
		if m := listening.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("not listening after 10 s: %q %q", out.String(), errs.String())
		}
	}
	count := func(q string) int {
		resp, err := http.Get(base + "/api/pages?token=" + strings.Repeat("a", 64) + "&numberOfItems=1" + q)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			Meta struct{ Total int } `json:"meta"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatal(err)
		}
		return body.Meta.Total
	}
	every := count("&published=true&draft=true&static=true&sticky=true&scheduled=true")
	if every < 300 || every > 400 {
		t.Errorf("%d pages of every type, want the sample's and 300 generated", every)
	}

	var bad testkit.SyncBuffer
	wrong := newServeReferenceCmd(&bad, &bad)
	wrong.SetArgs([]string{"--addr", "127.0.0.1:0", "--generated-pages", "-1"})
	if err := wrong.ExecuteContext(context.Background()); err == nil || !strings.Contains(bad.String(), "--generated-pages -1: want 0 to") {
		t.Errorf("--generated-pages -1: %v, %q", err, bad.String())
	}
}
