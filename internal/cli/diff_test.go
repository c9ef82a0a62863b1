package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conformance-suite/conformance/internal/runner"
)

// The fixture pairs and golden outputs live with the report package,
// which owns the diff logic; here the command's exit codes and output.
var diffData = filepath.Join("..", "report", "testdata", "diff")

func TestDiffCommand(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("<html>not a report</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		exit   int
		golden string // expected stdout
		stderr string
	}{
		{name: "regression", args: []string{"diff", filepath.Join(diffData, "regression", "before.json"), filepath.Join(diffData, "regression", "after.json")},
			exit: runner.ExitFail, golden: filepath.Join(diffData, "regression", "diff.txt.golden")},
		{name: "no regression", args: []string{"diff", filepath.Join(diffData, "clean", "before.json"), filepath.Join(diffData, "clean", "after.json")},
			exit: runner.ExitPass, golden: filepath.Join(diffData, "clean", "diff.txt.golden")},
		{name: "missing file", args: []string{"diff", filepath.Join(diffData, "clean", "before.json"), "no-such.json"},
			exit: runner.ExitUsage, stderr: "no-such.json"},
		{name: "not a report", args: []string{"diff", bad, filepath.Join(diffData, "clean", "after.json")},
			exit: runner.ExitUsage, stderr: "not a conformance JSON report"},
		{name: "one argument", args: []string{"diff", bad}, exit: runner.ExitUsage, stderr: "accepts 2 arg(s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := Main(tc.args, &stdout, &stderr); code != tc.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.exit, stdout.String(), stderr.String())
			}
			if tc.golden != "" {
				want, err := os.ReadFile(tc.golden)
				if err != nil {
					t.Fatal(err)
				}
				if got := timeMasked(stdout.String()); got != string(want) {
					t.Fatalf("output differs from %s:\n%s", tc.golden, got)
				}
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Fatalf("stderr %q does not say %q", stderr.String(), tc.stderr)
			}
		})
	}
}

// timeMasked masks dates the way the report package's golden files do.
func timeMasked(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if (strings.HasPrefix(l, "Before: ") || strings.HasPrefix(l, "After:  ")) && strings.HasSuffix(l, " UTC") {
			if j := strings.LastIndex(l, ", "); j > 0 {
				lines[i] = l[:j] + ", <time>"
			}
		}
	}
	return strings.Join(lines, "\n")
}
