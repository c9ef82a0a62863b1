package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/conformance-suite/conformance/internal/reference"
	"github.com/conformance-suite/conformance/internal/runner"
	"github.com/conformance-suite/conformance/internal/spec"
)

// ruleRow is one rule as the rules command shows it.
type ruleRow struct {
	spec.Rule
	Specs   []string
	Mutants []string
}

// ruleJSON is a rule in `rules --format json`: the keys of the JSON
// report's rules (camelCase, "id", "crossCutting"), so one parser reads both.
type ruleJSON struct {
	ID           string   `json:"id"`
	Section      string   `json:"section"`
	Level        string   `json:"level"`
	Area         string   `json:"area"`
	Text         string   `json:"text"`
	Endpoints    []string `json:"endpoints,omitempty"`
	Writes       bool     `json:"writes,omitempty"`
	NotTestable  string   `json:"notTestable,omitempty"`
	Reading      string   `json:"reading,omitempty"`
	CrossCutting bool     `json:"crossCutting,omitempty"`
	Specs        []string `json:"specs,omitempty"`
	Mutants      []string `json:"mutants,omitempty"`
}

func (r ruleRow) json() ruleJSON {
	var eps []string
	for _, e := range r.Endpoints {
		eps = append(eps, string(e))
	}
	return ruleJSON{ID: r.ID, Section: r.Section, Level: string(r.Level), Area: string(r.Area), Text: r.Text,
		Endpoints: eps, Writes: r.Writes, NotTestable: r.NotTestable, Reading: r.Reading, CrossCutting: r.CrossCutting,
		Specs: r.Specs, Mutants: r.Mutants}
}

func newRulesCmd(stdout, stderr io.Writer) *cobra.Command {
	var format string
	var uncovered bool
	cmd := &cobra.Command{
		Use:   "rules [--format table|json|markdown] [--uncovered]",
		Short: "List the catalogue of rules the suite checks",
		Long: `rules lists every rule of the catalogue: its stable ID, spec section, level, area and text,
how many specs check it and which reference-server mutants break it. Rules the spec leaves
"not shown" are listed as not testable, with the reason.

--uncovered lists only the testable rules that no spec checks or no mutant breaks: the work
left to make the suite prove itself.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			rows, bugs := ruleRows()
			if len(bugs) > 0 {
				for _, b := range bugs {
					fmt.Fprintln(stderr, "conformance: suite bug: "+b)
				}
				return exitError{runner.ExitFail}
			}
			if uncovered {
				var keep []ruleRow
				for _, r := range rows {
					if r.Testable() && (len(r.Specs) == 0 || len(r.Mutants) == 0) {
						keep = append(keep, r)
					}
				}
				rows = keep
			}
			switch format {
			case "json":
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				out := make([]ruleJSON, 0, len(rows))
				for _, r := range rows {
					out = append(out, r.json())
				}
				return enc.Encode(out)
			case "markdown":
				writeRulesMarkdown(stdout, rows)
			case "table":
				writeRulesTable(stdout, rows, uncovered)
			default:
				return usage(stderr, []string{fmt.Sprintf("--format %q: want table, json or markdown", format)})
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "table, json or markdown")
	cmd.Flags().BoolVar(&uncovered, "uncovered", false, "only testable rules with no spec or no mutant")
	return cmd
}

func ruleRows() ([]ruleRow, []string) {
	covered, bugs := runner.Coverage()
	mutants := map[string][]string{}
	for _, m := range reference.Mutants() {
		if m.Benign {
			continue
		}
		for _, id := range m.Rules {
			mutants[id] = append(mutants[id], string(m.Name))
		}
	}
	var rows []ruleRow
	for _, r := range spec.All().Rules() {
		specs := covered[r.ID]
		if r.ExploreOnly {
			// Its oracle is conformance explore's, not a Ginkgo spec's.
			specs = append(specs, "conformance explore: every answer to a generated request")
		}
		rows = append(rows, ruleRow{Rule: r, Specs: specs, Mutants: mutants[r.ID]})
	}
	return rows, bugs
}

func writeRulesTable(w io.Writer, rows []ruleRow, uncovered bool) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSECTION\tLEVEL\tAREA\tSPECS\tMUTANTS\tRULE")
	for _, r := range rows {
		specs, mutants := fmt.Sprint(len(r.Specs)), fmt.Sprint(len(r.Mutants))
		text := r.Text
		if !r.Testable() {
			specs, mutants = "-", "-"
			text += " [not testable: " + r.NotTestable + "]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Section, r.Level, r.Area, specs, mutants, text)
	}
	tw.Flush()
	if uncovered {
		fmt.Fprintf(w, "\n%d testable rule(s) without a spec or a mutant.\n", len(rows))
	} else {
		fmt.Fprintf(w, "\n%d rules.\n", len(rows))
	}
}

func writeRulesMarkdown(w io.Writer, rows []ruleRow) {
	fmt.Fprintln(w, "| ID | § | Level | Area | Rule | Checked by |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rows {
		checked := fmt.Sprintf("%d spec(s), %d mutant(s)", len(r.Specs), len(r.Mutants))
		text := r.Text
		if !r.Testable() {
			checked = "not testable: " + r.NotTestable
		}
		if r.Reading != "" {
			text += "<br>*Reading:* " + r.Reading
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s |\n", r.ID, r.Section, r.Level, r.Area,
			strings.ReplaceAll(text, "|", `\|`), strings.ReplaceAll(checked, "|", `\|`))
	}
}
