//go:build unix

package fleet

import (
	"os"
	"os/exec"
	"syscall"
)

// ownProcessGroup puts a site's process in a process group of its own, so
// that a Ctrl-C at the terminal reaches the fleet alone, which passes it
// on once (interrupt): a site's run that got it twice would skip its
// cleanup.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// interrupt asks a site's run to stop as Ctrl-C does: it stops its
// checks, cleans up and writes its reports.
func interrupt(p *os.Process) { _ = p.Signal(os.Interrupt) }
