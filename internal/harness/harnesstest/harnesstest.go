// Package harnesstest gives `go test` runs of a suite package a Target:
// the built-in reference server on a loopback port, or the server named by
// CONFORMANCE_BASE_URL / CONFORMANCE_TOKEN / CONFORMANCE_AUTH_TOKEN.
package harnesstest

import (
	"net/http/httptest"
	"os"
	"testing"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/harness"
	"github.com/conformance-suite/conformance/internal/reference"
)

// Target returns a target for tb, with writes and settings writes allowed
// against the reference server (fresh state per call).
func Target(tb testing.TB) *harness.Target {
	tb.Helper()
	cfg := client.Config{BaseURL: os.Getenv("CONFORMANCE_BASE_URL"), Token: os.Getenv("CONFORMANCE_TOKEN"), AuthToken: os.Getenv("CONFORMANCE_AUTH_TOKEN")}
	opts := harness.Options{}
	if cfg.BaseURL == "" {
		cfg.Token, cfg.AuthToken = reference.NewToken(), reference.NewToken()
		srv, err := reference.New(reference.Options{Token: cfg.Token, AuthToken: cfg.AuthToken})
		if err != nil {
			tb.Fatal(err)
		}
		ts := httptest.NewServer(srv)
		tb.Cleanup(ts.Close)
		cfg.BaseURL = ts.URL
		opts.SettingsWrites = true
	}
	cfg.ReadOnly = cfg.AuthToken == ""
	opts.ReadOnly = cfg.ReadOnly
	c, err := client.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return harness.New(c, opts)
}
