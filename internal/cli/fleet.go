package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/conformance-suite/conformance/internal/fleet"
	"github.com/conformance-suite/conformance/internal/fleet/summary"
	"github.com/conformance-suite/conformance/internal/runner"
)

// fleetFlags are the fleet command's own flags; the run flags it passes
// to every site's run are in tf.
type fleetFlags struct {
	tf          targetFlags
	targets     string
	reportDir   string
	sitesAtOnce int
	shard       string
	shards      int
	siteReports []string
}

// setByFleet are the single run's flags a fleet sets for each site
// itself (from the targets file and the report folder), which neither
// the fleet's command line nor a site's args may give.
var setByFleet = []string{"base-url", "token", "token-file", "auth-token", "auth-token-file", "json-report", "junit-report",
	"html-report", "markdown-report", "har-report", "rerun-failed", "allow-settings-write", "read-only"}

// cleanupShare is how long a site's run may go on past its --timeout
// before the fleet interrupts it: the run keeps a share of its time for
// cleanup already; this is the margin beyond it.
const cleanupShare = 5 * time.Minute

func newFleetCmd(stdout, stderr io.Writer) *cobra.Command {
	var ff fleetFlags
	cmd := &cobra.Command{
		Use:   "fleet --targets FILE [--sites-at-once N] [--shard I/N | --shards N] [--report-dir DIR] [flags]",
		Short: "Check many sites in one command: each its own run, side by side, and one summary",
		Long: `fleet checks every site of a targets file (YAML or JSON: each site's name, base URL, where
its tokens come from, its mode), each as a run of its own in a process of its own, up to
--sites-at-once side by side. Each site keeps every promise of a single run (one write alone
on its wire, the tripwire, cleanup) and gets its reports in DIR/sites/NAME/. The fleet's
summary (sites × rules) goes to the console and to DIR/fleet.json, fleet-junit.xml (one
test suite per site) and fleet.html (one row per site, linking to its report).

--shard I/N checks the I-th of N slices of the targets (I from 0; the slice depends on the
sites' names, not their order); --shards N takes I from JOB_COMPLETION_INDEX (a Kubernetes
Indexed Job). 'conformance merge' joins the shards' fleet.json into one summary.

The run flags below (--rps, --label-filter, --concurrency, ...) apply to every site; a site's
"args" in the targets file add to them. --read-only checks every site read-only.

Exit code: the worst of the sites', in this order: 3 (a site cannot be checked, or lost data),
2 (a site's configuration), 1 (a rule failed, a run did not complete, crashed or was not run),
4 (could not finish), 0 (every site passed). 2 also when the targets file or a flag is wrong
(then no site is checked). See docs/fleet.md.`,
		Example: `  conformance fleet --targets sites.yaml --sites-at-once 8 --report-dir reports
  conformance fleet --targets sites.yaml --shard 0/4 --report-dir shard-0
  conformance merge shard-*/fleet.json --report-dir reports`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, problems := ff.options(cmd.Flags())
			if len(problems) > 0 {
				return usage(stderr, problems)
			}
			o.Console = stdout
			return runFleet(cmd, o, stdout, stderr)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&ff.targets, "targets", "", "the targets file (YAML or JSON): the sites, their base URLs, where their tokens come from, their modes")
	fs.StringVar(&ff.reportDir, "report-dir", "conformance-reports", "folder of the fleet's summary (fleet.json, fleet-junit.xml, fleet.html) and of each site's reports (sites/NAME/)")
	fs.IntVar(&ff.sitesAtOnce, "sites-at-once", 4, "sites checked side by side, each in a process of its own (about 50 MB each)")
	fs.StringVar(&ff.shard, "shard", "", "check only the slice I of N of the targets (I from 0, e.g. 0/4), as a CI matrix's job")
	fs.IntVar(&ff.shards, "shards", 0, "check only one of N slices, the one JOB_COMPLETION_INDEX names (a Kubernetes Indexed Job)")
	fs.StringSliceVar(&ff.siteReports, "site-reports", []string{"json", "html"}, "each site's reports: json (always), html, junit, markdown, har")
	scratch := siteFlagSet(&ff.tf)
	scratch.VisitAll(func(f *pflag.Flag) {
		if !slices.Contains(setByFleet, f.Name) || f.Name == "read-only" {
			fs.AddFlag(f)
		}
	})
	// What these say of a run, the fleet says of each site's.
	fs.Lookup("read-only").Usage = "check every site read-only, whatever its mode in the targets file"
	fs.Lookup("timeout").Usage = "time limit of each site's run (its process is interrupted 5 minutes later, killed a minute after; 0: no limit)"
	return cmd
}

