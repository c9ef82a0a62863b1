package fronts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// InCI reports whether the process runs in continuous integration (CI set,
// as GitHub Actions and most CI systems do), where a front that is not
// installed is a broken setup, not a reason to skip.
func InCI() bool {
	v := strings.ToLower(strings.TrimSpace(os.Getenv("CI")))
	return v != "" && v != "0" && v != "false"
}

// Require returns the path of the kind's binary. When it is not installed
// the test is skipped, or, in CI, failed with how to install it.
func Require(t testing.TB, kind Kind) string {
	t.Helper()
	return require(t, kind, Binary, InCI())
}

func require(t testing.TB, kind Kind, binary func(Kind) (string, error), ci bool) string {
	t.Helper()
	bin, err := binary(kind)
	if err == nil {
		return bin
	}
	if ci {
		t.Fatalf("CI is set, so the %s front must run: %v (.ci/run installs it)", kind, err)
		return ""
	}
	t.Skipf("%v; skipped because CI is not set", err)
	return ""
}

// Start starts a front of the given kind in front of backend for the
// test, with its directory under t.TempDir(), and stops it when the test
// ends. A missing binary skips the test, or fails it in CI (see Require).
func Start(t testing.TB, kind Kind, backend string) *Front {
	t.Helper()
	Require(t, kind)
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		// The workers run as nobody and must reach their temporary
		// directories: let everyone traverse (not list) the test's own
		// temporary directories above dir.
		for _, d := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(d, 0o711); err != nil {
				t.Fatal(err)
			}
		}
	}
	f, err := Launch(t.Context(), kind, backend, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := f.Stop(); err != nil {
			t.Error(err)
		}
	})
	return f
}
