package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/conformance-suite/conformance/internal/compare"
)

func newCompareCmd(stdout, stderr io.Writer) *cobra.Command {
	var format, output string
	var onlyDiff bool
	cmd := &cobra.Command{
		Use:   "compare REPORT.json REPORT.json... [--format markdown|html] [-o FILE]",
		Short: "One matrix of rules × runs from several JSON reports, differences marked",
		Long: `compare lays the JSON reports (--json-report) of several runs side by side: one row per
rule, one column per report, the rule's verdict in each cell (passed, failed, not checked,
not testable, error, or not in that report), every rule whose verdicts differ marked ≠,
and each run's totals. Typical inputs: the same suite against several servers or
sites, or one site across several releases.

Columns are labelled with the file names (without .json). The matrix is Markdown (for
$GITHUB_STEP_SUMMARY or a pull request) or one self-contained HTML page.

compare judges nothing: 'conformance diff' says what regressed between two runs.

Exit codes: 0 the matrix was written; 2 a report cannot be read, or bad usage.`,
		Example: `  conformance compare reference.json staging.json production.json
  conformance compare --format html -o matrix.html server-a.json server-b.json
  conformance compare --only-differences before.json after.json >> "$GITHUB_STEP_SUMMARY"`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if format != "markdown" && format != "html" {
				return usage(stderr, []string{fmt.Sprintf("--format %q: want markdown or html", format)})
			}
			inputs, err := compare.Load(args)
			if err != nil {
				return usage(stderr, []string{err.Error()})
			}
			m := compare.Build(inputs)
			opts := compare.Options{OnlyDifferences: onlyDiff}
			var b bytes.Buffer
			if format == "html" {
				err = m.WriteHTML(&b, opts)
			} else {
				err = m.WriteMarkdown(&b, opts)
			}
			if err != nil {
				return err
			}
			return writeOutput(stdout, output, b.Bytes(), stderr)
		},
	}
	cmd.Flags().StringVar(&format, "format", "markdown", "markdown or html")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of standard output")
	cmd.Flags().BoolVar(&onlyDiff, "only-differences", false, "list only the rules whose verdicts differ between the runs")
	return cmd
}

// writeOutput writes data to the file path, or to stdout when path is
// empty or "-". A file that cannot be written is a usage error (exit 2).
func writeOutput(stdout io.Writer, path string, data []byte, stderr io.Writer) error {
	if path == "" || path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return usage(stderr, []string{err.Error()})
	}
	return nil
}
