package runner

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/har"
	"github.com/conformance-suite/conformance/internal/preflight"
	"github.com/conformance-suite/conformance/internal/redact"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/suites"
)

// Run checks the target; it writes progress and the summary to stdout and
// returns the exit code. It calls ginkgo.RunSpecs, which may run only once
// per process. Its steps: the configuration, the client, the specs and
// their selection, the preflight, the specs' run, the reports and the
// exit code.
func Run(ctx context.Context, cfg Config, stdout io.Writer) Result {
	started := time.Now()
	if problems := cfg.Validate(); len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(stdout, "conformance: "+p)
		}
		return Result{Exit: ExitUsage}
	}
	if cfg.RerunFailed != "" {
		var stop bool
		var exit int
		if cfg, exit, stop = applyRerun(cfg, stdout); stop {
			return Result{Exit: exit}
		}
	}
	s, err := open(cfg, started, stdout)
	if err != nil {
		fmt.Fprintln(stdout, "conformance: "+err.Error())
		return Result{Exit: ExitUsage}
	}
	defer s.close()
	if res, ok := s.registerSpecs(); !ok {
		return res
	}
	fmt.Fprintf(s.out, "conformance %s: checking %s (%s mode)\n", cfg.SuiteVersion, s.c.BaseURL(), cfg.Mode())
	if res, ok := s.preflight(ctx); !ok {
		return res
	}
	return s.finish(s.runSpecs(stdout))
}

// session is one run's state from the client on: what each step of Run
// hands the next.
type session struct {
	cfg     Config
	started time.Time
	k       clock
	c       *client.Client
	harLog  *har.Recorder
	red     *redact.Redactor
	out     *redact.Writer // stdout, redacted
	logOut  *redact.Writer // the standard logger's output, redacted
	target  *framework.Fixture
	suite   types.SuiteConfig
	rep     types.ReporterConfig
	plan    func() plan // once the run has built its tree (progress.install)
	pre     preflight.Result
	con     consoleOut
}

// open makes the run's client (and its HAR recording, before the first
// request) and sends everything printed through the redactor.
func open(cfg Config, started time.Time, stdout io.Writer) (*session, error) {
	s := &session{cfg: cfg, started: started, k: newClock(started, cfg.Timeout)}
	cc := cfg.ClientConfig()
	cc.Deadline = s.k.hard
	var err error
	if s.c, err = client.New(cc); err != nil {
		return nil, err
	}
	s.harLog = recordHAR(cfg, s.c)
	s.red = s.c.Redactor()
	s.out = s.red.Writer(stdout)
	// net/http logs through the standard logger (e.g. "Unsolicited response
	// received on idle HTTP channel" from a misbehaving target, with the
	// response in it): send that through the redactor too.
	s.logOut = s.red.Writer(os.Stderr)
	log.SetOutput(s.logOut)
	return s, nil
}

// close flushes what open redirected and removes the run's temporary files.
func (s *session) close() {
	if s.target != nil {
		s.target.Close()
	}
	_ = s.logOut.Flush()
	log.SetOutput(os.Stderr)
	_ = s.out.Flush()
}

// registerSpecs builds the fixture and registers the suites' specs, then
// checks the selection, then installs the suite-wide nodes: Ginkgo's
// preview loses top-level BeforeEach/AfterEach nodes registered before it
// (see checkSelection). false: the run stops with the result.
//
// Only a run that selects specs (--label-filter, --focus, --skip) is
// previewed: the preview builds and sorts the whole tree of specs once
// more, about a tenth of a read-only run's CPU. A run without one runs
// every spec, has no selection to check, and reads its plan from the
// specs its own tree registers (planOf); a mistake in how a spec was
// registered (Bugs) then fails the run in BeforeSuite (framework.Install),
// not here.
func (s *session) registerSpecs() (Result, bool) {
	cc := s.cfg.ClientConfig()
	s.target = framework.New(s.c, framework.Options{ReadOnly: cc.ReadOnly, SettingsWrites: s.cfg.SettingsWrites, RunID: s.cfg.RunID,
		Concurrency: s.cfg.Concurrency})
	suites.Register(s.target)
	s.suite, s.rep = ginkgoConfig(s.cfg)
	if selects(s.suite) {
		problems, preview := checkSelection(s.suite, catalogueLabels(s.target.Catalogue))
		if len(problems) > 0 {
			return Result{Exit: ExitUsage, Problems: problems}, false
		}
		p := newPlan(preview)
		s.plan = func() plan { return p }
		s.target.Select(selectedSpecs(preview))
	} else {
		s.plan = func() plan { return planOf(s.target.Registered()) }
	}
	framework.Install(s.target)
	if bugs := s.target.Bugs(); len(bugs) > 0 {
		for _, b := range bugs {
			fmt.Fprintln(s.out, "conformance: suite bug: "+b)
		}
		return Result{Exit: ExitFail}, false
	}
	return Result{}, true
}

