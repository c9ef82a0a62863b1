package explore

import (
	"flag"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// rapid is made for `go test`: rapid.Check wants a testing.TB-like value
// and reads its settings (seed, number of checks, time to shrink) from
// command-line flags of the standard flag package. Outside a test, the
// explorer gives it a TB of its own and sets those flags before each
// check; since they are global, checks run one at a time in a process.

// rapidMu serialises rapid.Check calls: rapid's settings are global.
var rapidMu sync.Mutex

// rapidOnce prepares rapid outside a test: testing.Short, which rapid
// calls, needs the testing flags registered, and rapid must not write
// fail files into the working directory.
var rapidOnce sync.Once

// stopCheck is what the TB panics with to end a rapid.Check (FailNow
// and friends), recovered by check.
type stopCheck struct{}

// tb is rapid's TB outside `go test`: rapid reports through it, and the
// explorer reads its own records of what failed instead.
type tb struct {
	name   string
	failed bool
	logs   []string
}

func (t *tb) Helper()                         {}
func (t *tb) Name() string                    { return t.name }
func (t *tb) Logf(format string, args ...any) { t.log(fmt.Sprintf(format, args...)) }
func (t *tb) Log(args ...any)                 { t.log(fmt.Sprint(args...)) }
func (t *tb) Skipf(format string, args ...any) {
	t.log(fmt.Sprintf(format, args...))
	panic(stopCheck{})
}
func (t *tb) Skip(args ...any)                  { t.log(fmt.Sprint(args...)); panic(stopCheck{}) }
func (t *tb) SkipNow()                          { panic(stopCheck{}) }
func (t *tb) Errorf(format string, args ...any) { t.failed = true; t.log(fmt.Sprintf(format, args...)) }
func (t *tb) Error(args ...any)                 { t.failed = true; t.log(fmt.Sprint(args...)) }
func (t *tb) Fatalf(format string, args ...any) { t.Errorf(format, args...); panic(stopCheck{}) }
func (t *tb) Fatal(args ...any)                 { t.Error(args...); panic(stopCheck{}) }
func (t *tb) FailNow()                          { t.failed = true; panic(stopCheck{}) }
func (t *tb) Fail()                             { t.failed = true }
func (t *tb) Failed() bool                      { return t.failed }

func (t *tb) log(s string) {
	if len(t.logs) < 50 {
		t.logs = append(t.logs, s)
	}
}

// checkSettings are rapid's settings for one check.
type checkSettings struct {
	seed       uint64
	checks     int
	shrinkTime time.Duration
}

// check runs rapid.Check(prop) with the settings s, one check at a time
// in the process.
func check(name string, s checkSettings, prop func(*rapid.T)) (logs []string) {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	rapidOnce.Do(func() {
		if !testing.Testing() {
			testing.Init()
		}
		if !flag.Parsed() {
			// The CLI (or a test binary run as the CLI) parses no
			// standard flag: testing.Short wants them parsed.
			_ = flag.CommandLine.Parse(nil)
		}
		_ = flag.Set("rapid.nofailfile", "true")
	})
	checks := max(s.checks, 1)
	if testing.Short() {
		checks *= 5 // rapid checks a fifth of them in -short mode
	}
	_ = flag.Set("rapid.seed", strconv.FormatUint(max(s.seed, 1), 10))
	_ = flag.Set("rapid.checks", strconv.Itoa(checks))
	_ = flag.Set("rapid.shrinktime", max(s.shrinkTime, time.Millisecond).String())
	t := &tb{name: "conformance-explore-" + name}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stopCheck); !ok {
					panic(r)
				}
			}
		}()
		rapid.Check(t, prop)
	}()
	return t.logs
}
