package cli

import (
	"fmt"
	"slices"
	"time"

	"github.com/spf13/pflag"

	"github.com/conformance-suite/conformance/internal/explore"
	"github.com/conformance-suite/conformance/internal/runner"
)

// The flags of a normal run a user may pass to explore out of habit: the
// display and control flags work as in a normal run; the flags that
// choose what a normal run checks, or how it spreads its requests, have
// no meaning for an exploration, and say why instead of "unknown flag".

// runFlags are the normal run's flags explore takes as they are.
type runFlags struct {
	noColor  bool
	timeout  time.Duration
	failFast bool
}

func (f *runFlags) register(fs *pflag.FlagSet, verbose *bool) {
	fs.BoolVar(verbose, "verbose", false, "also show rapid's own messages (each finding always shows its request, answer and curl line)")
	fs.BoolVar(&f.noColor, "no-color", false, "no colour codes in console output (explore writes none; accepted, like NO_COLOR, as in a normal run)")
	fs.DurationVar(&f.timeout, "timeout", 0, "time limit of the exploration: --explore-time is at most this, cleanup comes after (0: --explore-time alone)")
	fs.BoolVar(&f.failFast, "fail-fast", false, "stop after the first finding (shrunk and reported; cleanup still runs)")
}

// apply puts the flags into an exploration's configuration.
func (f *runFlags) apply(cfg *explore.Config) {
	if f.timeout > 0 && f.timeout < cfg.Time {
		cfg.Time = f.timeout
	}
	cfg.FailFast = f.failFast
}

// notForExplore are the normal run's flags that do not apply to an
// exploration, with why.
var notForExplore = []struct{ flag, why string }{
	{"concurrency", "explore sends one request at a time"},
	{"parallel-writes", "explore sends one request at a time"},
	{"read-cache", "explore reads what the target holds now, never a cached answer"},
	{"label-filter", "explore judges every answer by every rule it reaches; narrow it with --explore-kinds"},
	{"focus", "explore judges every answer by every rule it reaches; narrow it with --explore-kinds"},
	{"skip", "explore judges every answer by every rule it reaches; narrow it with --explore-kinds"},
	{"rerun-failed", "to send a finding's case again, give its replay file to --replay"},
}

// registerNotForExplore accepts those flags by name, hidden from the
// help, so that giving one says why it does not apply. Only a flag on the
// command line is refused: a CONFORMANCE_* variable exported for normal
// runs does not stop an exploration.
func registerNotForExplore(fs *pflag.FlagSet) {
	var ignored runner.Config
	fs.IntVar(&ignored.Concurrency, "concurrency", 0, "")
	fs.BoolVar(&ignored.ParallelWrites, "parallel-writes", false, "")
	fs.BoolVar(&ignored.ReadCache, "read-cache", false, "")
	fs.StringVar(&ignored.LabelFilter, "label-filter", "", "")
	fs.StringArrayVar(&ignored.Focus, "focus", nil, "")
	fs.StringArrayVar(&ignored.Skip, "skip", nil, "")
	fs.StringVar(&ignored.RerunFailed, "rerun-failed", "", "")
	for _, f := range notForExplore {
		_ = fs.MarkHidden(f.flag)
	}
}

// notForExploreProblems says why each such flag given does not apply.
func notForExploreProblems(fs *pflag.FlagSet) []string {
	var problems []string
	for _, f := range notForExplore {
		if fs.Changed(f.flag) {
			problems = append(problems, fmt.Sprintf("--%s is a flag of a normal run: %s", f.flag, f.why))
		}
	}
	return problems
}

// exploreReportProblems finds the reports an exploration could not write,
// as for a normal run (reportProblems).
func exploreReportProblems(r explore.Reports) []string {
	return reportProblems(&runner.Config{JSONReport: r.JSON, JUnitReport: r.JUnit, HTMLReport: r.HTML, MarkdownReport: r.Markdown, HARReport: r.HAR})
}

// reportsToStdout tells whether one of an exploration's reports goes to
// standard output.
func reportsToStdout(r explore.Reports) bool {
	return slices.Contains([]string{r.JSON, r.JUnit, r.HTML, r.Markdown, r.HAR}, "-")
}
