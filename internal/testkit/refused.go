package testkit

import (
	"fmt"
	"syscall"
	"testing"
)

// RefusedURL is the address of a loopback port that refuses connections,
// and does so for the whole test: a socket is bound to it and never
// listens. A port freed after net.Listen could be taken by a server of a
// test running beside this one, which would then answer.
func RefusedURL(tb testing.TB) string {
	tb.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		tb.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		tb.Fatal(err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
}
