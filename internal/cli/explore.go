package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/conformance-suite/conformance/internal/explore"
)

func newExploreCmd(stdout, stderr io.Writer) *cobra.Command {
	var tf targetFlags
	var cfg explore.Config
	var rf runFlags
	var ref bool
	var mutants []string
	var profile, kinds string
	cmd := &cobra.Command{
		Use:   "explore --base-url URL --token T [--auth-token A] [--seed N] [--replay FILE]... [flags]",
		Short: "Send generated inputs and judge every answer by the spec's rules; shrink each failure to its smallest request",
		Long: `explore generates requests from the spec's own types (page list parameters in any
combination, create and edit bodies with valid and invalid values in JSON and form
encoding, settings updates, keys, token placement, bodies that are not JSON) and judges
every answer by the rules of the catalogue. Each failure is shrunk to the smallest request
that still fails, printed with its curl line, and saved to a replay file that
'conformance explore --replay FILE' sends again (a regression test for server authors).
--seed reproduces a whole exploration.

Every field is drawn in the boundary classes of its type (text empty, blank, tens of KB
long, with control characters, a NUL, marks, not UTF-8; tags with blank, repeated or
hundreds of names; integers negative, zero, huge, fractional, not numbers; booleans in
other spellings; keys with dot segments where the front lets them through), and every
write the target refuses (400, 401, 404) is read back: it must have changed nothing.

It keeps the promises of a normal run: one write at a time, only run-marked pages created
and each deleted, settings restored and verified after each change (--allow-settings-write),
the tripwire on, and never a write it cannot undo on this target (a page under a parent
only once the target shows it removes one; a customFields value naming a field never: the
cases not sent are listed). What it could not remove is said page by page, with the
'conformance cleanup' command. With --read-only (or no --auth-token) it sends only GETs
and write probes that cannot succeed.

The budget (--explore-requests, --explore-time) is spent: the search runs, guided to the
kinds of case that still show new behaviour, until nine tenths of it are spent (the last
tenth shrinks a late finding) or every kind of case has gone 150 cases in a row with
nothing new. The summary says why it stopped and which fields it sent in which classes.

--reference explores the built-in reference server (--mutant, --profile as for demo).

The normal run's report flags work the same (--har-report included), and so do --no-color,
--verbose, --timeout (which caps --explore-time) and --fail-fast (stop after the first
finding). --concurrency, --parallel-writes, --read-cache, --label-filter, --focus, --skip
and --rerun-failed do not apply: explore sends one request at a time, reads the target
afresh, and judges every answer by every rule it reaches (--explore-kinds narrows it).

Exit codes: 0 no finding; 1 findings (or a replayed case still fails); 2 usage error;
3 the target cannot be explored, or the site lost data and the tripwire stopped the writes.`,
		Example: `  conformance explore --reference --mutant explore-tag-ampersand-crash
  conformance explore --base-url https://staging.example.org --token-file api.token \
      --auth-token-file auth.token --allow-settings-write --seed 42
  conformance explore --base-url https://example.org --read-only --token-file api.token
  conformance explore --base-url https://staging.example.org ... --replay conformance-reports/explore/gen-no-crash-1-....json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			problems := setup(cmd, &tf)
			k, err := explore.ParseKinds(kinds)
			if err != nil {
				problems = append(problems, "--explore-kinds: "+err.Error())
			}
			cfg.Kinds = k
			problems = append(problems, notForExploreProblems(cmd.Flags())...)
			problems = append(problems, exploreReportProblems(cfg.Reports)...)
			if ref {
				srv, base, err := startReference(mutants, profile, &tf.cfg)
				if err != nil {
					return usage(stderr, []string{err.Error()})
				}
				defer srv.Close()
				tf.cfg.BaseURL = base
				if !cmd.Flags().Changed("allow-settings-write") {
					tf.cfg.SettingsWrites = !tf.cfg.ReadOnly
				}
			} else if len(mutants) > 0 || profile != "" {
				problems = append(problems, "--mutant and --profile need --reference")
			}
			if tf.cfg.BaseURL == "" {
				problems = append(problems, "--base-url (or CONFORMANCE_BASE_URL, or --reference) is required")
			}
			if tf.cfg.Token == "" {
				problems = append(problems, "--token (or CONFORMANCE_TOKEN, or --token-file) is required")
			}
			if tf.cfg.SettingsWrites && (tf.cfg.ReadOnly || tf.cfg.AuthToken == "") {
				problems = append(problems, "--allow-settings-write needs --auth-token and no --read-only")
			}
			if cfg.Requests < 0 || cfg.Time < 0 || rf.timeout < 0 {
				problems = append(problems, "--explore-requests, --explore-time and --timeout must not be negative")
			}
			for _, f := range cfg.Replay {
				if _, err := explore.LoadReplay(f); err != nil {
					problems = append(problems, "--replay: "+err.Error())
				}
			}
			if len(problems) > 0 {
				return usage(stderr, problems)
			}
			cfg.Client = tf.cfg.ClientConfig()
			cfg.Client.MaxInFlight = 1
			cfg.SettingsWrites = tf.cfg.SettingsWrites
			cfg.SuiteVersion = Version()
			rf.apply(&cfg)
			out := stdout
			if reportsToStdout(cfg.Reports) {
				cfg.Reports.Stdout, out = stdout, stderr
			}
			res := explore.Run(cmd.Context(), cfg, out)
			return codeErr(res.Exit)
		},
	}
	fs := cmd.Flags()
	tf.register(fs)
	fs.BoolVar(&tf.cfg.ReadOnly, "read-only", false, "send only GETs and write probes that cannot succeed (no valid authentication token)")
	fs.BoolVar(&tf.cfg.SettingsWrites, "allow-settings-write", false, "also send PUT /api/settings (restored and verified after each)")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed of the generated inputs: the same seed sends the same exploration (0: a random one, printed)")
	fs.StringArrayVar(&cfg.Replay, "replay", nil, "send the case of this replay file again and judge it, instead of exploring (repeatable)")
	fs.StringVar(&cfg.ReplayDir, "replay-dir", "conformance-reports/explore", "where each finding's replay file is written")
	fs.IntVar(&cfg.Requests, "explore-requests", explore.DefaultRequests, "budget: requests at most (shrinking included)")
	fs.DurationVar(&cfg.Time, "explore-time", explore.DefaultTime, "budget: time at most (shrinking included; cleanup comes after)")
	fs.StringVar(&kinds, "explore-kinds", "", "only these kinds of case, comma-separated: list, read, token, body, create, edit, refused, settings")
	fs.StringVar(&cfg.JSON, "json-report", "", "write a JSON report to this file (- for standard output)")
	fs.StringVar(&cfg.JUnit, "junit-report", "", "write a JUnit XML report to this file (- for standard output)")
	fs.StringVar(&cfg.HTML, "html-report", "", "write a self-contained HTML report to this file (- for standard output)")
	fs.StringVar(&cfg.Markdown, "markdown-report", "", "write a Markdown report to this file (- for standard output)")
	fs.StringVar(&cfg.HAR, "har-report", "", "write every request and answer as a HAR 1.2 file; a finding's requests say so in their comment (- for standard output)")
	rf.register(fs, &cfg.Verbose)
	registerNotForExplore(fs)
	fs.BoolVar(&ref, "reference", false, "explore the built-in reference server on a loopback port (no target flags needed)")
	fs.StringArrayVar(&mutants, "mutant", nil, "with --reference: switch on a reference-server mutant (repeatable)")
	fs.StringVar(&profile, "profile", "", "with --reference: "+profileHelp)
	return cmd
}