// siteFlagSet is a flag set of a single run's flags (the root command's),
// bound to tf.
func siteFlagSet(tf *targetFlags) *pflag.FlagSet {
	fs := pflag.NewFlagSet("site", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	tf.register(fs)
	tf.registerRun(fs)
	return fs
}

// options turns the fleet's flags into a fleet run's options, checking
// everything before any site starts.
func (ff *fleetFlags) options(fs *pflag.FlagSet) (fleet.Options, []string) {
	problems := applyEnv(fs)
	if ff.targets == "" {
		problems = append(problems, "--targets FILE (or CONFORMANCE_TARGETS) is required: the sites to check")
	}
	shard, err := fleet.ShardOf(ff.shard, ff.shards, nil)
	if err != nil {
		problems = append(problems, err.Error())
	}
	if ff.sitesAtOnce < 1 {
		problems = append(problems, fmt.Sprintf("--sites-at-once %d: want 1 or more", ff.sitesAtOnce))
	}
	for _, f := range ff.siteReports {
		if !slices.Contains([]string{"json", "html", "junit", "markdown", "har"}, f) {
			problems = append(problems, fmt.Sprintf("--site-reports %q: want json, html, junit, markdown or har", f))
		}
	}
	cfg := ff.tf.cfg
	cfg.BaseURL, cfg.Token = "https://site.invalid", "token" // each site has its own; the rest is checked here
	problems = append(problems, cfg.Validate()...)
	exe, err := os.Executable()
	if err != nil {
		problems = append(problems, "cannot find this program to run each site in: "+err.Error())
	}
	o := fleet.Options{Shard: shard, ReportDir: ff.reportDir, SitesAtOnce: ff.sitesAtOnce, SiteReports: ff.siteReports,
		RunArgs: runArgs(fs), ReadOnly: ff.tf.cfg.ReadOnly, Executable: exe, Environ: siteEnviron(),
		SuiteVersion: Version(), Rules: summary.Catalogue()}
	if cfg.Timeout > 0 {
		o.SiteDeadline = cfg.Timeout + cleanupShare
	}
	if ff.targets != "" {
		var p []string
		o.Targets, p = fleet.ReadTargets(ff.targets)
		problems = append(problems, p...)
	}
	if o.Targets != nil {
		for _, s := range o.Targets.Sites {
			problems = append(problems, siteArgsProblems(s)...)
		}
	}
	return o, problems
}

// runArgs are the run flags the fleet was given that differ from their
// defaults, as flags for every site's run.
func runArgs(fs *pflag.FlagSet) []string {
	var args []string
	siteFlagSet(&targetFlags{}).VisitAll(func(def *pflag.Flag) {
		f := fs.Lookup(def.Name)
		if f == nil || slices.Contains(setByFleet, f.Name) {
			return
		}
		if f.Value.Type() == "stringArray" {
			values, _ := fs.GetStringArray(f.Name)
			for _, v := range values {
				args = append(args, "--"+f.Name+"="+v)
			}
			return
		}
		if v := f.Value.String(); v != def.Value.String() {
			args = append(args, "--"+f.Name+"="+v)
		}
	})
	return args
}

// siteArgsProblems checks a site's args as its run will parse them.
func siteArgsProblems(s fleet.Site) []string {
	if len(s.Args) == 0 {
		return nil
	}
	fs := siteFlagSet(&targetFlags{})
	where := fmt.Sprintf("site %q: args", s.Name)
	if err := fs.Parse(s.Args); err != nil {
		return []string{fmt.Sprintf("%s: %v", where, err)}
	}
	var problems []string
	if fs.NArg() > 0 {
		problems = append(problems, fmt.Sprintf("%s: %q is not a flag", where, fs.Arg(0)))
	}
	fs.Visit(func(f *pflag.Flag) {
		if slices.Contains(setByFleet, f.Name) {
			problems = append(problems, fmt.Sprintf("%s: --%s is the fleet's to set (the targets file's base-url, token-env/-file, mode; --report-dir)", where, f.Name))
		}
	})
	return problems
}

// siteRuntime is the Go runtime's configuration of a site's process,
// where the fleet's environment sets none: one core each (the fleet's
// parallelism is the sites side by side, and a run waits on the network
// far more than it computes) and a collector that runs half as often
// (a few MB more per site for about a tenth less CPU).
var siteRuntime = []string{"GOMAXPROCS=1", "GOGC=200"}

// siteEnviron is the environment of a site's run: the fleet's, without
// any variable of a single run's flags (CONFORMANCE_BASE_URL,
// CONFORMANCE_RPS, ...): a site's run gets its configuration from its
// arguments and its target and tokens from the fleet alone.
func siteEnviron() []string {
	var names []string
	siteFlagSet(&targetFlags{}).VisitAll(func(f *pflag.Flag) { names = append(names, EnvName(f.Name)) })
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) {
			env = append(env, kv)
		}
	}
	for _, kv := range siteRuntime {
		name, _, _ := strings.Cut(kv, "=")
		if _, set := os.LookupEnv(name); !set {
			env = append(env, kv)
		}
	}
	return env
}

