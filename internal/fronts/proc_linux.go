package fronts

import "syscall"

// setDeathSignal has the kernel send the front SIGTERM should the test
// process die without stopping it (a panic, go test -timeout).
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
