// Package runner runs the suites in-process against one target: preflight,
// Ginkgo's RunSpecs, then the reports and the exit code.
package runner

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
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

// Exit codes of a run.
const (
	ExitPass     = 0 // every selected rule passed
	ExitFail     = 1 // at least one rule failed, or the run did not complete
	ExitUsage    = 2 // bad flags or configuration
	ExitUnusable = 3 // the target cannot be checked (preflight), or stopped answering mid-run (health.go)
	// ExitCouldNotFinish: no rule failed, but some could not be finished
	// because requests got no answer from the API (the network, or the
	// server in front): run it again; the API broke no rule it showed.
	ExitCouldNotFinish = 4
)

// Config is everything a run needs; the CLI fills it from flags and env.
type Config struct {
	BaseURL        string
	Token          string
	AuthToken      string
	ReadOnly       bool
	SettingsWrites bool
	// Credentials is where requests carry the tokens (--credentials):
	// the spec's parameters, or the Authorization and X-Auth-Token headers.
	Credentials client.CredentialsPlacement

	JUnitReport    string
	JSONReport     string
	HTMLReport     string
	MarkdownReport string
	// HARReport is where the run's exchanges go as a HAR 1.2 log
	// (--har-report; see har.go).
	HARReport string

	LabelFilter string
	Focus       []string
	Skip        []string
	FailFast    bool
	// RerunFailed is a JSON report of an earlier run: only the rules that
	// failed in it are checked (see applyRerun).
	RerunFailed string

	Timeout        time.Duration
	RequestTimeout time.Duration
	RPS            float64
	Retries        int
	MaxBody        int64
	CACert         string
	Insecure       bool

	// Concurrency is how many requests are in flight at once
	// (--concurrency; 1 sends them one by one; --rps still caps).
	Concurrency int
	// ParallelWrites lets writes share the wire (--parallel-writes; see
	// client.Config.ParallelWrites). Never the default.
	ParallelWrites bool
	// ReadCache answers a read repeated before any write from the run's
	// first answer (--read-cache; see client.Config.ReadCache).
	ReadCache bool

	Verbose bool
	NoColor bool

	// ReportStdout receives the one report whose path is "-"; the CLI
	// then gives Run standard error for everything else.
	ReportStdout io.Writer

	SuiteVersion string
	RunID        string
}

// ClientConfig is the configuration of the client that talks to the target:
// read-only unless writes are allowed and possible (an authentication
// token given), and with no run deadline (Run adds the --timeout one).
func (c Config) ClientConfig() client.Config {
	return client.Config{
		BaseURL: c.BaseURL, Token: c.Token, AuthToken: c.AuthToken,
		RequestTimeout: c.RequestTimeout, MaxBody: c.MaxBody, CACert: c.CACert, Insecure: c.Insecure,
		ReadOnly: c.ReadOnly || c.AuthToken == "", RPS: c.RPS, Retries: c.Retries, ReadCache: c.ReadCache, MaxInFlight: c.Concurrency,
		ParallelWrites: c.ParallelWrites, CredentialsPlacement: c.Credentials,
	}
}

// Mode names the run's write permissions for reports.
func (c Config) Mode() string {
	switch {
	case c.ReadOnly || c.AuthToken == "":
		return "read-only"
	case c.SettingsWrites:
		return "writes+settings"
	}
	return "writes"
}

// Validate reports every configuration problem at once.
func (c Config) Validate() []string {
	var problems []string
	if c.BaseURL == "" {
		problems = append(problems, "--base-url (or CONFORMANCE_BASE_URL) is required")
	} else if _, err := client.ParseBaseURL(c.BaseURL); err != nil {
		problems = append(problems, err.Error())
	}
	if c.Token == "" {
		problems = append(problems, "--token (or CONFORMANCE_TOKEN, or --token-file) is required")
	}
	if c.LabelFilter != "" {
		if _, err := types.ParseLabelFilter(c.LabelFilter); err != nil {
			problems = append(problems, fmt.Sprintf("--label-filter %q: %v", c.LabelFilter, err))
		}
	}
	for _, f := range append(append([]string{}, c.Focus...), c.Skip...) {
		if _, err := regexp.Compile(f); err != nil {
			problems = append(problems, fmt.Sprintf("--focus/--skip %q is not a regular expression: %v", f, err))
		}
	}
	if c.RerunFailed != "" {
		if _, err := report.ReadJSONFile(c.RerunFailed); err != nil {
			problems = append(problems, fmt.Sprintf("--rerun-failed: %v", err))
		}
	}
	if c.SettingsWrites && (c.ReadOnly || c.AuthToken == "") {
		problems = append(problems, "--allow-settings-write needs --auth-token and no --read-only")
	}
	if c.Timeout < 0 || c.RequestTimeout < 0 || c.RPS < 0 || c.Retries < 0 {
		problems = append(problems, "timeouts, --rps and --retries must not be negative")
	}
	if c.Concurrency < 1 {
		problems = append(problems, fmt.Sprintf("--concurrency %d: want 1 (one request at a time) or more", c.Concurrency))
	}
	return problems
}

