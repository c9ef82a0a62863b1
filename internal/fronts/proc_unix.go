//go:build unix

package fronts

import (
	"os"
	"syscall"
)

// procAttr puts the front in a process group of its own, so that Stop can
// end the workers too, should the master die without them.
func procAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(a)
	return a
}

// terminate asks for a fast shutdown: SIGTERM, for nginx and Apache alike.
func terminate(p *os.Process) { _ = p.Signal(syscall.SIGTERM) }

// killGroup kills the front's process group (its pgid is the master's pid).
func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
