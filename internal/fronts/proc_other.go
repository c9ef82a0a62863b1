//go:build !unix

package fronts

import (
	"os"
	"syscall"
)

// Neither front is started on these systems (Debian's packages are
// what the tests run); these keep the package building.

func procAttr() *syscall.SysProcAttr { return nil }

func terminate(p *os.Process) { _ = p.Kill() }

func killGroup(p *os.Process) { _ = p.Kill() }
