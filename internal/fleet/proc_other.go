//go:build !unix

package fleet

import (
	"os"
	"os/exec"
)

// ownProcessGroup leaves a site's process in the fleet's console group:
// there a Ctrl-C reaches every site's run itself.
func ownProcessGroup(*exec.Cmd) {}

// interrupt does nothing where a process cannot be sent an interrupt: the
// console's Ctrl-C reached the site's run already, and a deadline's kill
// follows.
func interrupt(*os.Process) {}
