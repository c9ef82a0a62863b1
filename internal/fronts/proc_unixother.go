//go:build unix && !linux

package fronts

import "syscall"

// setDeathSignal: only Linux has a parent-death signal.
func setDeathSignal(*syscall.SysProcAttr) {}
