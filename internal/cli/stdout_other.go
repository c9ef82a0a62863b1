//go:build !unix

package cli

import (
	"io"
	"os"

	"github.com/onsi/ginkgo/v2/formatter"
)

// divertStdout keeps standard output for one report: Ginkgo's progress
// goes to standard error instead (where file descriptors cannot be
// swapped, as on unix, its writer is).
func divertStdout(stdout io.Writer) (report io.Writer, restore func()) {
	if f, ok := stdout.(*os.File); !ok || f != os.Stdout {
		return stdout, func() {}
	}
	saved := formatter.ColorableStdOut
	formatter.ColorableStdOut = formatter.ColorableStdErr
	return stdout, func() { formatter.ColorableStdOut = saved }
}
