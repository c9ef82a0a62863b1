package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/conformance-suite/conformance/internal/openapi"
)

func newOpenAPICmd(stdout, stderr io.Writer) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "openapi [-o FILE]",
		Short: "Write the API as an OpenAPI 3.1 document (JSON)",
		Long: `openapi writes the Content Management HTTP API as an OpenAPI 3.1 document: the 16
endpoints of the spec's section 4, their query and path parameters, request bodies (JSON
and form), the tokens as security schemes (query string) or body fields (POST and PUT),
and responses whose schemas are the JSON Schemas the suite itself validates responses
against ('conformance schemas export'). Where the spec shows nothing (upload fields and
responses, for example) the document says so instead of guessing.

Use it to generate a client, to mock the API, or to feed an API gateway.

Exit codes: 0 written; 2 the file cannot be written.`,
		Example: `  conformance openapi > openapi.json
  conformance openapi -o openapi.json`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			doc, err := openapi.JSON(Version())
			if err != nil {
				return err
			}
			return writeOutput(stdout, output, doc, stderr)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write to this file instead of standard output")
	return cmd
}
