// Package hostile is the fault-injection harness of the suite: `go test`
// runs the real CLI (the test binary re-executed as `conformance`) against
// loopback targets that misbehave at the transport level — refusing
// connections, going down mid-run, never answering, trickling bytes,
// answering HTML, empty, truncated, invalid UTF-8, 50 MB or nesting-bomb
// bodies, redirecting, rate-limiting, presenting a self-signed certificate —
// and checks for each that the run ends within its timeouts, with the right
// exit code, a one-sentence verdict naming the cause, reports written, no
// panic, bounded memory, cleanup reported and no token in any output.
//
// The package has no code outside its tests.
package hostile
