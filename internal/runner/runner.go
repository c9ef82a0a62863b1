// Package runner runs the suites in-process against one target: preflight,
// Ginkgo's RunSpecs, then the reports and the exit code.
package runner

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/framework"
	"github.com/conformance-suite/conformance/internal/har"
	"github.com/conformance-suite/conformance/internal/redact"
	"github.com/conformance-suite/conformance/internal/report"
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