// preflight finds whether the target can be checked at all; a target that
// cannot gets its verdict and reports here. false: the run stops with the
// result.
func (s *session) preflight(ctx context.Context) (Result, bool) {
	if s.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout)
		defer cancel()
	}
	s.pre = preflight.Check(ctx, s.c)
	if p := s.pre.Problem; p != nil {
		fmt.Fprintf(s.out, "\nThe target cannot be checked: %s\n", p.Sentence)
		if s.cfg.Verbose && p.Exchange != nil {
			fmt.Fprintf(s.out, "\n%s", p.Exchange.String())
		}
		run := unusableRun(s.cfg, s.c, s.started, p.Sentence)
		if err := writeReports(run, s.cfg, s.red, s.harLog); err != nil {
			fmt.Fprintf(s.out, "conformance: %v\n", err)
			return Result{Exit: ExitUsage, Report: run}, false
		}
		return Result{Exit: ExitUnusable, Report: run}, false
	}
	fmt.Fprintln(s.out, s.pre.Credentials)
	printCORS(s.out, s.pre.CORS)
	return Result{}, true
}

// runSpecs runs the specs and builds the run's report from what Ginkgo
// reported.
func (s *session) runSpecs(stdout io.Writer) *report.Run {
	applyClock(&s.suite, s.k)
	gomega.RegisterFailHandler(ginkgo.Fail)
	_ = s.out.Flush()
	s.con = newConsoleOut(stdout, s.cfg.NoColor)
	interrupted := runSpecs(s.con, s.red, s.plan, s.c.Seq, s.started, s.suite, s.rep)

	cfg, c := s.cfg, s.c
	meta := report.Meta{SuiteVersion: cfg.SuiteVersion, Target: c.BaseURL(), RunID: s.target.RunID, Mode: cfg.Mode(),
		LabelFilter: cfg.LabelFilter, Focus: cfg.Focus, Skip: cfg.Skip, RerunOf: cfg.RerunFailed, Started: s.started,
		Duration: report.Duration(time.Since(s.started)), Requests: c.Seq()}
	notes := extras(s.target)
	notes.Observations = append(append(notes.Observations, credentialsNotes(s.pre.Credentials, c)...), s.pre.CORS...)
	run := report.Build(s.target.Report(), s.target.Catalogue, meta, notes)
	run.Coverage = coverage.Build(s.target.Coverage.Marks(), run.RuleNote())
	if interrupted {
		markInterrupted(run)
	}
	return run
}

// finish judges the site's health after the specs, writes the reports and
// the console summary, and decides the exit code.
func (s *session) finish(run *report.Run) Result {
	healthExit := afterSpecs(run, s.c, s.k)
	if h := tripped(s.target, run, s.c.BaseURL()); h != nil {
		run.Verdict, healthExit = h.Sentence, h.Exit
	}
	reportErr := writeReports(run, s.cfg, s.red, s.harLog)
	run.WriteConsole(s.out, s.con.options(s.cfg.Verbose))
	printPlacementProbes(s.out, s.c)
	if paths := reportPaths(s.cfg); len(paths) > 0 {
		fmt.Fprintf(s.out, "Reports: %s\n", strings.Join(paths, ", "))
	}
	if reportErr != nil {
		fmt.Fprintf(s.out, "conformance: %v\n", reportErr)
		// A report not written does not hide a site that lost data.
		if healthExit == 0 {
			return Result{Exit: ExitUsage, Report: run}
		}
	}
	return Result{Exit: exitOf(run, healthExit), Report: run}
}

// exitOf is the exit code of a run whose reports were written: the
// site's health first, then the verdict.
func exitOf(run *report.Run, healthExit int) int {
	switch {
	case healthExit != 0:
		return healthExit
	case run.OnlyUnanswered():
		return ExitCouldNotFinish
	case run.Failed() || run.Counts.Passed == 0:
		return ExitFail
	}
	return ExitPass
}
