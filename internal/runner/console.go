package runner

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/redact"
	"github.com/conformance-suite/conformance/internal/report"
)

// This file runs the specs with the suite's own console in place of
// Ginkgo's reporter (progress in console_progress.go, interrupts in
// console_interrupt.go, the summary in report.WriteConsole), and keeps Go
// stack traces off the console: a user needs to know that a spec was
// interrupted, not where each goroutine was.

// consoleOut is the console a run writes its progress and summary to.
type consoleOut struct {
	w     io.Writer
	live  bool // a terminal: a live progress line
	width int  // columns; 0 when no terminal
	color bool
}

func newConsoleOut(w io.Writer, noColor bool) consoleOut {
	width, term := terminalWidth(w)
	return consoleOut{w: w, live: term, width: width, color: term && !noColor}
}

// options are the summary's options on this console.
func (c consoleOut) options(verbose bool) report.ConsoleOptions {
	return report.ConsoleOptions{Verbose: verbose, Color: c.color, Width: c.width}
}

// runSpecs runs the specs with Ginkgo's reporter silenced: the console
// shows the run's progress per rule (planned: progress.install) and, at an
// interrupt, what happens next. It reports whether the run was
// interrupted. Call it after every preview of the specs (newPlan,
// checkSelection).
func runSpecs(con consoleOut, red *redact.Redactor, planned func() plan, requests func() int, started time.Time, sc types.SuiteConfig, rc types.ReporterConfig) (interrupted bool) {
	ginkgoOut := formatter.ColorableStdOut
	formatter.ColorableStdOut = io.Discard // Ginkgo's reporter writes here
	defer func() { formatter.ColorableStdOut = ginkgoOut }()
	defer keepStacksWhole()()
	direct, restore := redirectConsole(red, con.w)
	defer restore()
	prog := newProgress(direct, con.live, con.width, started, requests, emptyPlan())
	prog.install(planned)
	in := watchInterrupts(prog)
	stopTicks := prog.tickEvery(time.Second)
	ginkgo.RunSpecs(ignoreFail{}, suiteName, sc, rc)
	stopTicks()
	in.stop()
	prog.finish()
	return in.interrupted()
}

// pruneStackEnv is how Ginkgo is told not to prune its stack traces.
const pruneStackEnv = "GINKGO_PRUNE_STACK"

// keepStacksWhole tells Ginkgo not to prune the stack traces it takes at
// every skip, failure and panic, until the function it returns puts the
// setting back. Pruning compiles a regular expression for each trace, and
// a skip takes two: that was half of what a skip costs, and a read-only
// run skips about 130 specs, its write rules' (a seventh of its CPU went
// to skipping). No
// report or console line shows these traces: report.Build keeps a
// failure's file and line, and Ginkgo's own reporter is silenced.
func keepStacksWhole() (restore func()) {
	old, had := os.LookupEnv(pruneStackEnv)
	_ = os.Setenv(pruneStackEnv, "FALSE")
	return func() {
		if had {
			_ = os.Setenv(pruneStackEnv, old)
		} else {
			_ = os.Unsetenv(pruneStackEnv)
		}
	}
}

// goroutineHeaders start the sections of Ginkgo's progress reports (printed
// when a spec is interrupted by the run's time limit or Ctrl-C) and of a
// panicking spec's failure that hold Go stack traces.
var goroutineHeaders = []string{"Spec Goroutine", "Goroutines of Interest", "Other Goroutines", "Full Stack Trace"}

// ansiCode matches a colour code.
var ansiCode = regexp.MustCompile("\x1b\\[[0-9;]*m")

// dropGoroutineDumps wraps the console so that no Go stack trace reaches
// the user: each section under one of goroutineHeaders becomes a one-line
// note. Everything else passes through as it comes, partial lines included
// (progress dots).
func dropGoroutineDumps(w io.Writer) io.Writer { return &dumpFilter{w: w} }

type dumpFilter struct {
	w        io.Writer
	mu       sync.Mutex
	line     []byte // the current line, held while it might be a header
	passing  bool   // the current line is forwarded as it comes
	dropping bool   // the current line is dropped
	skipping bool   // inside a stack-trace section
	indent   int    // the section header's indentation
}

func (f *dumpFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		chunk := p
		eol := false
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			chunk, eol = p[:i+1], true
		}
		p = p[len(chunk):]
		if err := f.feed(chunk, eol); err != nil {
			return 0, err
		}
	}
	return n, nil
}

func (f *dumpFilter) feed(chunk []byte, eol bool) error {
	switch {
	case f.passing:
		f.passing = !eol
		_, err := f.w.Write(chunk)
		return err
	case f.dropping:
		f.dropping = !eol
		return nil
	}
	f.line = append(f.line, chunk...)
	text := strings.TrimRight(ansiCode.ReplaceAllString(string(f.line), ""), "\r\n")
	trimmed := strings.TrimLeft(text, " \t")
	indent := len(text) - len(trimmed)
	if trimmed == "" && !eol {
		return nil // not yet known what this line is
	}
	if f.skipping {
		// A dump is "goroutine N [state]" and "> highlighted frame" lines at
		// the header's indentation, and everything indented deeper.
		atIndent := indent == f.indent
		dump := trimmed == "" || indent > f.indent ||
			(atIndent && (strings.HasPrefix(trimmed, "goroutine ") || strings.HasPrefix(trimmed, "> ")))
		if !dump && !eol && atIndent && (strings.HasPrefix("goroutine ", trimmed) || strings.HasPrefix("> ", trimmed)) {
			return nil // not yet known
		}
		if dump {
			f.line, f.dropping = f.line[:0], !eol
			return nil
		}
		f.skipping = false
	}
	for _, h := range goroutineHeaders {
		if !eol && strings.HasPrefix(h, trimmed) {
			return nil // might be a header: wait for the rest of the line
		}
		if eol && trimmed == h {
			f.skipping, f.indent, f.line = true, indent, f.line[:0]
			_, err := fmt.Fprintf(f.w, "%s(%s: Go stack traces omitted)\n", strings.Repeat(" ", indent), h)
			return err
		}
	}
	out := f.line
	f.line, f.passing = f.line[:0], !eol
	_, err := f.w.Write(out)
	return err
}
