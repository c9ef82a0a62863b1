package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/conformance-suite/conformance/internal/runner"
)

// reportFlags pairs each report flag with its path in cfg.
func reportFlags(cfg *runner.Config) []struct {
	flag string
	path string
} {
	return []struct {
		flag string
		path string
	}{
		{"--json-report", cfg.JSONReport}, {"--junit-report", cfg.JUnitReport},
		{"--html-report", cfg.HTMLReport}, {"--markdown-report", cfg.MarkdownReport},
		{"--har-report", cfg.HARReport},
	}
}

// reportProblems finds, before the run, the reports it could not write:
// two reports sent to standard output, or a path whose directory cannot
// be made or written. A run of ten minutes should not end in "could not
// write the report".
func reportProblems(cfg *runner.Config) []string {
	var problems, toStdout []string
	for _, r := range reportFlags(cfg) {
		switch r.path {
		case "":
		case "-":
			toStdout = append(toStdout, r.flag)
		default:
			if err := writable(r.path); err != nil {
				problems = append(problems, fmt.Sprintf("%s %s cannot be written: %v", r.flag, r.path, err))
			}
		}
	}
	if len(toStdout) > 1 {
		problems = append(problems, fmt.Sprintf("only one report can go to standard output (-), and %s name it: give the others a file",
			strings.Join(toStdout, " and ")))
	}
	return problems
}

// writable tells whether a report file could be created at path: it is
// not a directory, and its directory exists (or can be made, the run makes
// it) and takes a new file. It leaves nothing behind.
func writable(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return errors.New("it is a directory")
	}
	dir := filepath.Dir(path)
	for {
		st, err := os.Stat(dir)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("%s is a file, not a directory", dir)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return err
		}
		dir = parent
	}
	f, err := os.CreateTemp(dir, ".conformance-write-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot create a file in %s: %v", dir, err)
	}
	name := f.Name()
	_ = f.Close()
	return os.Remove(name)
}

// toStdout tells whether one of the run's reports goes to standard output.
func toStdout(cfg *runner.Config) bool {
	for _, r := range reportFlags(cfg) {
		if r.path == "-" {
			return true
		}
	}
	return false
}

// consoleFor returns where a run writes its progress and summary. When a
// report goes to standard output, that is standard error, and the report
// gets standard output to itself (see divertStdout).
func consoleFor(cfg *runner.Config, stdout, stderr io.Writer) (console io.Writer, restore func()) {
	if !toStdout(cfg) {
		return stdout, func() {}
	}
	cfg.ReportStdout, restore = divertStdout(stdout)
	return stderr, restore
}
