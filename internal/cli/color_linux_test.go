//go:build linux

package cli_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/conformance-suite/conformance/internal/selftest"
)

// openPTY opens a pseudo-terminal: the run's stdout is a terminal only
// there, and colour is only ever written to a terminal.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("cannot unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pseudo-terminal: %v", err)
	}
	return m, s
}

// runOnTerminal runs the CLI with its stdout on a terminal and returns
// what it printed there.
func runOnTerminal(t *testing.T, env []string, args ...string) string {
	t.Helper()
	master, tty := openPTY(t)
	defer master.Close()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = t.TempDir()
	for _, kv := range selftest.Environ() {
		if !strings.HasPrefix(kv, "NO_COLOR=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, selftest.EnvAsCLI+"=1", "TERM=xterm-256color"), env...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = tty, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the child holds it; reading ends when the child exits
	var out bytes.Buffer
	done := make(chan struct{})
	go func() { _, _ = io.Copy(&out, master); close(done) }()
	_ = cmd.Wait()
	<-done // the master reads EIO once no one holds the terminal
	return out.String() + stderr.String()
}

func TestNoColor(t *testing.T) {
	run := []string{"demo", "--label-filter", "area:users", "--json-report", "r.json"}
	// Without either switch, a terminal gets colour: the checks below
	// could fail.
	if out := runOnTerminal(t, nil, run...); !strings.Contains(out, "\x1b[") {
		t.Fatalf("no colour on a terminal even without NO_COLOR; the test cannot tell anything:\n%q", selftest.Tail(out, 5))
	}
	for name, c := range map[string]struct {
		env  []string
		args []string
	}{
		"NO_COLOR=1":  {env: []string{"NO_COLOR=1"}, args: run},
		"--no-color":  {args: append(run, "--no-color")},
		"NO_COLOR=no": {env: []string{"NO_COLOR=no"}, args: run}, // any value but "" means no colour
	} {
		t.Run(name, func(t *testing.T) {
			out := runOnTerminal(t, c.env, c.args...)
			if !strings.Contains(out, "PASS") {
				t.Fatalf("the run printed no verdict:\n%s", selftest.Tail(out, 10))
			}
			if strings.Contains(out, "\x1b[") {
				t.Errorf("colour codes in the output:\n%q", selftest.Tail(out, 5))
			}
		})
	}
}
