package main

// These tests run this package's main (the real binary's entry point) in a
// subprocess: they check that exit codes and output reach the process, the
// one thing internal/cli's own tests cannot see.

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

func TestMain(m *testing.M) {
	if os.Getenv(selftest.EnvAsCLI) == "1" {
		main()
		return // main exits; a return here would mean it did not
	}
	os.Exit(m.Run())
}

func TestMainExitCodes(t *testing.T) {
	closed := testkit.RefusedURL(t)
	cases := []struct {
		name     string
		args     []string
		wantExit int
		want     *regexp.Regexp // on stdout+stderr
	}{
		{"version", []string{"version"}, 0, regexp.MustCompile(`^conformance \S+\n$`)},
		{"help", []string{"--help"}, 0, regexp.MustCompile(`Exit codes`)},
		{"usage error", []string{"--no-such-flag"}, 2, regexp.MustCompile(`unknown flag: --no-such-flag`)},
		{"missing token", []string{"--base-url", closed}, 2, regexp.MustCompile(`--token`)},
		{"unreachable target", []string{"--base-url", closed, "--token", "x"}, 3, regexp.MustCompile(`The target cannot be checked: Cannot reach`)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := selftest.Run(t.Context(), selftest.Cmd{Args: c.args, Dir: t.TempDir(), Timeout: 30 * time.Second})
			out := res.Stdout + res.Stderr
			if res.Exit != c.wantExit {
				t.Errorf("conformance %s exited %d, want %d:\n%s", strings.Join(c.args, " "), res.Exit, c.wantExit, out)
			}
			if !c.want.MatchString(out) {
				t.Errorf("conformance %s printed %q, want a match for %s", strings.Join(c.args, " "), out, c.want)
			}
		})
	}
}
