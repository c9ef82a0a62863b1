//go:build unix

package runner

import (
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/conformance-suite/conformance/internal/redact"
)

// redirectConsole sends everything written to file descriptors 1 and 2
// while the specs run (GinkgoWriter, stray prints) through the redactor,
// so no token reaches the console whoever wrote it. direct is the console
// as it was before (console itself when it is neither of the two), for
// the suite's progress lines, which carry no secret and must not wait in
// the redactor.
func redirectConsole(red *redact.Redactor, console io.Writer) (direct io.Writer, restore func()) {
	direct = console
	f, isFile := console.(*os.File)
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
		if isFile && f.Fd() == uintptr(fd) {
			direct = original
		}
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
	return direct, func() {
		for _, f := range restores {
			f()
		}
	}
}

// terminalWidth reports whether w is a terminal, and its width in columns.
func terminalWidth(w io.Writer) (width int, ok bool) {
	f, isFile := w.(*os.File)
	if !isFile {
		return 0, false
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0, false
	}
	if ws.Col == 0 {
		return 80, true // a pseudo-terminal nobody sized
	}
	return int(ws.Col), true
}
