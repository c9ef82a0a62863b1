package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/conformance-suite/conformance/internal/client"
	"github.com/conformance-suite/conformance/internal/coverage"
	"github.com/conformance-suite/conformance/internal/report"
	"github.com/conformance-suite/conformance/internal/runner"
)

func newCoverageCmd(stdout, stderr io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "coverage [REPORT.json] [--format text|markdown|json]",
		Short: "Show the spec coverage map: what a run did with every field of the spec",
		Long: `coverage shows the spec coverage map of a run: for every request input of the spec (the
page list's query parameters, the page and settings body fields, where the tokens travel) and
every response field of sections 2.1 to 2.6, what the run did with it — sent with a new value
and read back, omitted and shown unchanged, checked for kind on every response that carries
it, compared across the views that show it — and which rules' assertions did it. Cells the
spec makes untestable say why; cells the run left empty say what became of their rules.

The map is measured: a cell is filled only by an assertion that ran on real data.

With REPORT.json (a --json-report of any run) it shows that run's map. Without, it runs the
whole suite against the built-in reference server, as demo does (progress on standard
error), and shows the map of that run: what the suite covers.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var m *coverage.Map
			if len(args) == 1 {
				run, err := report.ReadJSONFile(args[0])
				if err != nil {
					return usage(stderr, []string{err.Error()})
				}
				if run.Coverage == nil {
					return usage(stderr, []string{args[0] + " carries no coverage map (written by a suite before the map existed)"})
				}
				m = run.Coverage
			} else {
				var err error
				if m, err = coverageOfReference(cmd, stderr); err != nil {
					return err
				}
			}
			switch format {
			case "text":
				return m.WriteText(stdout)
			case "markdown":
				return m.WriteMarkdown(stdout)
			case "json":
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(m)
			}
			return usage(stderr, []string{fmt.Sprintf("--format %q: want text, markdown or json", format)})
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, markdown or json")
	return cmd
}

// coverageOfReference runs the suite against a fresh reference server, as
// demo does, and returns the run's map.
func coverageOfReference(cmd *cobra.Command, stderr io.Writer) (*coverage.Map, error) {
	// The defaults of a run's flags, as demo has them.
	var tf targetFlags
	tf.registerRun(pflag.NewFlagSet("coverage", pflag.ContinueOnError))
	cfg := tf.cfg
	cfg.RequestTimeout, cfg.MaxBody = client.DefaultRequestTimeout, client.DefaultMaxBody
	cfg.NoColor, cfg.SuiteVersion = true, Version()
	srv, base, err := startReference(nil, "", &cfg)
	if err != nil {
		return nil, usage(stderr, []string{err.Error()})
	}
	defer srv.Close()
	cfg.BaseURL, cfg.SettingsWrites = base, true
	res := runner.Run(cmd.Context(), cfg, stderr)
	if res.Report == nil || res.Report.Coverage == nil {
		return nil, exitError{runner.ExitFail}
	}
	return res.Report.Coverage, nil
}