// Result of a run, for callers that go on (demo, tests).
type Result struct {
	Exit   int
	Report *report.Run
	// Problems are mistakes in the selection found before any request
	// (Exit is ExitUsage); Run leaves printing them to the caller.
	Problems []string
}

// Run checks the target; it writes progress and the summary to stdout and
// returns the exit code. It calls ginkgo.RunSpecs, which may run only once
// per process.
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
	k := newClock(started, cfg.Timeout)
	cc := cfg.ClientConfig()
	cc.Deadline = k.hard
	c, err := client.New(cc)
	if err != nil {
		fmt.Fprintln(stdout, "conformance: "+err.Error())
		return Result{Exit: ExitUsage}
	}
	harLog := recordHAR(cfg, c) // before the first request
	red := c.Redactor()
	out := red.Writer(stdout)
	defer out.Flush()
	// net/http logs through the standard logger (e.g. "Unsolicited response
	// received on idle HTTP channel" from a misbehaving target, with the
	// response in it): send that through the redactor too.
	logOut := red.Writer(os.Stderr)
	log.SetOutput(logOut)
	defer func() { _ = logOut.Flush(); log.SetOutput(os.Stderr) }()

	// The suites' specs first, then the selection check, then Install:
	// Ginkgo's preview loses top-level BeforeEach/AfterEach nodes
	// registered before it (see checkSelection).
	target := framework.New(c, framework.Options{ReadOnly: cc.ReadOnly, SettingsWrites: cfg.SettingsWrites, RunID: cfg.RunID,
		Concurrency: cfg.Concurrency})
	defer target.Close()
	suites.Register(target)
	suiteConfig, reporterConfig := ginkgoConfig(cfg)
	problems, preview := checkSelection(suiteConfig, catalogueLabels(target.Catalogue))
	if len(problems) > 0 {
		return Result{Exit: ExitUsage, Problems: problems}
	}
	plan := newPlan(preview)
	target.Select(selectedSpecs(preview))
	framework.Install(target)
	if bugs := target.Bugs(); len(bugs) > 0 {
		for _, b := range bugs {
			fmt.Fprintln(out, "conformance: suite bug: "+b)
		}
		return Result{Exit: ExitFail}
	}

	fmt.Fprintf(out, "conformance %s: checking %s (%s mode)\n", cfg.SuiteVersion, c.BaseURL(), cfg.Mode())
	pctx := ctx
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
	}
	pre := preflight.Check(pctx, c)
	if p := pre.Problem; p != nil {
		fmt.Fprintf(out, "\nThe target cannot be checked: %s\n", p.Sentence)
		if cfg.Verbose && p.Exchange != nil {
			fmt.Fprintf(out, "\n%s", p.Exchange.String())
		}
		run := unusableRun(cfg, c, started, p.Sentence)
		if err := writeReports(run, cfg, red, harLog); err != nil {
			fmt.Fprintf(out, "conformance: %v\n", err)
			return Result{Exit: ExitUsage, Report: run}
		}
		return Result{Exit: ExitUnusable, Report: run}
	}
	fmt.Fprintln(out, pre.Credentials)
	cors := pre.CORS
	printCORS(out, cors)

	applyClock(&suiteConfig, k)
	gomega.RegisterFailHandler(ginkgo.Fail)
	_ = out.Flush()
	con := newConsoleOut(stdout, cfg.NoColor)
	interrupted := runSpecs(con, red, plan, c.Seq, started, suiteConfig, reporterConfig)

	meta := report.Meta{SuiteVersion: cfg.SuiteVersion, Target: c.BaseURL(), RunID: target.RunID, Mode: cfg.Mode(),
		LabelFilter: cfg.LabelFilter, Focus: cfg.Focus, Skip: cfg.Skip, RerunOf: cfg.RerunFailed, Started: started,
		Duration: report.Duration(time.Since(started)), Requests: c.Seq()}
	notes := extras(target)
	notes.Observations = append(append(notes.Observations, credentialsNotes(pre.Credentials, c)...), cors...)
	run := report.Build(target.Report(), target.Catalogue, meta, notes)
	run.Coverage = coverage.Build(target.Coverage.Marks(), run.RuleNote())
	if interrupted {
		markInterrupted(run)
	}
	healthExit := afterSpecs(run, c, k)
	if h := tripped(target, run, c.BaseURL()); h != nil {
		run.Verdict, healthExit = h.Sentence, h.Exit
	}
	reportErr := writeReports(run, cfg, red, harLog)
	run.WriteConsole(out, con.options(cfg.Verbose))
	printPlacementProbes(out, c)
	if paths := reportPaths(cfg); len(paths) > 0 {
		fmt.Fprintf(out, "Reports: %s\n", strings.Join(paths, ", "))
	}
	if reportErr != nil {
		fmt.Fprintf(out, "conformance: %v\n", reportErr)
		// A report not written does not hide a site that lost data.
		if healthExit == 0 {
			return Result{Exit: ExitUsage, Report: run}
		}
	}
	if healthExit != 0 {
		return Result{Exit: healthExit, Report: run}
	}
	if run.OnlyUnanswered() {
		return Result{Exit: ExitCouldNotFinish, Report: run}
	}
	if run.Failed() || run.Counts.Passed == 0 {
		return Result{Exit: ExitFail, Report: run}
	}
	return Result{Exit: ExitPass, Report: run}
}

