//go:build !unix

package runner

import (
	"io"
	"os"

	"github.com/conformance-suite/conformance/internal/redact"
)

// redirectConsole does nothing where file descriptors cannot be swapped:
// Ginkgo's reporter, the only other writer, is silenced (runSpecs).
func redirectConsole(_ *redact.Redactor, console io.Writer) (direct io.Writer, restore func()) {
	return console, func() {}
}

// terminalWidth reports whether w is a terminal; its width is taken to be
// 80 columns.
func terminalWidth(w io.Writer) (width int, ok bool) {
	if f, isFile := w.(*os.File); isFile && isTerminal(f) {
		return 80, true
	}
	return 0, false
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
