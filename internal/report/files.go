package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/conformance-suite/conformance/internal/redact"
)

// Files are the report files to write: a path each, "" for none, "-" for
// Stdout (os.Stdout when nil). The normal run and `conformance explore`
// write their reports with them.
type Files struct {
	JSON, JUnit, HTML, Markdown, HAR string
	Stdout                           io.Writer
}

// Write writes each file asked for. Tokens never reach a report, whatever
// field carried them: the run's strings are redacted first (in place),
// before any format escapes them, and every file is written through the
// redactor as well. harLog, when not nil, renders the HAR log. The error
// is the first file's that could not be written; Write still tries the
// others.
func (f Files) Write(run *Run, red *redact.Redactor, harLog func(io.Writer) error) error {
	red.Fields(run)
	var firstErr error
	write := func(path string, render func(io.Writer) error) {
		if path == "" {
			return
		}
		var err error
		if path == "-" {
			dst := f.Stdout
			if dst == nil {
				dst = os.Stdout
			}
			err = renderRedacted(dst, red, render)
		} else {
			err = writeFile(path, red, render)
		}
		if err != nil && firstErr == nil {
			if path == "-" {
				path = "to standard output"
			}
			firstErr = fmt.Errorf("could not write the report %s: %v", path, err)
		}
	}
	write(f.JSON, run.WriteJSON)
	write(f.JUnit, run.WriteJUnit)
	write(f.HTML, run.WriteHTML)
	write(f.Markdown, run.WriteMarkdown)
	if harLog != nil {
		write(f.HAR, harLog)
	}
	return firstErr
}

// writeFile creates path (and its directory) and renders a report into it
// through the redactor.
func writeFile(path string, red *redact.Redactor, render func(io.Writer) error) error {
	if dir := filepath.Dir(path); dir != "" {
		_ = os.MkdirAll(dir, 0o755) // os.Create says what went wrong
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = renderRedacted(f, red, render)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// renderRedacted renders a report through the redactor into dst. The
// renderers write in small pieces (a template's every fragment): buffered
// first, the redactor and the file see a few large writes, not thousands
// of small ones (a tenth of a read-only run's CPU went to them).
func renderRedacted(dst io.Writer, red *redact.Redactor, render func(io.Writer) error) error {
	w := red.Writer(dst)
	bw := bufio.NewWriterSize(w, 64<<10)
	err := render(bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
}