// runFleet runs the fleet and writes its summary.
func runFleet(cmd *cobra.Command, o fleet.Options, stdout, stderr io.Writer) error {
	n := len(o.Shard.Pick(o.Targets.Sites))
	where := ""
	if !o.Shard.Whole() {
		where = fmt.Sprintf(" (shard %s of the %d)", o.Shard, len(o.Targets.Sites))
	}
	fmt.Fprintf(stdout, "conformance %s: checking %d site(s) of %s%s, %d at once; reports in %s\n",
		Version(), n, o.Targets.File, where, o.SitesAtOnce, o.ReportDir)
	sum, err := fleet.Run(cmd.Context(), o)
	if err != nil {
		fmt.Fprintf(stderr, "conformance fleet: %v\n", err)
		return exitError{runner.ExitUsage}
	}
	defer sum.Close()
	return writeSummary(sum, o.ReportDir, stdout, stderr)
}

// writeSummary writes a fleet's summary files and console summary and
// returns its exit code.
func writeSummary(sum *summary.Summary, dir string, stdout, stderr io.Writer) error {
	paths, err := sum.WriteFiles(dir)
	if werr := sum.WriteConsole(stdout); werr != nil && err == nil {
		err = werr
	}
	if len(paths) > 0 {
		fmt.Fprintf(stdout, "Summary: %s\n", strings.Join(paths, ", "))
	}
	if err != nil {
		fmt.Fprintf(stderr, "conformance: %v\n", err)
		return exitError{summary.Worst(sum.Exit, runner.ExitUsage)}
	}
	return codeErr(sum.Exit)
}

func newMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var reportDir string
	cmd := &cobra.Command{
		Use:   "merge FLEET.json|DIR... [--report-dir DIR]",
		Short: "Join the JSON summaries of a fleet's shards into one summary",
		Long: `merge joins the fleet.json of each shard of a fleet run (conformance fleet --shard I/N)
into the summary one run over the whole targets file would have made: the same sites × rules,
counts, verdict and exit code. It writes DIR/fleet.json, fleet-junit.xml and fleet.html (links
to each site's report made relative to DIR) and prints the console summary. A folder given
stands for the fleet.json in it and in each folder right under it (where a CI downloaded
each shard's reports), for shells and containers that expand no wildcard.

The summaries must come from the same targets file and suite version. A shard not given
leaves its sites unchecked: the verdict says so and the exit code is 1 at least.

Exit code: the fleet's (see 'conformance fleet --help'); 2 when a summary cannot be read or
the summaries are not shards of one fleet.`,
		Example: `  conformance merge shard-0/fleet.json shard-1/fleet.json --report-dir reports
  conformance merge shards/ --report-dir reports`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if problems := applyEnv(cmd.Flags()); len(problems) > 0 {
				return usage(stderr, problems)
			}
			paths, err := summaryPaths(args)
			if err != nil {
				return usage(stderr, []string{err.Error()})
			}
			sum, err := summary.Merge(paths, reportDir, "")
			if err != nil {
				return usage(stderr, []string{err.Error()})
			}
			defer sum.Close()
			return writeSummary(sum, reportDir, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&reportDir, "report-dir", "conformance-reports", "folder of the merged summary (fleet.json, fleet-junit.xml, fleet.html)")
	return cmd
}

// summaryPaths expands merge's arguments: a file as it is, a folder to
// the fleet.json in it and in each folder right under it.
func summaryPaths(args []string) ([]string, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		found := 0
		for _, pattern := range []string{filepath.Join(a, summary.JSONFile), filepath.Join(a, "*", summary.JSONFile)} {
			m, _ := filepath.Glob(pattern)
			paths = append(paths, m...)
			found += len(m)
		}
		if found == 0 {
			return nil, fmt.Errorf("%s holds no %s, in it or in a folder right under it", a, summary.JSONFile)
		}
	}
	return paths, nil
}