// specOrderSeed is the seed of Ginkgo's spec order in every run.
const specOrderSeed = 1

func ginkgoConfig(cfg Config) (types.SuiteConfig, types.ReporterConfig) {
	sc := types.NewDefaultSuiteConfig()
	rc := types.NewDefaultReporterConfig()
	sc.LabelFilter = cfg.LabelFilter
	sc.FocusStrings = cfg.Focus
	sc.SkipStrings = cfg.Skip
	sc.FailFast = cfg.FailFast
	sc.Timeout = cfg.Timeout // 0: no limit (Ginkgo's default would be one hour)
	// Ginkgo shuffles top-level containers with a seed taken from the
	// clock; a fixed one keeps the spec order, and so the requests, the
	// read cache's hits and the reports, the same from run to run.
	sc.RandomSeed = specOrderSeed
	// Ginkgo's reporter is silenced (runSpecs); without colour, no code
	// reaches the texts it formats (failure messages) either.
	rc.NoColor = true
	formatter.SingletonFormatter.ColorMode = formatter.ColorModeNone
	return sc, rc
}

func extras(t *framework.Fixture) report.Extras {
	checked := map[string]int{}
	for _, rule := range t.CrossCutting.Rules() {
		checked[rule] = t.CrossCutting.Tally(rule).Checked
	}
	return report.Extras{
		Cleanup: report.Cleanup{PagesLeft: t.Ledger.Pages(), Uploads: t.Ledger.Uploads(), UploadsUnlisted: t.Ledger.UploadsUnlisted(),
			Settings: t.Ledger.Settings(), Problems: t.Ledger.Problems()},
		Observations: t.Observations(),
		Checked:      checked,
	}
}

// reportPaths lists the report files a run writes.
func reportPaths(cfg Config) []string {
	var out []string
	for _, p := range []string{cfg.JSONReport, cfg.JUnitReport, cfg.HTMLReport, cfg.MarkdownReport, cfg.HARReport} {
		switch p {
		case "":
		case "-":
			out = append(out, "standard output")
		default:
			out = append(out, p)
		}
	}
	return out
}

// writeReports writes each requested file through the redactor
// (report.Files.Write). harLog, when not nil, writes the HAR log.
func writeReports(run *report.Run, cfg Config, red *redact.Redactor, harLog *har.Recorder) error {
	var harWrite func(io.Writer) error
	if harLog != nil {
		harWrite = func(w io.Writer) error { return harLog.Write(w, harOptions(run)) }
	}
	files := report.Files{JSON: cfg.JSONReport, JUnit: cfg.JUnitReport, HTML: cfg.HTMLReport, Markdown: cfg.MarkdownReport,
		HAR: cfg.HARReport, Stdout: cfg.ReportStdout}
	return files.Write(run, red, harWrite)
}

// applyRerun narrows the run to the rules that failed in the report
// cfg.RerunFailed names, joined with any --label-filter by &&. stop is
// true, with the exit code, when there is nothing to run: the report
// cannot be read, or no rule failed in it (a pass).
func applyRerun(cfg Config, stdout io.Writer) (_ Config, exit int, stop bool) {
	prev, err := report.ReadJSONFile(cfg.RerunFailed)
	if err != nil {
		fmt.Fprintf(stdout, "conformance: --rerun-failed: %v\n", err)
		return cfg, ExitUsage, true
	}
	filter, ids, ok := report.RerunFilter(prev, cfg.LabelFilter)
	if !ok {
		fmt.Fprintf(stdout, "conformance: no rule failed in %s; nothing to rerun.\n", cfg.RerunFailed)
		return cfg, ExitPass, true
	}
	fmt.Fprintf(stdout, "conformance: rerunning the %d rule(s) that failed in %s: %s\n", len(ids), cfg.RerunFailed, strings.Join(ids, ", "))
	cfg.LabelFilter = filter
	return cfg, ExitPass, false
}

// ignoreFail is the GinkgoTestingT of an in-process run: the verdict comes
// from the report, not from it.
type ignoreFail struct{}

func (ignoreFail) Fail() {}
