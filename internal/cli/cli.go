// Package cli is the conformance command line: flags and environment to
// configuration, subcommands, exit codes. cmd/conformance only calls Main.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/conformance-suite/conformance/internal/runner"
)

// version is set at build time with -ldflags "-X .../internal/cli.version=v1.2.3";
// otherwise it comes from the module's build info.
var version = ""

// Version returns the suite's version.
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// exitError carries an exit code through cobra.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Main runs the CLI with args (without the program name) and returns the
// exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	var ee exitError
	switch {
	case err == nil:
		return runner.ExitPass
	case errors.As(err, &ee):
		return ee.code
	}
	fmt.Fprintf(stderr, "conformance: %v\nRun 'conformance --help' for usage.\n", err)
	return runner.ExitUsage
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	var tf targetFlags
	root := &cobra.Command{
		Use:   "conformance --base-url URL --token T [--auth-token A] [flags]",
		Short: "Check a Content Management HTTP API deployment against its specification",
		Long: `conformance checks any deployment of the Content Management HTTP API against its
specification and says, rule by rule, what conforms and what does not.

Every flag can also be set through the environment: --base-url is CONFORMANCE_BASE_URL,
--auth-token is CONFORMANCE_AUTH_TOKEN, and so on. A flag beats the environment.

Exit codes: 0 every selected rule passed; 1 a rule failed or the run did not complete;
2 usage or configuration error; 3 the target cannot be checked (unreachable, not the API,
token refused, or it stopped answering during the run); 4 no rule failed, but some could not
finish because requests got no answer from the API (the network or the server in front).`,
		Example: `  conformance demo
  CONFORMANCE_TOKEN=... conformance --base-url https://example.org --read-only
  conformance --base-url https://staging.example.org --token-file api.token \
      --auth-token-file auth.token --junit-report junit.xml --json-report report.json`,
		Version:       Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if problems := setup(cmd, &tf); len(problems) > 0 {
				return usage(stderr, problems)
			}
			tf.cfg.SuiteVersion = Version()
			return runChecks(cmd.Context(), tf.cfg, stdout, stderr)
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usage(stderr, []string{err.Error()}) })
	tf.register(root.Flags())
	tf.registerRun(root.Flags())
	root.AddCommand(newRulesCmd(stdout, stderr), newVersionCmd(stdout), newDemoCmd(stdout, stderr),
		newServeReferenceCmd(stdout, stderr), newCleanupCmd(stdout, stderr), newSchemasCmd(stdout, stderr), newDiffCmd(stdout, stderr))
	root.AddCommand(newOpenAPICmd(stdout, stderr), newCompareCmd(stdout, stderr), newExploreCmd(stdout, stderr),
		newCoverageCmd(stdout, stderr))
	root.AddCommand(newFleetCmd(stdout, stderr), newMergeCmd(stdout, stderr))
	return root
}

// setup applies the environment and token files to a command's flags.
func setup(cmd *cobra.Command, tf *targetFlags) []string {
	problems := applyEnv(cmd.Flags())
	return append(problems, tf.resolve(cmd.Flags())...)
}

// ansiEscape matches colour codes, which Ginkgo puts in its label-filter
// syntax errors whatever the output is.
var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

func usage(stderr io.Writer, problems []string) error {
	for _, p := range problems {
		fmt.Fprintln(stderr, "conformance: "+ansiEscape.ReplaceAllString(p, ""))
	}
	fmt.Fprintln(stderr, "Run 'conformance --help' for usage.")
	return exitError{runner.ExitUsage}
}

// runChecks runs the suite with cfg after checking it: configuration
// errors go to stderr with the usage hint, like flag errors, before any
// request (runner.Run checks again, for its other callers).
func runChecks(ctx context.Context, cfg runner.Config, stdout, stderr io.Writer) error {
	if problems := append(cfg.Validate(), reportProblems(&cfg)...); len(problems) > 0 {
		return usage(stderr, problems)
	}
	// https://no-color.org: any value but the empty string switches colour off.
	if os.Getenv("NO_COLOR") != "" {
		cfg.NoColor = true
	}
	console, restore := consoleFor(&cfg, stdout, stderr)
	res := runner.Run(ctx, cfg, console)
	restore()
	if len(res.Problems) > 0 {
		return usage(stderr, res.Problems)
	}
	return codeErr(res.Exit)
}

func codeErr(code int) error {
	if code == 0 {
		return nil
	}
	return exitError{code}
}

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the suite's version",
		Args:  cobra.NoArgs,
		Run: func(*cobra.Command, []string) {
			fmt.Fprintf(stdout, "conformance %s\n", Version())
		},
	}
}
