// Package testkit is what tests of several packages share to set up their
// world: the in-memory reference server on a loopback port, and golden
// files. Only tests import it.
package testkit

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/conformance-suite/conformance/internal/reference"
)

// Server is a reference server listening on a loopback port.
type Server struct {
	*reference.Server
	URL       string // base URL, http://127.0.0.1:port
	Token     string
	AuthToken string
}

// Reference serves a fresh reference server with new tokens and the given
// mutants until tb ends.
func Reference(tb testing.TB, mutants ...reference.Mutant) Server {
	tb.Helper()
	return ReferenceWith(tb, reference.Options{Mutants: mutants}, nil)
}

// ReferenceWith serves a fresh reference server with opts (new tokens
// where opts has none) until tb ends, behind wrap when it is not nil (a
// server that delays, cuts or rewrites the reference's answers).
func ReferenceWith(tb testing.TB, opts reference.Options, wrap func(http.Handler) http.Handler) Server {
	tb.Helper()
	if opts.Token == "" {
		opts.Token = reference.NewToken()
	}
	if opts.AuthToken == "" {
		opts.AuthToken = reference.NewToken()
	}
	srv, err := reference.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	ts := httptest.NewServer(h)
	tb.Cleanup(ts.Close)
	return Server{Server: srv, URL: ts.URL, Token: opts.Token, AuthToken: opts.AuthToken}
}
