package fronts_test

import (
	"strings"
	"testing"
	"time"

	"github.com/conformance-suite/conformance/internal/fronts"
	"github.com/conformance-suite/conformance/internal/redact"
	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/selftest"
	"github.com/conformance-suite/conformance/internal/testkit"
)

// TestExploreFragileStorageBehindFronts runs conformance explore, with
// page and settings writes, behind nginx and Apache against the reference
// in its file mode (stored as fragile as the host's: a request beside a
// write would empty the site). The exploration must leave the stored data
// identical.
func TestExploreFragileStorageBehindFronts(t *testing.T) {
	for _, kind := range fronts.Kinds() {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			ref := testkit.ReferenceWith(t, reference.Options{StorageDir: t.TempDir()}, nil)
			f := fronts.Start(t, kind, ref.URL)
			red := redact.New(redact.Secret{Value: ref.Token, Placeholder: "<token>"},
				redact.Secret{Value: ref.AuthToken, Placeholder: "<authentication>"})
			before := ref.Storage()
			dir := t.TempDir()
			res := selftest.Run(t.Context(), selftest.Cmd{Dir: dir, Timeout: fullRunTimeout,
				Args: []string{"explore", "--base-url", f.URL, "--allow-settings-write", "--seed", "3", "--explore-requests", "600",
					"--replay-dir", dir},
				Env: []string{"CONFORMANCE_TOKEN=" + ref.Token, "CONFORMANCE_AUTH_TOKEN=" + ref.AuthToken}})
			after := ref.Storage()
			if res.TimedOut || res.Err != nil || (res.Exit != 0 && res.Exit != 1) {
				t.Fatalf("explore behind %s: exit %d (timed out: %v, %v):\n%s", kind, res.Exit, res.TimedOut, res.Err, red.String(selftest.Tail(res.Stdout, 30)))
			}
			t.Logf("explore behind %s took %s, exit %d: %s", kind, res.Elapsed.Round(time.Millisecond), res.Exit, red.String(selftest.Tail(res.Stdout, 2)))
			if res.Exit != 0 {
				t.Errorf("explore behind %s found something on the reference:\n%s", kind, red.String(selftest.Tail(res.Stdout, 40)))
			}
			if diff := before.Diff(after); len(diff) > 0 {
				t.Errorf("behind %s the stored data differs after the exploration (%d records):\n  %s",
					kind, len(diff), strings.Join(diff[:min(len(diff), 12)], "\n  "))
			}
		})
	}
}
