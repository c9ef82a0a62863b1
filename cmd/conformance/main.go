// Command conformance checks a Content Management HTTP API deployment
// against its specification. See README.md, or run `conformance --help`.
package main

import (
	"os"

	"github.com/conformance-suite/conformance/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
