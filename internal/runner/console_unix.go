//go:build unix

package runner

import (
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/conformance-suite/conformance/internal/redact"
)

// redirectConsole sends everything written to file descriptors 1 and 2
// while the specs run (Ginkgo's reporter, GinkgoWriter, stray prints)
// through the redactor, so no token reaches the console whoever wrote it.
func redirectConsole(red *redact.Redactor) (restore func()) {
	var restores []func()
	for _, fd := range []int{1, 2} {
		r, w, err := os.Pipe()
		if err != nil {
			continue
		}
		saved, err := unix.Dup(fd)
		if err != nil {
			r.Close()
			w.Close()
			continue
		}
		if err := unix.Dup2(int(w.Fd()), fd); err != nil {
			unix.Close(saved)
			r.Close()
			w.Close()
			continue
		}
		original := os.NewFile(uintptr(saved), "console")
		rw := red.Writer(dropGoroutineDumps(original)) // console.go: no stack trace reaches the user
		done := make(chan struct{})
		go func() {
			_, _ = io.Copy(rw, r)
			_ = rw.Flush()
			close(done)
		}()
		restores = append(restores, func() {
			_ = unix.Dup2(saved, fd)
			w.Close()
			<-done
			r.Close()
			original.Close()
		})
	}
	return func() {
		for _, f := range restores {
			f()
		}
	}
}
