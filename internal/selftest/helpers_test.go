package selftest_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
)

// serveReference serves a fresh reference server with opts on a loopback
// test server that closes with the test, behind wrap when it is not nil,
// and returns the server and its base URL.
func serveReference(t *testing.T, opts reference.Options, wrap func(http.Handler) http.Handler) (*reference.Server, string) {
	t.Helper()
	srv, err := reference.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return srv, ts.URL
}
