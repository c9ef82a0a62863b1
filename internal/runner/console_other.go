//go:build !unix

package runner

import (
	"github.com/onsi/ginkgo/v2/formatter"

	"github.com/conformance-suite/conformance/internal/redact"
)

// redirectConsole routes Ginkgo's reporter through the redactor where file
// descriptors cannot be swapped.
func redirectConsole(red *redact.Redactor) (restore func()) {
	saved := formatter.ColorableStdOut
	w := red.Writer(dropGoroutineDumps(saved)) // console.go: no stack trace reaches the user
	formatter.ColorableStdOut = w
	return func() {
		_ = w.Flush()
		formatter.ColorableStdOut = saved
	}
}
