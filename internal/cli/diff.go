package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/runner"
)

func newDiffCmd(stdout, stderr io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "diff BEFORE.json AFTER.json [--format text|json]",
		Short: "Compare two JSON reports: what regressed, got fixed, is newly or no longer checked",
		Long: `diff compares the JSON reports (--json-report) of two runs rule by rule, typically
before and after upgrading the target. It lists the rules that started failing
(regressions), the rules that got fixed, the rules checked now but not before, and the
rules checked before but not now, and it warns when the two runs differ in target, mode,
selection or suite version.

Exit codes: 0 nothing that passed before fails now; 1 at least one regression;
2 a report cannot be read.`,
		Example: `  conformance --json-report before.json        # before the upgrade
  conformance --json-report after.json         # after the upgrade
  conformance diff before.json after.json`,
		Args: cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return usage(stderr, []string{fmt.Sprintf("--format %q: want text or json", format)})
			}
			before, err := report.ReadJSONFile(args[0])
			if err != nil {
				return usage(stderr, []string{err.Error()})
			}
			after, err := report.ReadJSONFile(args[1])
			if err != nil {
				return usage(stderr, []string{err.Error()})
			}
			d := report.Compare(before, after)
			if format == "json" {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(d); err != nil {
					return err
				}
			} else {
				d.WriteText(stdout)
			}
			if d.Regressed() {
				return exitError{runner.ExitFail}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text or json")
	return cmd
}
