//go:build linux

package cli_test

import (
	"strings"
	"testing"
)

// On a terminal the run keeps a live line: rules done of all, the area and
// rule running, the requests made and the time, rewritten in place.
func TestConsoleLiveLineOnATerminal(t *testing.T) {
	out := runOnTerminal(t, []string{"NO_COLOR=1"}, "demo", "--label-filter", "area:users", "--json-report", "r.json")
	for _, want := range []string{"\r0/7 rules · users › USER-", " requests · 0:0", "✓ users     7 rules: 7 passed", "PASS"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal shows no %q:\n%q", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("escape codes with NO_COLOR set:\n%q", out)
	}
}
