//go:build unix

package cli

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// divertStdout keeps the process's standard output for one report: file
// descriptor 1 points at standard error until restore, so that Ginkgo's
// progress and anything else printed there cannot mix into the report.
// It returns the writer the report goes to. A stdout that is not the
// process's own (a test's buffer) is returned as it is.
func divertStdout(stdout io.Writer) (report io.Writer, restore func()) {
	if f, ok := stdout.(*os.File); !ok || f.Fd() != 1 {
		return stdout, func() {}
	}
	saved, err := unix.Dup(1)
	if err != nil {
		return stdout, func() {}
	}
	if err := unix.Dup2(2, 1); err != nil {
		_ = unix.Close(saved)
		return stdout, func() {}
	}
	out := os.NewFile(uintptr(saved), "stdout")
	return out, func() {
		_ = unix.Dup2(saved, 1)
		_ = out.Close()
	}
}
